#!/usr/bin/env python3
"""Pricing speed from Python against the CLI's (docs/python.md, docs/performance.md).

Interleaved pairs: `elsbench price --json` (its `seconds`, the pricing inside the process) and
elsbench.price() (its `seconds`, the same measure, and the wall time of the whole Python call).
Prices are checked equal to the bit. Run with OMP_WAIT_POLICY=passive on an idle machine:

    OMP_WAIT_POLICY=passive .venv/bin/python python/benchmarks/speed.py --cli build/elsbench --pairs 8
"""
import argparse
import json
import os
import statistics
import subprocess
import time

import elsbench


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/elsbench")
    ap.add_argument("--product", default="sample-2a-stepdown")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--pairs", type=int, default=8)
    args = ap.parse_args()
    env = {**os.environ, "ELSBENCH_ROOT": os.getcwd()}
    print(f"{args.product}, adi, n = {args.n}, default time grid; {args.pairs} interleaved pairs; "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}; load {os.getloadavg()[0]:.2f}")
    for threads in args.threads:
        cli, py, py_wall = [], [], []
        for _ in range(args.pairs):
            out = subprocess.run([args.cli, "price", "--json", "--product", args.product, "--solver", "adi", "--n",
                                  str(args.n), "--threads", str(threads)], capture_output=True, text=True, env=env,
                                 check=True).stdout
            c = json.loads(out)
            start = time.perf_counter()
            r = elsbench.price(args.product, n=args.n, threads=threads, progress=False)
            py_wall.append(time.perf_counter() - start)
            assert r.price == c["price"] and r.delta == c["delta"], "not the CLI's price"
            cli.append(c["seconds"])
            py.append(r.seconds)
        m_cli, m_py, m_wall = (statistics.median(x) for x in (cli, py, py_wall))
        print(f"threads {threads}: CLI {m_cli:.4f} s, Python {m_py:.4f} s ({m_py / m_cli - 1:+.1%}), "
              f"Python call wall {m_wall:.4f} s ({m_wall / m_cli - 1:+.1%}); medians; same price to the bit")


if __name__ == "__main__":
    main()
