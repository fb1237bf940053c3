#!/usr/bin/env python3
"""Prices of a device book against the CPU prices of the same notes, note by note.

    book_agreement.py DEVICE.json CPU.json TOLERANCE [--summary FILE --label LABEL]

Both are `elsbench book price` results files. Every note of the CPU file must be priced in the
device file (not skipped) within TOLERANCE relative (max(1, |cpu price|)); prints the worst note, the
count and, with --summary, appends one JSON line {label, notes, worst, tolerance, passed, march
times} to FILE. Exit 0 when every note agrees, 1 otherwise, 2 on unreadable input.
"""
import json
import sys


def prices(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"book_agreement: {path}: {e}")
    out = {e["product"]: e for e in data.get("benchmarks", [])}
    summary = data.get("context", {}).get("elsbench", {}).get("book", {}).get("summary", {})
    return out, summary


def main(argv):
    if len(argv) not in (4, 8):
        sys.exit(__doc__)
    device, summary = prices(argv[1])
    cpu, _ = prices(argv[2])
    tolerance = float(argv[3])
    worst, worst_note, missing = 0.0, None, []
    for note, ref in cpu.items():
        got = device.get(note)
        if not got or got.get("status") == "skipped" or got.get("price") is None:
            missing.append(note)
            continue
        rel = abs(got["price"] - ref["price"]) / max(1.0, abs(ref["price"]))
        if rel > worst:
            worst, worst_note = rel, note
    passed = not missing and worst <= tolerance
    print(f"{len(cpu) - len(missing)} of {len(cpu)} notes priced; worst relative difference {worst:.2e}"
          f" ({worst_note}), tolerance {tolerance:g}: {'PASS' if passed else 'FAIL'}")
    if missing:
        print(f"not priced: {', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}")
    if len(argv) == 8:
        line = {"label": argv[7], "notes": len(cpu), "priced": len(cpu) - len(missing), "worst": worst,
                "tolerance": tolerance, "passed": passed,
                **{k: summary.get(k) for k in ("notes_per_second", "wall_seconds", "setup_seconds",
                                               "upload_seconds", "march_seconds", "download_seconds")}}
        with open(argv[5], "a") as f:
            f.write(json.dumps(line) + "\n")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
