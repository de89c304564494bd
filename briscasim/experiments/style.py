"""The one chart style of briscasim: sizes for a column or a page, fonts, a colour-blind-safe
palette, small multiples with shared axes, PNG and SVG.

Every chart of the package goes through :func:`figure` (its size) and :func:`save` (both
formats, fixed metadata so a rerun gives the same SVG). A chart states its question in one
title (:func:`title`, above every panel); its panels carry plain panel titles; its key is one
legend outside the panels (:func:`legend`), naming every marker, line and reference line, so
no legend covers data. An empty cell of a chart says "not run" (:func:`not_run`).
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter  # noqa: E402
from matplotlib.transforms import blended_transform_factory  # noqa: E402

PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#000000", "#E69F00",
           "#F0E442"]
"""Okabe and Ito's colour-blind-safe colours, ordered so that the first six differ most (blue,
vermillion, green, purple, sky blue, black); orange, close to vermillion, comes seventh and the
pale yellow last."""
MARKERS = ["o", "s", "D", "^", "v", "P", "X", "*"]
"""A marker per series, so the series stay apart in greyscale too."""
LINESTYLES = ["-", "--", "-.", (0, (6, 1.5)), (0, (4, 1, 1, 1, 1, 1)), (0, (2, 1)),
              (0, (8, 2, 2, 2)), (0, (1.5, 1.5, 4, 1.5))]
"""A line style per series, for the same reason (none dotted: dotted is for reference
lines)."""
REFERENCE = dict(color="black", linewidth=0.8, linestyle=":")
"""A reference line (fair share, no difference, a target): black, thin, dotted."""
MUTED = "#767676"
"""Grey for what is not data: "not run"."""

COLUMN = 3.5
"""Width in inches of a chart set in one column of a two-column page."""
PAGE = 7.0
"""Width in inches of a chart across a page (or a full-width column)."""

RC = {
    "figure.figsize": (PAGE, 4.2), "figure.dpi": 100, "savefig.dpi": 200,
    "savefig.bbox": "tight", "savefig.pad_inches": 0.05,
    "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9, "axes.titlesize": 9, "axes.labelsize": 9,
    "figure.titlesize": 10, "figure.titleweight": "bold", "figure.labelsize": 9,
    "legend.fontsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8,
    "axes.titlelocation": "left", "axes.titleweight": "normal",
    "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
    "grid.alpha": 0.3, "grid.linewidth": 0.6, "axes.axisbelow": True,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE), "legend.frameon": False,
    "errorbar.capsize": 2.5, "lines.markersize": 4,
    "svg.fonttype": "none", "svg.hashsalt": "briscasim",
}


def series(i: int) -> dict:
    """The colour and marker of the ``i``-th series of a chart (keywords for ``errorbar``,
    ``plot``...)."""
    return dict(color=PALETTE[i % len(PALETTE)], marker=MARKERS[i % len(MARKERS)])


def figure(rows: int = 1, cols: int = 1, width: str | float = "page",
           panel_height: float = 2.2, **kw):
    """A figure of ``rows`` x ``cols`` panels (``squeeze=False``), ``width`` ``"page"``,
    ``"column"`` or inches; the height grows with the rows (plus room for the title, the
    legend and the labels). Extra keywords go to ``subplots`` (``sharex``, ``sharey``...).

    The panels sit in a subfigure of the page, which is returned: its ``supxlabel`` and its
    :func:`legend` are laid out around the panels, the page's :func:`title` above them all."""
    w = {"page": PAGE, "column": COLUMN}.get(width, width)
    with plt.rc_context(RC):
        page = plt.figure(figsize=(w, 1.0 + panel_height * rows), layout="constrained")
        fig = page.subfigures(1, 1)
        axes = fig.subplots(rows, cols, squeeze=False, **kw)
    return fig, axes


def title(fig, question: str) -> None:
    """The chart's title: its question, above every panel, wrapped to the page's width."""
    page = fig.get_figure(root=True)
    chars = int(page.get_figwidth() * 72 / (0.6 * RC["figure.titlesize"]))
    page.suptitle(textwrap.fill(question, chars), x=0.01, ha="left")


def legend(fig, loc: str = "outside right upper", ncol: int = 1, **kw):
    """One legend for the figure, outside the panels: every labelled artist of every panel,
    each label once, in order of first appearance: the data, then intervals, then reference
    lines."""
    handles: dict = {}
    for ax in fig.axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    order = sorted(handles, key=lambda lab: _rank(handles[lab]))
    return fig.legend([handles[lab] for lab in order], order, loc=loc, ncol=ncol, **kw)


def _rank(h) -> int:
    """Data first, then intervals (bare error bars, bands), then reference lines."""
    if isinstance(h, ErrorbarContainer) and h.lines[0] is None or \
            isinstance(h, PolyCollection):
        return 1
    if isinstance(h, Line2D) and h.get_marker() in (None, "None", "", " ") \
            and h.get_linestyle() == ":":
        return 2
    return 0


def reference(ax, axis: str, value: float, label: str) -> None:
    """A reference line at ``value`` across the panel (``axis`` "x": vertical, "y":
    horizontal), labelled for the legend."""
    (ax.axvline if axis == "x" else ax.axhline)(value, label=label, **REFERENCE)


def not_run(ax, positions, axis: str = "y", at: float = 0.5, fontsize: float = 7) -> None:
    """Write "not run" at each empty row (``axis`` "y": data y positions) or column (``axis``
    "x"), at the fraction ``at`` of the panel's width (or height)."""
    for p in positions:
        if axis == "y":
            tr = blended_transform_factory(ax.transAxes, ax.transData)
            xy = (at, p)
        else:
            tr = blended_transform_factory(ax.transData, ax.transAxes)
            xy = (p, at)
        ax.text(*xy, "not run", transform=tr, color=MUTED, fontsize=fontsize, style="italic",
                ha="center" if at == 0.5 else "left", va="center",
                rotation=0 if axis == "y" else 90)


def counts(axis, log: bool = False) -> None:
    """Ticks of an axis of counts (deals, plays): integers, written as such (1, 10, 100)."""
    if not log:
        axis.set_major_locator(MaxNLocator(integer=True))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    axis.set_minor_formatter(NullFormatter())


def hide_unused(axes, used: int) -> None:
    """Hide the panels of a grid past the first ``used``."""
    for ax in np.ravel(axes)[used:]:
        ax.set_visible(False)


def lowest_labels(axes, used: int) -> None:
    """Show the x tick labels of the lowest used panel of each column (shared x axes hide
    them on every row but the last, which may be partly unused)."""
    cols = axes.shape[1]
    for i, ax in enumerate(np.ravel(axes)[:used]):
        if i + cols >= used:
            ax.xaxis.set_tick_params(labelbottom=True)


def clip_outliers(ax, values, lo, hi, limit: tuple[float, float], labels, y) -> None:
    """Keep the x axis at ``limit`` and mark each point outside it with an arrow at the edge
    and its value, so one outlier does not squash the others."""
    for v, a, b, lab, yy in zip(values, lo, hi, labels, y):
        if limit[0] <= v <= limit[1]:
            continue
        edge = limit[0] if v < limit[0] else limit[1]
        ax.annotate(f"{lab} {v:+.1f} [{a:+.1f}, {b:+.1f}]".strip(),
                    xy=(edge, yy), xytext=(6 if v < limit[0] else -6, 0),
                    textcoords="offset points", va="center",
                    ha="left" if v < limit[0] else "right", fontsize=7,
                    arrowprops=dict(arrowstyle="<-" if v < limit[0] else "->", lw=0.8))
    ax.set_xlim(*limit)


def save(fig, path: Path) -> Path:
    """Save ``path``.png and ``path``.svg; return the PNG path.

    The figure is cropped to what it draws (``savefig.bbox = "tight"``), worked out once for
    both formats: left to ``savefig``, the crop costs each format a draw of its own."""
    path = Path(path)
    page = fig.get_figure(root=True)
    with plt.rc_context(RC):
        page.draw_without_rendering()
        crop = page.get_tightbbox(page.canvas.get_renderer()).padded(RC["savefig.pad_inches"])
        page.savefig(path.with_suffix(".png"), bbox_inches=crop)
        page.savefig(path.with_suffix(".svg"), bbox_inches=crop, metadata={"Date": None})
    plt.close(page)
    return path.with_suffix(".png")


def save_all(figs: dict, out: Path) -> dict[str, Path]:
    """Save every chart of ``{name: figure}`` into ``out``; ``{name: PNG path}``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return {name: save(fig, out / name) for name, fig in figs.items()}


def style():
    """The chart style as a context: draw every chart inside it (``with style(): ...``)."""
    return plt.rc_context(RC)
