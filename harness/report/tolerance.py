"""`report --tol 1bp`: every case with a reference judged again at one discretisation allowance, in
basis points of its notional (or an amount), instead of the allowance its run used (the grid rule
that let 57 bp pass at n = 32, or the price's own bar): |price - reference| <= 3 x stderr + tol.
"""
from __future__ import annotations

import re

from . import catalog

K = 3.0  # reference standard errors allowed, as validate's rule


def parse(text: str) -> tuple[float, bool]:
    """(value, in basis points) of '1bp' or '0.01'; ValueError naming --tol otherwise."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(bp)?\s*", text or "")
    if not m or float(m.group(1)) <= 0:
        raise ValueError(f"--tol: '{text}': expected a positive amount (0.01) or basis points of the notional (1bp)")
    return float(m.group(1)), m.group(2) is not None


def notional_of(case) -> float | None:
    """A book note carries its notional; a catalog product has one in the catalog."""
    value = case.fields.get("notional")
    return float(value) if isinstance(value, (int, float)) and value > 0 else catalog.notional(case.product)


def rejudge(cases, text: str) -> list[str]:
    """Sets status, tol, allowance and tol_source of each case with a reference and an error; returns
    the products whose verdict stood as run (a tolerance in bp and no known notional)."""
    value, in_bp = parse(text)
    kept = []
    for case in cases:
        f = case.fields
        if f.get("reference") is None or f.get("error") is None or f.get("status") not in ("pass", "fail"):
            continue
        notional = notional_of(case) if in_bp else 1.0
        if notional is None:
            kept.append(case.product)
            continue
        tol = value * notional * 1e-4 if in_bp else value
        allowance = K * (f.get("reference_stderr") or 0.0) + tol
        f.update({"tol": tol, "allowance": allowance, "tol_source": f"--tol {text}",
                  "status": "pass" if abs(f["error"]) <= allowance else "fail"})
    return sorted(set(kept))
