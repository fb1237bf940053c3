"""The report in a real browser (tests/support/browser_check.py, headless Chromium): a report rendered from the
fixtures loads every image, raises no console error and has content in every section; a broken
image, a removed image file, a console error, an uncaught exception, an empty section and a page
that never loads are each caught and named. Without Chromium these tests skip locally and FAIL
under CI (CI=true): ci/install-deps.sh installs Debian's chromium, so its absence there is a bug."""
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import FIXTURES, RENDER, RENDER_ENV, ROOT

# A test tool, not part of the report: it lives with the tests' support files.
TOOLS = os.path.join(ROOT, "tests", "support")
sys.path.insert(0, TOOLS)
import browser_check  # noqa: E402

CHECK = os.path.join(TOOLS, "browser_check.py")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="module")
def chromium():
    path = browser_check.find_chromium()
    if not path:
        message = ("no Chromium found (chromium, chromium-browser, google-chrome or $ELSBENCH_CHROMIUM): "
                   "the report's browser check did not run; ci/install-deps.sh installs Debian's chromium")
        if in_ci():
            pytest.fail(message + " (CI is set: failing rather than skipping)")
        pytest.skip(message)
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """report.html rendered from both fixtures (a CPU box and a Colab T4), once for the module."""
    out = tmp_path_factory.mktemp("browser") / "report"
    p = subprocess.run([*RENDER, "--out", str(out), os.path.join(FIXTURES, "devbox-cpu.json"),
                        os.path.join(FIXTURES, "colab-t4.json")],
                       capture_output=True, text=True, env=dict(RENDER_ENV, MPLBACKEND="Agg"))
    assert p.returncode == 0, p.stderr
    return out


def variant(report, tmp_path, edit):
    """A copy of the rendered report whose report.html went through edit(text) -> text."""
    copy = tmp_path / "report"
    shutil.copytree(report, copy)
    page = copy / "report.html"
    page.write_text(edit(page.read_text(encoding="utf-8")), encoding="utf-8")
    return page


def run_check(page, *args):
    return subprocess.run([sys.executable, CHECK, str(page), "--timeout", "60", *args], capture_output=True, text=True)


def test_the_rendered_report_passes_and_its_screenshot_is_written(chromium, report, tmp_path):
    html = (report / "report.html").read_text(encoding="utf-8")
    shot = tmp_path / "shot.png"
    result = browser_check.check(str(report / "report.html"), screenshot=str(shot), chromium=chromium,
                                 max_height=3000)
    assert result.problems == []
    assert len(result.sections) == html.count("<h2>") >= 7
    assert len(result.images) == html.count("<img ") >= 5
    assert all(i["loaded"] and i["width"] > 100 for i in result.images)
    assert {"Summary", "Validation"} <= {s["heading"] for s in result.sections}
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1280, 3000)


def test_a_section_alone_is_screenshot_and_an_unknown_one_is_refused(chromium, report, tmp_path):
    shot = tmp_path / "summary.png"
    browser_check.check(str(report / "report.html"), screenshot=str(shot), chromium=chromium, section="Summary")
    data = shot.read_bytes()
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width == 1280 and 100 < height < 1500
    with pytest.raises(browser_check.CheckError, match='no section headed "Nowhere".*"Summary"'):
        browser_check.check(str(report / "report.html"), screenshot=str(tmp_path / "x.png"), chromium=chromium,
                            section="Nowhere")


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_every_section_is_screenshot_whole_in_page_order(chromium, report, tmp_path):
    result = browser_check.check(str(report / "report.html"), chromium=chromium, sections_dir=str(tmp_path / "s"))
    names = [f"{i:02d}-{browser_check.slug(s['heading'])}.png" for i, s in enumerate(result.sections, 1)]
    assert result.screenshots == [str(tmp_path / "s" / n) for n in names] and names[0] == "01-summary.png"
    sizes = [png_size(tmp_path / "s" / n) for n in names]
    assert all(width == 1280 and height > 50 for width, height in sizes)


def test_the_report_script_screenshots_each_section_into_the_report_it_replaces(chromium, tmp_path):
    from test_main_report import checkout
    repo, env = checkout(tmp_path)
    (repo / "tests" / "support").mkdir(parents=True, exist_ok=True)
    shutil.copy(CHECK, repo / "tests" / "support")
    p = subprocess.run(["bash", str(repo / "ci" / "report.sh"), "--sections"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    report = repo / "results" / "report"
    shots = sorted(os.listdir(report / "screenshots"))
    assert shots[0] == "01-summary.png" and len(shots) == (report / "report.html").read_text().count("<h2>")


def test_a_broken_inline_image_is_named(chromium, report, tmp_path):
    def corrupt_first_image(text):
        return re.sub(r'src="data:image/svg\+xml;base64,[^"]*"', 'src="data:image/svg+xml;base64,PHN2Zz4="', text,
                      count=1)
    p = run_check(variant(report, tmp_path, corrupt_first_image))
    assert p.returncode == 1, p.stdout + p.stderr
    assert re.search(r'image not loaded \(img, alt "Time vs grid size"', p.stderr), p.stderr
    assert p.stderr.count("image not loaded") == 1


def test_a_removed_image_file_is_caught(chromium, report, tmp_path):
    # A report that links its figures as files (beside report.html) instead of inlining them.
    page = variant(report, tmp_path, lambda t: re.sub(r'src="data:image/svg\+xml;base64,[^"]*"',
                                                      'src="time_vs_grid.svg"', t, count=1))
    assert browser_check.check(str(page), chromium=chromium).problems == []
    os.remove(page.parent / "time_vs_grid.svg")
    p = run_check(page)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "image not loaded (img, alt \"Time vs grid size\", src time_vs_grid.svg)" in p.stderr, p.stderr
    assert "resource failed: time_vs_grid.svg: net::ERR_FILE_NOT_FOUND" in p.stderr, p.stderr


def test_console_errors_and_uncaught_exceptions_are_named(chromium, report, tmp_path):
    script = ('<script>console.error("figure data missing for", "speedup");'
              'setTimeout(() => { throw new TypeError("late failure"); }, 0);'
              'console.warn("a warning is not an error");</script></body>')
    page = variant(report, tmp_path, lambda t: t.replace("</body>", script))
    result = browser_check.check(str(page), chromium=chromium)
    assert result.console == ["console.error: figure data missing for speedup",
                              f"uncaught exception: TypeError: late failure (report.html:{_line(page, 'late failure')})"]
    assert all(i["loaded"] for i in result.images)


def _line(page, needle):
    return next(n for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_an_empty_section_is_named(chromium, report, tmp_path):
    page = variant(report, tmp_path, lambda t: t.replace("<h2>Validation</h2>", "<h2>Nothing here</h2>\n"
                                                          "<div class=\"scroll\"><table><thead><tr><th>x</th></tr>"
                                                          "</thead><tbody>\n\n</tbody></table></div>\n"
                                                          "<h2>Validation</h2>"))
    p = run_check(page)
    assert p.returncode == 1
    assert p.stderr.strip().splitlines() == [
        f"browser_check.py: {page}: section \"Nothing here\" is empty: no text, figure or table with rows"]


def test_a_page_that_never_loads_times_out_and_leaves_no_browser(chromium, tmp_path):
    page = tmp_path / "hang.html"
    page.write_text("<html><body><h2>x</h2><p>y</p><script>for (;;) {}</script></body></html>")
    before = set(os.listdir(os.environ.get("TMPDIR", "/tmp")))
    p = subprocess.run([sys.executable, CHECK, str(page), "--timeout", "4"], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2
    # Page.loadEventFired, or on a loaded machine an earlier step: a timeout either way, never a hang.
    assert "timed out after 4 s waiting for " in p.stderr, p.stderr
    left = {n for n in set(os.listdir(os.environ.get("TMPDIR", "/tmp"))) - before if n.startswith("elsbench-chromium-")}
    assert not left


def test_no_browser_is_a_clear_error_not_a_pass(tmp_path):
    page = tmp_path / "report.html"
    page.write_text("<html><body><h2>x</h2><p>y</p></body></html>")
    p = run_check(page, "--chromium", str(tmp_path / "no-such-chromium"))
    assert p.returncode == 2
    assert "no Chromium found" in p.stderr and "chromium package" in p.stderr
    p = run_check(tmp_path / "missing.html")
    assert p.returncode == 2 and "no such file" in p.stderr
