"""A validation (elsbench validate): every case of a validation preset priced and judged against its
reference, into a DataFrame."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Iterable, Optional, Union

import pandas

from elsbench import _core
from elsbench._progress import progress_bar
from elsbench.pricing import reference_spec
from elsbench.results import _formats, load


def validate(preset: str = "quick", out: Optional[Union[str, os.PathLike]] = None, resume: bool = False,
             reference: str = "stored", tol: Optional[Union[str, float]] = None, error_estimate: bool = False,
             target_error: Optional[str] = None, threads: int = 0, progress: Optional[bool] = None,
             out_format: Optional[Union[str, Iterable[str]]] = None) -> pandas.DataFrame:
    """Run a validation as `elsbench validate --preset PRESET` does and return its cases, one row
    each (status pass, fail, no-reference, unconverged or skipped). preset: quick, full or a case
    file; reference: "stored" or "auto" (Monte Carlo where none is stored), tol its allowance
    ("1bp"); resume=True keeps the cases already in `out` (validated under the same settings).
    df.attrs["summary"] holds the counts, `all_passed` (validate's exit 0) and the CLI's table.
    """
    if resume and not out:
        raise _core.BadInput("elsbench.validate: field 'resume': it keeps the cases of `out`: name one")
    command = f"elsbench.validate(preset={preset!r})"
    with tempfile.TemporaryDirectory(prefix="elsbench-validate-") as scratch:
        path = os.fspath(out) if out else os.path.join(scratch, "validation.json")
        with progress_bar(progress, f"validate {preset}", "cases") as bar:
            summary = json.loads(_core.validate(preset, reference_spec("validate", reference, tol=tol), error_estimate,
                                                target_error or "", threads, path, resume, command, bar,
                                                _formats(out_format)))
        df = load(path)
    df.attrs["summary"] = summary
    return df
