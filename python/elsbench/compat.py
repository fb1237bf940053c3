"""The migration path from the Python prototype: price_els_gpu(product, N1, N2, Nt) with the
prototype's product (its ELSProduct, or a dict of the same fields), priced by elsbench's ADI, so
with the correlation term the prototype dropped and a price checked against its references.

The prototype's fields map onto elsbench's product (docs/products.md): principal -> notional;
observation_dates, redemption_barriers and coupons (in price units, per principal) -> the autocall
schedule; the last coupon is also the dummy coupon paid at maturity without a knock-in; S1_0, S2_0
are both spot and reference levels; sigma1/2, q1/2, rho, r; worst_of -> worst-of or best-of;
ki_barrier with daily monitoring over the whole life (252 days a year), as the catalog's
sample-2a-stepdown, which is the prototype's create_sample_els().
"""
from __future__ import annotations

import time
import warnings
from collections.abc import Mapping
from typing import Any

from elsbench import _core
from elsbench.machine import devices
from elsbench.note import Note
from elsbench.pricing import price


def _field(product: Any, name: str, default: Any = None) -> Any:
    if isinstance(product, Mapping):
        return product.get(name, default)
    return getattr(product, name, default)


def note_of(product: Any) -> Note:
    """elsbench's Note for the prototype's product; raises BadInput where it has no counterpart."""
    def refuse(field: str, why: str):
        raise _core.BadInput(f"prototype product: field '{field}': {why}")

    principal = float(_field(product, "principal", 100.0))
    if not principal > 0:  # the coupons are per principal: 0 divided by zero
        refuse("principal", f"must be > 0, got {principal}")
    dates = list(_field(product, "observation_dates"))
    barriers = list(_field(product, "redemption_barriers"))
    coupons = list(_field(product, "coupons"))
    if not (len(dates) == len(barriers) == len(coupons)) or not dates:
        refuse("observation_dates", "observation_dates, redemption_barriers and coupons must be as long, and not empty")
    maturity = float(_field(product, "maturity", dates[-1]))
    if maturity != dates[-1]:
        refuse("maturity", f"{maturity} is not the last observation date {dates[-1]}")
    if float(_field(product, "ki_observation_start", 0.0) or 0.0) != 0.0 or \
            float(_field(product, "ki_observation_end", maturity) or maturity) != maturity:
        refuse("ki_observation_start", "a knock-in window shorter than the note's life is not an elsbench product")
    rho = float(_field(product, "rho"))
    return Note({
        "id": str(_field(product, "id", "prototype-els")),
        "type": "stepdown-els",
        "notional": principal,
        "underlyings": [
            {"name": "S1", "spot": float(_field(product, "S1_0")), "reference": float(_field(product, "S1_0")),
             "vol": float(_field(product, "sigma1")), "div_yield": float(_field(product, "q1"))},
            {"name": "S2", "spot": float(_field(product, "S2_0")), "reference": float(_field(product, "S2_0")),
             "vol": float(_field(product, "sigma2")), "div_yield": float(_field(product, "q2"))},
        ],
        "correlation": [[1.0, rho], [rho, 1.0]],
        "rate": float(_field(product, "r")),
        "performance": "worst-of" if _field(product, "worst_of", True) else "best-of",
        "autocall": [{"time": float(t), "barrier": float(b), "coupon": float(c) / principal}
                     for t, b, c in zip(dates, barriers, coupons)],
        "knock_in": {"barrier": float(_field(product, "ki_barrier")), "monitoring": "daily", "days_per_year": 252},
        "dummy_coupon": float(coupons[-1]) / principal,
        "knocked_in": False,
    })


def price_els_gpu(product: Any, N1: int = 100, N2: int = 100, Nt: int = 200, space_factor: float = 3.0,
                  use_gpu: bool = True, verbose: bool = True) -> dict:
    """The prototype's call, answered by elsbench: adi-cuda on the first GPU where use_gpu and one
    is present, else the CPU adi (Hundsdorfer-Verwer), on N1 x N2 nodes and Nt time steps.
    space_factor is accepted for the call's sake and not used: the domain is elsbench's own (S_max
    4x the reference level), the one its prices are validated on. Returns the prototype's keys
    (price, computation_time, use_gpu) and elsbench's result under 'result'."""
    on_gpu = use_gpu and any(d["device"].startswith("cuda") for d in devices())
    start = time.perf_counter()
    r = price(note_of(product), solver="adi-cuda" if on_gpu else "adi", n=[N1, N2], nt=Nt,
              device="cuda:0" if on_gpu else "cpu", progress=verbose)
    seconds = time.perf_counter() - start
    if r.time_steps != Nt:
        # The note's dates end steps (each daily knock-in date, each autocall date) and the knock-in's
        # damping sub-steps follow them: Nt is the steps between dates asked for, not the count.
        warnings.warn(f"price_els_gpu: Nt={Nt} asked, {r.time_steps} steps marched: every knock-in monitoring "
                      "date and autocall date ends a step, and implicit sub-steps follow each knock-in date "
                      "(elsbench.price(..., ki_damping=0) drops those)", stacklevel=2)
    if verbose:
        print(f"elsbench: price {r.price:.6f} ({r.solver} {r.scheme}, {N1}x{N2} nodes, {r.time_steps} steps, "
              f"{r.device}) in {seconds:.3f} s")
    return {"price": r.price, "computation_time": seconds, "use_gpu": on_gpu, "result": r}
