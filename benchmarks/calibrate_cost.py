#!/usr/bin/env python3
"""Measures the cost model's rates: nanoseconds per point-layer-step of each CPU variant, precision
and dimension on one thread (OMP_WAIT_POLICY=passive), over a few grid sizes, and writes them with
their machine, commit and date to solvers/contract/cost_rates.inc, which the pre-flight check reads
(solvers/contract/cost_model.hpp). GPU rows come from a `gpu_adi` Google Benchmark file measured on
a GPU (--gpu-benchmark), whose march times per step are of the sample ELS (2 layers) on n x n.
A step is a march step (`price --json`'s march_steps: a damped step counts half), as the book's
plan counts them; the marches are long (MARCH_STEPS) so that the set-up's seconds do not pass for
the march's.

    python3 benchmarks/calibrate_cost.py [--bin build/elsbench] [--gpu-benchmark FILE --gpu-name NAME]
        [--repetitions 3] [--out solvers/contract/cost_rates.inc] [--check]

--check measures nothing new for the table: it prices the CHECKS below, larger than the sizes
measured and on more threads, and prints each one's time against the model's (the fastest rate,
threads scaling perfectly, no faster machine): how far off the model is.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

# Layers per product: a knock-in note marches two value layers (alive and knocked in).
PRODUCTS = {1: ("european-call", 1), 2: ("min-call", 1), 3: ("els-3a-stepdown", 2)}
# Grid sizes per dimension, small to large enough to leave the caches (3-D 100: 1e6 points), each
# pricing within half a minute.
SIZES = {
    "adi": {1: [400, 1600, 6400], 2: [50, 100, 200, 400], 3: [24, 40, 64, 100]},
    "explicit": {1: [100, 400], 2: [40, 80, 120], 3: [16, 24, 32]},
    "cn-direct": {1: [400, 1600, 6400], 2: [30, 60, 100]},
}
PRECISIONS = {"adi": ["fp64", "mixed", "fp32"], "explicit": ["fp64"], "cn-direct": ["fp64"]}
# --nt per solver: a daily note's march is a thousand steps or more (the explicit one's are its
# stable steps, thousands already).
MARCH_STEPS = {"adi": 1000, "cn-direct": 1000}
# Beyond the calibrated sizes: solver, precision, dimension, n, threads.
CHECKS = [("adi", "fp64", 1, 25600, 1), ("adi", "fp64", 2, 1000, 1), ("adi", "fp64", 2, 1000, 2),
          ("adi", "mixed", 2, 800, 2), ("adi", "fp64", 3, 80, 1), ("adi", "mixed", 3, 80, 2),
          ("explicit", "fp64", 2, 200, 1), ("explicit", "fp64", 3, 48, 2), ("cn-direct", "fp64", 2, 150, 1),
          ("cn-direct", "fp64", 2, 200, 1)]
GPU_GRID_STEPS = 100  # benchmarks/gpu_adi.cpp's kGridSteps
CPP_PRECISION = {"fp64": "Precision::FP64", "fp32": "Precision::FP32", "mixed": "Precision::Mixed"}


def price(binary, solver, precision, product, n, threads=1, nt=None):
    cmd = [binary, "price", "--product", product, "--solver", solver, "--n", str(n), "--threads", str(threads),
           "--precision", precision, "--reference", "none", "--json"] + (["--nt", str(nt)] if nt else [])
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out)


def cpu_rows(binary, repetitions):
    rows = []
    for solver, dims in SIZES.items():
        for precision in PRECISIONS[solver]:
            for dim, sizes in dims.items():
                product, layers = PRODUCTS[dim]
                rates = []
                for n in sizes:
                    runs = [price(binary, solver, precision, product, n, nt=MARCH_STEPS.get(solver))
                            for _ in range(repetitions)]
                    seconds = statistics.median(r["seconds"] for r in runs)
                    r = runs[0]
                    rates.append((n, seconds / (r["grid_points"] * layers * r["march_steps"]) * 1e9))
                rows.append((solver, precision, dim, rates))
                print(f"{solver} {precision} {dim}-D: " + ", ".join(f"n={n} {ns:.3g} ns" for n, ns in rates),
                      file=sys.stderr)
    return rows


def benchmarks_of(path):
    """The benchmark entries of a Google Benchmark file, also of one cut short by a time limit
    (the entries complete before the cut)."""
    text = open(path).read()
    try:
        return json.loads(text)["benchmarks"]
    except json.JSONDecodeError:
        pass
    decoder, found = json.JSONDecoder(), []
    at = text.index('"benchmarks"')
    at = text.index("[", at) + 1
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        try:
            entry, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            return found
        found.append(entry)


def read_rates(path):
    """The fastest rate of each row of a cost_rates.inc, by (solver, precision, dim)."""
    rates = {}
    names = {v: k for k, v in CPP_PRECISION.items()}
    for line in open(path):
        m = re.match(r'\{"([^"]+)", ([A-Za-z:0-9]+), (\d), ([0-9.e+-]+), ', line)
        if m:
            rates[(m.group(1), names[m.group(2)], int(m.group(3)))] = float(m.group(4))
    return rates


def check(binary, rates_path):
    rates = read_rates(rates_path)
    for solver, precision, dim, n, threads in CHECKS:
        product, layers = PRODUCTS[dim]
        r = price(binary, solver, precision, product, n, threads)
        model = r["grid_points"] * layers * r["march_steps"] * rates[(solver, precision, dim)] * 1e-9 / threads
        print(f"{solver} {precision} {dim}-D n={n} threads {threads}: {r['seconds']:.3g} s, model {model:.3g} s, "
              f"actual/model {r['seconds'] / model:.2f}", flush=True)


def gpu_rows(path, binary):
    """Per march step: the benchmark's us_per_step counts every step of the sample's time grid at
    its --nt (gpu_adi's kGridSteps), damped ones whole; that grid's own ratio converts it."""
    grid = price(binary, "adi", "fp64", "sample-2a-stepdown", 20, nt=GPU_GRID_STEPS)
    per_march_step = grid["time_steps"] / grid["march_steps"]
    rows = {}
    for b in benchmarks_of(path):
        m = re.match(r"march/([^/]+)/([^/]+)/hundsdorfer-verwer/n:(\d+)/", b["name"])
        if not m or "us_per_step" not in b:
            continue
        variant, precision, n = m.group(1), m.group(2), int(m.group(3))
        ns = b["us_per_step"] * 1e3 * per_march_step / (n * n * 2)  # the sample ELS: n x n points, 2 layers
        rows.setdefault((variant, precision), []).append((n, ns))
    return [(v, p, 2, sorted(r)) for (v, p), r in sorted(rows.items())]


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def l3_cache():
    try:
        return open("/sys/devices/system/cpu/cpu0/cache/index3/size").read().strip()
    except OSError:
        return "unknown"


def commit(root, out):
    """HEAD, with "+changes" where the tree differs from it (besides the table being written): the
    build that measured may not be HEAD's."""
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, check=True).stdout.splitlines()
        rel = os.path.relpath(out, root)
        return head + ("+changes" if any(line[3:] != rel for line in changed) else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write(out, rows, cpu_header, gpu_header):
    lines = [
        "// Generated by benchmarks/calibrate_cost.py; do not edit (rerun it). Per row: solver, precision,",
        "// dimension, the fastest and the slowest ns per point-layer-step over the sizes measured, and",
        "// each size's {n, ns}.",
        f"// CPU rows: {cpu_header}",
    ]
    if gpu_header:
        lines.append(f"// GPU rows: {gpu_header}")
    for solver, precision, dim, rates in rows:
        ns = [r for _, r in rates]
        sizes = ", ".join(f"{{{n}, {r:.4g}}}" for n, r in rates)
        lines.append(f'{{"{solver}", {CPP_PRECISION[precision]}, {dim}, {min(ns):.4g}, {max(ns):.4g}, {{{sizes}}}}},')
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, out)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(root, "build", "elsbench"))
    ap.add_argument("--gpu-benchmark", help="a gpu_adi Google Benchmark JSON file measured on a GPU")
    ap.add_argument("--gpu-name", default="", help="the GPU and commit that measured it, for the header")
    ap.add_argument("--repetitions", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(root, "solvers", "contract", "cost_rates.inc"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.check:
        check(args.bin, args.out)
        return
    rows = cpu_rows(args.bin, args.repetitions)
    gpu_header = ""
    if args.gpu_benchmark:
        rows += gpu_rows(args.gpu_benchmark, args.bin)
        gpu_header = f"{args.gpu_name or 'a GPU'}, from {os.path.basename(args.gpu_benchmark)}"
    for solver, precision, dim, rates in rows:
        low = min(r for _, r in rates)
        print(f"{solver:24} {precision:5} {dim}-D  " + "  ".join(f"n={n}: {r / low:.2f}x" for n, r in rates))
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    cpu_header = (f"{cpu_name()}, L3 {l3_cache()}, {os.cpu_count()} cores, one thread, OMP_WAIT_POLICY=passive; "
                  f"commit {commit(root, args.out)}, {date}, {args.repetitions} runs a size (median)")
    write(args.out, rows, cpu_header, gpu_header)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
