"""Small results-file builders for the tests: a machine and cases with only the fields a test reads."""
from harness.report.results import Case, Machine


def machine(label="box", instance="", gpus=None, started="2026-01-01T00:00:00Z"):
    descriptor = {"hostname": label, "instance": instance, "gpus": gpus or []}
    return Machine(label=label, descriptor=descriptor, source_file=f"{label}.json", preset="test",
                   started=started, complete=True)


def case(m, seconds=1.0, **fields):
    base = {"product": "sample-2a-stepdown", "solver": "adi", "scheme": "hundsdorfer-verwer", "device": "cpu",
            "threads": 1, "precision": "fp64", "status": "pass", "shape": [100, 100], "time_steps": 756,
            "grid_points": 10000, "case_id": "x"}
    base.update(fields)
    return Case(fields=base, machine=m, median_seconds=seconds)
