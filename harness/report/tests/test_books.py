"""Book runs in the report: throughput read from book results files, and the cost per 1,000 notes
taken from the best book throughput of an instance, single-note times only where no book ran."""
import json

import books
import cost
from helpers import case, machine


def book_file(tmp_path, name, instance, notes_per_second, notes=64, workers=2):
    data = {"schema": "elsbench-book", "version": 1,
            "context": {"machine": {"hostname": "h", "instance": instance},
                        "elsbench": {"settings": {"solver": "adi", "n": 100}, "workers": workers}},
            "notes": [{"id": f"n{i}", "device": "cpu", "status": "ok"} for i in range(notes)],
            "summary": {"priced_this_run": notes, "notes_per_second": notes_per_second}}
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
    box = machine("p4d", instance="aws:p4d")
    rows = books.book_cost_rows(prices(("aws:p4d", 32.0), ("aws:g5", 1.0)), [], [box], [case(box, seconds=0.5)])
    assert rows[0].basis.startswith("no book run: single-note time")
    assert abs(rows[0].per_1000 - 32.0 * 0.5 * 1000 / 3600) < 1e-12
    assert rows[1].basis == "not measured" and rows[1].per_1000 is None


def test_a_book_file_is_told_from_a_sweep_file(tmp_path):
    assert books.is_book_file(book_file(tmp_path, "a.json", "", 10.0))
    sweep = tmp_path / "s.json"
    sweep.write_text(json.dumps({"context": {}, "benchmarks": []}))
    assert not books.is_book_file(str(sweep))
