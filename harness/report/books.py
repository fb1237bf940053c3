"""Books of notes: notes per second against book size, per machine, device and solver, from
`elsbench book price` results files and from sweep cases of the `book` axis; and the cost per
1,000 notes per cloud instance from the best measured book throughput of that instance, or of its
GPU model measured elsewhere. A single-note time stands in only where no book was run there, and
the row says so."""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from . import convert_book_v1
from . import cost
from . import figures
from .results import machine_label
from .schema import ResultsError, checked, read_json, read_results

BOOK_PRESET = "book"  # a book run's results file: context.elsbench.preset, with context.elsbench.book


@dataclass
class BookRun:
    machine: str     # the cloud instance if given, else the host name
    instance: str
    solver: str
    device: str      # where its notes ran: cpu, cuda:0, or several joined by commas
    workers: int     # notes priced at once (threads, GPUs)
    n: int
    notes: int       # notes in the book
    notes_per_second: float
    source_file: str
    descriptor: dict = field(default_factory=dict)  # the machine descriptor (its GPUs)
    label: str = ""  # the plot's line; empty: solver, precision, n, device, workers and machine
    precision: str = "fp64"
    priced: int | None = None  # notes priced by this run; None: all of them
    failed: int = 0
    resumed: int = 0           # notes kept from an earlier run of the same book
    product: str = ""          # a sweep's book: copies of this product
    notes_key: str = ""        # which notes: a digest of their ids and dimensions, or a sweep's copies
    target_error: str = ""     # the accuracy contract (--target-error), where one was priced to
    started: str = ""          # when the run began (context.elsbench.started)

    @property
    def work(self) -> str:
        """What the book asks of a machine: the same notes on the same grid and precision, or to the
        same accuracy contract. Only books of equal work are compared (a 3-note n = 40 book was
        "best" against 1,000-note n = 100 books)."""
        grid = f"to {self.target_error}" if self.target_error else f"n = {self.n}, {self.precision}"
        return f"{self.notes} notes ({self.notes_key}), {grid}"

    @property
    def series(self) -> str:
        return self.label or (f"{self.solver} {self.precision}, n = {self.n}, {self.device} x{self.workers} "
                              f"({self.machine})")

    @property
    def device_name(self) -> str:
        """What priced the notes: the GPU model(s), or the CPU."""
        return ", ".join(sorted({g.get("name", "GPU") for g in self.gpus})) or "CPU"

    @property
    def legend(self) -> str:
        """The plot's entry: device and precision first (what the lines compare), then how and where."""
        what = f"{self.solver}, n = {self.n}" + (f", {self.product}" if self.product else "")
        return f"{self.device_name} x{self.workers}, {self.precision}\n{what} on {self.machine}"

    @property
    def whole(self) -> bool:
        """Priced every note of its book in this one run: only then is its rate the book's throughput
        (a resumed run's rate is over the notes it had left; a run with failures skipped some)."""
        return self.resumed == 0 and self.failed == 0 and (self.priced is None or self.priced == self.notes)

    @property
    def why_not_whole(self) -> str:
        if self.resumed:
            return f"resumed: {self.priced} of {self.notes} notes priced in this run"
        if self.failed:
            return f"{self.failed} of {self.notes} notes failed"
        return f"{self.priced} of {self.notes} notes priced (interrupted)"

    @property
    def gpus(self) -> list[dict]:
        """The GPUs its notes ran on, as the machine descriptor lists them."""
        indices = {int(d.split(":")[1]) for d in self.device.split(",") if d.startswith("cuda:")}
        return [g for g in self.descriptor.get("gpus") or [] if g.get("index", 0) in indices]


def largest_axis(n) -> int:
    """A grid's n: one count, or one per axis ([N1, N2]) of which the largest stands for it."""
    return int(max(n) if isinstance(n, list) else n)


def book_part(data) -> dict | None:
    """context.elsbench.book of a book run's results file, or None for any other file (a v1 book file
    has none until today_format converts it)."""
    try:
        meta = data["context"]["elsbench"]
    except (KeyError, TypeError):
        return None
    if not isinstance(meta, dict) or meta.get("preset") != BOOK_PRESET or not isinstance(meta.get("book"), dict):
        return None
    return meta["book"]


def is_book_file(path: str) -> bool:
    return book_part(today_format(read_json(path), path)) is not None


def load_book(path: str) -> BookRun:
    raw = read_json(path)
    data = checked(today_format(raw, path), path) if convert_book_v1.is_v1_book(raw) else read_results(path)
    book = book_part(data)
    if book is None or "summary" not in book:
        raise ValueError(f"{path}: not a complete book results file (context.elsbench.book with a summary)")
    try:
        run = _run(data, book, path)
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise ResultsError(path, "<book>", f"a damaged book results file ({type(e).__name__}: {e})") from None
    if not math.isfinite(run.notes_per_second):
        raise ResultsError(path, "context.elsbench.book.summary.notes_per_second", "not a finite number")
    return run


def today_format(data, path: str):
    """A results file of today's schema: a v1 book file (elsbench before the results schema) converted
    as harness/report/convert_book_v1.py converts it, so that one reader serves both."""
    if not convert_book_v1.is_v1_book(data):
        return data
    try:
        return convert_book_v1.convert(data, path)
    except (KeyError, TypeError, ValueError) as e:
        raise ResultsError(path, "<book>", f"a v1 book file that does not convert ({type(e).__name__}: {e})") from None


def notes_digest(notes) -> str:
    """Which notes a book holds: its note ids with their dimensions (generated books of one seed share
    ids across asset counts), as a short digest."""
    text = "\n".join(sorted(f"{note_id}/{dims}" for note_id, dims in notes))
    return "notes #" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _counts(summary: dict) -> dict:
    priced = int(summary["priced_this_run"])
    return {"notes": int(summary.get("notes", priced)), "priced": priced, "failed": int(summary.get("failed", 0)),
            "resumed": int(summary.get("resumed", 0)), "notes_per_second": float(summary["notes_per_second"])}


def _run(data: dict, book: dict, path: str) -> BookRun:
    machine = data["context"].get("machine") or data["context"]["elsbench"].get("machine") or {}
    notes = [e for e in data["benchmarks"] if e.get("run_type") == "aggregate"]
    devices = sorted({e["device"] for e in notes if e.get("status") != "skipped" and e.get("device")}) or ["cpu"]
    settings = book["settings"]
    return BookRun(machine_label(machine, path), machine.get("instance") or "", settings["solver"], ",".join(devices),
                   int(book.get("workers", 1)), largest_axis(settings["n"]), source_file=path, descriptor=machine,
                   precision=settings.get("precision", "fp64"), target_error=str(settings.get("target_error") or ""),
                   notes_key=notes_digest((e.get("product"), len(e.get("shape") or [])) for e in notes),
                   started=str(data["context"]["elsbench"].get("started") or ""), **_counts(book["summary"]))


def sweep_book_runs(cases) -> list[BookRun]:
    """The measured cases of every sweep series that ran the book axis (a book of more than one
    note), its single-note case on the same grid included as the book of 1: one point per book size."""
    with_books = {(c.machine.label, c.series, c.product, c.n) for c in cases if c.measured and c.book > 1}
    runs = []
    for c in cases:
        if not c.measured or (c.machine.label, c.series, c.product, c.n) not in with_books:
            continue
        workers = 1 if c.on_gpu else int(c.threads or 1)
        runs.append(BookRun(c.machine.label, c.machine.instance, c.solver_name, c.device, workers, int(c.n), c.book,
                            c.book / c.median_seconds, c.machine.source_file, c.machine.descriptor,
                            f"{c.series}, n = {c.n}, {c.product}", c.precision, product=c.product,
                            notes_key=f"copies of {c.product}"))
    return runs


def _gpus_used(run: BookRun) -> int:
    return max(1, len([d for d in run.device.split(",") if d.startswith("cuda")]))


def best_run(runs: list[BookRun], entry: cost.PriceEntry) -> tuple[BookRun | None, str]:
    """The fastest book (more than one note) run on this instance, else on its GPU model elsewhere
    (GPU runs only: the CPUs differ), with why it applies."""
    books = [r for r in runs if r.notes > 1 and r.notes_per_second > 0 and r.whole]
    claimed = [r for r in books if r.instance == entry.id]
    here = [r for r in claimed if cost.unverified_claim(entry, r.descriptor) is None]
    if here:
        return max(here, key=lambda r: r.notes_per_second), "measured on this instance"
    if claimed:
        return None, cost.unverified_claim(entry, claimed[0].descriptor)
    same = [r for r in books if r.gpus and all(cost.same_gpu(entry, g) for g in r.gpus)]
    if same:
        best = max(same, key=lambda r: r.notes_per_second)
        return best, f"same GPU ({best.gpus[0].get('name')}) measured on {best.machine}"
    return None, ""


@dataclass
class BookCostRow:
    instance: str
    basis: str
    book: str = ""  # the work of the book its rate comes from (BookRun.work)
    notes_per_second: float | None = None
    per_1000: float | None = None
    unmeasured: bool = False  # nothing ran there: the basis says what would fill it


def _per_1000(usd_per_hour, notes_per_second):
    return None if usd_per_hour is None else usd_per_hour / 3600 / notes_per_second * 1000


def book_cost_rows(table: cost.PriceTable, runs: list[BookRun], machines, cases) -> list[BookCostRow]:
    """One row per price-table instance: its best book throughput (GPU runs scaled to the instance's
    GPU count where they used fewer, said so), else its fastest passing single pricing (said so),
    else not measured."""
    single = [c for c in cases if c.book == 1 and c.measured and c.status == "pass"]
    rows, booked = [], set()
    for work in book_works(runs):  # one block of rows per book: the best only among equal work
        for entry in table.entries:
            best, why = best_run([r for r in runs if r.work == work], entry)
            if best is not None:
                rows.append(_book_row(entry, best, why))
                booked.add(entry.id)
    for entry in table.entries:
        if entry.id in booked:
            continue
        _, why = best_run(runs, entry)
        _, evidence_basis, evidence = cost.evidence(entry, machines, single)
        if evidence:
            fastest = min(evidence, key=lambda c: c.median_seconds)
            rate = 1.0 / fastest.median_seconds
            rows.append(BookCostRow(entry.name, f"no book run: single-note time of {fastest.product} "
                                                f"({fastest.series}); {evidence_basis}",
                                    f"1 note ({fastest.product}), {fastest.grid}", rate,
                                    _per_1000(entry.usd_per_hour, rate)))
            continue
        claim = why or (evidence_basis if "not verified" in evidence_basis else "")
        rows.append(BookCostRow(entry.name, claim or unmeasured_basis(entry), unmeasured=not claim))
    return rows + unpriced_rows(table, runs)


def book_works(runs: list[BookRun]) -> list[str]:
    """The works of the whole books run, the one measured on the most machines first, then the larger."""
    machines: dict = {}
    for r in runs:
        if r.whole and r.notes > 1 and r.notes_per_second > 0:
            machines.setdefault(r.work, (set(), r.notes))[0].add(r.machine)
    return sorted(machines, key=lambda w: (-len(machines[w][0]), -machines[w][1], w))


def _book_row(entry: cost.PriceEntry, best: BookRun, why: str) -> BookCostRow:
    """An instance priced from its best book: GPU runs charged their share where fewer GPUs ran."""
    rate, basis = best.notes_per_second, f"best book: {best.notes} notes, {best.series}; {why}"
    used, usd = _gpus_used(best), entry.usd_per_hour
    if best.gpus and entry.gpu_count > used and usd is not None:
        usd *= used / entry.gpu_count
        basis += (f"; {used} GPU(s) measured, charged {used}/{entry.gpu_count} of the hourly price (the "
                  f"instance's {entry.gpu_count} GPUs together were not measured)")
    return BookCostRow(entry.name, basis, best.work, rate, _per_1000(usd, rate))


def unmeasured_basis(entry: cost.PriceEntry) -> str:
    """What would fill an unmeasured row: nothing is projected from another GPU."""
    elsewhere = f" or on any {entry.gpu}" if entry.gpu else ""  # a CPU stands only for its own instance
    return (f"not measured: a whole book priced on this instance (`elsbench book price BOOK --out FILE "
            f"--instance {entry.id}`){elsewhere} would fill it")


def unpriced_rows(table: cost.PriceTable, runs: list[BookRun]) -> list[BookCostRow]:
    """The best whole book of each measured machine and device that no price-table instance stands
    for (a CPU run, or a machine without --instance): its throughput, and why it has no price."""
    best: dict = {}
    for r in runs:
        if cost.verified_instance(table, r.instance, r.descriptor)[0] is not None or not r.whole or r.notes < 2:
            continue
        key = (r.machine, r.device, r.workers, r.work)
        if key not in best or r.notes_per_second > best[key].notes_per_second:
            best[key] = r
    rows = []
    order = {work: i for i, work in enumerate(book_works(runs))}  # the blocks of book_cost_rows
    for r in sorted(best.values(), key=lambda r: (order.get(r.work, len(order)), -r.notes_per_second)):
        why = cost.verified_instance(table, r.instance, r.descriptor)[1]
        where = f"CPU, {r.workers} threads" if r.device == "cpu" else r.device
        rows.append(BookCostRow(f"{r.machine}: {where}", f"best book: {r.notes} notes, {r.series}; {why}", r.work,
                                r.notes_per_second))
    return rows


def plotted_runs(runs: list[BookRun]) -> list[BookRun]:
    """The points of the throughput plot: whole runs only, the fastest of a series at each book size."""
    best: dict = {}
    for r in runs:
        key = (r.series, r.notes)
        if r.whole and r.notes_per_second > 0 and (key not in best or r.notes_per_second > best[key].notes_per_second):
            best[key] = r
    return sorted(best.values(), key=lambda r: (r.series, r.notes))


def plot(runs: list[BookRun], out_dir: str):
    """Notes per second against book size, one line per series (device and precision first in its
    legend), each point labelled with its rate; None when no whole book was priced. An axis is
    linear where its values span less than figures.LOG_SPAN (three book sizes of 1 to 16 notes
    read as three dots on log axes), and no point sits on an axis' edge."""
    points = plotted_runs(runs)
    if not points:
        return None
    fig, axes = figures.new_figure(1)
    ax = axes[0]
    styles = figures.series_styles(r.series for r in points)
    for series in sorted(styles):
        mine = [r for r in points if r.series == series]
        ax.plot([r.notes for r in mine], [r.notes_per_second for r in mine], label=mine[0].legend, markersize=5,
                linestyle="-" if len(mine) > 1 else "none", **styles[series])
        for r in mine:
            ax.annotate(f"{r.notes_per_second:.3g}", (r.notes, r.notes_per_second), textcoords="offset points",
                        xytext=(4, 4), fontsize=7, color="0.3")
    figures.fit_axis(ax, "x", [r.notes for r in points])
    figures.fit_axis(ax, "y", [r.notes_per_second for r in points])
    ax.set(xlabel="notes in the book [notes]", ylabel="throughput [notes/s]",
           title="Book throughput against book size (whole books in one run; labels: notes/s)")
    figures.legend_below(fig, axes)
    return figures.save(fig, out_dir, "books")
