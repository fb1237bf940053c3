"""The schema of a results file (harness/results/RESULTS_SCHEMA.md), checked before the report uses
any field: a damaged, truncated, empty or foreign file is refused with the file and the field named,
before anything is written (the C++ readers apply the same rules: results_file.cpp check_results_entry)."""
from __future__ import annotations

import json
import math
import os
import stat

RESULTS_SCHEMA = 1
MAX_RESULTS_FILE_BYTES = 256 << 20  # as the C++ readers' kMaxResultsFileBytes (results_file.hpp)
STATUSES = ("pass", "fail", "no-reference", "unconverged", "skipped")
TIME_UNITS = ("ns", "us", "ms", "s")
STRINGS = ("name", "run_type", "aggregate_name", "product", "solver", "scheme", "device", "precision",
           "skip_reason", "reference_source", "mesh", "noise", "timing_stop")
# Numbers the report plots or divides by: finite, or absent/null where the case has none.
NUMBERS = ("reference", "reference_stderr", "error", "tol", "allowance", "peak_host_bytes", "peak_device_bytes",
           "model_bytes_per_point", "seconds_per_step", "points_per_second", "cpu_time", "threads", "n", "nt",
           "grid_points", "time_steps", "layers", "median_interval", "repetitions_run")


class ResultsError(ValueError):
    """A file the report cannot use: names the file and the field."""

    def __init__(self, path: str, field: str, what: str):
        super().__init__(f"{path}: field '{field}': {what}")


def _byte_count(n: int) -> str:
    return f"{n >> 20} MiB" if n and n % (1 << 20) == 0 else f"{n} bytes"


def read_bounded(path: str, limit: int = MAX_RESULTS_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (as the C++ reader, platform/input_file):
    a fifo or a device could block or never end, so only a regular file is read, and the limit
    holds while reading, for a file that grows as for one whose size says so at once."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise ResultsError(path, "<file>", f"cannot open: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ResultsError(path, "<file>", "not a regular file (a fifo, a device or a folder is never read)")
        too_large = f"more than the {_byte_count(limit)} a results file may hold"
        if st.st_size > limit:
            raise ResultsError(path, "<file>", f"{st.st_size} bytes, {too_large}")
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 16):
            total += len(chunk)
            if total > limit:
                raise ResultsError(path, "<file>", too_large)
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_json(path: str):
    """The JSON document of a file, or a ResultsError naming the file (not a regular file, too large,
    truncated, not JSON, not UTF-8)."""
    try:
        return json.loads(read_bounded(path).decode("utf-8"), parse_constant=lambda c: float(c))
    except UnicodeDecodeError as e:
        raise ResultsError(path, "<file>", f"not valid UTF-8 at byte offset {e.start}") from None
    except json.JSONDecodeError as e:
        raise ResultsError(path, "<file>", f"not valid JSON ({e})") from None


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_entry(entry, path: str, where: str) -> None:
    if not isinstance(entry, dict):
        raise ResultsError(path, where, f"expected an object, got {type(entry).__name__}")
    if not isinstance(entry.get("case_id"), str):
        raise ResultsError(path, f"{where}.case_id",
                           f"missing or not a string in entry '{entry.get('name', '?')}': not an elsbench results file")
    status = entry.get("status")
    if status not in STATUSES:
        raise ResultsError(path, f"{where}.status", f"expected one of {', '.join(STATUSES)}, got {status!r}")
    for key in STRINGS:
        if entry.get(key) is not None and not isinstance(entry[key], str):
            raise ResultsError(path, f"{where}.{key}", "not a string")
    if entry.get("time_unit", "ns") not in TIME_UNITS:
        raise ResultsError(path, f"{where}.time_unit", f"expected one of {', '.join(TIME_UNITS)}")
    if not _finite(entry.get("real_time")):
        raise ResultsError(path, f"{where}.real_time", "missing or not a finite number")
    for key in NUMBERS:
        if entry.get(key) is not None and not _finite(entry[key]):
            raise ResultsError(path, f"{where}.{key}", "not a finite number")
    shape = entry.get("shape")
    if shape is not None and not (isinstance(shape, list) and all(isinstance(n, int) for n in shape)):
        raise ResultsError(path, f"{where}.shape", "expected an array of whole numbers")
    # An unconverged case whose price lay outside its no-arbitrage bounds has none.
    refused = status == "unconverged" and entry.get("price") is None
    if status != "skipped" and not refused and not _finite(entry.get("price")):
        raise ResultsError(path, f"{where}.price", "a case that ran needs a finite number")


def check_results(data, path: str) -> None:
    """Raises ResultsError when `data` (a parsed file) is not an elsbench results file of this schema."""
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ResultsError(path, "benchmarks", "no 'benchmarks' array: not a results file")
    context = data.get("context")
    if not isinstance(context, dict):
        raise ResultsError(path, "context", "missing or not an object: not a results file")
    meta = context.get("elsbench")
    if meta is not None and not isinstance(meta, dict):
        raise ResultsError(path, "context.elsbench", "not an object")
    if meta is not None and meta.get("schema") != RESULTS_SCHEMA:
        raise ResultsError(path, "context.elsbench.schema", f"not an elsbench results file of schema {RESULTS_SCHEMA}")
    machine = (meta or {}).get("machine")
    if machine is not None and not isinstance(machine, dict):
        raise ResultsError(path, "context.elsbench.machine", "not an object")
    if not data["benchmarks"]:
        raise ResultsError(path, "benchmarks", "empty: the file holds no case")
    for i, entry in enumerate(data["benchmarks"]):
        check_entry(entry, path, f"benchmarks[{i}]")
