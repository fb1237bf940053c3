"""A sweep from Python is the CLI's sweep: the same cases, the same prices, one results reader."""
import elsbench

AXES = dict(products="european-call,min-call", solvers="adi:hundsdorfer-verwer,explicit", n=[40, 60],
            devices="cpu:t1")


def test_a_sweep_equals_the_cli_sweep(cli, tmp_path):
    out = tmp_path / "cli.json"
    cli("sweep", "--preset", "quick", "--products", AXES["products"], "--solvers", AXES["solvers"], "--n", "40,60",
        "--devices", AXES["devices"], "--repetitions", 2, "--timing-target", 0, "--out", out)
    want = elsbench.results.load(out)
    got = elsbench.sweep("quick", repetitions=2, timing_target=0, progress=False,
                         **{**AXES, "products": AXES["products"].split(","), "solvers": AXES["solvers"].split(",")})
    assert list(got["case_id"]) == list(want["case_id"]) and len(got) == 8
    assert got["price"].equals(want["price"]) and list(got["status"]) == list(want["status"])
    assert got.attrs["summary"]["cases"] == 8
    assert (got["repetitions"] == 2).all() and (got["timing_stop"] == "fixed").all()


def test_a_sweep_refuses_an_unknown_axis_or_value():
    import pytest
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.sweep("quick", solverz="adi", progress=False)
    assert e.value.field == "solverz"
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.sweep("quick", precisions="fp16", progress=False)
    assert e.value.field == "precisions"
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.sweep("quick", timing_target=2, progress=False)
    assert e.value.field == "timing_target"


def test_results_load_reads_every_kind_of_results_file(cli, tmp_path):
    out = tmp_path / "validation.json"
    cli("validate", "--preset", "quick", "--out", out)
    df = elsbench.results.load(out)
    assert len(df) > 10 and set(df["status"]) == {"pass"}
    (tmp_path / "broken.json").write_text('{"context": {}, "benchmarks": [{"case_id": 1}]}')
    import pytest
    with pytest.raises(elsbench.BadInput, match="broken.json"):
        elsbench.results.load(tmp_path / "broken.json")


def test_out_format_chooses_the_files_beside_the_results_as_the_cli_does(cli, tmp_path):
    import pytest
    axes = dict(products="european-call", solvers="explicit", n=40, devices="cpu:t1")
    elsbench.sweep("quick", out=tmp_path / "py.json", out_format="json", repetitions=2, timing_target=0,
                   progress=False, **axes)
    cli("sweep", "--preset", "quick", "--products", "european-call", "--solvers", "explicit", "--n", "40",
        "--devices", "cpu:t1", "--repetitions", 2, "--timing-target", 0, "--out", tmp_path / "cli.json",
        "--out-format", "json")
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix in (".json", ".csv")) == ["cli.json", "py.json"]
    with pytest.raises(elsbench.BadInput) as e:
        elsbench.sweep("quick", out=tmp_path / "x.json", out_format=["csv"], progress=False, **axes)
    assert e.value.field == "out_format" and "json" in str(e.value)
