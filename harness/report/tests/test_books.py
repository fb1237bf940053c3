"""Book runs in the report: throughput read from book results files, and the cost per 1,000 notes
taken from the best book throughput of an instance, single-note times only where no book ran."""
import json

from harness.report import books
from harness.report import cost
from harness.report import tables
from helpers import case, machine


H100 = [{"name": "NVIDIA H100 80GB HBM3", "memory_bytes": 80 * 2**30}]


def book_file(tmp_path, name, instance, notes_per_second, notes=64, workers=2, gpus=H100, n=100, device="cpu",
              **descriptor):
    book = {"settings": {"solver": "adi", "n": n}, "workers": workers,
            "summary": {"priced_this_run": notes, "notes_per_second": notes_per_second}}
    data = {"context": {"elsbench": {"schema": 1, "preset": "book", "book": book,
                                     "machine": {"hostname": "h", "instance": instance, "gpus": gpus,
                                                 **descriptor}}},
            "benchmarks": [{"case_id": f"n{i}/adi/n=100/nt=auto/book/fp64", "product": f"n{i}",
                            "run_type": "aggregate", "aggregate_name": "median", "device": device,
                            "status": "no-reference", "price": 1.0, "real_time": 1.0, "time_unit": "ms"}
                           for i in range(notes)]}
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def prices(*entries):
    return cost.PriceTable("today", "today", [cost.PriceEntry("aws", e, e, "H100", 1, 80, usd, None, "x")
                                              for e, usd in entries])


def test_the_cost_of_a_book_comes_from_its_best_measured_throughput(tmp_path):
    runs = [books.load_book(book_file(tmp_path, "a.json", "aws:p5", 100.0)),
            books.load_book(book_file(tmp_path, "b.json", "aws:p5", 400.0, notes=1024))]
    rows = books.book_cost_rows(prices(("aws:p5", 36.0)), runs, [], [])
    assert rows[0].notes_per_second == 400.0
    assert abs(rows[0].per_1000 - 36.0 / 3600 / 400.0 * 1000) < 1e-12
    assert "1024 notes" in rows[0].basis


def test_single_note_times_stand_in_only_where_no_book_ran_and_say_so(tmp_path):
    box = machine("p4d", instance="aws:p4d", gpus=H100)
    rows = books.book_cost_rows(prices(("aws:p4d", 32.0), ("aws:g5", 1.0)), [], [box], [case(box, seconds=0.5)])
    assert rows[0].basis.startswith("no book run: single-note time")
    assert abs(rows[0].per_1000 - 32.0 * 0.5 * 1000 / 3600) < 1e-12
    assert rows[1].basis.startswith("not measured: a whole book priced on this instance") and rows[1].per_1000 is None


def test_a_book_file_is_told_from_a_sweep_file(tmp_path):
    assert books.is_book_file(book_file(tmp_path, "a.json", "", 10.0))
    sweep = tmp_path / "s.json"
    sweep.write_text(json.dumps({"context": {}, "benchmarks": []}))
    assert not books.is_book_file(str(sweep))


def sweep_case(box, book, seconds, device="cpu", threads=2, **fields):
    return case(box, seconds=seconds, book=book, device=device, threads=threads, n=100,
                case_id=f"sample-2a-stepdown/adi/n=100/{device}/book={book}", **fields)


def test_the_book_axis_of_a_sweep_gives_one_throughput_point_per_book_size():
    box = machine("vm")
    cases = [sweep_case(box, 1, 0.1), sweep_case(box, 16, 0.8), sweep_case(box, 256, 10.0),
             # a series that never ran a book is not a book
             sweep_case(box, 1, 0.2, threads=1)]
    runs = books.sweep_book_runs(cases)
    assert sorted((r.notes, r.notes_per_second) for r in runs) == [(1, 10.0), (16, 20.0), (256, 25.6)]
    assert len({r.series for r in runs}) == 1 and runs[0].workers == 2


def test_an_instance_takes_the_best_book_of_its_gpu_model_measured_elsewhere_charged_per_gpu():
    h100 = {"index": 0, "name": "NVIDIA H100 80GB HBM3", "memory_bytes": 80 * 2**30}
    box = machine("lab", gpus=[h100])
    cases = [sweep_case(box, 1, 0.01, device="cuda:0"), sweep_case(box, 256, 0.5, device="cuda:0"),
             sweep_case(box, 256, 0.1, device="cpu")]  # fast, but a CPU elsewhere says nothing of the instance
    table = cost.PriceTable("today", "today", [cost.PriceEntry("aws", "p5", "aws:p5", "H100", 8, 80, 98.0, None, "x"),
                                               cost.PriceEntry("aws", "g5", "aws:g5", "A10G", 1, 24, 1.0, None, "x")])
    rows = books.book_cost_rows(table, books.sweep_book_runs(cases), [box], [c for c in cases if c.book == 1])
    # One GPU's measured rate, charged one eighth of the instance: no rate of eight GPUs is claimed.
    assert rows[0].notes_per_second == 256 / 0.5
    assert abs(rows[0].per_1000 - 98.0 / 8 / 3600 / (256 / 0.5) * 1000) < 1e-12
    assert "same GPU" in rows[0].basis and "charged 1/8 of the hourly price" in rows[0].basis
    assert rows[1].basis.startswith("not measured: ")


def test_a_book_of_one_note_is_a_single_note_not_a_book(tmp_path):
    box = machine("p4d", instance="aws:p4d", gpus=H100)
    runs = [books.load_book(book_file(tmp_path, "one.json", "aws:p4d", 50.0, notes=1))]
    rows = books.book_cost_rows(prices(("aws:p4d", 32.0)), runs, [box], [case(box, seconds=0.5)])
    assert rows[0].basis.startswith("no book run: single-note time")
    assert rows[0].notes_per_second == 2.0


def test_the_report_shows_a_sweeps_book_axis_and_keeps_its_books_out_of_the_per_pricing_sections(tmp_path):
    import os

    from harness.report import render
    from conftest import FIXTURES
    data = json.loads(open(os.path.join(FIXTURES, "devbox-cpu.json"), encoding="utf-8").read())
    single_id = "sample-2a-stepdown/adi:hundsdorfer-verwer/n=100/nt=200/cpu/t2/fp64"
    book = [dict(e, case_id=single_id + "/book=16", name=e["name"] + "/book=16", book=16,
                 real_time=e["real_time"] * 8) for e in data["benchmarks"] if e["case_id"] == single_id]
    assert book
    data["benchmarks"] += book
    sweep = tmp_path / "sweep.json"
    sweep.write_text(json.dumps(data))
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(dict(data, benchmarks=data["benchmarks"][:-len(book)])))
    render.render([str(sweep)], str(tmp_path / "with"), "adi/cpu/t1", render.DEFAULT_PRICES)
    render.render([str(plain)], str(tmp_path / "without"), "adi/cpu/t1", render.DEFAULT_PRICES)
    report = (tmp_path / "with" / "report.md").read_text()
    before = (tmp_path / "without" / "report.md").read_text()
    assert "## Books of notes" in report and "## Books of notes" not in before
    assert os.path.exists(tmp_path / "with" / "books.png")
    # The book case counts in the summary but stays out of the per-pricing sections.
    section = lambda text, title: text.split("## " + title)[1].split("\n## ")[0]
    for title in ("Time vs grid size", "Speedup over", "Validation"):
        assert section(report, title) == section(before, title)
    assert "12 cases" in report and "11 cases" in before


def test_another_form_of_the_same_gpu_family_is_not_the_gpu_measured():
    sxm = {"index": 0, "name": "NVIDIA H100 80GB HBM3", "memory_bytes": 85017493504}
    entry = lambda gpu, gb: cost.PriceEntry("x", "i", "x:i", gpu, 1, gb, 1.0, None, "x")  # noqa: E731
    assert cost.same_gpu(entry("H100 SXM", 80), sxm)
    assert not cost.same_gpu(entry("H100 PCIe", 80), sxm)  # 2 TB/s HBM2e against 3.35 TB/s HBM3
    assert not cost.same_gpu(entry("H100", 94), sxm)       # the NVL's 94 GB
    assert cost.same_gpu(entry("T4", 16), {"name": "Tesla T4", "memory_bytes": int(14.7 * 2**30)})


V1_NOTE = {"id": "a", "line": 1, "status": "ok", "price": 98.5, "delta": [0.01, 0.02], "gamma": [-1e-4, -2e-5],
           "seconds": 0.008, "assets": 2, "grid_points": 10000, "time_steps": 916, "scheme": "hundsdorfer-verwer",
           "device": "cuda:0", "threads": 1, "peak_device_bytes": 830504440}


def legacy_book(tmp_path, name, failed=0, resumed=0, notes=1000):
    """A book file of the H100's first run (elsbench-book v1, ff80309), read converted."""
    settings = {"book": "b.jsonl", "solver": "adi-cuda", "scheme": "hundsdorfer-verwer", "n": 100, "nt": "auto",
                "mesh": "sinh", "s_max_multiple": 4.0, "density": 0.5, "damping_steps": 2, "precision": "fp64"}
    data = {"schema": "elsbench-book", "version": 1, "bad_lines": [],
            "context": {"elsbench": {"settings": settings, "commands": ["elsbench book price b.jsonl"], "workers": 1,
                                     "batched": True, "ranks": 1, "date": "2026-11-26T19:18:14Z"},
                        "machine": {"hostname": "vm", "cores": 16, "cpu_model": "Intel(R) Xeon(R) Processor",
                                    "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3"}]}},
            "notes": [V1_NOTE],
            "summary": {"notes": notes, "priced_this_run": notes - failed - resumed, "failed": failed,
                        "resumed": resumed, "notes_per_second": 120.0}}
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_a_book_file_of_the_first_gpu_run_is_read_with_its_machine_told_apart(tmp_path):
    run = books.load_book(legacy_book(tmp_path, "gpu.json"))
    assert (run.solver, run.device, run.n, run.notes, run.notes_per_second) == ("adi-cuda", "cuda:0", 100, 1000, 120.0)
    assert run.machine == "vm (16-core Intel Xeon, NVIDIA H100 80GB HBM3)" and run.whole
    assert run.started == "2026-11-26T19:18:14Z"  # the machine table's "started"


def test_only_whole_books_are_plotted_and_priced(tmp_path):
    whole = books.load_book(legacy_book(tmp_path, "a.json"))
    failed = books.load_book(legacy_book(tmp_path, "b.json", failed=301))
    resumed = books.load_book(legacy_book(tmp_path, "c.json", resumed=13, notes=30))
    assert not failed.whole and failed.why_not_whole == "301 of 1000 notes failed"
    assert not resumed.whole and resumed.why_not_whole == "resumed: 17 of 30 notes priced in this run"
    assert books.plotted_runs([whole, failed, resumed]) == [whole]


def test_a_single_note_on_another_grid_is_not_the_book_of_one():
    box = machine("vm")
    cases = [sweep_case(box, 1, 0.1), sweep_case(box, 16, 0.8),
             case(box, seconds=0.5, threads=2, n=96, case_id="sample-2a-stepdown/adi/n=96/cpu")]
    assert sorted(r.notes for r in books.sweep_book_runs(cases)) == [1, 16]


def test_an_instance_claim_the_machine_does_not_bear_out_is_never_priced(tmp_path):
    # A CPU book on a 2-core VM labelled --instance aws:g4dn.xlarge was "measured on this instance".
    claimed = books.load_book(book_file(tmp_path, "cpu.json", "aws:p5", 33.0, gpus=[]))
    rows = books.book_cost_rows(prices(("aws:p5", 36.0)), [claimed], [], [])
    assert rows[0].per_1000 is None and rows[0].notes_per_second is None
    assert rows[0].basis == "claimed aws:p5, not verified: its H100 is not among the machine's GPUs (none)"
    unpriced = [r for r in rows[1:] if "33" in f"{r.notes_per_second}"]
    assert unpriced and "not verified" in unpriced[0].basis and unpriced[0].per_1000 is None
    a100 = [{"name": "NVIDIA A100-SXM4-40GB", "memory_bytes": 40 * 2**30}]
    other = books.load_book(book_file(tmp_path, "a100.json", "aws:p5", 50.0, gpus=a100))
    assert "not among the machine's GPUs (NVIDIA A100-SXM4-40GB)" in books.book_cost_rows(prices(("aws:p5", 36.0)), [other], [], [])[0].basis
    box = machine("vm", instance="aws:p5")
    single = cost.cost_rows(prices(("aws:p5", 36.0)), [box], [case(box, seconds=0.5)], "sample-2a-stepdown", None)
    assert single[0].per_1000 is None and "not verified" in single[0].basis


def drawn_books(runs, tmp_path, monkeypatch):
    """The books figure as drawn, before it is written."""
    figures = []
    monkeypatch.setattr(books.figures, "save", lambda fig, out, stem: figures.append(fig) or {})
    books.plot(runs, str(tmp_path))
    return figures[0]


def test_the_books_plot_is_linear_over_a_small_range_log_over_a_wide_one_and_clips_nothing(tmp_path, monkeypatch):
    box = machine("vm")
    small = books.sweep_book_runs([sweep_case(box, 1, 1 / 27.2), sweep_case(box, 4, 4 / 41.7),
                                   sweep_case(box, 16, 16 / 40.6)])
    ax = drawn_books(small, tmp_path, monkeypatch).axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("linear", "linear")
    wide = small + [books.load_book(book_file(tmp_path, "gpu.json", "", 123.0, notes=1000, workers=1))]
    fig = drawn_books(wide, tmp_path, monkeypatch)
    ax = fig.axes[0]
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "linear")
    for run in wide:  # every point strictly inside the axes
        assert ax.get_xlim()[0] < run.notes < ax.get_xlim()[1]
        assert ax.get_ylim()[0] < run.notes_per_second < ax.get_ylim()[1]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert sorted(label.split("\n")[0] for label in labels) == ["CPU x1, fp64", "CPU x2, fp64"]
    assert "41.7" in [t.get_text() for t in ax.texts]


def test_a_report_of_books_alone_has_a_title_and_no_rows_for_what_was_not_run(tmp_path):
    from harness.report import render
    path = legacy_book(tmp_path, "gpu.json")
    render.render([path], str(tmp_path / "out"), "adi/cpu/t1", render.DEFAULT_PRICES)
    report = (tmp_path / "out" / "report.md").read_text()
    assert report.startswith("# elsbench report: vm (16-core Intel Xeon, NVIDIA H100 80GB HBM3)\n")
    headings = [line for line in report.splitlines() if line.startswith("## ")]
    assert headings == ["## Summary", "## Books of notes"]
    rows = [line for line in report.splitlines() if line.startswith("| ")]
    assert not [r for r in rows if "| not measured" in r]
    books_text = report.split("## Books of notes")[1]
    assert "Not measured (a whole book priced on the instance" in books_text and "AWS g4dn.xlarge" in books_text


def test_the_best_book_is_chosen_among_books_of_equal_work_and_the_table_names_the_book(tmp_path):
    # A 3-note n = 40 book was "best" against 1,000-note n = 100 books.
    small = books.load_book(book_file(tmp_path, "small.json", "aws:p5", 500.0, notes=3, n=40, device="cuda:0"))
    big = books.load_book(book_file(tmp_path, "big.json", "aws:p5", 120.0, notes=1000, device="cuda:0"))
    cpu = books.load_book(book_file(tmp_path, "cpu.json", "", 100.0, notes=1000, gpus=[]))
    assert big.work == cpu.work != small.work
    rows = books.book_cost_rows(prices(("aws:p5", 36.0)), [small, big, cpu], [], [])
    p5 = [r for r in rows if r.instance == "aws aws:p5"]
    assert [(r.notes_per_second, r.book.split(" (")[0]) for r in p5] == [(120.0, "1000 notes"), (500.0, "3 notes")]
    assert p5[0].book.endswith("n = 100, fp64") and p5[1].book.endswith("n = 40, fp64")
    assert tables.book_cost_table(rows).rows[0][0] == big.work
    other_notes = books.load_book(book_file(tmp_path, "other.json", "", 90.0, notes=999, gpus=[]))
    assert other_notes.work != big.work
