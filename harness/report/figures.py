"""One place that knows how a figure is drawn and written: headless, reproducible, PNG and SVG."""
from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")  # no display on CI runners and cloud machines
import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.text  # noqa: E402

from . import formatting  # noqa: E402

# Same inputs give the same files: no timestamps, fixed SVG ids.
plt.rcParams.update({"svg.hashsalt": "elsbench", "figure.dpi": 100, "savefig.dpi": 110,
                     "font.size": 9, "axes.grid": True, "grid.alpha": 0.3})
METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None}}
# A label's longest line on a figure: a 10,000-character --instance made a 68976-pixel-wide image
# that could not be drawn. The report's tables keep the whole text.
MAX_LABEL_CHARS = 80


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
    for text in fig.findobj(matplotlib.text.Text):
        text.set_text(_drawable(text.get_text()))
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


def _drawable(label: str) -> str:
    lines = [formatting.readable(line) for line in label.split("\n")]
    return "\n".join(line if len(line) <= MAX_LABEL_CHARS else line[:MAX_LABEL_CHARS - 1] + "\u2026"
                     for line in lines)


MARKERS = "osD^v<>ph*"


def marker_per_name(names) -> dict:
    """A stable marker per name (a product), where colour already tells another thing apart."""
    return {name: MARKERS[i % len(MARKERS)] for i, name in enumerate(sorted(set(names)))}


def series_styles(names):
    """A stable colour and marker per series name, shared by every plot."""
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return {name: {"color": colours[i % len(colours)], "marker": MARKERS[(i // len(colours)) % len(MARKERS)]}
            for i, name in enumerate(sorted(set(names)))}


LOG_SPAN = 20  # an axis whose values span less than this factor is drawn linear, from zero


def fit_axis(ax, axis: str, values) -> None:
    """Linear from zero where the values span less than LOG_SPAN (on log axes a small range is a few
    dots with one tick), else log; either way with room beyond the extremes, so no point or label
    is clipped at an edge."""
    low, high = min(values), max(values)
    set_scale, set_lim = (ax.set_xscale, ax.set_xlim) if axis == "x" else (ax.set_yscale, ax.set_ylim)
    if low > 0 and high / low >= LOG_SPAN:
        set_scale("log")
        set_lim(low / 1.6, high * 1.6)
    else:
        set_scale("linear")
        set_lim(0, high * 1.15 if high > 0 else 1)


def legend_below(fig, axes):
    handles = {}
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    if handles:
        fig.legend(list(handles.values()), list(handles.keys()), loc="upper center", ncol=2, fontsize=7,
                   bbox_to_anchor=(0.5, 0.0), frameon=False)


def by_product(cases) -> dict:
    products: dict = {}
    for c in cases:
        products.setdefault(c.product, []).append(c)
    return dict(sorted(products.items()))


def case_styles(cases):
    """series_styles for cases, each with its legend label: the series and every n it has in the
    figure, so that one series reads the same in every panel."""
    cases = list(cases)
    styles = series_styles(c.series for c in cases)
    for series, style in styles.items():
        style["label"] = f"{series}, {n_label([c for c in cases if c.series == series])}"
    return styles


def n_label(cases) -> str:
    """The grid sizes of a series' points: 'n = 32, 48, 96' (n per axis, the largest axis)."""
    ns = sorted({int(c.n) for c in cases if c.fields.get("n") is not None})
    return "n = " + ", ".join(map(str, ns)) if ns else "n = ?"


def draw_series(ax, cases, x_of, y_of, styles, linestyle="-"):
    """One line per series, points in order of x; the legend names the series (solver, scheme,
    precision, device, machine) and, with case_styles, its n."""
    lines: dict = {}
    for c in cases:
        lines.setdefault(c.series, []).append(c)
    for series, points in lines.items():
        points.sort(key=x_of)
        ax.plot([x_of(c) for c in points], [y_of(c) for c in points], linewidth=1.2, markersize=4,
                linestyle=linestyle, **{"label": series, **styles[series]})


def annotate_n(ax, cases, x_of, y_of):
    """Writes each point's n beside it, where a plot's x is not the grid."""
    for c in cases:
        if c.fields.get("n") is not None:
            ax.annotate(f"{int(c.n)}", (x_of(c), y_of(c)), textcoords="offset points", xytext=(3, 3), fontsize=6,
                        color="0.3")
