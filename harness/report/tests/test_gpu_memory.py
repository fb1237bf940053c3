"""The capacity questions of the memory section: the largest grid and the largest batch that fit."""
import pytest

from harness.report.gpu_memory import GPU_CAPACITIES, MemoryModel, device_memory_rows, memory_models, models_for_gpus
from harness.report.tables import device_memory_table
from helpers import case, machine

GIB = 2**30


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("bytes_per_point", [104.0, 272.0, 52.5, 1e6])
@pytest.mark.parametrize("capacity", [cap for _, cap in GPU_CAPACITIES] + [1000])
def test_the_largest_grid_is_the_last_n_that_fits(dims, bytes_per_point, capacity):
    m = MemoryModel("adi-cuda:hv fp64", dims, bytes_per_point, True, 100**dims, [100] * dims)
    n = m.largest_n(capacity)
    assert n**dims * bytes_per_point <= capacity
    assert (n + 1) ** dims * bytes_per_point > capacity


def test_nothing_fits_in_too_small_a_memory():
    m = MemoryModel("x fp64", 2, 1000.0, True, 100, [10, 10])
    assert m.largest_n(500) == 0


def test_the_batch_is_how_many_measured_grids_fit_side_by_side():
    m = MemoryModel("x fp64", 2, 100.0, True, 1000 * 1000, [1000, 1000])
    per_grid = 100.0 * 1000 * 1000
    assert m.batch(16 * GIB) == int(16 * GIB // per_grid)
    assert m.batch(16 * GIB) * per_grid <= 16 * GIB < (m.batch(16 * GIB) + 1) * per_grid


def test_models_take_the_largest_bytes_per_point_and_grid_of_a_configuration():
    box = machine()
    cases = [case(box, model_bytes_per_point=100.0, grid_points=40000, shape=[200, 200], device="cuda:0",
                  solver="adi-cuda", memory_space="device"),
             case(box, model_bytes_per_point=120.0, grid_points=10000, shape=[100, 100], device="cuda:0",
                  solver="adi-cuda", memory_space="device"),
             case(box, model_bytes_per_point=80.0, grid_points=10000, shape=[100, 100]),
             case(box, model_bytes_per_point=80.0, grid_points=100, shape=[100])]  # 1-D: left out
    models = memory_models(cases)
    assert len(models) == 2
    gpu, cpu = models  # GPU models first
    assert gpu.on_gpu and gpu.bytes_per_point == 120.0 and gpu.largest_measured_shape == [200, 200]
    assert not cpu.on_gpu
    assert models_for_gpus(models) == ([gpu], True)
    assert models_for_gpus([cpu]) == ([cpu], False)  # no GPU model: the CPU ones, flagged


@pytest.mark.parametrize("n", [100, 200])
def test_the_largest_book_is_the_last_note_count_that_fits(n):
    m = MemoryModel("adi-cuda:hv fp64", 2, 104.0, True, 100**2, [100, 100])
    notes = m.largest_book(80 * GIB, n)
    assert notes * n**2 * 104.0 <= 80 * GIB < (notes + 1) * n**2 * 104.0
    assert m.largest_book(80 * GIB, 100) >= 4 * m.largest_book(80 * GIB, 200)


def test_the_device_memory_table_sets_the_measured_peak_against_the_model():
    box = machine()
    cases = [case(box, model_bytes=1000.0, measured_device_bytes=1250.0, device="cuda:0", solver="adi-cuda"),
             case(box, model_bytes=2000.0, measured_device_bytes=None, device="cuda:0", solver="adi-cusparse",
                  status="skipped"),
             case(box, model_bytes=500.0)]  # a CPU case: not a row
    rows = device_memory_rows(cases)
    assert len(rows) == 2
    assert rows[0].ratio == 1.25
    assert rows[1].measured_bytes is None and rows[1].ratio is None
    table = device_memory_table(rows)
    assert table.rows[0][-1] == "1.250"
    assert table.rows[1][3] == "unmeasured" and table.rows[1][-1] == "-"
