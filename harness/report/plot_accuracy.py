"""Accuracy per cost: absolute error against the reference vs time per pricing, per product."""
from __future__ import annotations

import figures

FLOOR = 1e-12  # an error of exactly zero still needs a place on a log axis


def _abs_error(c):
    return max(abs(c.error), FLOOR)


def plot(cases, out_dir):
    judged = [c for c in cases if c.measured and c.error is not None and c.median_seconds > 0]
    products = figures.by_product(judged)
    fig, axes = figures.new_figure(max(1, len(products)))
    if not products:
        figures.no_data(axes[0], "no case has a reference")
    styles = figures.series_styles(c.series for c in judged)
    for ax, (product, group) in zip(axes, products.items()):
        figures.draw_series(ax, group, lambda c: c.median_seconds, _abs_error, styles)
        failed = [c for c in group if c.status == "fail"]
        if failed:
            ax.scatter([c.median_seconds for c in failed], [_abs_error(c) for c in failed], marker="x", s=60,
                       color="red", zorder=5, label="FAIL (beyond allowance)")
        ax.set(xscale="log", yscale="log", title=product, xlabel="seconds per pricing (median)",
               ylabel="|price - reference|")
    figures.legend_below(fig, axes)
    fig.suptitle("Error vs time (lower left is better)")
    return figures.save(fig, out_dir, "error_vs_time")
