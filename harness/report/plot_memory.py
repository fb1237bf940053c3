"""Memory against grid size: measured peaks, the solvers' memory models, and the capacity of
common GPUs with the largest grid that fits each."""
from __future__ import annotations

import figures
from gpu_memory import GPU_CAPACITIES


def _peak(c):
    return c.peak_device_bytes if c.on_gpu else c.peak_host_bytes


def plot(cases, models, out_dir):
    fig, (ax,) = figures.new_figure(1, width=8.5, height=5.5)
    measured = [c for c in cases if c.measured and (_peak(c) or 0) > 0]
    styles = figures.series_styles([c.series for c in measured] + [m.label for m in models])
    # Markers only: one configuration's cases span products of different dimension and layers.
    figures.draw_series(ax, measured, lambda c: c.grid_points, _peak, styles, linestyle="none")
    smallest = min([c.grid_points for c in measured] + [m.largest_measured_points for m in models] + [1e3])
    largest_cap = max(cap for _, cap in GPU_CAPACITIES)
    for m in models:
        reach = largest_cap / m.bytes_per_point * 2
        ax.plot([smallest, reach], [smallest * m.bytes_per_point, reach * m.bytes_per_point], linestyle="--",
                linewidth=1.0, color=styles[m.label]["color"], label=f"model: {m.label}, {m.bytes_per_point:.3g} B/point")
    capacities = sorted({cap for _, cap in GPU_CAPACITIES})
    for i, cap in enumerate(capacities):
        names = ", ".join(n for n, c in GPU_CAPACITIES if c == cap)  # same size, one line, all names on it
        ax.axhline(cap, color="0.5", linewidth=0.7)
        # Capacities sit close together on a log axis: alternate the labels left and right.
        ax.text(smallest * (1 if i % 2 == 0 else 30), cap * 1.05, names, fontsize=7, color="0.25", va="bottom")
        for m in models:
            fits = m.largest_n(cap) ** m.dims
            ax.plot([fits], [cap], marker="|", markersize=10, color=styles[m.label]["color"])
    ax.set(xscale="log", yscale="log", xlabel="grid points (nodes, all axes)", ylabel="bytes",
           title="Memory vs grid size (| marks the largest grid that fits)")
    figures.legend_below(fig, [ax])
    return figures.save(fig, out_dir, "memory_vs_grid")
