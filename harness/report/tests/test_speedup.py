"""Speedups are matched per product and grid against a baseline configuration."""
import pytest

from helpers import case, machine
from harness.report.speedup import Baseline, speedups


def test_a_baseline_spec_reads_solver_scheme_device_threads_and_precision():
    b = Baseline.parse("adi:douglas/cpu/t2/fp32")
    assert (b.solver, b.scheme, b.device, b.threads, b.precision) == ("adi", "douglas", "cpu", 2, "fp32")
    assert str(b) == "adi:douglas/cpu/t2/fp32"
    assert Baseline.parse("adi/cuda").scheme is None
    assert Baseline.parse("adi/cpu/t1/mixed").precision == "mixed"


@pytest.mark.parametrize("bad", ["adi", "/cpu", "adi/cpu/x3", "adi/cpu/t2/fp16"])
def test_a_malformed_baseline_is_refused(bad):
    with pytest.raises(ValueError):
        Baseline.parse(bad)


def test_the_speedup_is_the_baseline_time_over_the_case_time_on_the_same_grid():
    box = machine()
    base = case(box, seconds=2.0, threads=1)
    fast = case(box, seconds=0.5, threads=2)
    other_grid = case(box, seconds=0.1, threads=2, shape=[50, 50], grid_points=2500)
    points = speedups([base, fast, other_grid], Baseline.parse("adi/cpu/t1"))
    factors = {(p.case.threads, tuple(p.case.shape)): p.factor for p in points}
    assert factors[(2, (100, 100))] == pytest.approx(4.0)
    assert (2, (50, 50)) not in factors  # no baseline on that grid: no speedup claimed


def test_where_the_steps_differ_the_speedup_is_per_point_step_and_says_so():
    box = machine()
    base = case(box, seconds=2.0, threads=1, time_steps=1000)
    explicit = case(box, seconds=1.0, solver="explicit", scheme="euler", time_steps=4000)
    (point,) = speedups([base, explicit], Baseline.parse("adi/cpu/t1"))
    # 2 s / 1000 steps against 1 s / 4000 steps of the same mesh: 8x per point-step, 2x in time.
    assert point.factor == pytest.approx(8.0) and point.per_point_step
    assert point.work == "per point-step (4000 vs 1000 steps)"


def test_a_baseline_on_the_same_steps_is_preferred_to_one_on_other_steps():
    box = machine()
    same = case(box, seconds=2.0, threads=1, time_steps=500)
    other = case(box, seconds=1.0, threads=1, time_steps=250, machine_note="other")
    fast = case(box, seconds=0.5, threads=2, time_steps=500)
    points = [p for p in speedups([same, other, fast], Baseline.parse("adi/cpu/t1")) if p.case is fast]
    assert len(points) == 1 and points[0].baseline is same and not points[0].per_point_step


def test_a_baseline_without_a_precision_is_its_fp64_cases_and_the_report_says_which(tmp_path):
    # Every case adi/cpu/t1, in fp64 and fp32: the default baseline made all of them baselines.
    from harness.report import render
    box = machine()
    cases = [case(box, seconds=2.0), case(box, seconds=0.8, precision="fp32")]
    section = render.speedup_section(cases, Baseline.parse("adi/cpu/t1"), str(tmp_path))
    assert section.heading == "Speedup over adi/cpu/t1/fp64"
    assert section.text[0].startswith("Baseline used: adi/cpu/t1/fp64 (asked: adi/cpu/t1;")
    assert [r[-2] for r in section.tables[0].rows] == ["2.5x"]
    only_fp32 = [case(box, seconds=1.0, precision="fp32"), case(box, seconds=0.5, threads=2, precision="fp32")]
    assert str(Baseline.parse("adi/cpu/t1").resolved(only_fp32)) == "adi/cpu/t1/fp32"
