"""Text from a results file is text in the report, never markup: a host name of HTML was copied
into report.md as it was (report.html escaped it)."""
import json
import os

from harness.report import render
from conftest import FIXTURES
from harness.report.document import md_text

HOSTILE = "<img src=x onerror=alert(1)> *bold* [link](http://x) | `code`"


def test_md_text_leaves_no_markup():
    assert md_text(HOSTILE) == ("&lt;img src=x onerror=alert(1)&gt; \\*bold\\* \\[link\\](http://x) \\| \\`code\\`")
    assert md_text("adi:hundsdorfer-verwer fp64, CPU t1 (devbox)") == "adi:hundsdorfer-verwer fp64, CPU t1 (devbox)"


def test_a_hostile_host_name_is_text_in_both_reports(tmp_path):
    with open(os.path.join(FIXTURES, "devbox-cpu.json"), encoding="utf-8") as f:
        data = json.load(f)
    data["context"]["host_name"] = HOSTILE
    data["context"]["elsbench"]["machine"]["hostname"] = HOSTILE
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data))
    render.render([str(path)], str(tmp_path / "out"), "adi/cpu/t1", render.DEFAULT_PRICES)
    for name in ("report.md", "report.html"):
        text = (tmp_path / "out" / name).read_text()
        assert "<img src=x" not in text, name
    assert "&lt;img src=x onerror=alert(1)&gt;" in (tmp_path / "out" / "report.md").read_text()
