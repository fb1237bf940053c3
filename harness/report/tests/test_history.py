"""A case followed across runs on one machine: a change elsbench compare finds is flagged with the
commit that brought it, a noisy run flags nothing, and machines are never mixed. Runs carry five
repetitions a case: with three (the fixture's) no change can be significant to compare."""
import copy
import json
import os

from harness.report import history
from harness.report import render
from conftest import FIXTURES


def run_file(tmp_path, name, commit, started, scale=1.0, price_shift=0.0, noisy=False, host="devbox", five=True):
    with open(os.path.join(FIXTURES, "devbox-cpu.json"), encoding="utf-8") as f:
        data = json.load(f)
    data = copy.deepcopy(data)
    meta = data["context"]["elsbench"]
    meta["started"] = started
    meta["machine"]["git_commit"] = commit
    meta["machine"]["hostname"] = host
    entries, repeated = [], set()
    for e in data["benchmarks"]:
        entries.append(e)
        if five and e.get("run_type") == "iteration" and e.get("repetition_index") == e.get("repetitions", 0) - 1:
            repeated.add(e["case_id"])
            for index, wobble in ((3, 1.005), (4, 0.995)):
                entries.append({**copy.deepcopy(e), "repetition_index": index, "real_time": e["real_time"] * wobble})
    data["benchmarks"] = entries
    for e in data["benchmarks"]:
        if e.get("case_id") in repeated:
            e["repetitions"] = 5
        if e.get("real_time") is not None:
            e["real_time"] *= scale
        if e.get("price") is not None and "european-call" in e["case_id"]:
            e["price"] += price_shift
        if noisy:
            e["noisy"] = True
    folder = tmp_path / "results" / host
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(data))
    return str(folder / name)


def test_a_slowdown_and_a_price_change_are_flagged_with_their_commit(tmp_path):
    paths = [run_file(tmp_path, "a.json", "aaaaaaa1", "2026-11-01T00:00:00Z"),
             run_file(tmp_path, "b.json", "bbbbbbb2", "2026-11-02T00:00:00Z", scale=2.0, price_shift=0.01)]
    moved = history.changes(history.load_history(paths))
    kinds = {c.kind for c in moved}
    assert kinds == {"time", "price"}
    assert all(c.after.commit == "bbbbbbb2" and c.before.commit == "aaaaaaa1" for c in moved)
    assert all("european-call" in c.history.case_id for c in moved if c.kind == "price")
    assert all(c.cause.startswith("the code between aaaaaaa and bbbbbbb") for c in moved)


def test_a_noisy_run_flags_no_time_and_the_same_timings_flag_nothing(tmp_path):
    paths = [run_file(tmp_path, "a.json", "a1", "2026-11-01T00:00:00Z"),
             run_file(tmp_path, "b.json", "b2", "2026-11-02T00:00:00Z", scale=3.0, noisy=True),
             run_file(tmp_path, "c.json", "c3", "2026-11-03T00:00:00Z", scale=1.02)]
    moved = history.changes(history.load_history(paths))
    assert moved == []


def test_the_history_flags_what_compare_flags_and_nothing_else(tmp_path):
    # Three repetitions a side: compare finds no time change significant, so neither does the history.
    paths = [run_file(tmp_path, "a.json", "a1", "2026-11-01T00:00:00Z", five=False),
             run_file(tmp_path, "b.json", "b2", "2026-11-02T00:00:00Z", scale=2.0, five=False)]
    assert history.changes(history.load_history(paths)) == []
    asked = []
    verdict = {"price_moved": False, "time": "faster"}
    moved = history.changes(history.load_history(paths),
                            verdicts=lambda a, b: asked.append((a, b)) or {"european-call/adi:hundsdorfer-verwer/"
                                                                           "n=200/nt=200/cpu/t1/fp64": verdict})
    assert asked == [(paths[0], paths[1])]
    assert [(c.kind, c.history.case_id.split("/")[0]) for c in moved] == [("time", "european-call")]


def test_without_the_binary_the_history_says_what_it_needs(tmp_path, monkeypatch):
    paths = [run_file(tmp_path, "a.json", "a1", "2026-11-01T00:00:00Z"),
             run_file(tmp_path, "b.json", "b2", "2026-11-02T00:00:00Z")]
    monkeypatch.setenv("ELSBENCH_BIN", str(tmp_path / "no-such-binary"))
    try:
        history.changes(history.load_history(paths))
    except history.ResultsError as e:
        assert "ELSBENCH_BIN" in str(e)
    else:
        raise AssertionError("no error without the binary")


def test_two_machines_are_never_one_history(tmp_path):
    paths = [run_file(tmp_path, "a.json", "a1", "2026-11-01T00:00:00Z"),
             run_file(tmp_path, "b.json", "b2", "2026-11-02T00:00:00Z", scale=5.0, host="other")]
    histories = history.load_history(paths)
    assert all(len(h.points) == 1 for h in histories) and history.changes(histories) == []


def test_the_history_section_draws_the_plot_and_names_what_it_did_not_read(tmp_path):
    run_file(tmp_path, "a.json", "a1", "2026-11-01T00:00:00Z")
    run_file(tmp_path, "b.json", "b2", "2026-11-02T00:00:00Z", scale=2.0)
    (tmp_path / "results" / "devbox" / "gbench.json").write_text(json.dumps({"context": {}, "benchmarks": []}))
    out = tmp_path / "report"
    assert render.main(["--history", str(tmp_path / "results"), "--out", str(out)]) == 0
    md = (out / "report.md").read_text()
    assert "## History across commits" in md and "![History across commits](history.png)" in md
    assert "gbench.json (not a sweep results file)" in md
    assert "| time | a1 (2026-11-01) | b2 (2026-11-02) | 2x time |" in md


def test_a_damaged_file_in_the_folder_is_named_and_left_out(tmp_path):
    run_file(tmp_path, "a.json", "a1", "2026-11-01T00:00:00Z")
    (tmp_path / "results" / "devbox" / "cut.json").write_text('{"context": {"elsbench": {}}, "benchmarks": [')
    found = history.read_folder(str(tmp_path / "results"))
    assert [os.path.basename(p) for p in found.results] == ["a.json"] and found.books == []
    skipped = found.skipped
    assert len(skipped) == 1 and skipped[0].startswith("devbox/cut.json (") and "not valid JSON" in skipped[0]


def test_cases_that_stop_matching_are_named_with_the_settings_that_differ(tmp_path):
    # The next run of the same machine priced in mixed instead of fp64: no case followed, and why.
    first = run_file(tmp_path, "a.json", "aaaaaaa1", "2026-11-01T00:00:00Z")
    with open(first, encoding="utf-8") as f:
        data = json.load(f)
    data["context"]["elsbench"]["started"] = "2026-11-02T00:00:00Z"
    for e in data["benchmarks"]:
        e["case_id"] = e["case_id"].replace("/fp64", "/mixed")
        e["precision"] = "mixed" if e.get("precision") == "fp64" else e.get("precision")
    second = os.path.join(os.path.dirname(first), "b.json")
    with open(second, "w", encoding="utf-8") as f:
        json.dump(data, f)
    found = history.unmatched([first, second])
    assert len(found) == 1
    assert found[0].differences == {"precision": (["fp64"], ["mixed"])}
    assert found[0].why == "precision fp64 -> mixed" and found[0].lost > 0
    # The same run twice: nothing stopped matching.
    assert history.unmatched([first, run_file(tmp_path, "c.json", "ccccccc3", "2026-11-03T00:00:00Z")]) == []
    section = render.history_section(str(tmp_path / "results"), history.read_folder(str(tmp_path / "results")),
                                     str(tmp_path))
    assert any(t.caption == "Cases that stopped matching" for t in section.tables)


def test_a_case_id_reads_as_compare_reads_it():
    assert history.case_axes("sample-2a-stepdown/adi:douglas/n=50/nt=100/cpu/t1/fp64/ki_damping=0") == {
        "product": "sample-2a-stepdown", "solver": "adi:douglas", "n": "50", "nt": "100", "device": "cpu/t1",
        "precision": "fp64", "ki_damping": "0"}
