"""How numbers read in tables: enough digits to see a price error, never a fake precision."""
from __future__ import annotations


def readable(text: str) -> str:
    """A file or folder name's bytes that are not UTF-8 (held by Python as surrogate escapes) as
    U+FFFD, as the C++ writers print them: the report's files are UTF-8."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def number(x, digits: int = 6) -> str:
    return "-" if x is None else f"{x:.{digits}g}"


def signed(x, digits: int = 3) -> str:
    return "-" if x is None else f"{x:+.{digits}g}"


def seconds(s) -> str:
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.3g} µs"
    if s < 1:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"


def dollars(x) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "0 (free tier)"
    return f"${x:.3g}" if x < 1 else f"${x:,.2f}"


def gibibytes(n) -> str:
    return "-" if n is None else f"{n / 2**30:.3g} GiB"


def bytes_(n) -> str:
    if n is None:
        return "-"
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} B"


def count(n) -> str:
    return "-" if n is None else f"{n:,}"
