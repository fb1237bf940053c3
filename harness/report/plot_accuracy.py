"""Accuracy per cost: absolute error against the reference vs time per pricing, per product, each
point labelled with its n; None when no measured case has a reference."""
from __future__ import annotations

from . import figures

FLOOR = 1e-12  # an error of exactly zero still needs a place on a log axis


def _abs_error(c):
    return max(abs(c.error), FLOOR)


def plot(cases, out_dir):
    judged = [c for c in cases if c.measured and c.error is not None and c.median_seconds > 0]
    products = figures.by_product(judged)
    if not products:
        return None
    fig, axes = figures.new_figure(len(products))
    styles = figures.case_styles(c for c in judged)
    for ax, (product, group) in zip(axes, products.items()):
        figures.draw_series(ax, group, lambda c: c.median_seconds, _abs_error, styles)
        figures.annotate_n(ax, group, lambda c: c.median_seconds, _abs_error)
        failed = [c for c in group if c.status == "fail"]
        if failed:
            ax.scatter([c.median_seconds for c in failed], [_abs_error(c) for c in failed], marker="x", s=60,
                       color="red", zorder=5, label="FAIL (beyond allowance)")
        ax.set(xscale="log", yscale="log", title=product, xlabel="time per pricing [s] (median)",
               ylabel="|price - reference| [price units]")
    figures.legend_below(fig, axes)
    fig.suptitle("Error vs time (lower left is better; labels: n)")
    return figures.save(fig, out_dir, "error_vs_time")
