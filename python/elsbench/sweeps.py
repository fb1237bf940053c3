"""A sweep (elsbench sweep): every case of a preset, its axes replaced where named, into a DataFrame."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Iterable, Optional, Union

import pandas

from elsbench import _core
from elsbench._progress import progress_bar
from elsbench.results import _formats, load


def _texts(value: Any) -> list:
    values = value if isinstance(value, (list, tuple)) else [value]
    return [str(v) for v in values]


def sweep(preset: str = "quick", out: Optional[Union[str, os.PathLike]] = None, repetitions: Optional[int] = None,
          error_estimate: bool = False, reference: Optional[str] = None, progress: Optional[bool] = None,
          timing_target: Optional[float] = None, timing_max_seconds: Optional[float] = None,
          out_format: Optional[Union[str, Iterable[str]]] = None, **axes: Any) -> pandas.DataFrame:
    """Run a sweep as `elsbench sweep --preset PRESET --AXIS V,...` does and return its results, one
    row per case. axes: the sweep's axes by key (elsbench._core.sweep_axes(): products, solvers, n,
    devices, precisions, ...), each a value or a list, as the CLI's flags spell them
    (solvers=["adi:hundsdorfer-verwer", "explicit"], n=[50, 100], devices="cpu:t1").
    Without `out` the results file lives in a temporary folder for the call only. timing_target and
    timing_max_seconds are `--timing-target` and `--timing-max-seconds` (0: exactly `repetitions`);
    out_format is `--out-format` ("json,csv" or a list; json among them).
    """
    texts = {key: _texts(v) for key, v in axes.items()}
    command = "elsbench.sweep(" + ", ".join([f"preset={preset!r}"] + [f"{k}={v!r}" for k, v in axes.items()]) + ")"
    with tempfile.TemporaryDirectory(prefix="elsbench-sweep-") as scratch:
        path = os.fspath(out) if out else os.path.join(scratch, "sweep.json")
        with progress_bar(progress, f"sweep {preset}", "cases") as bar:
            summary = json.loads(_core.sweep(preset, texts, repetitions or 0, timing_target, timing_max_seconds,
                                             error_estimate, reference, path, command, bar, _formats(out_format)))
        df = load(path)
    df.attrs["summary"] = summary
    return df
