#!/usr/bin/env python3
"""A seeded mutation fuzz of `elsbench price` over every CPU solver (docs/reliability.md).

Each run takes a catalog product, replaces some of its numbers with extreme values (0, negatives,
1e308, 1e-308, 1e400, inf, nan, huge integers, strings, null) or drops a field, picks a CPU solver
(explicit, adi with each scheme, cn-direct) and random values for its numeric flags, and runs
`elsbench price --json`. The only acceptable outcomes are:

  exit 0  with JSON whose numbers are all finite (a null price is a non-finite price),
  exit 2  with a message naming the field or flag,
  exit 3  with a reason,

within --time-limit seconds. A signal, exit 1, any other code, a non-finite number or a run past
the limit is a finding: printed with the command that reproduces it, and the exit status is 1.

    python3 tests/fuzz/price_fuzz.py --elsbench build/elsbench --runs 200 --seed 1
"""
import argparse
import json
import math
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOLVERS = ["explicit", "adi:hundsdorfer-verwer", "adi:modified-craig-sneyd", "adi:craig-sneyd",
           "adi:douglas", "cn-direct"]
# Raw JSON text, so that values Python cannot hold (1e400) and those JSON cannot (NaN) reach the loader.
EXTREME_NUMBERS = ["0", "-0.0", "-1", "1", "1e308", "-1e308", "1e-308", "-1e-308", "5e-324", "1e400",
                   "-1e400", "NaN", "Infinity", "-Infinity", "18446744073709551616", "-9223372036854775809",
                   "2147483648", "1e9", "1e-9", "0.999999999999", "1.000000001", "100", "1e6"]
OTHER_VALUES = ['"x"', '""', "null", "true", "[]", "{}", "[1e308]"]
FLAG_VALUES = {
    "--n": ["4", "3", "0", "-1", "5", "7", "100000", "100001", "1e9", "2147483648", "abc", "nan", "16", "24"],
    "--nt": ["auto", "1", "0", "-1", "2", "10000000", "10000001", "1e400", "2147483648", "x", "3"],
    "--s-max": ["1", "1.0000001", "2", "100", "100.5", "1e308", "inf", "nan", "-4", "0", "1e-308"],
    "--density": ["0", "1e-308", "0.01", "100", "101", "inf", "nan", "-1", "1e308"],
    "--damping": ["0", "1", "100", "101", "-1", "1e9", "x"],
    "--threads": ["0", "1", "2", "1024", "1025", "-1", "50000", "1e9"],
    "--max-seconds": ["1e-9", "0.5", "1e10", "-1", "inf", "nan", "x"],
    "--mesh": ["uniform", "sinh", "log", ""],
    "--precision": ["fp64", "fp32", "mixed", "fp16"],
    "--device": ["cpu", "auto", "cpu:t1", "cuda:0", "cpu:t0", "cpu:t-1", "gpu"],
}


def numbers_of(node, path=()):
    """Paths of the numeric leaves of a JSON tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from numbers_of(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from numbers_of(v, path + (i,))
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path


def leaves_of(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield path + (k,)
            yield from leaves_of(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves_of(v, path + (i,))


class Raw:
    """A value written into the product file verbatim."""
    def __init__(self, text):
        self.text = text


def dumps(node):
    if isinstance(node, Raw):
        return node.text
    if isinstance(node, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + dumps(v) for k, v in node.items()) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(dumps(v) for v in node) + "]"
    return json.dumps(node)


def set_at(node, path, value):
    for p in path[:-1]:
        node = node[p]
    if value is None:
        del node[path[-1]]
    else:
        node[path[-1]] = value


def mutated_product(rng, catalog):
    product = json.loads(json.dumps(rng.choice(catalog)))
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        numbers = list(numbers_of(product))
        roll = rng.random()
        if roll < 0.75 and numbers:
            set_at(product, rng.choice(numbers), Raw(rng.choice(EXTREME_NUMBERS)))
        elif roll < 0.9:
            set_at(product, rng.choice(list(leaves_of(product))), Raw(rng.choice(OTHER_VALUES)))
        else:
            set_at(product, rng.choice(list(leaves_of(product))), None)
    return dumps(product)


def flags(rng):
    # Small grids, one thread and a work bound unless a flag is drawn: each run stays short.
    chosen = {"--n": rng.choice(["8", "12", "16", "24"]), "--threads": "1", "--max-seconds": "2"}
    for flag in rng.sample(sorted(FLAG_VALUES), rng.choice([0, 1, 1, 2, 3])):
        chosen[flag] = rng.choice(FLAG_VALUES[flag])
    out = [x for flag, value in chosen.items() for x in (flag, value)]
    if rng.random() < 0.2:
        out.append("--greeks")
    return out


def non_finite(node, path="$"):
    """The first non-finite number (or null where a number belongs) in the JSON output, or None."""
    if isinstance(node, dict):
        for k, v in node.items():
            if v is None and k in ("price", "delta", "gamma", "vega", "rho", "theta", "std_error", "error"):
                return f"{path}.{k} is null"
            found = non_finite(v, f"{path}.{k}")
            if found:
                return found
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found = non_finite(v, f"{path}[{i}]")
            if found:
                return found
    elif isinstance(node, float) and not math.isfinite(node):
        return f"{path} = {node}"
    return None


def judge(code, out, err):
    """None when the outcome is acceptable, else what is wrong."""
    if code == 0:
        try:
            doc = json.loads(out, parse_constant=lambda c: float(c))
        except ValueError as e:
            return f"exit 0 without JSON on stdout ({e})"
        return non_finite(doc)
    if code == 2:
        # The field or flag ("field 'rate'", "--n"), or the value with what was expected ("bad input:
        # unknown device 'gpu' (expected ...)", "solver 'adi' does not run in fp32").
        named = "field '" in err or "--" in err or "bad input:" in err
        return None if named else "exit 2 naming no field or flag"
    if code == 3:
        return None if err.strip() else "exit 3 without a reason"
    if code < 0:
        return f"killed by signal {-code}"
    return f"exit {code}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elsbench", required=True)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds one run may take")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    catalog_dir = os.path.join(ROOT, "products", "catalog")
    catalog = [json.load(open(os.path.join(catalog_dir, f))) for f in sorted(os.listdir(catalog_dir))]
    env = dict(os.environ, OMP_WAIT_POLICY="passive", OMP_NUM_THREADS="1")
    outcomes, findings, slowest = {}, [], 0.0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="elsbench-price-fuzz-") as tmp:
        for run in range(args.runs):
            path = os.path.join(tmp, f"product-{run}.json")
            text = mutated_product(rng, catalog)
            with open(path, "w") as f:
                f.write(text)
            solver, _, scheme = rng.choice(SOLVERS).partition(":")
            command = [args.elsbench, "price", "--product", path, "--solver", solver, "--json"] + flags(rng)
            if scheme:
                command += ["--scheme", scheme]
            t0 = time.monotonic()
            try:
                p = subprocess.run(command, capture_output=True, text=True, timeout=args.time_limit, env=env)
                code, out, err = p.returncode, p.stdout, p.stderr
                wrong = judge(code, out, err)
            except subprocess.TimeoutExpired:
                code, out, err, wrong = "timeout", "", "", f"ran past {args.time_limit} s"
            slowest = max(slowest, time.monotonic() - t0)
            outcomes[code] = outcomes.get(code, 0) + 1
            if wrong:
                findings.append(wrong)
                print(f"FINDING run {run}: {wrong}\n  product: {text}\n  command: {shlex.join(command)}\n"
                      f"  stderr: {err.strip()[:400]}", file=sys.stderr)
            elif not args.quiet and code not in (0, 2, 3):
                print(f"run {run}: exit {code}", file=sys.stderr)
    summary = ", ".join(f"exit {k}: {v}" for k, v in sorted(outcomes.items(), key=lambda kv: str(kv[0])))
    print(f"price fuzz: {args.runs} runs (seed {args.seed}), {summary}; {len(findings)} finding(s); "
          f"slowest run {slowest:.1f} s; {time.monotonic() - started:.0f} s in all")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
