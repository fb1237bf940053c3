#!/usr/bin/env python3
"""elsbench report: merges results files from several machines and renders plots (PNG and SVG),
report.md and a self-contained report.html into one directory.

Called by `elsbench report` with an interpreter that has matplotlib; runnable directly too, as a
module of the source tree (from its root, or with it on PYTHONPATH):
    python3 -m harness.report.render --out DIR [--baseline adi/cpu/t1] [--prices FILE] RESULTS.json...
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # the source tree may be read-only or shared

from . import books  # noqa: E402
from . import cost  # noqa: E402
from . import history  # noqa: E402
from . import plot_accuracy  # noqa: E402
from . import plot_cost  # noqa: E402
from . import plot_memory  # noqa: E402
from . import plot_speedup  # noqa: E402
from . import plot_time  # noqa: E402
from . import results  # noqa: E402
from . import tables  # noqa: E402
from . import tolerance  # noqa: E402
from .document import Section, write_html, write_markdown  # noqa: E402
from .gpu_memory import device_memory_rows, memory_models, models_for_gpus  # noqa: E402
from .speedup import Baseline, speedups  # noqa: E402

DEFAULT_PRICES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cloud", "prices.json")


def summary_section(paths, machines, cases, book_runs) -> Section:
    counts = {}
    for c in cases:
        counts[c.status] = counts.get(c.status, 0) + 1
    tally = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    incomplete = [m.label for m in machines if not m.complete]
    book_files = sorted({r.source_file for r in book_runs if r.source_file not in {m.source_file for m in machines}})
    shown = report_machines(machines, book_runs)
    labels = sorted({m.label for m in shown})
    text = [f"{len(cases)} cases from {len(paths) - len(book_files)} sweep or validation file(s) and "
            f"{len(book_files)} book file(s), on {len(labels)} machine(s): {tally or 'no case'}.",
            "Files: " + ", ".join(os.path.basename(p) for p in paths) + "."]
    if incomplete:
        text.append("Incomplete (interrupted) sweeps: " + ", ".join(incomplete) + ".")
    gpu_books = any(r.gpus and r.whole for r in book_runs)
    if not cases:
        text.append("No sweep or validation file: the sections of single pricings (time, speedup, memory, error, "
                    "cost per 1,000 pricings, validation) are left out.")
    elif not any(c.on_gpu and c.measured for c in cases):
        text.append("No single GPU pricing was measured in these files: the per-pricing GPU columns read 'not "
                    "measured'" + ("; GPU books were (Books of notes)." if gpu_books else "."))
    return Section("Summary", text, tables=[tables.machine_table(shown)])


def report_machines(machines, book_runs) -> list[results.Machine]:
    """The machines of the sweep files, then each machine that only priced books, once."""
    shown = list(machines)
    sweep_files = {m.source_file for m in machines}
    for r in book_runs:
        if r.source_file not in sweep_files and r.machine not in {m.label for m in shown}:
            shown.append(book_machine(r))
    return shown


def book_machine(run) -> results.Machine:
    """A book file's machine, for the machine table."""
    return results.Machine(label=run.machine, descriptor=run.descriptor, source_file=run.source_file, preset="book",
                           started=run.started, complete=run.whole or run.failed > 0)


def speedup_section(cases, asked, out_dir) -> Section:
    baseline = asked.resolved(cases)
    points = speedups(cases, baseline)
    used = f"Baseline used: {baseline}" + (f" (asked: {asked}; without a precision, its most precise one measured)"
                                           if baseline != asked else "")
    text = [f"{used}. The same product on the same mesh, measured on the same machine where it was, "
            "else on the machine named in the baseline column. Work unit: on the same time steps, the ratio of "
            "times per pricing; where the steps differ (each solver's own `nt auto` rule), the ratio of time per "
            "point-step (grid points x time steps), drawn hollow and named in the table's last column."]
    figure = plot_speedup.plot(points, baseline, out_dir)
    if figure is None:
        text.append(f"No plot: no measured case shares a product and mesh with a {baseline} case; choose another "
                    "with --baseline (e.g. adi/cpu for CPU adi at any thread count).")
    return Section(f"Speedup over {baseline}", text, figure, [tables.speedup_table(points)])


def memory_section(cases, out_dir) -> Section:
    models = memory_models(cases)
    shown, gpu = models_for_gpus(models)
    text = ["Dashed lines: each solver's analytic memory model (model_bytes_per_point x grid points); markers: "
            "measured peak bytes (device memory for GPU cases, host heap for CPU cases). Capacities are nominal; "
            "the CUDA context takes a few hundred MiB of them.",
            "Table cells: largest nodes per axis of a square (2-D) or cubic (3-D) grid that fits / how many pricings "
            "of the batch grid fit at once."]
    if not gpu:
        text.append("No GPU solver reported a memory model: the CPU solvers' models and host peaks are drawn without "
                    "GPU capacities (the tables' capacities are for scale only).")
    elif not any(c.on_gpu and c.fields.get("peak_device_bytes") for c in cases):
        text.append("No GPU case ran in these files (the GPU cases were skipped): the GPU rows are the analytic "
                    "models alone, counted from the solvers' allocations but not yet checked against a measured "
                    "device peak.")
    device_rows = device_memory_rows(cases)
    tabs = [tables.memory_fit_table(shown), tables.book_fit_table(shown)]
    if device_rows:
        text.append("GPU cases: the memory model's bytes next to the device's measured peak (the drop of "
                    "cudaMemGetInfo's free memory over the pricing: arrays, library workspaces, graphs; context "
                    "excluded); 'unmeasured' where no device ran the case.")
        tabs.append(tables.device_memory_table(device_rows))
    figure = plot_memory.plot(cases, shown, gpu, out_dir)
    if figure is None:
        text.append("No plot: no case reported a memory model or a measured peak.")
    return Section("Memory vs grid size", text, figure, tabs)


def time_section(cases, out_dir) -> Section:
    text = ["Median of the repetitions; one line per solver, scheme, precision, device and machine, its n in the "
            "legend. Work unit: one pricing on that grid, each solver at its own time steps (the table's grid "
            "column)."]
    figure = plot_time.plot(cases, out_dir)
    if figure is None:
        text.append("No plot: no case was measured.")
    return Section("Time vs grid size", text, figure, [tables.measurement_table(cases)])


def accuracy_section(cases, out_dir) -> Section:
    text = ["Absolute error against the reference (closed form or stored Monte Carlo value) against time per "
            "pricing: accuracy per cost; each point is labelled with its n. Red crosses failed validation."]
    figure = plot_accuracy.plot(cases, out_dir)
    if figure is None:
        text.append("No plot: no measured case has a reference.")
    return Section("Error vs time", text, figure)


def cost_section(cases, machines, prices_path, out_dir) -> Section:
    table = cost.load_prices(prices_path)
    product = cost.cost_product(cases)
    text = [f"Cost per 1,000 pricings = on-demand $/hour x measured median seconds per pricing x 1000 / 3600. "
            f"Prices: {os.path.relpath(prices_path)}, written {table.written}. {table.prices_as_of}",
            "Only measured times are used: an instance counts as measured when a results file was produced on it "
            "(--instance) or on the same GPU model (then only GPU solver times count). Others read 'not measured'; "
            "nothing is projected."]
    if product is None:
        text.append("No passing case was measured: no cost can be given.")
        return Section("Cost per 1,000 pricings", text, tables=[tables.price_table(table)])
    shape, steps = cost.headline_grid(cases, product, table, machines)
    title = f"Cost per 1,000 pricings: {product}, {'x'.join(map(str, shape))}, {steps} steps"
    figure = plot_cost.plot(cost.cost_rows(table, machines, cases, product, (shape, steps)), title, out_dir)
    if figure is None:
        text.append("No plot: no priced instance measured this product (the table says what would fill each row).")
    rows = cost.cost_table_rows(table, machines, cases, product)
    return Section("Cost per 1,000 pricings", text, figure,
                   [tables.cost_table(rows), tables.price_table(table)])


def books_section(runs, machines, cases, prices_path, out_dir) -> Section:
    rows = books.book_cost_rows(cost.load_prices(prices_path), runs, machines, cases)
    text = ["Notes per second of `elsbench book price` runs and of sweep cases of the `book` axis against the "
            "number of notes in the book, one series per solver, precision, n, device, workers and machine; a "
            "series is a line only across distinct book sizes. Only whole books count: a run that resumed a "
            "book, or in which notes failed, did not price the book it names.",
            "Cost per 1,000 notes = on-demand $/hour / 3600 / best measured notes per second x 1000, the best "
            "whole book of that instance or of its GPU model measured elsewhere, among books of equal work only: "
            "the same notes (a digest of their ids and dimensions, or a sweep's copies of one product), the same "
            "grid n and precision or the same --target-error; one block of rows per book, named in the first "
            "column, the book measured on the most machines first. Where no book was run there, "
            "its fastest single pricing stands in and the row says so. Machines that no priced instance stands "
            "for (CPU runs, machines without --instance) give their throughput without a price."]
    unmeasured = [r.instance for r in rows if r.unmeasured]
    if unmeasured:
        text.append("Not measured (a whole book priced on the instance, `elsbench book price BOOK --out FILE "
                    "--instance ID`, or for a GPU instance on any GPU of its model, would fill it): " + ", ".join(unmeasured) + ".")
    partial = [r for r in runs if not r.whole]
    if partial:
        text.append("Left out of the plot and the costs: " + "; ".join(
            f"{os.path.basename(r.source_file)} ({r.why_not_whole})" for r in partial) + ".")
    figure = books.plot(runs, out_dir)
    if figure is None:
        text.append("No plot: no book was priced whole in one run.")
    return Section("Books of notes", text, figure, [tables.book_cost_table([r for r in rows if not r.unmeasured])])


def validation_section(cases, rejudged=None) -> Section:
    """rejudged: (--tol's text, products whose verdict stood as run) when report --tol judged again."""
    notes = []
    if rejudged:
        tol, kept = rejudged
        notes.append(f"Judged again at --tol {tol}: every case with a reference passes when |price - reference| <= "
                     f"3 x reference standard error + {tol}, whatever allowance its run used"
                     + (f"; kept as run (no known notional for a tolerance in bp): {', '.join(kept)}." if kept else "."))
    return Section("Validation", notes + ["|price - reference| <= allowance (k x reference standard error + discretisation "
                                  "tolerance) passes; UNCONVERGED: the estimated discretisation error exceeds the "
                                  "tolerance (cases run with --error-estimate). The tolerance is grid-scaled, "
                                  "c x (100/n)^2 x the price's scale, unless a --target-error bar set it: a coarse "
                                  "grid passes with a wide allowance, so errors and allowances are also given in "
                                  "basis points of the catalog product's notional ('-' for a product not in "
                                  "products/catalog/).",
                                  "not checked: no closed form or stored reference covers the case and none was "
                                  f"asked for (a sweep's default, and --reference none, look up stored values only; "
                                  f"the file does not tell the two apart). {tables.ASKED_BUT_MISSING}: --reference "
                                  "auto was asked and computed none."],
                   tables=[tables.validation_table(cases), tables.error_estimate_table(cases)])


def history_section(folder, found, out_dir) -> Section:
    paths, skipped = found.results, found.skipped
    histories = history.load_history(paths)
    moved = history.changes(histories)
    shown = os.path.relpath(folder) if not os.path.relpath(folder).startswith("..") else folder
    text = [f"Every sweep and validate results file under {shown} ({len(paths)} files), each case followed from run "
            "to run on the same machine (machines are told apart by host and hardware). What moved is elsbench "
            "compare's verdict on the two runs, its one rule: a time when a Mann-Whitney test over the repetitions "
            "finds it (p < 0.05) and the median moved by more than 10 % (a run marked noisy flags nothing; with "
            "three repetitions a side no change can be significant); a price when it moved by more than 1e-6. A "
            "change is named with the commit of the run that shows it: the code changed between the two commits, "
            "or the machine's state did."]
    if skipped:
        text.append("Not read: " + ", ".join(skipped) + ".")
    figure = history.plot(histories, moved, out_dir)
    if figure is None:
        text.append("No plot: no case ran more than once on the same machine in these files.")
    elif not moved:
        text.append("No case moved beyond the noise.")
    stopped = history.unmatched(paths)
    if stopped:
        text.append("A case a run has and the next run of the same machine has not is not followed: the table "
                    "of cases that stopped matching names the settings in which the next run's cases of the same "
                    "products differ (compare names them the same way, and --by AXIS compares along one).")
    return Section("History across commits", text, figure,
                   [tables.history_change_table(moved), *([tables.history_unmatched_table(stopped)] if stopped else []),
                    tables.history_runs_table(histories)])


def render(paths, out_dir, baseline_spec, prices_path, history_folder=None, tol=None):
    # Every input is read and checked before anything is written; the report is drawn in a
    # temporary folder beside OUT and moved into place whole, so a failure leaves no plots
    # without their report.md and report.html.
    baseline = Baseline.parse(baseline_spec)
    folder = history.read_folder(history_folder) if history_folder is not None else None
    if folder is not None and not paths:  # the latest run of each case per machine stands for the folder
        paths = folder.results + folder.books
        if not paths:
            raise ValueError(f"{history_folder}: no results file found")
    book_paths = [p for p in paths if books.is_book_file(p)]
    book_runs = [books.load_book(p) for p in book_paths]
    machines, every_case = results.load([p for p in paths if p not in book_paths])
    book_runs += books.sweep_book_runs(every_case)
    # A case of the book axis times a whole book: only single notes enter the per-pricing sections.
    cases = [c for c in every_case if c.book == 1]
    kept = tolerance.rejudge(every_case, tol) if tol else []
    cost.load_prices(prices_path)
    parent = os.path.dirname(os.path.abspath(out_dir))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".report-", dir=parent)
    try:
        _draw(paths, staging, baseline, prices_path, book_runs, machines, cases, every_case, history_folder, folder,
              (tol, kept) if tol else None)
        os.makedirs(out_dir, exist_ok=True)
        for name in sorted(os.listdir(staging)):
            os.replace(os.path.join(staging, name), os.path.join(out_dir, name))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _draw(paths, out_dir, baseline, prices_path, book_runs, machines, cases, every_case, history_folder=None,
          folder=None, rejudged=None):
    # A report of books alone has no single pricing: its per-pricing sections would be empty shells.
    single = [
        time_section(cases, out_dir),
        speedup_section(cases, baseline, out_dir),
        memory_section(cases, out_dir),
        accuracy_section(cases, out_dir),
        cost_section(cases, machines, prices_path, out_dir),
    ] if cases else []
    sections = [
        summary_section(paths, machines, every_case, book_runs),
        *single,
        *([books_section(book_runs, machines, cases, prices_path, out_dir)] if book_runs else []),
        *([validation_section(cases, rejudged)] if cases else []),
        *([history_section(history_folder, folder, out_dir)] if folder is not None else []),
    ]
    title = "elsbench report: " + ", ".join(m.label for m in report_machines(machines, book_runs))
    write_markdown(os.path.join(out_dir, "report.md"), title, sections)
    write_html(os.path.join(out_dir, "report.html"), title, sections)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="*", help="results files written by elsbench sweep, validate or book price")
    parser.add_argument("--history", metavar="DIR", help="a folder of results files (searched recursively): each "
                        "case's time and price across commits; without RESULTS, its files are the report's")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--baseline", default="adi/cpu/t1", help="SOLVER[:SCHEME]/DEVICE[/tTHREADS][/PRECISION]")
    parser.add_argument("--prices", default=DEFAULT_PRICES, help="cloud price table")
    parser.add_argument("--tol", help="judge every case with a reference at this allowance (1bp of the notional, "
                        "or an amount: 0.01) instead of its run's")
    args = parser.parse_args(argv)
    try:
        if not args.results and args.history is None:
            parser.error("give RESULTS files, --history DIR, or both")
        render(args.results, args.out, args.baseline, args.prices, args.history, args.tol)
    except (OSError, ValueError, KeyError) as e:
        # Bad input (a damaged results file names its field): exit 2, no traceback.
        print(f"render.py: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - an internal error still gets one line, not a traceback
        print(f"render.py: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(f"report written to {os.path.join(args.out, 'report.html')} and report.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
