"""A damaged results file is refused before anything is written: render.py exits 2 with one line
naming the file and the field, no traceback, and leaves OUT as it was (no plots without report.md)."""
import copy
import json
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, RENDER, RENDER_ENV



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
    if kind == "price-nan":  # NaN is not JSON: refused as the file's text
        return json.dumps(data).replace(json.dumps(data["benchmarks"][i]["price"]), "NaN", 1), "<file>"
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
    p = subprocess.run([*RENDER, "--out", str(out), good, str(path)], capture_output=True, text=True,
                       env=dict(RENDER_ENV, MPLBACKEND="Agg"))
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert str(path) in p.stderr and field in p.stderr, p.stderr
    assert sorted(os.listdir(out)) == ["kept.txt"]
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".report-")]


def test_the_fixtures_render_into_the_folder_with_no_staging_left(tmp_path):
    out = tmp_path / "deep" / "report"
    p = subprocess.run([*RENDER, "--out", str(out), os.path.join(FIXTURES, "devbox-cpu.json")],
                       capture_output=True, text=True, env=dict(RENDER_ENV, MPLBACKEND="Agg"))
    assert p.returncode == 0, p.stderr
    names = os.listdir(out)
    assert "report.md" in names and "report.html" in names and any(n.endswith(".png") for n in names)
    assert os.listdir(tmp_path / "deep") == ["report"]


def test_a_skipped_case_needs_no_price():
    from harness.report import schema
    data = fixture()
    entry = copy.deepcopy(data["benchmarks"][first_ran(data)])
    entry.update(status="skipped", price=None)
    data["benchmarks"] = [entry]
    assert schema.checked(data, "x.json")["benchmarks"][0]["price"] is None


def render_refuses(tmp_path, path):
    out = tmp_path / "report"
    p = subprocess.run([*RENDER, "--out", str(out), str(path)], capture_output=True, text=True,
                       env=dict(RENDER_ENV, MPLBACKEND="Agg"), timeout=120)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not out.exists()
    return p.stderr


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "results.json"
    os.mkfifo(fifo)
    err = render_refuses(tmp_path, fifo)  # no writer ever opens it: a read would block for ever
    assert str(fifo) in err and "not a regular file" in err, err


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    from harness.report import schema
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(schema.MAX_RESULTS_FILE_BYTES + 1)  # sparse: no disk is used
    err = render_refuses(tmp_path, big)
    assert str(big) in err and "256 MiB a results file may hold" in err, err
    small = tmp_path / "small.json"
    small.write_text("{}" * 20)
    with pytest.raises(schema.ResultsError, match="more than the"):
        schema.read_bounded(str(small), limit=16)


def test_a_file_that_is_not_utf8_is_refused_naming_the_byte(tmp_path):
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"context": "caf\xe9"}')
    err = render_refuses(tmp_path, bad)
    assert str(bad) in err and "byte offset 16" in err, err


def render(tmp_path, *args):
    return subprocess.run([*RENDER, *map(str, args)], capture_output=True, text=True,
                          env=dict(RENDER_ENV, MPLBACKEND="Agg"), timeout=300)


def test_a_results_file_under_a_name_that_is_not_utf8_is_reported(tmp_path):
    # Its name entered the report's text as a surrogate escape: "'utf-8' codec can't encode" (exit 2).
    folder = tmp_path / os.fsdecode(b"desk\xff")
    folder.mkdir()
    with open(os.path.join(FIXTURES, "devbox-cpu.json"), "rb") as f:
        (folder / "r.json").write_bytes(f.read())
    out = tmp_path / "report"
    p = render(tmp_path, "--out", out, "--history", folder)
    assert p.returncode == 0, p.stderr
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "desk\ufffd" in text
    (out / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("table, field", [
    ({"x": 1}, "'instances'"),
    ([1, 2], "'instances'"),
    ({"instances": [1, 2]}, "'instances[0]'"),
    ({"instances": [{"provider": "a", "instance": "b", "id": "c", "gpu": "T4", "gpu_count": 1, "gpu_memory_gb": 16,
                     "usd_per_hour": "x", "usd_per_hour_spot": None, "source": ""}]}, "'instances[0].usd_per_hour'"),
    ({"instances": [{"provider": "a"}]}, "'instances[0].instance'"),
])
def test_a_price_table_of_another_shape_is_refused_naming_the_field(tmp_path, table, field):
    # Was "internal error: TypeError" (exit 1) or "render.py: 'instances'".
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps(table))
    out = tmp_path / "report"
    p = render(tmp_path, "--out", out, "--prices", prices, os.path.join(FIXTURES, "devbox-cpu.json"))
    assert p.returncode == 2, p.stderr
    assert str(prices) in p.stderr and field in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr
    assert not out.exists()
