"""Memory against grid size: measured peaks and the solvers' memory models, one colour per
configuration (solver, scheme, precision) for both; the capacity of common GPUs, with the largest
grid that fits each, only on a plot of GPU solvers' models. None without a model or a peak."""
from __future__ import annotations

from . import figures
from .gpu_memory import GPU_CAPACITIES


def _peak(c):
    return c.peak_device_bytes if c.on_gpu else c.peak_host_bytes


def plot(cases, models, on_gpu: bool, out_dir):
    # One memory system per plot: the GPU solvers against GPU capacities, else the CPU solvers alone.
    measured = [c for c in cases if c.measured and (_peak(c) or 0) > 0 and c.on_gpu == on_gpu]
    if not measured and not models:
        return None
    fig, (ax,) = figures.new_figure(1, width=8.5, height=5.5)
    colours = figures.series_styles([c.config for c in measured] + [m.config for m in models])
    markers = figures.marker_per_name(c.product for c in measured)
    # Markers only, one legend entry (and marker) per product and series: the products differ in
    # dimension and layers, and two of them under one entry read as one line of points.
    for product, series in sorted({(c.product, c.series) for c in measured}):
        mine = sorted((c for c in measured if (c.product, c.series) == (product, series)), key=lambda c: c.grid_points)
        ax.plot([c.grid_points for c in mine], [_peak(c) for c in mine], linestyle="none", markersize=5,
                marker=markers[product], color=colours[mine[0].config]["color"],
                label=f"measured: {product}\n{series}, {figures.n_label(mine)}")
    smallest = min([c.grid_points for c in measured] + [m.largest_measured_points for m in models] + [1e3])
    reach_bytes = max(cap for _, cap in GPU_CAPACITIES) if on_gpu else max([_peak(c) for c in measured] + [1e6]) * 10
    for m in models:
        reach = reach_bytes / m.bytes_per_point * 2
        ax.plot([smallest, reach], [smallest * m.bytes_per_point, reach * m.bytes_per_point], linestyle="--",
                linewidth=1.0, color=colours[m.config]["color"],
                label=f"model: {m.label}, {m.bytes_per_point:.3g} B/point")
    if on_gpu:
        _capacities(ax, models, colours, smallest)
    title = "Memory vs grid size" + (" (| marks the largest grid that fits)" if on_gpu else "")
    ax.set(xscale="log", yscale="log", xlabel="grid points [nodes, all axes]", ylabel="memory [bytes]", title=title)
    figures.legend_below(fig, [ax])
    return figures.save(fig, out_dir, "memory_vs_grid")


def _capacities(ax, models, colours, smallest):
    capacities = sorted({cap for _, cap in GPU_CAPACITIES})
    for i, cap in enumerate(capacities):
        names = ", ".join(n for n, c in GPU_CAPACITIES if c == cap)  # same size, one line, all names on it
        ax.axhline(cap, color="0.5", linewidth=0.7)
        # Capacities sit close together on a log axis: alternate the labels left and right.
        ax.text(smallest * (1 if i % 2 == 0 else 30), cap * 1.05, names, fontsize=7, color="0.25", va="bottom")
        for m in models:
            fits = m.largest_n(cap) ** m.dims
            ax.plot([fits], [cap], marker="|", markersize=10, color=colours[m.config]["color"])
