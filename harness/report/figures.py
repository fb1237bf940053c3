"""One place that knows how a figure is drawn and written: headless, reproducible, PNG and SVG."""
from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")  # no display on CI runners and cloud machines
import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

# Same inputs give the same files: no timestamps, fixed SVG ids.
plt.rcParams.update({"svg.hashsalt": "elsbench", "figure.dpi": 100, "savefig.dpi": 110,
                     "font.size": 9, "axes.grid": True, "grid.alpha": 0.3})
METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}


def new_figure(panels: int = 1, width: float = 7.5, height: float = 4.5):
    """A figure with one axes per panel, two columns when there are several."""
    cols = 1 if panels == 1 else 2
    rows = (panels + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(width * (1 if cols == 1 else 1.6), height * rows), squeeze=False)
    flat = list(axes.flat)
    for extra in flat[panels:]:
        extra.set_visible(False)
    return fig, flat[:panels]


def save(fig, out_dir: str, stem: str) -> dict:
    """Writes stem.png and stem.svg and reads the PNG back: a plot that cannot be decoded is an error
    here, not a broken image in a report someone opens later."""
    paths = {}
    for fmt in ("png", "svg"):
        path = os.path.join(out_dir, f"{stem}.{fmt}")
        fig.savefig(path, format=fmt, metadata=METADATA[fmt], bbox_inches="tight")
        paths[fmt] = path
    plt.close(fig)
    pixels = matplotlib.image.imread(paths["png"])
    if pixels.shape[0] == 0 or pixels.shape[1] == 0:
        raise RuntimeError(f"{paths['png']}: empty image")
    return paths


def series_styles(names):
    """A stable colour and marker per series name, shared by every plot."""
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    markers = "osD^v<>ph*"
    return {name: {"color": colours[i % len(colours)], "marker": markers[(i // len(colours)) % len(markers)]}
            for i, name in enumerate(sorted(set(names)))}


def legend_below(fig, axes):
    handles = {}
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    if handles:
        fig.legend(list(handles.values()), list(handles.keys()), loc="upper center", ncol=2, fontsize=7,
                   bbox_to_anchor=(0.5, 0.0), frameon=False)


def no_data(ax, text: str):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=10, color="0.4")
    ax.set_xticks([])
    ax.set_yticks([])


def by_product(cases) -> dict:
    products: dict = {}
    for c in cases:
        products.setdefault(c.product, []).append(c)
    return dict(sorted(products.items()))


def draw_series(ax, cases, x_of, y_of, styles, linestyle="-"):
    """One line per series, points in order of x."""
    lines: dict = {}
    for c in cases:
        lines.setdefault(c.series, []).append(c)
    for series, points in lines.items():
        points.sort(key=x_of)
        ax.plot([x_of(c) for c in points], [y_of(c) for c in points], label=series, linewidth=1.2, markersize=4,
                linestyle=linestyle, **styles[series])
