"""The validation table: errors and allowances in bp of the notional, where the allowance comes from,
and "not checked" where no reference was asked for."""
import pytest

from harness.report import tables
from harness.report import tolerance
from helpers import case, machine

COLUMNS = ["|error| [bp of notional]", "allowance [bp]", "allowance from", "verdict"]


def cells(c) -> dict:
    table = tables.validation_table([c])
    return {h: v for h, v in zip(table.headers, table.rows[0]) if h in COLUMNS}


def test_a_pass_under_a_grid_scaled_allowance_shows_its_error_and_allowance_in_bp():
    # The sample note's notional is 100 (products/catalog): 0.57 off is 57 bp, and it passes at n = 32.
    coarse = case(machine(), n=32, price=93.8, reference=93.23, reference_stderr=0.004, error=0.57,
                  tol=0.6, allowance=0.612)
    assert cells(coarse) == {"|error| [bp of notional]": "57", "allowance [bp]": "61.2",
                             "allowance from": "grid-scaled tolerance at n = 32 + 3 x reference std. error",
                             "verdict": "PASS"}
    bar = case(machine(), n=100, price=93.2, reference=93.23, error=-0.03, tol=0.005, allowance=0.005,
               accuracy={"target": 0.005}, status="fail")
    assert cells(bar)["allowance from"] == "the --target-error bar"
    assert cells(bar)["|error| [bp of notional]"] == "3"


def test_a_product_outside_the_catalog_has_no_bp():
    mine = case(machine(), product="my-note", price=1.0, reference=1.1, error=-0.1, allowance=0.2, tol=0.2)
    assert cells(mine)["|error| [bp of notional]"] == "-" and cells(mine)["allowance [bp]"] == "-"


def test_no_reference_reads_not_checked_unless_one_was_asked_for():
    plain = case(machine(), status="no-reference", price=93.2, reference=None, error=None, allowance=None)
    assert cells(plain) == {"|error| [bp of notional]": "-", "allowance [bp]": "-", "allowance from": "-",
                            "verdict": "not checked"}
    auto = machine("auto-box")
    auto.references_mode = "auto"
    asked = case(auto, status="no-reference", price=93.2, reference=None, error=None, allowance=None)
    assert cells(asked)["verdict"] == "no reference (asked: --reference auto)"


def test_an_option_s_bp_are_of_its_size_as_the_cli_reads_them():
    # european-call: strike 100, spot 100 (products/catalog): 0.0003 off is 0.03 bp, not 3.
    call = case(machine(), product="european-call", price=10.4503, reference=10.4506, error=-0.0003, tol=0.002,
                allowance=0.002)
    assert cells(call)["|error| [bp of notional]"] == "0.03"
    assert cells(call)["allowance [bp]"] == "0.2"


def test_tol_judges_every_referenced_case_again_at_one_allowance():
    # The sample's 57 bp passed its grid-scaled allowance; at --tol 1bp it fails, with its source said.
    coarse = case(machine(), n=32, price=93.8, reference=93.23, reference_stderr=0.004, error=0.57,
                  tol=0.6, allowance=0.612)
    close = case(machine(), n=200, price=93.2305, reference=93.23, reference_stderr=0.004, error=0.0005,
                 tol=0.02, allowance=0.032)
    book_note = case(machine(), product="book-s1-00001", notional=10000.0, price=9900.0, reference=9899.5,
                     reference_stderr=0.0, error=0.5, tol=20.0, allowance=20.0)
    unknown = case(machine(), product="my-note", price=1.0, reference=1.1, error=-0.1, allowance=0.2, tol=0.2)
    kept = tolerance.rejudge([coarse, close, book_note, unknown], "1bp")
    assert kept == ["my-note"]
    assert cells(coarse)["verdict"] == "FAIL" and cells(coarse)["allowance from"].startswith("--tol 1bp")
    assert coarse.fields["allowance"] == pytest.approx(3 * 0.004 + 0.01)
    assert cells(close)["verdict"] == "PASS"
    assert book_note.fields["tol"] == 1.0 and book_note.status == "pass"  # 1 bp of 10,000, 0.5 off
    assert unknown.status == "pass" and unknown.fields["allowance"] == 0.2  # as run
    tolerance.rejudge([coarse], "0.6")  # an amount, in price units
    assert coarse.status == "pass"
    for bad in ("1xp", "-1bp", "", "bp"):
        with pytest.raises(ValueError, match="--tol"):
            tolerance.parse(bad)
