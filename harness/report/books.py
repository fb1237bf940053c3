"""Books of notes: notes per second against book size, per machine, device and solver, from
`elsbench book price` results files and from sweep cases of the `book` axis; and the cost per
1,000 notes per cloud instance from the best measured book throughput of that instance, or of its
GPU model measured elsewhere. A single-note time stands in only where no book was run there, and
the row says so."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cost
import figures
from schema import ResultsError, read_json

BOOK_PRESET = "book"  # a book run's results file: context.elsbench.preset, with context.elsbench.book


@dataclass
class BookRun:
    machine: str     # the cloud instance if given, else the host name
    instance: str
    solver: str
    device: str      # where its notes ran: cpu, cuda:0, or several joined by commas
    workers: int     # notes priced at once (threads, GPUs)
    n: int
    notes: int       # notes priced by this run (the book size)
    notes_per_second: float
    source_file: str
    descriptor: dict = field(default_factory=dict)  # the machine descriptor (its GPUs)
    label: str = ""  # the plot's line; empty: machine, solver, device and workers

    @property
    def series(self) -> str:
        return self.label or f"{self.machine} {self.solver} {self.device} x{self.workers}"

    @property
    def gpus(self) -> list[dict]:
        """The GPUs its notes ran on, as the machine descriptor lists them."""
        indices = {int(d.split(":")[1]) for d in self.device.split(",") if d.startswith("cuda:")}
        return [g for g in self.descriptor.get("gpus") or [] if g.get("index", 0) in indices]


def largest_axis(n) -> int:
    """A grid's n: one count, or one per axis ([N1, N2]) of which the largest stands for it."""
    return int(max(n) if isinstance(n, list) else n)


def book_part(data) -> dict | None:
    """context.elsbench.book of a book run's results file, or None for any other file."""
    try:
        meta = data["context"]["elsbench"]
    except (KeyError, TypeError):
        return None
    if not isinstance(meta, dict) or meta.get("preset") != BOOK_PRESET or not isinstance(meta.get("book"), dict):
        return None
    return meta["book"]


def is_book_file(path: str) -> bool:
    return book_part(read_json(path)) is not None


def load_book(path: str) -> BookRun:
    data = read_json(path)
    book = book_part(data)
    if book is None or "summary" not in book:
        raise ValueError(f"{path}: not a complete book results file (context.elsbench.book with a summary)")
    try:
        machine = data["context"].get("machine") or data["context"]["elsbench"].get("machine") or {}
        summary = book["summary"]
        notes = [e for e in data["benchmarks"] if e.get("run_type") == "aggregate"]
        devices = sorted({e["device"] for e in notes if e.get("status") != "skipped" and e.get("device")}) or ["cpu"]
        run = BookRun(machine.get("instance") or machine.get("hostname") or path, machine.get("instance") or "",
                      book["settings"]["solver"], ",".join(devices), int(book.get("workers", 1)),
                      largest_axis(book["settings"]["n"]), int(summary["priced_this_run"]),
                      float(summary["notes_per_second"]), path, machine)
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise ResultsError(path, "<book>", f"a damaged book results file ({type(e).__name__}: {e})") from None
    if not math.isfinite(run.notes_per_second):
        raise ResultsError(path, "context.elsbench.book.summary.notes_per_second", "not a finite number")
    return run


def sweep_book_runs(cases) -> list[BookRun]:
    """The measured cases of every sweep series that ran the book axis (a book of more than one
    note), its single-note case included as the book of 1: one point per book size."""
    with_books = {(c.machine.label, c.series, c.product) for c in cases if c.measured and c.book > 1}
    runs = []
    for c in cases:
        if not c.measured or (c.machine.label, c.series, c.product) not in with_books:
            continue
        workers = 1 if c.on_gpu else int(c.threads or 1)
        runs.append(BookRun(c.machine.label, c.machine.instance, c.config, c.device, workers, int(c.n), c.book,
                            c.book / c.median_seconds, c.machine.source_file, c.machine.descriptor,
                            f"{c.series}, {c.product}"))
    return runs


def _gpus_used(run: BookRun) -> int:
    return max(1, len([d for d in run.device.split(",") if d.startswith("cuda")]))


def best_run(runs: list[BookRun], entry: cost.PriceEntry) -> tuple[BookRun | None, str]:
    """The fastest book (more than one note) run on this instance, else on its GPU model elsewhere
    (GPU runs only: the CPUs differ), with why it applies."""
    books = [r for r in runs if r.notes > 1 and r.notes_per_second > 0]
    here = [r for r in books if r.instance == entry.id]
    if here:
        return max(here, key=lambda r: r.notes_per_second), "measured on this instance"
    same = [r for r in books if r.gpus and all(cost.same_gpu(entry, g) for g in r.gpus)]
    if same:
        best = max(same, key=lambda r: r.notes_per_second)
        return best, f"same GPU ({best.gpus[0].get('name')}) measured on {best.machine}"
    return None, ""


@dataclass
class BookCostRow:
    instance: str
    basis: str
    notes_per_second: float | None = None
    per_1000: float | None = None


def _per_1000(usd_per_hour, notes_per_second):
    return None if usd_per_hour is None else usd_per_hour / 3600 / notes_per_second * 1000


def book_cost_rows(table: cost.PriceTable, runs: list[BookRun], machines, cases) -> list[BookCostRow]:
    """One row per price-table instance: its best book throughput (GPU runs scaled to the instance's
    GPU count where they used fewer, said so), else its fastest passing single pricing (said so),
    else not measured."""
    single = [c for c in cases if c.book == 1 and c.measured and c.status == "pass"]
    rows = []
    for entry in table.entries:
        best, why = best_run(runs, entry)
        if best is not None:
            rate, basis = best.notes_per_second, f"best book: {best.notes} notes, n = {best.n}, {best.series}; {why}"
            used = _gpus_used(best)
            if best.gpus and entry.gpu_count > used:
                rate *= entry.gpu_count / used
                basis += f"; {used} GPU(s)' rate x {entry.gpu_count} GPUs (assumes the book split over all GPUs)"
            rows.append(BookCostRow(entry.name, basis, rate, _per_1000(entry.usd_per_hour, rate)))
            continue
        _, evidence_basis, evidence = cost.evidence(entry, machines, single)
        if evidence:
            fastest = min(evidence, key=lambda c: c.median_seconds)
            rate = 1.0 / fastest.median_seconds
            rows.append(BookCostRow(entry.name, f"no book run: single-note time of {fastest.product} "
                                                f"({fastest.series}); {evidence_basis}",
                                    rate, _per_1000(entry.usd_per_hour, rate)))
            continue
        rows.append(BookCostRow(entry.name, "not measured"))
    return rows


def plot(runs: list[BookRun], out_dir: str):
    fig, axes = figures.new_figure(1)
    ax = axes[0]
    if not runs:
        figures.no_data(ax, "no book was priced")
    for series in sorted({r.series for r in runs}):
        points = sorted((r.notes, r.notes_per_second) for r in runs if r.series == series)
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=series)
    ax.set(xscale="log", yscale="log", xlabel="notes in the book", ylabel="notes per second",
           title="Book throughput against book size")
    figures.legend_below(fig, axes)
    return figures.save(fig, out_dir, "books")
