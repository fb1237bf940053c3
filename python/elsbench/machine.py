"""What this machine and build offer: devices and solvers (elsbench list devices|solvers)."""
from __future__ import annotations

import json
from typing import Any

from elsbench import _core


def devices() -> list[dict[str, Any]]:
    """The CPU and each CUDA device this build can use (none in a CPU-only build or without a GPU)."""
    return json.loads(_core.devices())


def solvers() -> list[dict[str, Any]]:
    """Each solver: name, schemes (the default first), devices, precisions, max_dim, and why it is
    unavailable here ('' when it runs)."""
    return json.loads(_core.solvers())
