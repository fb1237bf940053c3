"""Cost per 1,000 pricings comes from measured times only; other instances say 'not measured'."""
import pytest

from harness.report import cost
from harness.report.cost import PriceEntry, PriceTable, cost_rows, gpu_family, same_gpu
from helpers import case, machine


def entry(instance_id, gpu="NVIDIA T4", usd=0.526, gpus=1, memory=16):
    return PriceEntry(provider="aws", instance=instance_id, id=instance_id, gpu=gpu, gpu_count=gpus,
                      gpu_memory_gb=memory, usd_per_hour=usd, usd_per_hour_spot=None, source="test")


@pytest.mark.parametrize("name, family", [("Tesla T4", "t4"), ("NVIDIA H100 80GB HBM3", "h100"),
                                          ("NVIDIA A100-SXM4-40GB", "a100"), ("NVIDIA GeForce RTX 4090", "rtx 4090"),
                                          ("Intel Xeon", None)])
def test_gpu_families_are_read_from_device_names(name, family):
    assert gpu_family(name) == family


def test_the_same_gpu_needs_the_same_family_and_a_close_memory_size():
    assert same_gpu(entry("g4dn"), {"name": "Tesla T4", "memory_bytes": int(14.7 * 2**30)})
    assert not same_gpu(entry("p4d", gpu="A100", memory=80), {"name": "A100-SXM4-40GB", "memory_bytes": 40 * 2**30})


def test_an_instance_is_priced_from_its_own_measurement_and_others_are_not_measured():
    box = machine("t4box", instance="g4dn", gpus=[{"index": 0, "name": "Tesla T4", "memory_bytes": 15 * 2**30}])
    gpu_case = case(box, seconds=0.36, device="cuda:0", solver="adi-cuda")
    table = PriceTable("2026", "2026", [entry("g4dn", usd=0.5), entry("p4d", gpu="A100", memory=40)])
    rows = cost_rows(table, [box], [gpu_case], "sample-2a-stepdown", ((100, 100), 756))
    by_id = {r.entry.id: r for r in rows}
    assert by_id["g4dn"].measured
    assert by_id["g4dn"].per_1000 == pytest.approx(0.5 * 0.36 * 1000 / 3600)
    assert not by_id["p4d"].measured and by_id["p4d"].basis == "not measured"


def test_a_cpu_book_is_priced_on_a_cpu_instance_only_when_the_machine_is_that_instance(tmp_path):
    from harness.report import books
    from harness.report import render
    from test_books import book_file
    table = cost.load_prices(render.DEFAULT_PRICES)
    c7i = next(e for e in table.entries if e.id == "aws:c7i.4xlarge")
    assert (c7i.gpu_count, c7i.vcpus, c7i.memory_gib, c7i.region) == (0, 16, 32, "us-east-1")
    assert c7i.usd_per_hour > 0 and c7i.source.startswith("https://") and c7i.as_of
    # A 16-vCPU Sapphire Rapids VM of 31.3 GiB is a c7i.4xlarge; a 2-core AMD VM claiming it is not.
    real = books.load_book(book_file(tmp_path, "c7i.json", "aws:c7i.4xlarge", 40.0, gpus=[], cores=16,
                                     memory_bytes=int(31.3 * 2**30), cpu_model="Intel(R) Xeon(R) Platinum 8488C"))
    fake = books.load_book(book_file(tmp_path, "vm.json", "aws:c7i.4xlarge", 33.0, gpus=[], cores=2,
                                     memory_bytes=8 * 2**30, cpu_model="AMD EPYC 7B13"))
    row = lambda runs: next(r for r in books.book_cost_rows(table, runs, [], []) if r.instance == c7i.name)  # noqa: E731
    priced = row([real])
    assert priced.per_1000 == pytest.approx(c7i.usd_per_hour / 3600 / 40.0 * 1000)
    assert "measured on this instance" in priced.basis
    refused = row([fake])
    assert refused.per_1000 is None
    assert refused.basis == "claimed aws:c7i.4xlarge, not verified: 2 CPUs where the instance has 16 vCPUs"
    amd = dict(real.descriptor, cpu_model="AMD EPYC 9R14")
    assert cost.unverified_claim(c7i, amd) == ("claimed aws:c7i.4xlarge, not verified: its CPU (AMD EPYC 9R14) is "
                                               "not an Intel Xeon")
    assert "GPU(s)" in cost.unverified_claim(c7i, dict(real.descriptor, gpus=[{"name": "Tesla T4"}]))
