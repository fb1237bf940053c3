"""Richardson's value and its space bar on the digital-heavy family (`book generate --family
digital`), against refined grids: issue 44's measurement of where the default grid's error and its
bar stand on the hard cases.

For each note it prices plain grids at n/4, n/2, n (the default grid: 400 in 1-D, 144 in 2-D) and
at 4/3 n, 2 n and 8/3 n (1-D: 2 n and 4 n), one thread each, with the solver's own time steps, and
reports in basis points of the note's notional:
  actual   |R(n) - R(ref)|, R(m) = P(m) + (P(m) - P(m/2)) / 3, ref the finest level;
  bar      |R(n) - R(n/2)|, the space part of the default grid's error bar (accuracy.hpp);
  ref-unc  |R(ref) - R(ref')| of the two finest levels: what the reference itself is unsure of;
  plain    |P(n) - R(ref)|, the plain grid's error.

    python3 reference/digital_family.py [--elsbench build/elsbench] [--notes 40] [--assets 2] [--seed 3]

The time levels share each grid's time steps (dates pin most of them), so the time error is
largely common to the fine and the reference levels and is not in `actual`.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile

LEVELS = {1: (100, 200, 400, 800, 1600), 2: (36, 72, 144, 192, 288, 384)}


def price(elsbench: str, note: str, n: int) -> float | None:
    p = subprocess.run([elsbench, "price", "--product", note, "--n", str(n), "--threads", "1", "--json"],
                       capture_output=True, text=True, env=dict(os.environ, OMP_WAIT_POLICY="passive"))
    return json.loads(p.stdout)["price"] if p.returncode == 0 else None


def richardson(fine: float, coarse: float) -> float:
    return fine + (fine - coarse) / 3


def measure(levels: tuple, p: dict, bp: float) -> dict:
    n = levels[2]
    ref_fine, ref_coarse = levels[-1], levels[-1] // 2
    other_fine = levels[-2]
    ref = richardson(p[ref_fine], p[ref_coarse])
    other = richardson(p[other_fine], p[other_fine // 2])
    r_n = richardson(p[n], p[n // 2])
    r_half = richardson(p[n // 2], p[n // 4])
    return {"actual": abs(r_n - ref) / bp, "bar": abs(r_n - r_half) / bp, "ref_unc": abs(ref - other) / bp,
            "plain": abs(p[n] - ref) / bp}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elsbench", default="build/elsbench")
    ap.add_argument("--notes", type=int, default=40)
    ap.add_argument("--assets", type=int, default=2, choices=(1, 2))
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    levels = LEVELS[args.assets]
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "book.jsonl")
        subprocess.run([args.elsbench, "book", "generate", "--notes", str(args.notes), "--assets", str(args.assets),
                        "--seed", str(args.seed), "--family", "digital", "--out", book], check=True,
                       capture_output=True)
        rows = []
        for line in open(book, encoding="utf-8"):
            note = json.loads(line)
            path = os.path.join(tmp, note["id"] + ".json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(line)
            needed = sorted(set(levels) | {m // 2 for m in levels[-2:]})
            p = {n: price(args.elsbench, path, n) for n in needed}
            if any(v is None for v in p.values()):
                print(f"{note['id']}: a level was refused: {p}")
                continue
            m = measure(levels, p, 1e-4 * note["notional"])
            rows.append(m)
            print(f"{note['id']} dates={len(note['autocall'])} knocked_in={note['knocked_in']!s:5} "
                  f"actual {m['actual']:.2f} bp  bar {m['bar']:.2f} bp  ref-unc {m['ref_unc']:.2f} bp  "
                  f"plain {m['plain']:.2f} bp", flush=True)
    actual = [r["actual"] for r in rows]
    print(f"{len(rows)} notes: actual median {statistics.median(actual):.2f} bp, max {max(actual):.2f} bp, "
          f"within 0.5 bp {sum(a <= 0.5 for a in actual)}; bar >= actual {sum(r['bar'] >= r['actual'] for r in rows)}, "
          f"bar <= 0.5 bp {sum(r['bar'] <= 0.5 for r in rows)}; plain within 0.5 bp "
          f"{sum(r['plain'] <= 0.5 for r in rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
