"""How large a grid, and how many pricings at once, fit in the memory of common GPUs, from the
solvers' analytic memory model (model_bytes_per_point of each case)."""
from __future__ import annotations

from dataclasses import dataclass

GIB = 2**30
# Nominal capacities; the CUDA context takes a few hundred MiB of them, which the fit ignores.
BOOK_N = [100, 200]  # grids the book table answers for (the book benchmarks run at n = 100)
GPU_CAPACITIES = [
    ("T4 16 GB", 16 * GIB),
    ("V100 16 GB", 16 * GIB),
    ("RTX 4090 24 GB", 24 * GIB),
    ("V100 32 GB", 32 * GIB),
    ("A100 40 GB", 40 * GIB),
    ("A100 80 GB", 80 * GIB),
    ("H100 80 GB", 80 * GIB),
]


@dataclass
class MemoryModel:
    config: str  # solver:scheme precision
    dims: int
    bytes_per_point: float
    on_gpu: bool
    largest_measured_points: int  # the grid a batch is counted in
    largest_measured_shape: list

    @property
    def label(self) -> str:
        return f"{self.config} ({self.dims}-D)"

    def largest_n(self, capacity: int) -> int:
        """Nodes per axis of the largest square/cubic grid that fits."""
        n = int((capacity / self.bytes_per_point) ** (1.0 / self.dims))
        while (n + 1) ** self.dims * self.bytes_per_point <= capacity:  # float roots land one short
            n += 1
        while n > 0 and n**self.dims * self.bytes_per_point > capacity:
            n -= 1
        return n

    def largest_book(self, capacity: int, n: int) -> int:
        """Notes of n nodes per axis that one batched march holds at once (a book that fits)."""
        return int(capacity // (self.bytes_per_point * n**self.dims))

    def batch(self, capacity: int) -> int:
        """Pricings of the largest measured grid that fit side by side."""
        return int(capacity // (self.bytes_per_point * self.largest_measured_points))


def memory_models(cases) -> list[MemoryModel]:
    """One model per configuration and dimension (2-D and up); skipped cases count, since the model
    is analytic."""
    models: dict = {}
    for c in cases:
        bpp = c.fields.get("model_bytes_per_point")
        if not bpp or not c.grid_points or c.dims < 2:  # 1-D products validate; they never fill a GPU
            continue
        key = (c.config, c.dims)
        # Where the modelled arrays live; older files lack memory_space, then the device tells.
        on_gpu = c.fields.get("memory_space") == "device" or c.on_gpu
        m = models.get(key)
        if m is None:
            models[key] = MemoryModel(c.config, c.dims, float(bpp), on_gpu, int(c.grid_points), list(c.shape))
            continue
        m.bytes_per_point = max(m.bytes_per_point, float(bpp))
        m.on_gpu = m.on_gpu or on_gpu
        if c.grid_points > m.largest_measured_points:
            m.largest_measured_points, m.largest_measured_shape = int(c.grid_points), list(c.shape)
    return sorted(models.values(), key=lambda m: (not m.on_gpu, m.dims, m.config))


def models_for_gpus(models: list[MemoryModel]) -> tuple[list[MemoryModel], bool]:
    """The GPU solvers' models; the CPU ones (flagged) when no GPU solver reported a model."""
    gpu = [m for m in models if m.on_gpu]
    return (gpu, True) if gpu else (models, False)


@dataclass
class DeviceMemoryRow:
    """One GPU case: the memory model's bytes next to the device's own account (cudaMemGetInfo)."""
    label: str
    grid: str
    model_bytes: float | None
    measured_bytes: float | None  # None: no device measured it (skipped, or no GPU)

    @property
    def ratio(self) -> float | None:
        """measured / model; None when either is missing."""
        if not self.model_bytes or self.measured_bytes is None:
            return None
        return self.measured_bytes / self.model_bytes


def device_memory_rows(cases) -> list[DeviceMemoryRow]:
    """Every GPU case with a memory model, in file order, measured or not."""
    rows = []
    for c in cases:
        if not c.on_gpu or c.fields.get("model_bytes") is None:
            continue
        measured = c.fields.get("measured_device_bytes")
        rows.append(DeviceMemoryRow(f"{c.config} {c.device_name}", c.grid, float(c.fields["model_bytes"]),
                                    float(measured) if measured else None))
    return rows
