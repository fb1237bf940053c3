"""Results files load into cases tagged with their machine; a file that is not one is refused."""
import json
import os

import pytest

import results
from conftest import FIXTURES


def test_the_fixtures_load_with_their_machines_and_medians():
    paths = [os.path.join(FIXTURES, f) for f in ("devbox-cpu.json", "colab-t4.json")]
    machines, cases = results.load(paths)
    assert len(machines) == 2
    assert cases
    measured = [c for c in cases if c.measured]
    assert measured and all(c.median_seconds > 0 for c in measured)
    assert {c.machine.label for c in cases} == {m.label for m in machines}


def test_a_file_without_benchmarks_is_not_a_results_file(tmp_path):
    p = tmp_path / "x.json"
    p.write_text(json.dumps({"context": {}}))
    with pytest.raises(ValueError, match="not a results file"):
        results.load([str(p)])


def test_an_entry_without_a_case_id_is_refused(tmp_path):
    p = tmp_path / "gb.json"
    p.write_text(json.dumps({"context": {}, "benchmarks": [{"name": "BM_x", "real_time": 1.0}]}))
    with pytest.raises(ValueError, match="case_id"):
        results.load([str(p)])
