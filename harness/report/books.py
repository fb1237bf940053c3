"""Book runs (`elsbench book price`): notes per second against book size, per machine, device and
solver, and the cost per 1,000 notes per cloud instance from the best measured book throughput;
a single-note time stands in only where no book was run on that instance, and the row says so."""
from __future__ import annotations

import math
from dataclasses import dataclass

import cost
import figures
from schema import ResultsError, read_json

BOOK_SCHEMA = "elsbench-book"


@dataclass
class BookRun:
    machine: str     # the cloud instance if given, else the host name
    instance: str
    solver: str
    device: str      # where its notes ran: cpu, cuda:0, ...
    workers: int     # notes priced at once (threads, GPUs)
    n: int
    notes: int       # notes priced by this run
    notes_per_second: float
    source_file: str

    @property
    def series(self) -> str:
        return f"{self.machine} {self.solver} {self.device} x{self.workers}"


def is_book_file(path: str) -> bool:
    data = read_json(path)
    return isinstance(data, dict) and data.get("schema") == BOOK_SCHEMA


def load_book(path: str) -> BookRun:
    data = read_json(path)
    if not isinstance(data, dict) or data.get("schema") != BOOK_SCHEMA or "summary" not in data:
        raise ValueError(f"{path}: not a complete book results file (schema '{BOOK_SCHEMA}' with a summary)")
    try:
        meta = data["context"]["elsbench"]
        machine = data["context"].get("machine") or {}
        summary = data["summary"]
        devices = sorted({n["device"] for n in data["notes"] if "device" in n}) or ["cpu"]
        run = BookRun(machine.get("instance") or machine.get("hostname") or path, machine.get("instance") or "",
                      meta["settings"]["solver"], ",".join(devices), int(meta.get("workers", 1)),
                      int(meta["settings"]["n"]), int(summary["priced_this_run"]),
                      float(summary["notes_per_second"]), path)
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise ResultsError(path, "<book>", f"a damaged book results file ({type(e).__name__}: {e})") from None
    if not math.isfinite(run.notes_per_second):
        raise ResultsError(path, "summary.notes_per_second", "not a finite number")
    return run


def best_run(runs: list[BookRun], instance: str) -> BookRun | None:
    on_it = [r for r in runs if r.instance == instance and r.notes_per_second > 0]
    return max(on_it, key=lambda r: r.notes_per_second) if on_it else None


@dataclass
class BookCostRow:
    instance: str
    basis: str
    notes_per_second: float | None = None
    per_1000: float | None = None


def book_cost_rows(table: cost.PriceTable, runs: list[BookRun], machines, cases) -> list[BookCostRow]:
    """One row per price-table instance: its best book throughput, else its fastest passing single
    pricing of the sample ELS (said so), else not measured."""
    rows = []
    for entry in table.entries:
        best = best_run(runs, entry.id)
        if best is not None:
            per = None if entry.usd_per_hour is None else entry.usd_per_hour / 3600 / best.notes_per_second * 1000
            rows.append(BookCostRow(entry.name, f"best book: {best.notes} notes, n = {best.n}, {best.series}",
                                    best.notes_per_second, per))
            continue
        single = [c for c in cases if c.machine.instance == entry.id and c.measured and c.status == "pass"]
        if single:
            fastest = min(single, key=lambda c: c.median_seconds)
            per = None if entry.usd_per_hour is None else entry.usd_per_hour * fastest.median_seconds * 1000 / 3600
            rows.append(BookCostRow(entry.name, f"no book run: single-note time of {fastest.product} ({fastest.series})",
                                    1.0 / fastest.median_seconds, per))
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
