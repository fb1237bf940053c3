"""Pricing one note, and its Monte Carlo reference, as `elsbench price` and `elsbench reference` do."""
from __future__ import annotations

import json
import math
import os
import warnings
from typing import Any, Optional, Sequence, Union

from elsbench import _core
from elsbench._progress import progress_bar
from elsbench.note import NoteLike, as_note

Nodes = Union[int, Sequence[int]]


def grid_json(n: Optional[Nodes], nt: Optional[Union[int, str]], grid: dict[str, Any]) -> str:
    """The grid codec's keys (solvers/problem/grid_codec.hpp): n, nt, mesh, s_max, density, damping,
    ki_damping, ki_damping_fraction. An unknown key is refused by the codec, naming it."""
    keys = dict(grid)
    if n is not None:
        keys["n"] = list(n) if isinstance(n, (list, tuple)) else n
    if nt is not None:
        keys["nt"] = nt
    for key, value in keys.items():  # JSON has no NaN or infinity: named here, not by the parser
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, float) and not math.isfinite(v):
                raise _core.BadInput(f"elsbench.price: field '{key}': must be a finite number, got {v}")
    return json.dumps(keys)


class PriceResult:
    """One pricing: the fields of `elsbench price --json` (to_dict() gives them all), and with
    values=True the grid's values and nodes as NumPy arrays (views of the solver's own result)."""

    __slots__ = ("_fields", "values", "nodes")

    def __init__(self, fields: dict[str, Any], arrays: Optional[dict[str, Any]] = None):
        self._fields = fields
        # values[i0, i1, (i2,) layer]: layer 0 the note not knocked in, 1 the note knocked in.
        self.values = arrays["values"] if arrays else None
        self.nodes = arrays["nodes"] if arrays else None  # one array of spot levels per underlying

    price = property(lambda self: self._fields["price"], doc="the price at the spot")
    delta = property(lambda self: self._fields["delta"], doc="per underlying, at the spot")
    gamma = property(lambda self: self._fields["gamma"], doc="per underlying, at the spot")
    cross_gamma = property(lambda self: self._fields.get("cross_gamma", []),
                           doc="d2V/dS_i dS_j at the spot for the pairs (1,2), (1,3), (2,3) the note has")
    greeks = property(lambda self: self._fields.get("greeks"), doc="vega, rho, theta (greeks=True), or None")
    error_estimate = property(lambda self: self._fields.get("error_estimate"),
                              doc="the estimated discretisation error and its parts (error_estimate=True), or None")
    product = property(lambda self: self._fields["product"])
    solver = property(lambda self: self._fields["solver"])
    scheme = property(lambda self: self._fields["scheme"])
    mesh = property(lambda self: self._fields["mesh"], doc='e.g. "sinh 200x200, S_max 400/400"')
    shape = property(lambda self: self._fields["shape"], doc="nodes per axis")
    time_steps = property(lambda self: self._fields["time_steps"])
    device = property(lambda self: self._fields["device"], doc="where it ran: cpu or cuda:N")
    precision = property(lambda self: self._fields["precision"])
    threads = property(lambda self: self._fields["threads"])
    seconds = property(lambda self: self._fields["seconds"], doc="wall time of the pricing (set-up and march)")
    peak_host_bytes = property(lambda self: self._fields["peak_host_bytes"])
    peak_device_bytes = property(lambda self: self._fields["peak_device_bytes"])
    notes = property(lambda self: self._fields["notes"])
    reference = property(lambda self: self._fields.get("reference"), doc="the reference (reference=...), or None")
    verdict = property(lambda self: self._fields.get("verdict"), doc="pass or fail against the reference, or None")

    @property
    def error(self) -> Optional[float]:
        """The estimated discretisation error (price - extrapolated), where it was estimated."""
        return self.error_estimate["error"] if self.error_estimate else None

    @property
    def accuracy(self) -> Optional[dict[str, Any]]:
        """Richardson's value behind the price (the default grid, target_error): its grids, error bar, cost."""
        return self._fields.get("accuracy")

    @property
    def error_bar(self) -> Optional[float]:
        """What the price claims, |error| <= error_bar, where it was estimated (target_error,
        error_estimate)."""
        if self.accuracy and self.accuracy.get("bound") is not None:
            return self.accuracy["bound"]
        return self.error_estimate["bound"] if self.error_estimate else None

    @property
    def grid(self) -> dict[str, Any]:
        return {"shape": self.shape, "time_steps": self.time_steps, "mesh": self.mesh}

    def to_dict(self) -> dict[str, Any]:
        return dict(self._fields)

    def __repr__(self) -> str:
        return (f"PriceResult({self.product}: {self.price:.6f}, {self.solver} {self.scheme}, "
                f"{'x'.join(map(str, self.shape))} x {self.time_steps} steps, {self.device}, {self.precision}, "
                f"{self.seconds:.3g} s)")


def reference_spec(function: str, reference: Optional[str], reference_store: Optional[str] = None,
                   reference_target: Optional[float] = None, reference_budget: Optional[float] = None,
                   reference_device: Optional[str] = None, tol: Optional[Union[str, float]] = None) -> Optional[str]:
    """The reference keywords for _core, as the CLI's --reference* and --tol flags: the mode alone, or
    a JSON object with the others; BadInput naming a keyword given without a reference."""
    extra = {"reference_store": reference_store, "reference_target": reference_target,
             "reference_budget": reference_budget, "reference_device": reference_device,
             "tol": None if tol is None else str(tol)}
    given = {k: v for k, v in extra.items() if v is not None}
    if reference is None:
        if given:
            raise _core.BadInput(f"elsbench.{function}: field '{next(iter(given))}': it judges a price against its "
                                 "reference: add reference='stored' or 'auto'")
        return None
    if not given:
        return reference
    return json.dumps({"mode": reference, **{k: (os.fspath(v) if k == "reference_store" else v)
                                             for k, v in given.items()}})


def price(note: NoteLike, solver: str = "adi", n: Optional[Nodes] = None, nt: Optional[Union[int, str]] = None,
          device: str = "auto", precision: str = "fp64", threads: Optional[int] = None, greeks: bool = False,
          error_estimate: bool = False, reference: Optional[str] = None, scheme: Optional[str] = None,
          values: bool = False, max_seconds: Optional[float] = None, progress: Optional[bool] = None,
          target_error: Optional[Union[str, float]] = None, greek_units: str = "model",
          reference_store: Optional[str] = None, reference_target: Optional[float] = None,
          reference_budget: Optional[float] = None, reference_device: Optional[str] = None,
          tol: Optional[Union[str, float]] = None, **grid: Any) -> PriceResult:
    """Price one note as `elsbench price --product NOTE --solver SOLVER --n N ...` does, to the bit.

    n: nodes per axis (an int, or one per underlying); nt: time steps (None: the solver's choice).
    With neither n nor nt, Richardson's value from the default grid and half of it, as the CLI's
    default (result.accuracy); target_error ("0.5bp" of the notional, or a price amount) chooses
    the grid that meets it and gives the error bar (result.error_bar; BadInput with n or nt).
    grid: the other grid keys (mesh="uniform"|"sinh", s_max, density, damping, ki_damping,
    ki_damping_fraction). reference: "stored" or "auto" judges the price against its reference
    (result.verdict). values=True also returns the whole grid (result.values, result.nodes).
    greek_units: "model" (vega per unit vol, rho per unit rate, theta per year) or "desk" (per vol
    point, per basis point, per calendar day), with greeks=True.
    reference_store, reference_target (% of notional), reference_budget (seconds), reference_device:
    where a reference computed on demand goes and how it is computed (--reference-store ...);
    tol ("1bp" of the notional, or an amount) judges at that allowance (--tol).
    """
    product = as_note(note)._product
    spec = reference_spec("price", reference, reference_store, reference_target, reference_budget, reference_device,
                          tol)
    with progress_bar(progress, f"pricing {product.id}", "steps") as bar:
        text, arrays = _core.price(product, solver, grid_json(n, nt, grid), scheme or "", device, precision,
                                   threads or 0, max_seconds or 0.0, greeks, error_estimate, spec, values, bar,
                                   n is not None or nt is not None, "" if target_error is None else str(target_error),
                                   greek_units)
    result = PriceResult(json.loads(text), arrays)
    if reference is not None and result.reference is None:
        # The CLI says this on stderr; returning reference None and verdict None alone was silent.
        warnings.warn(f"elsbench.price: no {reference} reference for {product.id} (try reference='auto')", stacklevel=2)
    return result


class Reference:
    """A Monte Carlo reference price (`elsbench reference`): price, std_error, paths, seed,
    generator, device, threads, seconds; to_dict() gives them all."""

    __slots__ = ("_fields",)

    def __init__(self, fields: dict[str, Any]):
        self._fields = fields

    price = property(lambda self: self._fields["price"])
    std_error = property(lambda self: self._fields["std_error"])
    paths = property(lambda self: self._fields["paths"])
    seed = property(lambda self: self._fields["seed"])
    generator = property(lambda self: self._fields["generator"])
    device = property(lambda self: self._fields["device"])
    threads = property(lambda self: self._fields["threads"])
    seconds = property(lambda self: self._fields["seconds"])

    def to_dict(self) -> dict[str, Any]:
        return dict(self._fields)

    def __repr__(self) -> str:
        return f"Reference({self._fields['product']}: {self.price:.6f} +- {self.std_error:.2g}, {self.paths} paths)"


def reference(note: NoteLike, paths: int = 1_000_000, seed: int = 1, device: str = "cpu",
              threads: Optional[int] = None, antithetic: bool = True) -> Reference:
    """A Monte Carlo price of the note, as `elsbench reference --product NOTE --paths P --seed S` gives it."""
    return Reference(json.loads(_core.reference(as_note(note)._product, paths, seed, device, threads or 0, antithetic)))
