"""Speedup over the baseline configuration, per product, against grid size."""
from __future__ import annotations

import figures


def plot(points, baseline, out_dir):
    products = figures.by_product([p.case for p in points])
    fig, axes = figures.new_figure(max(1, len(products)))
    if not products:
        figures.no_data(axes[0], f"no case shares a grid with the baseline {baseline}")
    styles = figures.series_styles(p.case.series for p in points)
    factor = {id(p.case): p.factor for p in points}
    for ax, (product, group) in zip(axes, products.items()):
        figures.draw_series(ax, group, lambda c: c.grid_points, lambda c: factor[id(c)], styles)
        ax.axhline(1.0, color="0.3", linewidth=0.8, linestyle=":")
        ax.set(xscale="log", yscale="log", title=product, xlabel="grid points",
               ylabel=f"speedup over {baseline} (same grid)")
    figures.legend_below(fig, axes)
    fig.suptitle(f"Speedup over {baseline}")
    return figures.save(fig, out_dir, "speedup")
