"""Results files (harness/results/RESULTS_SCHEMA.md) read and merged into cases tagged with their machine."""
from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field

from .schema import ResultsError, read_results

SECONDS_PER_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


@dataclass
class Machine:
    label: str  # the cloud instance if given, else the host name
    descriptor: dict
    source_file: str
    preset: str
    started: str
    complete: bool
    references_mode: str = ""  # context.elsbench.references.mode: "stored" (the default, or none) or "auto"

    @property
    def instance(self) -> str:
        return self.descriptor.get("instance") or ""

    @property
    def commit(self) -> str:
        return self.descriptor.get("git_commit") or "unknown"

    def gpu(self, device: str) -> dict | None:
        """The GPU behind a device name such as 'cuda:0'."""
        if not device.startswith("cuda"):
            return None
        index = int(device.split(":")[1]) if ":" in device else 0
        for g in self.descriptor.get("gpus") or []:
            if g.get("index", 0) == index:
                return g
        return None


@dataclass
class Case:
    fields: dict
    machine: Machine
    repetition_seconds: list[float] = field(default_factory=list)
    median_seconds: float | None = None

    def __getattr__(self, name):
        # Schema fields read as attributes: case.price, case.status, ...
        try:
            return self.__dict__["fields"][name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def book(self) -> int:
        """Notes per timed run (the sweep's book axis); files written before it have none: 1."""
        return int(self.fields.get("book") or 1)

    @property
    def on_gpu(self) -> bool:
        return str(self.device).startswith("cuda")

    @property
    def dims(self) -> int:
        return len(self.shape or [])

    @property
    def device_name(self) -> str:
        gpu = self.machine.gpu(self.device)
        if gpu:
            return gpu.get("name", self.device)
        return "CPU" if self.device == "cpu" else self.device

    @property
    def solver_name(self) -> str:
        """Solver and scheme: 'adi:douglas'."""
        return f"{self.solver}:{self.scheme}" if self.scheme else self.solver

    @property
    def config(self) -> str:
        """Solver, scheme and precision: what the user picks."""
        return f"{self.solver_name} {self.precision}"

    @property
    def series(self) -> str:
        """One line on a plot: a configuration on one device of one machine."""
        where = self.device_name if self.on_gpu else f"CPU t{self.threads}"
        return f"{self.config}, {where} ({self.machine.label})"

    @property
    def grid(self) -> str:
        steps = self.fields.get("time_steps") or self.fields.get("nt")
        mesh = "x".join(str(n) for n in self.shape or [])
        return mesh + (f", {steps} steps" if steps else ", steps auto")

    @property
    def measured(self) -> bool:
        return self.status != "skipped" and self.median_seconds is not None


def _seconds(entry: dict) -> float:
    return float(entry["real_time"]) * SECONDS_PER_UNIT[entry.get("time_unit", "ns")]


def _cpu_name(model: str) -> str:
    """'Intel(R) Xeon(R) CPU @ 2.80GHz' -> 'Intel Xeon'; 'AMD EPYC 7B13' -> 'AMD EPYC 7B13'."""
    text = re.sub(r"\((R|TM)\)|\bCPU\b|\bProcessor\b|@.*$|\d+-Core", " ", model)
    return " ".join(text.split())


def machine_label(descriptor: dict, fallback: str = "") -> str:
    """The cloud instance if given, else the host name with its hardware: every machine a cloud
    provider or a container hands out may be called 'vm', and two of them must not merge."""
    if descriptor.get("instance"):
        return descriptor["instance"]
    parts = []
    if descriptor.get("cores"):
        parts.append(f"{descriptor['cores']}-core {_cpu_name(descriptor.get('cpu_model') or 'CPU')}".strip())
    parts += sorted({g["name"] for g in descriptor.get("gpus") or [] if g.get("name")})
    host = descriptor.get("hostname") or fallback
    return f"{host} ({', '.join(parts)})" if parts else host


def _machine(context: dict, path: str) -> Machine:
    meta = context.get("elsbench") or {}
    descriptor = meta.get("machine") or {}
    label = machine_label(descriptor, context.get("host_name") or path)
    references = meta.get("references") if isinstance(meta.get("references"), dict) else {}
    return Machine(label=label, descriptor=descriptor, source_file=path, preset=meta.get("preset", ""),
                   started=meta.get("started", context.get("date", "")), complete=bool(meta.get("complete", True)),
                   references_mode=str(references.get("mode") or ""))


def _cases(benchmarks: list, machine: Machine, path: str) -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for entry in benchmarks:
        case = cases.setdefault(entry["case_id"], Case(fields=entry, machine=machine))
        run_type = entry.get("run_type", "iteration")
        if run_type == "iteration":
            case.repetition_seconds.append(_seconds(entry))
        elif entry.get("aggregate_name") == "median" and entry.get("status") != "skipped" and not entry.get("error_occurred"):
            case.median_seconds = _seconds(entry)
    for case in cases.values():
        if case.median_seconds is None and case.repetition_seconds:
            case.median_seconds = statistics.median(case.repetition_seconds)
    return cases


def load_runs(paths: list[str]) -> list[tuple[Machine, dict[str, Case]]]:
    """Each file's machine and cases, checked, in the order given."""
    runs = []
    for path in paths:
        data = read_results(path)
        if not data["benchmarks"]:
            raise ResultsError(path, "benchmarks", "empty: the file holds no case")
        machine = _machine(data.get("context") or {}, path)
        runs.append((machine, _cases(data["benchmarks"], machine, path)))
    return runs


def load(paths: list[str]) -> tuple[list[Machine], list[Case]]:
    """Machines and cases of all files. A case measured twice on the same machine keeps its
    latest run (a re-run sweep supersedes the old one)."""
    machines: dict[str, Machine] = {}
    merged: dict[tuple[str, str], Case] = {}
    for machine, cases in sorted(load_runs(paths), key=lambda run: run[0].started):
        machines[machine.label] = machine
        for case_id, case in cases.items():
            merged[(machine.label, case_id)] = case
    ordered = sorted(merged.values(), key=lambda c: (c.product, c.machine.label, c.series, c.grid_points or 0,
                                                     c.fields.get("time_steps") or 0))
    return sorted(machines.values(), key=lambda m: m.label), ordered
