"""Each case's time and price across commits and dates, per machine, as asv draws a benchmark's
history: the results files of a folder (results/ holds one folder per machine) read as runs, a case
followed from run to run on the same machine, and a change beyond the noise flagged with the
commit that brought it.

What moved is elsbench compare's verdict on the two runs (`compare BEFORE AFTER --json`), the one
regression rule: a time when a Mann-Whitney test over the repetitions says so and the median moved
beyond compare's noise allowance (a run marked noisy flags nothing); a price when it moved beyond
compare's price tolerance. The binary is $ELSBENCH_BIN (elsbench report sets it).
"""
from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field

from . import books
from . import figures
from . import results
from .schema import ResultsError, elsbench_binary, read_json, read_results

@dataclass
class Point:
    commit: str
    started: str
    seconds: float | None
    price: float | None
    noisy: bool
    source_file: str


@dataclass
class CaseHistory:
    machine: str
    case_id: str
    product: str
    points: list[Point] = field(default_factory=list)


@dataclass
class Change:
    history: CaseHistory
    before: Point
    after: Point
    kind: str  # "time" or "price"

    @property
    def cause(self) -> str:
        """Code between two commits, or the machine's state when the commit is the same."""
        if self.before.commit == self.after.commit:
            return "same commit: the machine's state (load, frequency), not the code"
        return f"the code between {self.before.commit[:7]} and {self.after.commit[:7]}, or the machine's state"

    @property
    def amount(self) -> str:
        if self.kind == "time":
            return f"{self.after.seconds / self.before.seconds:.3g}x time"
        return f"price {self.before.price:.10g} -> {self.after.price:.10g}"


@dataclass
class Folder:
    """A results folder read once: its sweep and validate files (the history's), its book files,
    and the JSON files the history does not read, each with why."""
    results: list[str] = field(default_factory=list)
    books: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def read_folder(folder: str) -> Folder:
    if not os.path.isdir(folder):
        raise ResultsError(folder, "--history", "not a folder of results files")
    found = Folder()
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            path = os.path.join(root, name)
            try:
                data = read_json(path)
                if books.book_part(data) is not None:
                    found.books.append(path)
                meta = (data.get("context") or {}).get("elsbench") if isinstance(data, dict) else None
                if not isinstance(meta, dict) or "benchmarks" not in data or meta.get("preset") == "book":
                    found.skipped.append(f"{os.path.relpath(path, folder)} (not a sweep results file)")
                    continue
                read_results(path)
            except ResultsError as e:  # one damaged file in a folder of many: named, not fatal
                found.skipped.append(f"{os.path.relpath(path, folder)} ({e})")
                continue
            found.results.append(path)
    return found


def load_history(paths: list[str]) -> list[CaseHistory]:
    """Every case of every run, grouped by machine and case, in the order the runs started."""
    histories: dict[tuple[str, str], CaseHistory] = {}
    for machine, cases in sorted(results.load_runs(paths), key=lambda run: run[0].started):
        for case_id, c in cases.items():
            if c.status == "skipped":
                continue
            h = histories.setdefault((machine.label, case_id), CaseHistory(machine.label, case_id, c.product))
            h.points.append(Point(machine.commit, machine.started, c.median_seconds, c.fields.get("price"),
                                  bool(c.fields.get("noisy")), machine.source_file))
    return sorted(histories.values(), key=lambda h: (h.machine, h.product, h.case_id))


PRECISIONS = ("fp64", "fp32", "mixed")


def case_axes(case_id: str) -> dict[str, str]:
    """A case id's settings by axis (harness/results/RESULTS_SCHEMA.md: product/solver[:scheme]/
    n=../nt=../<cpu/tN|cuda:i|book>/<precision>[/key=value...]), as compare reads them."""
    parts = case_id.split("/")
    axes = {"product": parts[0], "solver": parts[1] if len(parts) > 1 else ""}
    device = []
    for part in parts[2:]:
        key, eq, value = part.partition("=")
        if eq:
            axes[key] = value
        elif part in PRECISIONS:
            axes["precision"] = part
        else:
            device.append(part)
    axes["device"] = "/".join(device)
    return axes


@dataclass
class Unmatched:
    """Cases of one run that the next run of the same machine does not have, and why: the settings
    in which the next run's cases of the same products differ."""
    machine: str
    before: str  # file
    after: str
    lost: int
    differences: dict[str, tuple[list[str], list[str]]]  # axis -> (values before, values after)

    @property
    def why(self) -> str:
        if not self.differences:
            return "the next run has no case of these products"
        return "; ".join(f"{axis} {', '.join(b)} -> {', '.join(a)}" for axis, (b, a) in self.differences.items())


def _numbers_first(value: str):
    """Grid sizes in numeric order (250 before 1000), words after them."""
    try:
        return (0, float(value), value)
    except ValueError:
        return (1, 0.0, value)


def unmatched(paths: list[str]) -> list[Unmatched]:
    """Between consecutive runs of each machine, the cases that stopped matching, with the settings
    that differ (`elsbench compare BEFORE AFTER` names them the same way)."""
    by_machine: dict[str, list] = {}
    for machine, cases in sorted(results.load_runs(paths), key=lambda run: run[0].started):
        by_machine.setdefault(machine.label, []).append((machine.source_file, set(cases)))
    found = []
    for label, runs in sorted(by_machine.items()):
        for (file_a, ids_a), (file_b, ids_b) in zip(runs, runs[1:]):
            lost, gained = ids_a - ids_b, ids_b - ids_a
            if not lost:
                continue
            before = [case_axes(i) for i in lost]
            products = {axes["product"] for axes in before}
            after = [axes for axes in map(case_axes, gained) if axes["product"] in products]
            differences = {}
            for axis in sorted({k for axes in before + after for k in axes} - {"product"}):
                b = sorted({axes.get(axis, "-") for axes in before}, key=_numbers_first)
                a = sorted({axes.get(axis, "-") for axes in after}, key=_numbers_first)
                if after and b != a:
                    differences[axis] = (b, a)
            found.append(Unmatched(label, file_a, file_b, len(lost), differences))
    return found


def compare_verdicts(before_file: str, after_file: str) -> dict[str, dict]:
    """elsbench compare's verdict on each case the two runs share, by case id ({} when compare
    finds them not comparable)."""
    run = subprocess.run([elsbench_binary("--history"), "compare", before_file, after_file, "--json", "--allow-missing"],
                         capture_output=True, text=True, check=False)
    if run.returncode == 2:
        return {}
    if run.returncode not in (0, 1):
        raise ResultsError(after_file, "--history", f"elsbench compare failed: {run.stderr.strip()}")
    return {c["case_id"]: c for c in json.loads(run.stdout)["cases"]}


def changes(histories: list[CaseHistory], verdicts=compare_verdicts) -> list[Change]:
    """Each step from one run to the next of a case on one machine that compare says moved."""
    found, judged = [], {}
    for h in histories:
        for before, after in zip(h.points, h.points[1:]):
            pair = (before.source_file, after.source_file)
            if pair not in judged:
                judged[pair] = verdicts(*pair)
            verdict = judged[pair].get(h.case_id)
            if verdict is None:
                continue
            if verdict["price_moved"]:
                found.append(Change(h, before, after, "price"))
            if verdict["time"] in ("slower", "faster"):
                found.append(Change(h, before, after, "time"))
    return found


def plot(histories: list[CaseHistory], moved: list[Change], out_dir: str):
    """Time (relative to each case's first run) and price change (relative) against the run, one
    line per case and machine; None when no case ran twice on one machine."""
    followed = [h for h in histories if len(h.points) > 1]
    if not followed:
        return None
    runs = sorted({(p.started, p.commit) for h in followed for p in h.points})
    x_of = {run: i for i, run in enumerate(runs)}
    fig, (ax_time, ax_price) = figures.new_figure(2)
    styles = figures.series_styles(h.machine for h in followed)
    for h in followed:
        xs = [x_of[(p.started, p.commit)] for p in h.points]
        first = h.points[0]
        style = {"color": styles[h.machine]["color"], "label": h.machine}
        if first.seconds:
            ax_time.plot(xs, [(p.seconds or float("nan")) / first.seconds for p in h.points], marker="o",
                         markersize=3, linewidth=0.8, alpha=0.6, **style)
        if first.price:
            ax_price.plot(xs, [abs((p.price - first.price) / first.price) + 1e-16 if p.price is not None else float("nan")
                               for p in h.points], marker="o", markersize=3, linewidth=0.8, alpha=0.6, **style)
    for c in moved:
        x = x_of[(c.after.started, c.after.commit)]
        first = c.history.points[0]
        if c.kind == "time":
            ax_time.plot([x], [c.after.seconds / first.seconds], marker="o", markersize=7, markerfacecolor="none",
                         color="red", linestyle="none", label="moved beyond the noise")
        elif first.price and c.after.price is not None:
            ax_price.plot([x], [abs((c.after.price - first.price) / first.price) + 1e-16], marker="o", markersize=7,
                          markerfacecolor="none", color="red", linestyle="none", label="moved beyond the noise")
    labels = [f"{started[:10]}\n{commit[:7]}" for started, commit in runs]
    for ax in (ax_time, ax_price):
        ax.set_xticks(range(len(runs)), labels, fontsize=7)
        ax.set_xlabel("run [date, commit]")
    ax_time.set(yscale="log", ylabel="time / the case's first run [x]", title="Time per pricing across commits")
    ax_price.set(yscale="log", ylabel="|price / the case's first price - 1| [relative]",
                 title="Price across commits (1e-16: unchanged)")
    figures.legend_below(fig, [ax_time, ax_price])
    fig.suptitle("History: each case on each machine, run after run")
    return figures.save(fig, out_dir, "history")
