"""Cost per 1,000 pricings per cloud instance, for one grid: the measured and priced instances only
(the table lists the others and what would fill them); None when there is none."""
from __future__ import annotations

from . import figures


def _label(row):
    return row.entry.name if row.entry else f"{row.machine} (no price)"


def plot(rows, title, out_dir):
    shown = [r for r in rows if r.entry is not None and r.measured and r.per_1000 is not None]
    if not shown:
        return None
    fig, (ax,) = figures.new_figure(1, width=8.5, height=0.28 * max(len(shown), 4) + 1.2)
    costs = [r.per_1000 for r in shown if r.measured and r.per_1000]
    low = min(costs) / 3 if costs else 1e-4
    for y, r in enumerate(shown):
        if r.per_1000 == 0:
            ax.text(low, y, " free tier ($0), measured", va="center", fontsize=7, color="green")
        else:
            ax.barh(y, r.per_1000 - low, left=low, color="tab:blue", height=0.6)
            ax.text(r.per_1000, y, f" ${r.per_1000:.3g}", va="center", fontsize=7)
    ax.set_yticks(range(len(shown)), [_label(r) for r in shown], fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(low, (max(costs) * 20) if costs else 1.0)
    ax.set(xlabel="cost per 1,000 pricings [US$] (on-demand list price x measured median time)", title=title)
    return figures.save(fig, out_dir, "cost_per_1000")
