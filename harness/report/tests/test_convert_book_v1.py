"""The v1 book files (elsbench-book, the H100's first run) converted to today's results schema:
the committed conversions are what the script makes of the committed originals, and every note
keeps what the old file said of it, no more."""
import hashlib
import json
import os

import pytest

from harness.report import convert_book_v1
from harness.report import schema
from conftest import ROOT
from test_books import V1_NOTE, legacy_book

H100 = "results/h100"


@pytest.mark.parametrize("name", ["book_cpu.json", "book_gpu.json", "book_gpu_mixed.json"])
def test_the_committed_h100_books_are_the_conversions_of_their_originals(name):
    source = f"{H100}/original/{name}"
    with open(os.path.join(ROOT, source), "rb") as f:
        raw = f.read()
    converted = convert_book_v1.convert(json.loads(raw), source, hashlib.sha256(raw).hexdigest(), H100)
    with open(os.path.join(ROOT, H100, name), encoding="utf-8") as f:
        assert json.load(f) == converted
    schema.checked(converted, name)  # today's reader takes it


def converted(tmp_path, *notes):
    with open(legacy_book(tmp_path, "v1.json")) as f:
        old = json.load(f)
    old["notes"] = list(notes)
    return convert_book_v1.convert(old, "v1.json")


def test_a_priced_note_keeps_its_figures_and_gets_none_it_did_not_have(tmp_path):
    new = converted(tmp_path, V1_NOTE)
    iteration, median = new["benchmarks"]
    assert iteration["case_id"] == median["case_id"] == "a/adi-cuda:hundsdorfer-verwer/n=100/nt=auto/book/fp64"
    assert (median["price"], median["delta"], median["shape"], median["real_time"]) == (98.5, [0.01, 0.02], [100, 100], 8.0)
    assert median["status"] == "no-reference" and median["notes_per_second"] == 125.0
    for missing in ("mesh", "layers", "peak_host_bytes", "model_bytes", "noisy", "cpu_time", "notes"):
        assert missing not in median
    meta = new["context"]["elsbench"]
    assert meta["book"]["settings"]["s_max"] == 4.0 and meta["book"]["settings"]["damping"] == 2
    assert "ki_damping" not in meta["book"]["settings"] and meta["started"] == "2026-11-26T19:18:14Z"
    assert meta["machine"]["hostname"] == "vm" and meta["converted"]["from"] == "v1.json"


def test_a_failed_note_is_skipped_with_its_message_and_a_judged_one_keeps_its_verdict(tmp_path):
    failed = {"id": "b", "line": 2, "status": "failed", "error": "solver 'adi-cuda' handles up to 2 underlyings"}
    judged = {**V1_NOTE, "id": "c", "reference": 98.4, "reference_stderr": 0.01, "reference_source": "monte-carlo",
              "price_error": 0.1, "tol": 0.05, "allowance": 0.08, "validation": "fail"}
    skip, *judged_entries = converted(tmp_path, failed, judged)["benchmarks"]
    assert (skip["status"], skip["price"], skip["real_time"], skip["error_occurred"]) == ("skipped", None, 0.0, True)
    assert skip["skip_reason"] == "error: solver 'adi-cuda' handles up to 2 underlyings" == skip["error_message"]
    assert "shape" not in skip and "device" not in skip
    assert [(e["status"], e["error"], e["allowance"]) for e in judged_entries] == [("fail", 0.1, 0.08)] * 2


def test_a_key_the_v1_writer_never_wrote_is_refused_not_dropped(tmp_path):
    with pytest.raises(convert_book_v1.NotV1, match="never wrote: vega"):
        converted(tmp_path, {**V1_NOTE, "vega": [1.0]})
