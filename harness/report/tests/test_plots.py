"""Every plot is right or absent: drawn only with data (else the section says why in one sentence),
its legend naming each series' n and precision, GPU capacities only on a plot of GPU solvers."""
import copy
import json
import os
import re

from harness.report import plot_accuracy
from harness.report import plot_memory
from harness.report import plot_speedup
from harness.report import plot_time
from harness.report import render
from conftest import FIXTURES
from helpers import case, machine


def test_a_plot_without_data_is_not_drawn(tmp_path):
    assert plot_time.plot([], str(tmp_path)) is None
    assert plot_accuracy.plot([case(machine(), error=None)], str(tmp_path)) is None
    assert plot_speedup.plot([], "adi/cpu/t1", str(tmp_path)) is None
    assert plot_memory.plot([], [], False, str(tmp_path)) is None
    assert os.listdir(tmp_path) == []


def test_a_legend_names_the_precision_and_every_n_of_its_series():
    box = machine()
    cases = [case(box, n=32, precision="fp32"), case(box, n=64, precision="fp32"), case(box, n=48, threads=2)]
    labels = sorted(style["label"] for style in render.plot_time.figures.case_styles(cases).values())
    assert labels == ["adi:hundsdorfer-verwer fp32, CPU t1 (box), n = 32, 64",
                      "adi:hundsdorfer-verwer fp64, CPU t2 (box), n = 48"]


def _sections(md: str) -> dict:
    parts = re.split(r"^## ", md, flags=re.M)[1:]
    return {p.splitlines()[0]: p for p in parts}


def test_a_section_without_a_plot_says_why(tmp_path):
    with open(os.path.join(FIXTURES, "devbox-cpu.json"), encoding="utf-8") as f:
        data = json.load(f)
    # No case with a reference: the error plot has nothing to draw.
    blind = copy.deepcopy(data)
    for entry in blind["benchmarks"]:
        entry["error"] = entry["reference"] = None
    path = tmp_path / "blind.json"
    path.write_text(json.dumps(blind))
    out = tmp_path / "report"
    assert render.main([str(path), "--out", str(out)]) == 0
    sections = _sections((out / "report.md").read_text())
    assert "No plot: no measured case has a reference." in sections["Error vs time"]
    assert "![" not in sections["Error vs time"] and not (out / "error_vs_time.png").exists()
    assert "![" in sections["Time vs grid size"]


def test_gpu_capacities_are_drawn_only_with_gpu_models(tmp_path, monkeypatch):
    drawn = []
    monkeypatch.setattr(plot_memory, "_capacities", lambda *a: drawn.append(a))
    cpu = case(machine(), peak_host_bytes=1e6, n=100)
    assert plot_memory.plot([cpu], [], False, str(tmp_path)) is not None
    assert drawn == []


def test_the_memory_plot_gives_each_product_its_own_legend_entry(tmp_path, monkeypatch):
    drawn = []
    monkeypatch.setattr(plot_memory.figures, "save", lambda fig, out, stem: drawn.append(fig) or {})
    box = machine()
    cases = [case(box, product="sample-2a-stepdown", peak_host_bytes=2e6, n=100),
             case(box, product="els-3a-stepdown", peak_host_bytes=9e7, n=40, shape=[40, 40, 40], grid_points=64000)]
    plot_memory.plot(cases, [], False, str(tmp_path))
    labels = sorted(t.get_text() for t in drawn[0].legends[0].get_texts())
    assert labels == ["measured: els-3a-stepdown\nadi:hundsdorfer-verwer fp64, CPU t1 (box), n = 40",
                      "measured: sample-2a-stepdown\nadi:hundsdorfer-verwer fp64, CPU t1 (box), n = 100"]
    markers = {line.get_label().split("\n")[0]: line.get_marker() for line in drawn[0].axes[0].get_lines()}
    assert markers["measured: els-3a-stepdown"] != markers["measured: sample-2a-stepdown"]
