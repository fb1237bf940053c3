"""Speedup over the baseline configuration, per product, against grid size; hollow markers where the
time steps differ and the speedup is per point-step. None without a matched pair."""
from __future__ import annotations

from . import figures


def plot(points, baseline, out_dir):
    products = figures.by_product([p.case for p in points])
    if not products:
        return None
    fig, axes = figures.new_figure(len(products))
    styles = figures.case_styles(p.case for p in points)
    factor = {id(p.case): p.factor for p in points}
    per_step = {id(p.case) for p in points if p.per_point_step}
    for ax, (product, group) in zip(axes, products.items()):
        figures.draw_series(ax, group, lambda c: c.grid_points, lambda c: factor[id(c)], styles)
        hollow = [c for c in group if id(c) in per_step]
        if hollow:
            ax.scatter([c.grid_points for c in hollow], [factor[id(c)] for c in hollow], s=40, facecolors="white",
                       edgecolors="0.2", zorder=4, label="per point-step (time steps differ)")
        ax.axhline(1.0, color="0.3", linewidth=0.8, linestyle=":")
        ax.set(xscale="log", yscale="log", title=product, xlabel="grid points [nodes, all axes]",
               ylabel=f"speedup over {baseline} [x]")
    figures.legend_below(fig, axes)
    fig.suptitle(f"Speedup over {baseline}: same grid and steps, or per point-step (hollow)")
    return figures.save(fig, out_dir, "speedup")
