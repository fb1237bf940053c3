"""Results files (harness/results/RESULTS_SCHEMA.md) as pandas DataFrames."""
from __future__ import annotations

import io
import os
from typing import Iterable, Optional, Union

import pandas

from elsbench import _core


def frame(csv: str) -> pandas.DataFrame:
    return pandas.read_csv(io.StringIO(csv))


def load(path: Union[str, os.PathLike]) -> pandas.DataFrame:
    """Any results file (a sweep's, a book's, validate --out's), read and checked by elsbench's one
    reader: one row per case, the columns of the CSV written beside it."""
    return frame(_core.results_csv(os.fspath(path)))


def _formats(out_format: Optional[Union[str, Iterable[str]]]) -> str:
    """out_format as --out-format spells it ("json,csv"; "" when not given: the default)."""
    if out_format is None:
        return ""
    return out_format if isinstance(out_format, str) else ",".join(out_format)
