"""Time per pricing against grid size, log-log, one panel per product; None without a measured case."""
from __future__ import annotations

from . import figures


def plot(cases, out_dir):
    measured = [c for c in cases if c.measured and c.median_seconds > 0]
    products = figures.by_product(measured)
    if not products:
        return None
    fig, axes = figures.new_figure(len(products))
    styles = figures.case_styles(c for c in measured)
    for ax, (product, group) in zip(axes, products.items()):
        figures.draw_series(ax, group, lambda c: c.grid_points, lambda c: c.median_seconds, styles)
        ax.set(xscale="log", yscale="log", title=product, xlabel="grid points [nodes, all axes]",
               ylabel="time per pricing [s] (median)")
    figures.legend_below(fig, axes)
    fig.suptitle("Time vs grid size (one pricing, each solver at its own time steps)")
    return figures.save(fig, out_dir, "time_vs_grid")
