"""Results files load into cases tagged with their machine; a file that is not one is refused."""
import json
import os

import pytest

from harness.report import results
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
    p.write_text(json.dumps({"context": {"elsbench": {"schema": 1}}, "benchmarks": [{"name": "BM_x", "real_time": 1.0}]}))
    with pytest.raises(ValueError, match="case_id"):
        results.load([str(p)])


def test_the_error_estimate_table_sets_estimated_against_actual_error():
    from harness.report import tables
    from helpers import case, machine

    m = machine()
    estimate = {"error": 0.002, "extrapolated": 93.24, "space": {"order": 2.0, "observed_order": 2.0},
                "time": {"order": 2.0, "observed_order": None}}
    with_estimate = case(m, price=93.242, error=0.003, tol=0.004, error_estimate=estimate)
    unconverged = case(m, price=93.3, error=None, tol=0.004, status="unconverged",
                       error_estimate=dict(estimate, error=0.05))
    without = case(m, price=93.242, error=0.003)
    t = tables.error_estimate_table([with_estimate, unconverged, without])
    assert len(t.rows) == 2
    assert t.rows[0][4:8] == ["+0.002", "+0.003", "1.5", "2 (observed)"]
    assert t.rows[0][8] == "2 (nominal)"
    assert t.rows[1][5] == "-" and t.rows[1][-1] == "UNCONVERGED"


def test_an_unconverged_case_without_a_price_loads_untimed_with_its_reason(tmp_path):
    """A price outside its no-arbitrage bounds is refused: the case has status unconverged, a null
    price and the reason, in the entry the C++ writes for a case with no result (case_record.cpp)."""
    from harness.report import tables

    reason = "unconverged: price 874.126 above the bound 100 (min_i S_i e^{-q_i T}, ...)"
    entry = {"name": "c_median", "run_name": "c", "run_type": "aggregate", "aggregate_name": "median",
             "repetitions": 0, "real_time": 0.0, "cpu_time": 0.0, "time_unit": "ms", "error_occurred": True,
             "error_message": reason, "case_id": "c", "product": "min-call", "solver": "cn-direct",
             "scheme": "crank-nicolson", "device": "cpu", "threads": 1, "precision": "fp64",
             "status": "unconverged", "skip_reason": reason, "price": None, "shape": [40, 40], "grid_points": 1600,
             "n": 40, "nt": None, "time_steps": None, "reference": 27.81, "reference_stderr": 0.0, "error": None,
             "allowance": None, "tol": None}
    p = tmp_path / "r.json"
    p.write_text(json.dumps({"context": {"elsbench": {"schema": 1}}, "benchmarks": [entry]}))
    _, cases = results.load([str(p)])
    assert len(cases) == 1 and not cases[0].measured
    assert tables.validation_table(cases).rows[0][-1] == "UNCONVERGED: " + reason
