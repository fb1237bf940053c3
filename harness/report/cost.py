"""Cost per 1,000 pricings per cloud instance, from measured times only.

An instance counts as measured when a results file names it (`--instance`), or when the same GPU
model was measured elsewhere (then only GPU solver times count: the CPUs differ). Everything else
is "not measured"; nothing is extrapolated from other GPUs.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field

from .schema import ResultsError, read_json

GPU_FAMILIES = ["rtx 4090", "rtx 3090", "h200", "h100", "a100", "a40", "a10g", "l40s", "l4", "v100", "p100", "t4"]
DEFAULT_PRODUCT = "sample-2a-stepdown"  # the sample ELS every machine prices


@dataclass
class PriceEntry:
    provider: str
    instance: str
    id: str
    gpu: str
    gpu_count: int
    gpu_memory_gb: float | None
    usd_per_hour: float | None
    usd_per_hour_spot: float | None
    source: str
    notes: str = ""
    vcpus: int | None = None         # CPU instances: what a claim of one is checked against
    memory_gib: float | None = None
    cpu: str = ""                    # the CPU's maker and line: "Intel Xeon", "AMD EPYC"
    region: str = ""
    as_of: str = ""

    @property
    def name(self) -> str:
        return f"{self.provider} {self.instance}"

    @property
    def hardware(self) -> str:
        """'8x H100 SXM', or for a CPU instance '16 vCPU Intel Xeon, 32 GiB'."""
        if self.gpu:
            return f"{self.gpu_count}x {self.gpu}"
        memory = f", {self.memory_gib:g} GiB" if self.memory_gib else ""
        return f"{self.vcpus or '?'} vCPU {self.cpu}".strip() + memory


@dataclass
class PriceTable:
    written: str
    prices_as_of: str
    entries: list[PriceEntry] = field(default_factory=list)


@dataclass
class CostRow:
    entry: PriceEntry | None  # None: a measured machine with no price
    machine: str | None       # the machine whose measurement is used
    basis: str                # why this measurement applies, or why there is none
    case: object = None       # the fastest passing case on this grid
    per_1000: float | None = None
    per_1000_spot: float | None = None

    @property
    def measured(self) -> bool:
        return self.case is not None


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


# Each field of a price entry: whether a value is of its kind, and what the kind is called.
_ENTRY_FIELDS = {
    "provider": (lambda v: isinstance(v, str), "a string"),
    "instance": (lambda v: isinstance(v, str), "a string"),
    "id": (lambda v: isinstance(v, str), "a string"),
    "gpu": (lambda v: isinstance(v, str), "a string"),
    "gpu_count": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, "a whole number >= 0"),
    "gpu_memory_gb": (lambda v: v is None or (_is_number(v) and v > 0), "a number > 0 or null"),
    "usd_per_hour": (lambda v: v is None or (_is_number(v) and v >= 0), "a number >= 0 or null"),
    "usd_per_hour_spot": (lambda v: v is None or (_is_number(v) and v >= 0), "a number >= 0 or null"),
    "source": (lambda v: isinstance(v, str), "a string"),
    "notes": (lambda v: isinstance(v, str), "a string"),
    "vcpus": (lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v > 0),
              "a whole number > 0 or null"),
    "memory_gib": (lambda v: v is None or (_is_number(v) and v > 0), "a number > 0 or null"),
    "cpu": (lambda v: isinstance(v, str), "a string"),
    "region": (lambda v: isinstance(v, str), "a string"),
    "as_of": (lambda v: isinstance(v, str), "a string"),
}
_OPTIONAL = ("notes", "vcpus", "memory_gib", "cpu", "region", "as_of")
# Usable memory reads a little under the nominal size (a 32 GiB VM shows 31.0 to 31.6 GiB).
MEMORY_SLACK = (0.85, 1.02)


def _price_entry(e, path: str, where: str) -> PriceEntry:
    if not isinstance(e, dict):
        raise ResultsError(path, where, "expected an object")
    for key, (ok, kind) in _ENTRY_FIELDS.items():
        if key not in e:
            if key in _OPTIONAL:
                continue
            raise ResultsError(path, f"{where}.{key}", "missing")
        if not ok(e[key]):
            raise ResultsError(path, f"{where}.{key}", f"expected {kind}, got {json.dumps(e[key])[:40]}")
    return PriceEntry(**{k: v for k, v in e.items() if k in _ENTRY_FIELDS})


def load_prices(path: str) -> PriceTable:
    """The cloud price table, every field checked before it is used: a file of another shape is
    refused naming the field (exit 2), never met later as an internal error."""
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("instances"), list):
        raise ResultsError(path, "instances", "missing or not a list: not a price table (harness/cloud/prices.json)")
    for key in ("written", "prices_as_of"):
        if key in data and not isinstance(data[key], str):
            raise ResultsError(path, key, "expected a string")
    entries = [_price_entry(e, path, f"instances[{i}]") for i, e in enumerate(data["instances"])]
    return PriceTable(data.get("written", ""), data.get("prices_as_of", ""), entries)


def gpu_family(name: str) -> str | None:
    text = re.sub(r"\b(nvidia|tesla|geforce)\b", " ", name.lower())
    for family in GPU_FAMILIES:
        if re.search(r"\b" + family.replace(" ", r"\s*") + r"\b", text):
            return family
    return None


def gpu_form(name: str) -> str | None:
    """The form of a data-centre GPU, where its name tells it: an H100 SXM (HBM3, 3.35 TB/s), PCIe
    (HBM2e, 2 TB/s) and NVL (94 GB) are different memory systems under one family name."""
    text = name.lower()
    for form, marks in (("nvl", ("nvl",)), ("pcie", ("pcie",)), ("sxm", ("sxm", "hbm3"))):
        if any(m in text for m in marks):
            return form
    return None


def same_gpu(entry: PriceEntry, gpu: dict) -> bool:
    name = gpu.get("name", "")
    if gpu_family(entry.gpu) != gpu_family(name) or gpu_family(entry.gpu) is None:
        return False
    if gpu_form(entry.gpu) and gpu_form(name) and gpu_form(entry.gpu) != gpu_form(name):
        return False
    if entry.gpu_memory_gb is None or not gpu.get("memory_bytes"):
        return True
    # Usable memory reads a little under the nominal size (T4: 14.7 of 16 GiB, H100: 79.2 of 80);
    # variants differ by a fifth or more (H100 80/94, V100 16/32, A100 40/80).
    return abs(gpu["memory_bytes"] / 2**30 / entry.gpu_memory_gb - 1) < 0.12


def cost_product(cases) -> str | None:
    measured = [c.product for c in cases if c.measured and c.status == "pass"]
    if DEFAULT_PRODUCT in measured:
        return DEFAULT_PRODUCT
    return Counter(measured).most_common(1)[0][0] if measured else None


def workloads(cases, product: str) -> list[tuple]:
    """Grids of the cost product that passed somewhere, smallest first."""
    grids = {(tuple(c.shape), c.time_steps) for c in cases
             if c.product == product and c.measured and c.status == "pass"}
    return sorted(grids, key=lambda g: (_points(g[0]), g[1]))


def _points(shape) -> int:
    p = 1
    for n in shape:
        p *= n
    return p


def _fastest(cases, grid):
    fitting = [c for c in cases if (tuple(c.shape), c.time_steps) == grid]
    return min(fitting, key=lambda c: c.median_seconds) if fitting else None


def _per_1000(usd_per_hour, seconds, gpus):
    if usd_per_hour is None:
        return None
    return usd_per_hour * seconds * 1000 / 3600 / gpus


def unverified_claim(entry: PriceEntry, descriptor: dict) -> str | None:
    """Why a results file's `--instance` claim does not hold against the machine it describes, or
    None when it does: the instance's GPU model among the machine's GPUs and no more of them than
    the instance has (a CPU book on a 2-core VM labelled aws:g4dn.xlarge was priced as "measured on
    this instance"). The claim is the user's word; the descriptor is what elsbench read."""
    gpus = [g for g in descriptor.get("gpus") or [] if g.get("name")]
    if not entry.gpu:
        return unverified_cpu_claim(entry, descriptor, gpus)
    if not any(same_gpu(entry, g) for g in gpus):
        seen = ", ".join(sorted({g["name"] for g in gpus})) or "none"
        return f"claimed {entry.id}, not verified: its {entry.gpu} is not among the machine's GPUs ({seen})"
    if len(gpus) > entry.gpu_count:
        return f"claimed {entry.id}, not verified: {len(gpus)} GPUs where the instance has {entry.gpu_count}"
    return None


def unverified_cpu_claim(entry: PriceEntry, descriptor: dict, gpus: list) -> str | None:
    """Why a machine is not the CPU instance it claims to be: GPUs it does not have, other vCPUs, other
    memory, another CPU maker; or None. What the descriptor does not record is not verified either."""
    cores, memory, model = descriptor.get("cores"), descriptor.get("memory_bytes"), descriptor.get("cpu_model") or ""
    claim = f"claimed {entry.id}, not verified: "
    if gpus:
        return claim + f"the machine has {len(gpus)} GPU(s), the instance none"
    if entry.vcpus is None or not cores or cores != entry.vcpus:
        return claim + f"{cores or 'unrecorded'} CPUs where the instance has {entry.vcpus or 'unlisted'} vCPUs"
    ratio = memory / 2**30 / entry.memory_gib if memory and entry.memory_gib else None
    if ratio is None or not MEMORY_SLACK[0] <= ratio <= MEMORY_SLACK[1]:
        seen = f"{memory / 2**30:.3g} GiB" if memory else "unrecorded"
        return claim + f"{seen} of memory where the instance has {entry.memory_gib or 'unlisted'} GiB"
    maker = entry.cpu.split()[0].lower() if entry.cpu else ""
    if maker and maker not in model.lower():
        return claim + f"its CPU ({model or 'unrecorded'}) is not an {entry.cpu}"
    return None


def verified_instance(table: PriceTable, instance: str, descriptor: dict) -> tuple[PriceEntry | None, str]:
    """The price-table entry a machine's --instance names, when the machine bears the claim out,
    and otherwise why it has no price ("" for a verified claim)."""
    if not instance:
        return None, "not a cloud instance (no --instance): no price"
    entry = next((e for e in table.entries if e.id == instance), None)
    if entry is None:
        return None, f"instance '{instance}' is not in the price table"
    why = unverified_claim(entry, descriptor)
    return (None, why) if why else (entry, "")


def evidence(entry: PriceEntry, machines, passing):
    """(machine label, basis, cases that stand for this instance)."""
    for m in machines:
        if m.instance == entry.id:
            why = unverified_claim(entry, m.descriptor)
            if why:
                return None, why, []
            return m.label, "measured on this instance", [c for c in passing if c.machine.label == m.label]
    for m in machines:
        gpu = next((g for g in m.descriptor.get("gpus") or [] if same_gpu(entry, g)), None)
        if gpu:
            on_it = [c for c in passing if c.machine.label == m.label and c.on_gpu and c.device_name == gpu.get("name")]
            if on_it:
                return m.label, f"same GPU ({gpu.get('name')}) measured on {m.label}", on_it
    return None, "not measured", []


def cost_rows(table: PriceTable, machines, cases, product: str, grid) -> list[CostRow]:
    """One row per price-table instance, then one per measured machine the table has no price for."""
    passing = [c for c in cases if c.product == product and c.measured and c.status == "pass"]
    rows = []
    for entry in table.entries:
        label, basis, on_it = evidence(entry, machines, passing)
        best = _fastest(on_it, grid)
        if best is None:
            rows.append(CostRow(entry, label, basis if label is None else f"{basis}, but not on this grid"))
            continue
        gpus = entry.gpu_count if best.on_gpu else 1
        if gpus > 1:
            basis += (f"; one GPU measured, charged 1/{gpus} of the hourly price (the instance's {gpus} GPUs "
                      f"together were not measured)")
        rows.append(CostRow(entry, label, basis, best, _per_1000(entry.usd_per_hour, best.median_seconds, gpus),
                            _per_1000(entry.usd_per_hour_spot, best.median_seconds, gpus)))
    for m in machines:
        entry, why = verified_instance(table, m.instance, m.descriptor)
        if entry is not None:
            continue
        best = _fastest([c for c in passing if c.machine.label == m.label], grid)
        if best is not None:
            rows.append(CostRow(None, m.label, why, best))
    return rows


def cost_table_rows(table: PriceTable, machines, cases, product: str) -> list[CostRow]:
    """Every measured (instance, grid), largest grid first, then each instance measured on no grid once."""
    measured, seen = [], set()
    for grid in reversed(workloads(cases, product)):
        for row in cost_rows(table, machines, cases, product, grid):
            if row.measured:
                measured.append(row)
                seen.add(row.entry.id if row.entry else row.machine)
    unmeasured = [CostRow(e, None, "not measured") for e in table.entries if e.id not in seen]
    return measured + unmeasured


def headline_grid(cases, product: str, table: PriceTable, machines):
    """The grid the cost plot shows: the one measured on the most instances, the larger on ties."""
    grids = workloads(cases, product)
    if not grids:
        return None
    return max(grids, key=lambda g: (sum(r.measured for r in cost_rows(table, machines, cases, product, g)), _points(g[0]), g[1]))
