"""A validation from Python is the CLI's validate: the same cases, prices and verdicts, one results
reader, the same resume and refusals."""
import json

import pytest

import elsbench

CASES = {"cases": [{"product": "european-call", "solver": "explicit", "device": "cpu:t1", "n": 24},
                   {"product": "min-call", "solver": "adi", "device": "cpu:t1", "n": 30}]}


def write_cases(path, cases):
    path.write_text(json.dumps({"cases": cases}))
    return path


def test_a_validation_equals_the_cli_validate(cli, tmp_path):
    preset = write_cases(tmp_path / "cases.json", CASES["cases"])
    cli("validate", "--preset", preset, "--out", tmp_path / "cli.json")
    want = elsbench.results.load(tmp_path / "cli.json")
    got = elsbench.validate(str(preset), out=tmp_path / "py.json", progress=False)
    assert list(got["case_id"]) == list(want["case_id"]) and len(got) == 2
    assert got["price"].equals(want["price"]) and list(got["status"]) == list(want["status"]) == ["pass", "pass"]
    summary = got.attrs["summary"]
    assert summary["all_passed"] and summary["passed"] == 2 and "min-call" in summary["table"]


def test_a_resumed_validation_keeps_the_cases_of_its_file(tmp_path):
    preset = write_cases(tmp_path / "cases.json", CASES["cases"][:1])
    first = elsbench.validate(str(preset), out=tmp_path / "v.json", progress=False)
    write_cases(preset, CASES["cases"])
    second = elsbench.validate(str(preset), out=tmp_path / "v.json", resume=True, progress=False)
    assert second.attrs["summary"]["kept"] == 1 and second.attrs["summary"]["ran"] == 1
    kept = second[second["case_id"] == first["case_id"][0]]
    assert kept["seconds"].iloc[0] == first["seconds"].iloc[0]  # kept as priced, not priced again


def test_a_validation_refuses_bad_input_naming_the_field(tmp_path):
    preset = write_cases(tmp_path / "cases.json", [{**CASES["cases"][0], "precision": "fp16"}])
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.validate(str(preset), progress=False)
    assert e.value.field == "cases[0].precision"
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.validate("quick", resume=True, progress=False)
    assert "resume" in str(e.value)
