"""ci/report.sh, the main job's report: the committed results files plus this run's, rendered into
results/report/ (replaced whole); an uncommitted file stays out, a committed file the report
cannot draw is left out with a warning, and only a run whose own report fails fails the job."""
import json
import os
import shutil
import subprocess
import sys

from conftest import FIXTURES, ROOT


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                   capture_output=True)


def checkout(tmp_path):
    """A git checkout with ci/report.sh, two committed machines (one file damaged) and an
    uncommitted, damaged file of an earlier run; `elsbench report` stands in as render.py."""
    repo = tmp_path / "repo"
    (repo / "ci").mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, "ci", "report.sh"), repo / "ci")
    for machine in ("devbox", "broken"):
        (repo / "results" / machine).mkdir(parents=True)
    shutil.copy(os.path.join(FIXTURES, "devbox-cpu.json"), repo / "results" / "devbox" / "old.json")
    (repo / "results" / "broken" / "damaged.json").write_text('{"context": {}, "benchmarks": [')
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "results")
    (repo / "results" / "devbox" / "earlier-run.json").write_text(json.dumps({"not": "results"}))
    (repo / "results" / "report").mkdir()
    (repo / "results" / "report" / "report.html").write_text("an earlier report")
    (repo / "results" / "report" / "stale.png").write_text("a plot no longer drawn")
    fake = tmp_path / "elsbench"
    fake.write_text(f"#!/bin/sh\nshift\nexport PYTHONPATH={ROOT}\nexec {sys.executable} -m harness.report.render \"$@\"\n")
    fake.chmod(0o755)
    return repo, dict(os.environ, ELSBENCH=str(fake), MPLBACKEND="Agg")


def test_committed_files_and_the_run_are_rendered_and_a_damaged_committed_file_is_left_out(tmp_path):
    repo, env = checkout(tmp_path)
    run = tmp_path / "today.json"
    shutil.copy(os.path.join(FIXTURES, "colab-t4.json"), run)
    p = subprocess.run(["bash", str(repo / "ci" / "report.sh"), str(run)], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    report = repo / "results" / "report"
    assert p.stdout.strip().splitlines()[-1] == f"report: {report / 'report.html'}"
    assert "warning: left out results/broken/damaged.json" in p.stderr
    html = (report / "report.html").read_text()
    assert "Files: today.json, old.json." in html  # not the uncommitted earlier-run.json
    assert not (report / "stale.png").exists()
    assert not [n for n in os.listdir(report.parent) if n.startswith(".report")]


def test_a_run_whose_report_cannot_be_rendered_fails_and_keeps_the_old_report(tmp_path):
    repo, env = checkout(tmp_path)
    run = tmp_path / "today.json"
    run.write_text('{"context": {}, "benchmarks": []}')
    p = subprocess.run(["bash", str(repo / "ci" / "report.sh"), str(run)], capture_output=True, text=True, env=env)
    assert p.returncode == 1
    assert f"the report of this run ({run}) could not be rendered" in p.stderr
    assert (repo / "results" / "report" / "report.html").read_text() == "an earlier report"
