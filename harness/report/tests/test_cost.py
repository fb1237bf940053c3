"""Cost per 1,000 pricings comes from measured times only; other instances say 'not measured'."""
import pytest

from cost import PriceEntry, PriceTable, cost_rows, gpu_family, same_gpu
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
