"""A results file (harness/results/RESULTS_SCHEMA.md) as elsbench's one reader reads it: `elsbench read`
checks the schema and every case's fields and prints the file, or refuses it (exit 2) naming the file
and the field, before the report uses anything of it. Other JSON the report reads (cloud price
tables, v1 book files before their conversion) comes through read_json, bounded as elsbench bounds
its inputs. The binary is $ELSBENCH_BIN (elsbench report sets it)."""
from __future__ import annotations

import functools
import json
import os
import stat
import subprocess
import tempfile

ELSBENCH_BIN = "ELSBENCH_BIN"
MAX_RESULTS_FILE_BYTES = 256 << 20  # as elsbench's kMaxResultsFileBytes (results_file.hpp)


class ResultsError(ValueError):
    """A file the report cannot use: names the file and the field (or is elsbench's refusal, which does)."""

    def __init__(self, path: str, field: str | None = None, what: str | None = None):
        super().__init__(path if field is None else f"{path}: field '{field}': {what}")


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


def elsbench_binary(why: str) -> str:
    binary = os.environ.get(ELSBENCH_BIN)
    if not binary or not os.access(binary, os.X_OK):
        raise ResultsError(f"${ELSBENCH_BIN}", why, "the report reads results through elsbench: set ELSBENCH_BIN to "
                           f"the elsbench binary (elsbench report sets it; got {binary!r})")
    return binary


def read_results(path: str, name: str | None = None) -> dict:
    """The results file at `path` as `elsbench read` checks and prints it; a refusal is a
    ResultsError naming the file (`name`, where given) and the field. A render loads a run more than
    once (the folder, the history, the tables): the reader's output is kept per file, as long as the
    file's size and time of change stay the same."""
    binary = elsbench_binary("<file>")
    try:
        st = os.stat(path)
    except OSError:
        return json.loads(_elsbench_read(binary, path, name))
    return json.loads(_kept_read(binary, path, name, st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=None)
def _kept_read(binary: str, path: str, name: str | None, mtime_ns: int, size: int) -> str:
    return _elsbench_read(binary, path, name)


def _elsbench_read(binary: str, path: str, name: str | None) -> str:
    run = subprocess.run([binary, "read", path] + (["--as", name] if name else []), capture_output=True, text=True,
                         check=False)
    if run.returncode != 0:
        said = run.stderr.strip().splitlines()
        message = said[-1] if said else f"elsbench read exited {run.returncode}"
        raise ResultsError(message.removeprefix("elsbench: bad input: ").removeprefix("elsbench: "))
    return run.stdout


def checked(data: dict, name: str) -> dict:
    """A results document made here (a converted v1 book) as elsbench read checks it, named `name`."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as f:
        json.dump(data, f)
        f.flush()
        return json.loads(_elsbench_read(elsbench_binary("<file>"), f.name, name))
