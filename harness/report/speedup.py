"""Speedup over a baseline configuration, matched per product and mesh. On the same time steps it is
the ratio of times (the same work); where the steps differ (each solver's own `nt auto` rule takes
its own count) it is the ratio of time per point-step, and says so: the work unit is stated, never
mixed silently."""
from __future__ import annotations

from dataclasses import dataclass, replace

# Most precise first: the precision a baseline that names none stands for.
PRECISIONS = ("fp64", "mixed", "fp32")


@dataclass(frozen=True)
class Baseline:
    solver: str
    scheme: str | None
    device: str  # 'cpu', 'cuda' (any GPU) or 'cuda:N'
    threads: int | None
    precision: str | None

    @staticmethod
    def parse(spec: str) -> "Baseline":
        """SOLVER[:SCHEME]/DEVICE[/tTHREADS][/PRECISION], e.g. adi/cpu/t1 or adi:douglas/cpu/t2/fp64."""
        parts = spec.split("/")
        if len(parts) < 2 or not parts[0] or not parts[1]:
            raise ValueError(f"--baseline '{spec}': expected SOLVER[:SCHEME]/DEVICE[/tTHREADS][/PRECISION]")
        solver, _, scheme = parts[0].partition(":")
        threads = precision = None
        for extra in parts[2:]:
            if extra.startswith("t") and extra[1:].isdigit():
                threads = int(extra[1:])
            elif extra in PRECISIONS:
                precision = extra
            else:
                raise ValueError(f"--baseline '{spec}': '{extra}' is neither tTHREADS nor fp64/fp32/mixed")
        return Baseline(solver, scheme or None, parts[1], threads, precision)

    def matches(self, case) -> bool:
        device_ok = case.device == self.device or (self.device == "cuda" and case.on_gpu)
        return (case.solver == self.solver and device_ok and (self.scheme is None or case.scheme == self.scheme)
                and (self.threads is None or case.threads == self.threads)
                and (self.precision is None or case.precision == self.precision))

    def resolved(self, cases) -> "Baseline":
        """A baseline that names no precision is its most precise one present, fp64 where measured:
        adi/cpu/t1 over a sweep of fp64 and fp32 cases of adi/cpu/t1 made every case a baseline, and
        the report compared none."""
        if self.precision is not None:
            return self
        present = {c.precision for c in cases if c.measured and self.matches(c)}
        return next((replace(self, precision=p) for p in PRECISIONS if p in present), self)

    def __str__(self) -> str:
        text = self.solver + (f":{self.scheme}" if self.scheme else "") + f"/{self.device}"
        text += f"/t{self.threads}" if self.threads is not None else ""
        return text + (f"/{self.precision}" if self.precision else "")


@dataclass
class Speedup:
    case: object
    baseline: object
    factor: float
    per_point_step: bool = False  # the steps differ: time per (grid point x time step) compared

    @property
    def same_machine(self) -> bool:
        return self.case.machine.label == self.baseline.machine.label

    @property
    def work(self) -> str:
        if not self.per_point_step:
            return "same grid and steps"
        return f"per point-step ({self.case.time_steps} vs {self.baseline.time_steps} steps)"


def _mesh_key(case):
    return case.product, tuple(case.shape or [])


def _point_steps(case) -> float:
    return float(case.grid_points or 0) * float(case.time_steps or 0)


def _preference(case, candidate):
    """The same steps first (the same work), then the baseline measured on the same machine (same CPU,
    same day), then the same scheme, then fp64, then the most threads (a baseline that leaves no
    thread count open is the fastest CPU run: the speedup claimed is the smaller one)."""
    return (candidate.time_steps != case.time_steps, candidate.machine.label != case.machine.label,
            candidate.scheme != case.scheme, candidate.precision != "fp64", -(candidate.threads or 0),
            candidate.machine.label, candidate.scheme or "")


def speedups(cases, baseline: Baseline) -> list[Speedup]:
    measured = [c for c in cases if c.measured and c.median_seconds > 0]
    by_mesh: dict = {}
    for c in measured:
        if baseline.matches(c):
            by_mesh.setdefault(_mesh_key(c), []).append(c)
    result = []
    for c in measured:
        if baseline.matches(c):
            continue
        candidates = [b for b in by_mesh.get(_mesh_key(c), [])
                      if b.time_steps == c.time_steps or (_point_steps(b) > 0 and _point_steps(c) > 0)]
        if not candidates:
            continue
        base = min(candidates, key=lambda b: _preference(c, b))
        if base.time_steps == c.time_steps:
            result.append(Speedup(c, base, base.median_seconds / c.median_seconds))
        else:
            per = (base.median_seconds / _point_steps(base)) / (c.median_seconds / _point_steps(c))
            result.append(Speedup(c, base, per, per_point_step=True))
    return result
