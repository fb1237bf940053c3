"""Every plot is right or absent: drawn only with data (else the section says why in one sentence),
its legend naming each series' n and precision, GPU capacities only on a plot of GPU solvers."""
import copy
import json
import os
import re

import plot_accuracy
import plot_memory
import plot_speedup
import plot_time
import render
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
