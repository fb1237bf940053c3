"""The validation table: errors and allowances in bp of the notional, where the allowance comes from,
and "not checked" where no reference was asked for."""
import tables
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
