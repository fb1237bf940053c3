"""The package answers as the CLI does: the same prices, deltas, gammas, Greeks and book rows to
the last bit (one set of C++ layers, one compiler's build of them), the same refusals."""
import json
import pathlib
import os
import math

import pytest

import elsbench

CPU_SOLVERS = [s["name"] for s in elsbench.solvers() if "cpu" in s["devices"]]
CATALOG = [n.id for n in elsbench.Note.catalog()]


def nodes_for(note_id, solver):
    dim = elsbench.Note(note_id).dimension
    return {1: 80, 2: 40, 3: 16}[dim] if solver != "cn-direct" else {1: 80, 2: 32}.get(dim)


def test_the_catalog_and_the_cpu_solvers_are_all_here():
    assert {"adi", "explicit", "cn-direct"} <= set(CPU_SOLVERS)
    assert "sample-2a-stepdown" in CATALOG and len(CATALOG) >= 11


@pytest.mark.parametrize("solver", CPU_SOLVERS)
@pytest.mark.parametrize("note_id", CATALOG)
def test_price_delta_gamma_equal_the_cli_bit_for_bit(cli, note_id, solver):
    n = nodes_for(note_id, solver)
    if n is None:
        with pytest.raises(ValueError, match="handles up to"):
            elsbench.price(note_id, solver=solver, n=16, progress=False)
        return
    want = cli.price_json("--product", note_id, "--solver", solver, "--n", n, "--threads", 2)
    got = elsbench.price(note_id, solver=solver, n=n, threads=2, progress=False)
    assert (got.price, got.delta, got.gamma) == (want["price"], want["delta"], want["gamma"])
    assert (got.shape, got.time_steps, got.scheme, got.mesh) == (want["shape"], want["time_steps"], want["scheme"],
                                                                 want["mesh"])


@pytest.mark.parametrize("note_id", CATALOG)
def test_greeks_and_error_estimate_equal_the_cli(cli, note_id):
    n = nodes_for(note_id, "adi")
    # The 3-asset note's estimate needs n = 40 or more (a minute here): its Greeks alone at n = 16.
    estimate = elsbench.Note(note_id).dimension < 3
    want = cli.price_json("--product", note_id, "--solver", "adi", "--n", n, "--greeks",
                          *(["--error-estimate"] if estimate else []))
    got = elsbench.price(note_id, n=n, greeks=True, error_estimate=estimate, progress=False)
    assert got.greeks == want["greeks"]
    assert got.error_estimate == want.get("error_estimate")
    if estimate:
        assert got.error == want["error_estimate"]["error"]


@pytest.mark.parametrize("precision", ["fp32", "mixed"])
def test_other_precisions_equal_the_cli(cli, precision):
    want = cli.price_json("--product", "sample-2a-stepdown", "--solver", "adi", "--n", 60, "--precision", precision)
    got = elsbench.price("sample-2a-stepdown", n=60, precision=precision, progress=False)
    assert (got.price, got.delta, got.precision) == (want["price"], want["delta"], precision)


def test_a_reference_gives_the_cli_verdict(cli):
    want = cli.price_json("--product", "european-call", "--solver", "adi", "--n", 100, "--reference", "stored")
    got = elsbench.price("european-call", n=100, reference="stored", progress=False)
    assert got.reference == want["reference"] and got.verdict == want["verdict"]
    assert got.verdict["status"] == "pass"


def test_nodes_per_axis_and_grid_keys_equal_the_cli(cli):
    want = cli.price_json("--product", "min-call", "--solver", "adi", "--n", "50,36", "--nt", 80, "--mesh", "uniform",
                          "--s-max", 5)
    got = elsbench.price("min-call", n=(50, 36), nt=80, mesh="uniform", s_max=5, progress=False)
    assert (got.price, got.shape, got.mesh) == (want["price"], [50, 36], want["mesh"])


def test_book_rows_equal_the_cli_csv(cli, tmp_path):
    book = tmp_path / "book.jsonl"
    notes = elsbench.book.generate(6, assets="mixed", seed=7, out=book)
    out = tmp_path / "cli.json"
    cli("book", "generate", "--notes", 6, "--assets", "mixed", "--seed", 7, "--out", tmp_path / "cli-book.jsonl")
    assert (tmp_path / "cli-book.jsonl").read_text() == book.read_text()
    for family in ("digital", "monthly", "lizard"):
        py, by_cli = tmp_path / f"{family}.jsonl", tmp_path / f"{family}-cli.jsonl"
        elsbench.book.generate(5, assets=2, seed=7, out=py, family=family)
        cli("book", "generate", "--notes", 5, "--assets", 2, "--seed", 7, "--family", family, "--out", by_cli)
        assert by_cli.read_text() == py.read_text()
    assert '"coupons"' in (tmp_path / "monthly.jsonl").read_text()
    with pytest.raises(elsbench.BadInput, match="family"):
        elsbench.book.generate(2, family="digitial")
    cli("book", "price", book, "--solver", "adi", "--n", 24, "--threads", 2, "--out", out)
    want = elsbench.results.load(out)
    got = elsbench.book.price(notes, n=24, threads=2, progress=False)
    from_file = elsbench.book.price(book, n=24, threads=2, progress=False)
    assert list(got.columns) == list(want.columns)
    numbers = ["price", "delta_1", "gamma_1", "delta_2", "gamma_3", "line"]
    assert got[numbers].equals(want[numbers]) and from_file[numbers].equals(want[numbers])
    assert list(got["status"]) == list(want["status"]) == ["no-reference"] * 6  # priced; no reference asked for


def test_a_books_plan_is_the_clis_dry_run(cli, tmp_path):
    book = tmp_path / "book.jsonl"
    notes = elsbench.book.generate(8, assets="mixed", seed=7, out=book)
    for args, kw in (([], {}), (["--n", 60], {"n": 60}), (["--target-error", "1bp"], {"target_error": "1bp"})):
        said = cli("book", "price", book, "--threads", 2, "--dry-run", *args).stdout
        got = elsbench.book.plan(notes, threads=2, **kw)
        assert got["text"] == said
        assert got["notes"] == 8 and sum(got["by_assets"]) == 8 and got["parallel"] == 2
        if "target_error" in kw:  # the grids are chosen after each note's pilot: a lower bound alone
            assert got["low_seconds"] > 0 and got["expected_seconds"] is None and got["high_seconds"] is None
        else:
            assert got["low_seconds"] <= got["expected_seconds"] <= got["high_seconds"]
            assert f"expected_seconds: {got['expected_seconds']:g}" in said
    with pytest.raises(elsbench.BadInput, match="target_error"):
        elsbench.book.plan(notes, n=60, target_error="1bp")


def test_a_book_without_a_grid_is_priced_as_price_prices_by_default(cli, tmp_path):
    # The book's default was a plain n = 100 grid, 5 bp off (issue 44): now each note is priced as
    # price prices it by default, Richardson's value, with its error bar and the grid it landed on.
    book = tmp_path / "book.jsonl"
    notes = elsbench.book.generate(3, assets=1, seed=11, out=book)
    out = tmp_path / "cli.json"
    cli("book", "price", book, "--threads", 2, "--out", out)
    want = elsbench.results.load(out)
    got = elsbench.book.price(book, threads=2, progress=False)
    columns = ["price", "error_bar", "priced_n", "delta_1"]
    assert got[columns].equals(want[columns])
    assert list(got["priced_n"]) == [400] * 3
    for note, row in zip(notes, got.itertuples()):
        single = elsbench.price(note, error_estimate=True, threads=1, progress=False)
        assert (row.price, row.error_bar) == (single.price, single.error_bar)


def test_the_desk_book_prices_in_python_as_from_the_cli(cli, tmp_path):
    # Issue 47's desk: 50 notes in calendar dates with ISINs, desk-unit Greeks and a ladder, the same
    # from the CLI and from Python (n = 40 here for the suite's time; the notebook prices it on the
    # default grid).
    desk = elsbench.book.template("desk_book.csv")
    out = tmp_path / "desk.json"
    cli("book", "price", desk, "--n", 40, "--threads", 2, "--greeks", "--greek-units", "desk", "--spot-shifts", "-10,10",
        "--vol-shifts", 2, "--out", out)
    want = elsbench.results.load(out)
    got = elsbench.book.price(desk, n=40, threads=2, greeks=True, greek_units="desk", spot_shifts=[-10, 10],
                              vol_shifts=[2], progress=False)
    assert len(got) == 50 and got["isin"].str.match(r"^KR6[0-9]{9}$").all()
    columns = ["price", "delta_1", "vega_1", "vega_2", "rho", "theta", "greek_units"]
    assert got[columns].equals(want[columns])
    import pandas
    ladder = pandas.read_csv(tmp_path / "desk.scenarios.csv")
    assert got.attrs["scenarios"]["price"].tolist() == ladder["price"].tolist()
    with pytest.raises(elsbench.BadInput, match="no template"):
        elsbench.book.template("desk.csv")


def test_a_csv_book_and_its_dataframe_price_as_the_cli_does(cli, tmp_path):
    import pandas
    template = str(pathlib.Path(__file__).resolve().parents[2] / "products" / "templates" / "book.csv")
    cli("book", "price", template, "--n", 24, "--threads", 2, "--out", tmp_path / "cli.json")
    want = elsbench.results.load(tmp_path / "cli.json")
    from_file = elsbench.book.price(template, n=24, threads=2, progress=False)
    table = pandas.read_csv(template)
    from_frame = elsbench.book.price(table, n=24, threads=2, progress=False)
    assert list(from_frame.columns[:9]) == ["product", "isin", "tags", "notional", "underlyings", "price",
                                            "price_pct_notional", "error_bar", "status"]
    for got in (from_file, from_frame):
        assert list(got["price"]) == list(want["price"]) and list(got["isin"]) == list(table["isin"])
    assert list(from_frame["price_pct_notional"]) == [p / n * 100 for p, n in zip(want["price"], table["notional"])]
    table["rate"] = table["rate"].astype(object)
    table.loc[1, "rate"] = "3%"
    bad = elsbench.book.price(table, n=24, threads=2, progress=False)
    assert bad.attrs["bad_lines"][0]["line"] == 3 and bad.attrs["bad_lines"][0]["field"] == "rate"
    assert list(bad["status"]).count("bad-line") == 1


def test_tol_and_the_reference_keywords_judge_as_the_cli_does(cli, tmp_path):
    want = json.loads(cli("price", "--json", "--product", "european-call", "--solver", "adi", "--n", 20, "--reference",
                          "stored", "--tol", "1bp", "--threads", 1, check=False).stdout)  # exit 1: it fails
    got = elsbench.price("european-call", n=20, reference="stored", tol="1bp", threads=1, progress=False)
    assert got.verdict == want["verdict"] and got.verdict["status"] == "fail"
    assert got.verdict["discretisation_source"] == "--tol 1bp"
    with pytest.raises(elsbench.BadInput, match="tol"):
        elsbench.price("european-call", n=20, tol="1bp", progress=False)
    with pytest.raises(elsbench.BadInput, match="tol"):
        elsbench.price("european-call", n=20, reference="stored", tol="1xp", progress=False)
    with pytest.raises(elsbench.BadInput, match="reference_device"):
        elsbench.price("european-call", n=20, reference="stored", reference_device="gpu9", progress=False)
    book = tmp_path / "b.jsonl"
    elsbench.book.generate(2, assets=1, seed=3, out=book)
    store = tmp_path / "store"
    df = elsbench.book.price(book, n=24, reference="auto", reference_target=1, reference_budget=60,
                             reference_store=store, tol="0.5bp", progress=False)
    assert set(df["tol"]) == {0.5e-4 * 100} and any(store.iterdir())


def test_a_book_resumes_from_python_as_from_the_cli(tmp_path):
    book = tmp_path / "b.jsonl"
    elsbench.book.generate(3, assets=1, seed=4, out=book)
    out = tmp_path / "r.json"
    first = elsbench.book.price(book, n=24, out=out, progress=False)
    again = elsbench.book.price(book, n=24, out=out, resume=True, progress=False)
    assert again.attrs["summary"]["resumed"] == 3 and again.attrs["summary"]["priced_this_run"] == 0
    assert list(again["price"]) == list(first["price"])
    with pytest.raises(elsbench.BadInput, match="resume"):
        elsbench.book.price(book, n=24, resume=True, progress=False)
    # A deadline no note's work can meet: every note refused before it is built, the book goes on.
    late = elsbench.book.price(book, n=2000, max_seconds=0.001, progress=False)
    assert late["price"].isna().all() and all("second" in r for r in late["skip_reason"])


def test_a_scenario_ladder_equals_the_cli_s(cli, tmp_path):
    import pandas
    template = str(pathlib.Path(__file__).resolve().parents[2] / "products" / "templates" / "book.csv")
    cli("book", "price", template, "--n", 20, "--threads", 2, "--spot-shifts", "-10,10", "--vol-shifts", "2",
        "--out", tmp_path / "l.json")
    want = pandas.read_csv(tmp_path / "l.scenarios.csv")
    got = elsbench.book.price(template, n=20, threads=2, spot_shifts=[-10, 10], vol_shifts=[2], progress=False)
    ladder = got.attrs["scenarios"]
    assert list(ladder.columns) == list(want.columns)
    assert len(ladder) == len(want) == 4 * 3 * 2  # three notes and the book, three spots, two vols
    for column in ("spot_shift_pct", "vol_points", "price", "pnl"):
        assert list(ladder[column]) == list(want[column])
    book = ladder[ladder["product"] == "BOOK"]
    assert float(book[(book.spot_shift_pct == 0) & (book.vol_points == 0)]["price"].iloc[0]) == sum(got["price"])


def test_a_book_s_instance_is_recorded_as_the_cli_records_it(cli, tmp_path):
    book = tmp_path / "book.jsonl"
    elsbench.book.generate(2, assets=1, seed=3, out=book)
    cli("book", "price", book, "--n", 24, "--instance", "aws:c7i.4xlarge", "--out", tmp_path / "cli.json")
    elsbench.book.price(book, n=24, instance="aws:c7i.4xlarge", out=tmp_path / "py.json", progress=False)
    machines = [json.loads((tmp_path / f).read_text())["context"]["elsbench"]["machine"] for f in ("cli.json", "py.json")]
    assert machines[0]["instance"] == machines[1]["instance"] == "aws:c7i.4xlarge"


def test_a_book_with_greeks_equals_the_cli_and_each_single_price(cli, tmp_path):
    # book price had no --greeks and book.price(greeks=True) was an unknown key (issue 47).
    book = tmp_path / "book.jsonl"
    notes = elsbench.book.generate(3, assets=2, seed=7, out=book)
    out = tmp_path / "cli.json"
    cli("book", "price", book, "--n", 30, "--greeks", "--threads", 2, "--out", out)
    want = elsbench.results.load(out)
    got = elsbench.book.price(notes, n=30, greeks=True, threads=2, progress=False)
    greeks = ["vega_1", "vega_2", "rho", "theta"]
    assert got[greeks].equals(want[greeks])
    for row, note in zip(got.itertuples(), notes):
        one = elsbench.price(note, n=30, greeks=True, threads=2, progress=False)
        assert (row.vega_1, row.rho, row.theta) == (one.greeks["vega"][0], one.greeks["rho"], one.greeks["theta"])
    plain = elsbench.book.price(notes, n=30, threads=2, progress=False)
    assert plain["rho"].isna().all() and plain["price"].equals(got["price"])
    # Desk units: per vol point, per basis point, per calendar day, as the CLI writes them.
    desk_file = tmp_path / "desk.json"
    cli("book", "price", book, "--n", 30, "--greeks", "--greek-units", "desk", "--threads", 2, "--out", desk_file)
    desk = elsbench.book.price(notes, n=30, greeks=True, greek_units="desk", threads=2, progress=False)
    assert desk[greeks].equals(elsbench.results.load(desk_file)[greeks])
    assert (desk["greek_units"] == "desk").all() and (got["greek_units"] == "model").all()
    assert (desk["vega_1"] == got["vega_1"] * 0.01).all() and (desk["theta"] == got["theta"] / 365.0).all()


def test_a_book_to_a_target_equals_the_cli_and_each_single_price(cli, tmp_path):
    book = tmp_path / "book.jsonl"
    notes = elsbench.book.generate(3, assets=1, seed=7, out=book)
    out = tmp_path / "cli.json"
    cli("book", "price", book, "--target-error", "2bp", "--threads", 2, "--out", out)
    want = elsbench.results.load(out)
    got = elsbench.book.price(notes, target_error="2bp", threads=2, progress=False)
    assert got[["price", "error_bar", "priced_n", "status"]].equals(want[["price", "error_bar", "priced_n", "status"]])
    for row, note in zip(got.itertuples(), notes):
        one = elsbench.price(note, target_error="2bp", threads=2, progress=False)
        assert (row.price, row.error_bar, row.priced_n) == (one.price, one.error_bar, one.accuracy["n"])
        assert row.error_bar <= 0.02  # 2 bp of a 100 notional
    with pytest.raises(elsbench.BadInput, match="target_error"):
        elsbench.book.price(notes, n=100, target_error="2bp", progress=False)


def test_the_compat_call_prices_the_prototype_sample_as_the_cli(cli):
    class ELSProduct:  # the prototype's create_sample_els(), field for field
        principal, maturity = 100.0, 3.0
        observation_dates = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
        redemption_barriers = [0.95, 0.95, 0.90, 0.85, 0.80, 0.75]
        coupons = [4.0, 8.0, 12.0, 16.0, 20.0, 24.0]
        ki_barrier, ki_observation_start, ki_observation_end = 0.50, 0.0, 3.0
        S1_0, S2_0, sigma1, sigma2, rho, r, q1, q2, worst_of = 100.0, 100.0, 0.25, 0.30, 0.50, 0.03, 0.02, 0.015, True

    want = cli.price_json("--product", "sample-2a-stepdown", "--solver", "adi", "--n", "100,100", "--nt", 200)
    # Nt = 200 marched 2,268 steps and said nothing: the daily knock-in dates end steps.
    with pytest.warns(UserWarning, match=r"Nt=200 asked, 2268 steps marched"):
        got = elsbench.compat.price_els_gpu(ELSProduct(), N1=100, N2=100, Nt=200, use_gpu=False, verbose=False)
    assert got["price"] == want["price"] and got["use_gpu"] is False
    fields = {k: getattr(ELSProduct, k) for k in dir(ELSProduct) if not k.startswith("_")}
    with pytest.warns(UserWarning, match="Nt=200"):
        assert elsbench.compat.price_els_gpu(fields, 100, 100, 200, use_gpu=False, verbose=False)["price"] == want["price"]
    assert 93.0 < got["price"] < 93.6  # not the prototype's 106.5: the correlation term is in


def test_a_missing_stored_reference_is_said_as_the_cli_says_it():
    # price(note, reference="stored") returned reference None and verdict None without a word.
    note = elsbench.book.generate(1, assets=1, seed=5)[0]
    with pytest.warns(UserWarning, match=r"no stored reference for book-s5-00001 \(try reference='auto'\)"):
        r = elsbench.price(note, n=40, reference="stored", progress=False)
    assert r.reference is None and r.verdict is None


def test_values_are_the_grid_the_price_is_read_from():
    r = elsbench.price("european-call", n=101, values=True, progress=False)
    (nodes,) = r.nodes
    assert r.values.shape == (101, 1) and nodes.shape == (101,)
    spot = elsbench.Note("european-call").to_dict()["underlyings"][0]["spot"]
    assert nodes[0] == 0.0 and nodes[-1] > spot
    # The price at the spot is read from the grid's values near it (a 3-point stencil).
    i = int((nodes < spot).sum())
    assert min(r.values[i - 1, 0], r.values[i, 0]) <= r.price <= max(r.values[i - 1, 0], r.values[i, 0]) + 1e-9
    two = elsbench.price("sample-2a-stepdown", n=(30, 20), values=True, progress=False)
    assert two.values.shape == (30, 20, 2) and [a.shape for a in two.nodes] == [(30,), (20,)]
    assert not two.values.flags.owndata  # a view of the solver's own result, no copy


def test_bad_input_raises_naming_the_field_as_the_cli(cli, tmp_path):
    note = elsbench.Note("sample-2a-stepdown").to_dict()
    note["underlyings"][1]["vol"] = -0.3
    bad = tmp_path / "bad.json"
    bad.write_text(__import__("json").dumps(note))
    refused = cli("price", "--product", bad, "--solver", "adi", check=False)
    assert refused.returncode == 2 and "field 'underlyings[1].vol'" in refused.stderr
    with pytest.raises(elsbench.BadInput, match=r"field 'underlyings\[1\]\.vol'") as e:
        elsbench.Note(note)
    assert e.value.field == "underlyings[1].vol" and isinstance(e.value, ValueError)
    with pytest.raises(elsbench.BadInput, match="field 'underlyings\\[1\\]\\.vol'"):
        elsbench.price(bad, progress=False)
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.price("european-call", n=10**9, progress=False)
    assert e.value.field == "n"
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.price("european-call", n=50, smax=3, progress=False)
    assert e.value.field == "smax" and "unknown key" in str(e.value)
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.price("european-call", precision="fp16", progress=False)
    assert e.value.field == "precision"
    with pytest.raises(elsbench.BadInput, match="did you mean 'notional'") as e:
        elsbench.Note({**elsbench.Note("european-call").to_dict(), "notionl": 100})
    assert e.value.field == "notionl"
    with pytest.raises(ValueError, match="unknown solver|no solver"):
        elsbench.price("european-call", solver="nope", progress=False)


def test_a_price_it_cannot_stand_behind_raises_solver_error():
    # min-call at vol 3: a spread no price-space grid carries; refused, never returned
    note = elsbench.Note("min-call").to_dict()
    for u in note["underlyings"]:
        u["vol"] = 3.0
    with pytest.raises(elsbench.SolverError, match="price it by Monte Carlo") as e:
        elsbench.price(note, solver="cn-direct", n=40, progress=False)
    assert e.value.kind == "unsupported"
    # a rate of -1 drives explicit's central differences below the bound 0: unconverged
    call = elsbench.Note("european-call").to_dict()
    call["rate"] = -1.0
    with pytest.raises(elsbench.SolverError, match="below the bound 0") as e:
        elsbench.price(call, solver="explicit", n=40, progress=False)
    assert e.value.kind == "unconverged"


def test_note_round_trip_and_catalog():
    sample = elsbench.Note("sample-2a-stepdown")
    assert elsbench.Note(sample.to_dict()) == sample and sample.dimension == 2
    assert math.isclose(sample.to_dict()["notional"], 100.0)


@pytest.mark.parametrize("threads", [-1, 100_000, 2**31 - 1])
def test_threads_beyond_the_cli_bounds_are_bad_input_not_a_dead_interpreter(threads):
    # price(threads=100000) killed the interpreter (libgomp), reference(threads=100000) segfaulted.
    with pytest.raises(elsbench.BadInput, match="field 'threads'"):
        elsbench.price("european-call", n=20, threads=threads, progress=False)
    with pytest.raises(elsbench.BadInput, match="field 'threads'"):
        elsbench.reference("european-call", paths=1000, threads=threads)


def test_a_seed_the_cli_refuses_is_refused_here_too():
    with pytest.raises(elsbench.BadInput, match="field 'seed'"):
        elsbench.reference("european-call", paths=1000, seed=2**53)


@pytest.mark.parametrize("grid", [{"n": float("nan")}, {"s_max": float("inf")}, {"n": [60, float("nan")]}])
def test_a_non_finite_grid_value_is_bad_input_naming_the_key(grid):
    # It raised RuntimeError "[json.exception.parse_error.101]".
    key = next(iter(grid))
    with pytest.raises(elsbench.BadInput, match=f"field '{key}'"):
        elsbench.price("european-call", progress=False, **grid)


def test_python_raises_the_package_s_own_errors_naming_the_field():
    # A name too long for a file was a filesystem RuntimeError; principal=0 a ZeroDivisionError;
    # a CUDA device on a machine without one a RuntimeError from the CUDA runtime.
    with pytest.raises(elsbench.BadInput, match="no such file, and no product with this id"):
        elsbench.Note("x" * 5000)
    sample = dict(principal=0.0, maturity=1.0, observation_dates=[1.0], redemption_barriers=[0.9], coupons=[5.0],
                  ki_barrier=0.5, S1_0=100.0, S2_0=100.0, sigma1=0.2, sigma2=0.2, rho=0.5, r=0.03, q1=0.0, q2=0.0)
    with pytest.raises(elsbench.BadInput, match="field 'principal'"):
        elsbench.compat.note_of(sample)
    if not any(d["device"].startswith("cuda") for d in elsbench.devices()):
        with pytest.raises(elsbench.SolverError, match="cuda:0"):
            elsbench.reference("european-call", paths=1000, device="cuda:0")
