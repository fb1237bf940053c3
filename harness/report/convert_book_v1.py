#!/usr/bin/env python3
"""Converts a book file of elsbench before the one results schema (`"schema": "elsbench-book"`,
version 1: the H100's first run, commit ff80309) into a results file of today's schema
(harness/results/RESULTS_SCHEMA.md), so that `compare` and `report` read it as they read any
`book price --out` file.

    python3 harness/report/convert_book_v1.py OLD.json... --out-dir DIR

Each field of the old file is mapped onto its place today; a field the old file does not hold
(the mesh text, host memory, the memory model, the solver's notes, Google Benchmark's context, ...)
is left absent or null, never made up. Derived figures that today's writer derives from the same
numbers (notes_per_second, seconds_per_step, points_per_second, the grid's shape) are derived here
the same way. A key the old writer never wrote is refused, naming it, so nothing is dropped
unseen. context.elsbench.converted names the source file, its digest and this script. The file has
no benchmarks_sha256: `book price --resume` refuses it (it was not written by elsbench)."""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

V1_SCHEMA = "elsbench-book"
SCRIPT = "harness/report/convert_book_v1.py"
# Old settings keys renamed by the grid codec (solvers/problem/grid_codec.cpp); the rest kept.
SETTING_NAMES = {"s_max_multiple": "s_max", "damping_steps": "damping"}
# The keys the v1 writer put in a note (ff80309 harness/book/book_run.cpp note_entry, died_entry,
# book_references.cpp judge_note, a rank on an MPI run).
NOTE_KEYS = {"id", "line", "status", "error", "price", "delta", "gamma", "seconds", "assets", "grid_points",
             "time_steps", "scheme", "device", "threads", "peak_device_bytes", "rank", "reference",
             "reference_stderr", "reference_source", "price_error", "tol", "allowance", "validation",
             "no_reference_reason"}
TOP_KEYS = {"schema", "version", "context", "bad_lines", "notes", "summary", "validation"}
CONTEXT_KEYS = {"settings", "commands", "workers", "batched", "ranks", "date", "references"}
# What today's schema holds and a v1 file does not: said in the converted file, not filled in.
NOT_IN_V1 = ["mesh", "layers", "peak_host_bytes", "process_peak_rss_bytes (per note)", "memory_space",
             "model_bytes_per_point", "model_bytes", "measured_device_bytes", "notes (the solver's)", "cpu_time",
             "timing fields (repetitions_run, median_interval, timing_stop, noisy)",
             "settings ki_damping and ki_damping_fraction (not settings of that code)",
             "context.elsbench version, finished, benchmarks_sha256", "Google Benchmark's context keys"]


class NotV1(ValueError):
    pass


def refuse_unknown(keys, known, where: str) -> None:
    unknown = sorted(set(keys) - known)
    if unknown:
        raise NotV1(f"{where}: keys the v1 book writer never wrote: {', '.join(unknown)} (not converted)")


def is_v1_book(data) -> bool:
    return isinstance(data, dict) and data.get("schema") == V1_SCHEMA


def today_settings(old: dict) -> dict:
    return {SETTING_NAMES.get(key, key): value for key, value in old.items()}


def note_case_id(note_id: str, settings: dict) -> str:
    """As SweepCase::note_id (harness/run/case.cpp): the book's scheme, not the note's."""
    nt = settings["nt"]
    return (f"{note_id}/{settings['solver']}:{settings['scheme']}/n={settings['n']}/nt={nt}/book/"
            f"{settings['precision']}")


def grid_fields(settings: dict) -> dict:
    nt = settings["nt"]
    auto = nt == "auto"
    return {"solver": settings["solver"], "n": settings["n"], "nt": None if auto else nt,
            "nt_rule": "auto" if auto else f"fixed:{nt}", "precision": settings["precision"], "book": 1}


def shape_of(note: dict, n: int) -> list[int] | None:
    """n nodes on each of the note's axes, where its grid point count bears that out."""
    shape = [n] * int(note["assets"])
    return shape if n ** len(shape) == note["grid_points"] else None


def reference_fields(note: dict) -> dict:
    """A note judged against a reference (book price --reference): the verdict becomes its status."""
    if "validation" not in note:
        return {"status": "no-reference"}
    fields = {key: note[key] for key in ("reference", "reference_stderr", "reference_source", "tol", "allowance",
                                         "no_reference_reason") if key in note}
    if "price_error" in note:
        fields["error"] = note["price_error"]
    return {**fields, "status": note["validation"]}


def priced_fields(note: dict, settings: dict) -> dict:
    seconds, steps, points = note["seconds"], note["time_steps"], note["grid_points"]
    return {"scheme": note["scheme"], "shape": shape_of(note, settings["n"]), "grid_points": points,
            "time_steps": steps, "device": note["device"], "threads": note["threads"], "skip_reason": "",
            "price": note["price"], "delta": note["delta"], "gamma": note["gamma"],
            "peak_device_bytes": note["peak_device_bytes"], "seconds": seconds, "notes_per_second": 1 / seconds,
            "seconds_per_step": seconds / steps, "points_per_second": points * steps / seconds,
            **reference_fields(note)}


def failed_fields(note: dict, settings: dict) -> dict:
    # The v1 file kept the solver's message without its kind (unsupported, unavailable, ...).
    return {"scheme": settings["scheme"], "status": "skipped", "skip_reason": f"error: {note['error']}",
            "price": None, "delta": None, "gamma": None}


def timing_entries(case_id: str, seconds: float) -> list[dict]:
    """One pricing: a repetition and its median, as single_pricing_timings (harness/results/case_record.cpp)."""
    timing = {"run_name": case_id, "repetitions": 1, "threads": 1, "iterations": 1, "real_time": seconds * 1e3,
              "time_unit": "ms"}
    return [{**timing, "name": case_id, "run_type": "iteration", "repetition_index": 0},
            {**timing, "name": case_id + "_median", "run_type": "aggregate", "aggregate_name": "median",
             "aggregate_unit": "time"}]


def skip_entry(case_id: str, reason: str) -> dict:
    """A note that did not price: one aggregate marked as Google Benchmark marks a run without a time."""
    return {"name": case_id + "_median", "run_name": case_id, "run_type": "aggregate", "repetitions": 0,
            "threads": 1, "aggregate_name": "median", "aggregate_unit": "time", "iterations": 0, "real_time": 0.0,
            "time_unit": "ms", "error_occurred": True, "error_message": reason}


def note_entries(note: dict, settings: dict) -> list[dict]:
    refuse_unknown(note, NOTE_KEYS, f"note {note.get('id')!r}")
    case_id = note_case_id(note["id"], settings)
    ok = note["status"] == "ok"
    fields = {"case_id": case_id, "product": note["id"], "line": note["line"], **grid_fields(settings),
              **(priced_fields(note, settings) if ok else failed_fields(note, settings))}
    if "rank" in note:
        fields["rank"] = note["rank"]
    entries = timing_entries(case_id, note["seconds"]) if ok else [skip_entry(case_id, fields["skip_reason"])]
    return [{**entry, **fields} for entry in entries]


def run_record(meta: dict) -> dict:
    """The command and start of the run. The v1 file kept every run's command (a resume added one) and
    the last run's start; today's keeps the first, and the resumes apart."""
    commands = meta.get("commands") or []
    record = {"resumed": [{"command": c} for c in commands[1:]]}
    if commands:
        record["command"] = commands[0]
    if len(commands) > 1:
        record["resumed"][-1]["at"] = meta["date"]
    else:
        record["started"] = meta["date"]
    return record


def book_part(old: dict, meta: dict) -> dict:
    part = {"settings": today_settings(meta["settings"]), "bad_lines": old["bad_lines"], "workers": meta["workers"],
            "batched": meta["batched"], "ranks": meta["ranks"]}
    for key in ("summary", "validation"):
        if key in old:
            part[key] = old[key]
    return part


def provenance(source: str, digest: str, out_dir: str) -> dict:
    return {"from": source, "from_sha256": digest, "from_format": f"{V1_SCHEMA} version 1", "by": SCRIPT,
            "command": f"python3 {SCRIPT} {source} --out-dir {out_dir}", "not_in_source": NOT_IN_V1}


def convert(old: dict, source: str, digest: str = "", out_dir: str = "") -> dict:
    """Today's results file of a v1 book file; NotV1 when it is none."""
    if not is_v1_book(old) or old.get("version") != 1:
        raise NotV1(f"{source}: not an {V1_SCHEMA} file of version 1")
    refuse_unknown(old, TOP_KEYS, source)
    meta = old["context"]["elsbench"]
    refuse_unknown(meta, CONTEXT_KEYS, f"{source}: context.elsbench")
    refuse_unknown(old["context"], {"elsbench", "machine"}, f"{source}: context")
    settings = meta["settings"]
    elsbench = {"schema": 1, "preset": "book", **run_record(meta), "complete": "summary" in old,
                "cases_total": old["summary"]["notes"] if "summary" in old else None,
                "machine": old["context"]["machine"], "book": book_part(old, meta),
                "converted": provenance(source, digest, out_dir)}
    if "references" in meta:
        elsbench["references"] = meta["references"]
    benchmarks = [entry for note in old["notes"] for entry in note_entries(note, settings)]
    return {"context": {"elsbench": elsbench}, "benchmarks": benchmarks}


def convert_file(source: str, out_dir: str) -> str:
    with open(source, "rb") as f:
        raw = f.read()
    converted = convert(json.loads(raw), source, hashlib.sha256(raw).hexdigest(), out_dir)
    out = os.path.join(out_dir, os.path.basename(source))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(converted, f, indent=2, sort_keys=True)
        f.write("\n")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("books", nargs="+", help="v1 book files (book price --out of elsbench before the results schema)")
    parser.add_argument("--out-dir", required=True, help="folder of the converted files (same file names)")
    args = parser.parse_args(argv)
    for source in args.books:
        try:
            print(f"{source} -> {convert_file(source, args.out_dir)}")
        except (NotV1, KeyError, TypeError) as e:
            print(f"convert_book_v1: {source}: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
