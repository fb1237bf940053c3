"""The report's tables as plain headers and rows; document.py writes them as Markdown and HTML."""
from __future__ import annotations

import os

from dataclasses import dataclass

from . import catalog
from . import formatting as fmt
from .gpu_memory import BOOK_N, GPU_CAPACITIES

# "no-reference" reads as a failure where no reference was asked for: a sweep's default looks up
# closed forms and stored values only (stored, the same mode as --reference none in the file), and
# a case none of them covers was simply not checked. Only --reference auto asked for one.
VERDICTS = {"pass": "PASS", "fail": "FAIL", "no-reference": "not checked", "unconverged": "UNCONVERGED"}
ASKED_BUT_MISSING = "no reference (asked: --reference auto)"


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str = ""


def _verdict(case) -> str:
    if case.status == "no-reference" and case.machine.references_mode == "auto":
        return ASKED_BUT_MISSING
    if case.status == "skipped":
        return f"skipped: {case.skip_reason}"
    if case.fields.get("price") is None and case.fields.get("skip_reason"):  # unconverged: its price lay outside its bounds
        return f"{VERDICTS.get(case.status, case.status)}: {case.skip_reason}"
    return VERDICTS.get(case.status, case.status)


def _reference(case) -> str:
    if case.reference is None:
        return "-"
    stderr = case.fields.get("reference_stderr")
    text = fmt.number(case.reference)
    return text + (f" ± {fmt.number(stderr, 2)}" if stderr else "") + f" ({case.fields.get('reference_source', '')})"


def in_bp(amount, product: str) -> str:
    """A price amount in basis points of the product's notional, or '-' where either is unknown."""
    notional = catalog.notional(product)
    return "-" if amount is None or notional is None else f"{amount / notional * 1e4:.3g}"


def allowance_source(case) -> str:
    """Where the allowance comes from: a PASS is only as strict as this (57 bp off passed at n = 32
    under a grid-scaled allowance)."""
    if case.fields.get("allowance") is None:
        return "-"
    if case.fields.get("tol_source"):
        source = case.fields["tol_source"]
    elif case.fields.get("accuracy"):
        source = "the --target-error bar"
    else:
        source = f"grid-scaled tolerance at n = {case.fields.get('n', '?')}"
    return source + (" + 3 x reference std. error" if case.fields.get("reference_stderr") else "")


def validation_table(cases) -> Table:
    rows = [[c.product, c.config, c.grid, c.device_name if c.on_gpu else f"CPU t{c.threads}", c.machine.label,
             fmt.number(c.price), _reference(c), fmt.signed(c.error),
             "-" if c.error is None else in_bp(abs(c.error), c.product), in_bp(c.allowance, c.product),
             allowance_source(c), _verdict(c)]
            for c in cases]
    return Table(["product", "solver", "grid", "device", "machine", "price", "reference", "error",
                  "|error| [bp of notional]", "allowance [bp]", "allowance from", "verdict"], rows)


def _order(axis: dict | None) -> str:
    if not axis:
        return "-"
    observed = axis.get("observed_order")
    used = fmt.number(axis.get("order"), 3)
    return used + (" (observed)" if observed is not None and observed == axis.get("order") else " (nominal)")


def error_estimate_table(cases) -> Table:
    """Estimated against actual error, for the cases run with --error-estimate. The ratio is the
    actual error over the estimate: near 1 where the estimate can be trusted."""
    rows = []
    for c in cases:
        estimate = c.fields.get("error_estimate")
        if not estimate or c.price is None:
            continue
        actual = c.fields.get("error")
        ratio = actual / estimate["error"] if actual is not None and estimate["error"] else None
        rows.append([c.product, c.config, c.grid, c.machine.label, fmt.signed(estimate["error"]), fmt.signed(actual),
                     fmt.number(ratio, 2), _order(estimate.get("space")), _order(estimate.get("time")),
                     fmt.number(estimate.get("extrapolated")), fmt.number(c.fields.get("tol"), 3), _verdict(c)])
    return Table(["product", "solver", "grid", "machine", "estimated error", "actual error", "actual / estimated",
                  "space order", "time order", "extrapolated", "tol", "verdict"], rows)


def measurement_table(cases) -> Table:
    rows = []
    for c in cases:
        if not c.measured:
            continue
        reps = c.repetition_seconds
        spread = f"{fmt.seconds(min(reps))} – {fmt.seconds(max(reps))}" if reps else "-"
        rows.append([c.product, c.config, c.grid, c.device_name if c.on_gpu else f"CPU t{c.threads}", c.machine.label,
                     fmt.seconds(c.median_seconds), spread, str(len(reps)), fmt.number(c.fields.get("points_per_second"), 3),
                     fmt.bytes_(c.peak_host_bytes), fmt.bytes_(c.peak_device_bytes), timing_quality(c)])
    return Table(["product", "solver", "grid", "device", "machine", "median time", "min – max", "reps",
                  "points·steps/s", "peak host", "peak device", "timing"], rows)


def timing_quality(c) -> str:
    """NOISY with why (the machine was busy or throttled), else the median's 95 % interval."""
    if c.fields.get("noisy"):
        return f"NOISY: {c.fields.get('noise') or 'busy machine'}"
    interval = c.fields.get("median_interval")
    if interval is None:
        return "-"
    return f"±{100 * interval:.1f}% ({c.fields.get('timing_stop') or '-'})"


def machine_table(machines) -> Table:
    rows = []
    for m in machines:
        d = m.descriptor
        gpus = "; ".join(f"{g.get('name')} ({fmt.gibibytes(g.get('memory_bytes'))}, {g.get('sm_count')} SMs, "
                         f"cc {g.get('compute_capability')}, driver {g.get('driver')}, runtime {g.get('runtime')})"
                         for g in d.get("gpus") or []) or ("none" + (f" ({d['gpus_note']})" if d.get("gpus_note") else ""))
        rows.append([m.label, d.get("instance") or "-", d.get("hostname", "-"), d.get("cpu_model", "-"),
                     str(d.get("cores", "-")), fmt.gibibytes(d.get("memory_bytes")), d.get("os", "-"),
                     f"{d.get('compiler', '-')} {d.get('build_type', '')} {(d.get('cxx_flags') or '').strip()}".strip(),
                     d.get("git_commit", "-"),
                     ("yes" if d.get("cuda_built") else "no") + (f" (runtime {d['cuda_runtime']}, driver {d['cuda_driver']})"
                                                                 if d.get("cuda_built") and "cuda_runtime" in d else ""),
                     gpus,
                     m.preset + ("" if m.complete else " (incomplete)"), m.started])
    return Table(["machine", "instance", "host", "CPU", "cores", "memory", "OS", "compiler, build", "commit",
                  "CUDA build", "GPUs", "preset", "started"], rows)


def speedup_table(points) -> Table:
    rows = [[p.case.product, p.case.grid, p.case.series, fmt.seconds(p.case.median_seconds), p.baseline.series,
             fmt.seconds(p.baseline.median_seconds), f"{p.factor:.3g}x", p.work] for p in points]
    return Table(["product", "grid", "configuration", "time", "baseline", "baseline time", "speedup", "work unit"],
                 rows)


def memory_fit_table(models) -> Table:
    rows = []
    for m in models:
        batch_grid = "x".join(str(n) for n in m.largest_measured_shape)
        row = [m.label, f"{m.bytes_per_point:.4g}", batch_grid]
        row += [f"{m.largest_n(cap):,} / {m.batch(cap):,}" for _, cap in GPU_CAPACITIES]
        rows.append(row)
    return Table(["configuration", "bytes per point", "batch grid"] + [name for name, _ in GPU_CAPACITIES], rows)


def device_memory_table(rows) -> Table:
    """Each GPU case's modelled bytes, the device's measured peak (cudaMemGetInfo) and their ratio."""
    body = [[r.label, r.grid, fmt.bytes_(r.model_bytes),
             fmt.bytes_(r.measured_bytes) if r.measured_bytes is not None else "unmeasured",
             f"{r.ratio:.3f}" if r.ratio is not None else "-"] for r in rows]
    return Table(["GPU case", "grid", "model", "measured (cudaMemGetInfo)", "measured / model"], body)


def book_fit_table(models) -> Table:
    """The largest book each GPU holds in one batch at n = 100 and 200, from the memory model."""
    rows = [[m.label, f"n = {n}"] + [f"{m.largest_book(cap, n):,}" for _, cap in GPU_CAPACITIES]
            for m in models for n in BOOK_N]
    return Table(["configuration", "grid"] + [name for name, _ in GPU_CAPACITIES], rows)


def book_cost_table(rows) -> Table:
    def cost(r):
        if r.per_1000 is not None:
            return f"${r.per_1000:.4g}"
        return "-" if r.notes_per_second is None else "no price"
    body = [[r.book or "-", r.instance, "-" if r.notes_per_second is None else f"{r.notes_per_second:.4g}", cost(r),
             r.basis] for r in rows]
    return Table(["book (equal work)", "instance or machine", "notes per second", "cost per 1,000 notes", "basis"],
                 body)


def cost_table(rows) -> Table:
    out = []
    for r in rows:
        e = r.entry
        head = ([e.provider, e.instance, e.hardware, fmt.dollars(e.usd_per_hour)]
                if e else ["-", r.machine, "-", "no price"])
        if not r.measured:
            out.append(head + ["-", "not measured", "-", "-", "-", r.basis])
            continue
        cost = fmt.dollars(r.per_1000) if r.per_1000 is not None else "no price"
        out.append(head + [r.case.grid, f"{r.case.config}, {r.case.device_name if r.case.on_gpu else 'CPU t%d' % r.case.threads}",
                           fmt.seconds(r.case.median_seconds), cost, fmt.dollars(r.per_1000_spot), r.basis])
    return Table(["provider", "instance", "hardware", "$/hour", "grid", "fastest passing configuration",
                  "time per pricing", "$ per 1,000", "spot $ per 1,000", "basis"], out)


def price_table(table) -> Table:
    rows = [[e.provider, e.instance, e.id, e.hardware, fmt.dollars(e.usd_per_hour),
             fmt.dollars(e.usd_per_hour_spot), e.region or "-", e.source, e.as_of or "-", e.notes] for e in table.entries]
    return Table(["provider", "instance", "--instance id", "hardware", "$/hour", "spot $/hour", "region", "source",
                  "as of", "notes"], rows,
                 f"Price table (written {table.written})")


def history_change_table(moved) -> Table:
    rows = [[c.history.machine, c.history.case_id, c.kind, f"{c.before.commit[:7]} ({c.before.started[:10]})",
             f"{c.after.commit[:7]} ({c.after.started[:10]})", c.amount, c.cause] for c in moved]
    return Table(["machine", "case", "what moved", "from run", "to run", "change", "cause"], rows,
                 caption="Changes beyond the noise")


def history_unmatched_table(found) -> Table:
    rows = [[u.machine, os.path.basename(u.before), os.path.basename(u.after), str(u.lost), u.why,
             f"elsbench compare {os.path.basename(u.before)} {os.path.basename(u.after)}"] for u in found]
    return Table(["machine", "run", "next run", "cases not followed", "settings that differ", "compare"], rows,
                 caption="Cases that stopped matching")


def history_runs_table(histories) -> Table:
    runs: dict = {}
    for h in histories:
        for p in h.points:
            key = (h.machine, p.started, p.commit, p.source_file)
            runs[key] = runs.get(key, 0) + 1
    rows = [[machine, started, commit[:12], os.path.basename(source), str(n)]
            for (machine, started, commit, source), n in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1]))]
    return Table(["machine", "started", "commit", "file", "cases"], rows, caption="Runs")
