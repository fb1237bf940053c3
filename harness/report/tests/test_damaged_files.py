"""A damaged results file is refused before anything is written: render.py exits 2 with one line
naming the file and the field, no traceback, and leaves OUT as it was (no plots without report.md)."""
import copy
import json
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, REPORT_DIR

RENDER = os.path.join(REPORT_DIR, "render.py")


def fixture():
    with open(os.path.join(FIXTURES, "devbox-cpu.json"), encoding="utf-8") as f:
        return json.load(f)


def first_ran(data):
    return next(i for i, e in enumerate(data["benchmarks"]) if e["status"] != "skipped")


def damaged(kind):
    """(file text, the field the refusal must name)."""
    data = fixture()
    i = first_ran(data)
    if kind == "price-null":
        data["benchmarks"][i]["price"] = None
        return json.dumps(data), f"benchmarks[{i}].price"
    if kind == "price-string":
        data["benchmarks"][i]["price"] = "93.2"
        return json.dumps(data), f"benchmarks[{i}].price"
    if kind == "price-missing":
        del data["benchmarks"][i]["price"]
        return json.dumps(data), f"benchmarks[{i}].price"
    if kind == "price-nan":
        return json.dumps(data).replace(json.dumps(data["benchmarks"][i]["price"]), "NaN", 1), ".price"
    if kind == "empty-benchmarks":
        data["benchmarks"] = []
        return json.dumps(data), "benchmarks"
    if kind == "truncated":
        text = json.dumps(data, indent=1)
        return text[: len(text) // 2], "<file>"
    if kind == "foreign":
        return json.dumps({"name": "some-package", "version": "1.0.0", "dependencies": {}}), "benchmarks"
    if kind == "entry-not-object":
        data["benchmarks"][3] = [1, 2]
        return json.dumps(data), "benchmarks[3]"
    if kind == "bad-time-unit":
        data["benchmarks"][0]["time_unit"] = "fortnights"
        return json.dumps(data), "benchmarks[0].time_unit"
    if kind == "wrong-schema":
        data["context"]["elsbench"]["schema"] = 99
        return json.dumps(data), "context.elsbench.schema"
    raise AssertionError(kind)


KINDS = ["price-null", "price-string", "price-missing", "price-nan", "empty-benchmarks", "truncated", "foreign",
         "entry-not-object", "bad-time-unit", "wrong-schema"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_file_is_refused_naming_file_and_field_and_nothing_is_written(tmp_path, kind):
    text, field = damaged(kind)
    path = tmp_path / f"{kind}.json"
    path.write_text(text)
    out = tmp_path / "report"
    out.mkdir()
    (out / "kept.txt").write_text("an earlier report")
    good = os.path.join(FIXTURES, "colab-t4.json")
    p = subprocess.run([sys.executable, RENDER, "--out", str(out), good, str(path)], capture_output=True, text=True,
                       env=dict(os.environ, MPLBACKEND="Agg"))
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert str(path) in p.stderr and field in p.stderr, p.stderr
    assert sorted(os.listdir(out)) == ["kept.txt"]
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".report-")]


def test_the_fixtures_render_into_the_folder_with_no_staging_left(tmp_path):
    out = tmp_path / "deep" / "report"
    p = subprocess.run([sys.executable, RENDER, "--out", str(out), os.path.join(FIXTURES, "devbox-cpu.json")],
                       capture_output=True, text=True, env=dict(os.environ, MPLBACKEND="Agg"))
    assert p.returncode == 0, p.stderr
    names = os.listdir(out)
    assert "report.md" in names and "report.html" in names and any(n.endswith(".png") for n in names)
    assert os.listdir(tmp_path / "deep") == ["report"]


def test_a_skipped_case_needs_no_price():
    import schema
    data = fixture()
    entry = copy.deepcopy(data["benchmarks"][first_ran(data)])
    entry.update(status="skipped", price=None)
    schema.check_entry(entry, "x.json", "benchmarks[0]")
