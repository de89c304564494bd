"""The one chart style of briscasim: sizes for a column or a page, fonts, a colour-blind-safe
palette, small multiples with shared axes, PNG and SVG.

Every chart of the package goes through :func:`figure` (its size) and :func:`save` (both
formats, fixed metadata so a rerun gives the same SVG). A chart has one title level: a single
panel carries its own title; small multiples carry panel titles only (the report's text says
what the whole figure shows), so titles never overlap.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#000000"]
"""Okabe and Ito's colour-blind-safe colours."""
MARKERS = ["o", "s", "D", "^", "v", "P", "X", "*"]
"""A marker per series, so the series stay apart in greyscale too."""

COLUMN = 3.5
"""Width in inches of a chart set in one column of a two-column page."""
PAGE = 7.0
"""Width in inches of a chart across a page (or a full-width column)."""

RC = {
    "figure.figsize": (PAGE, 4.2), "figure.dpi": 100, "savefig.dpi": 200,
    "savefig.bbox": "tight", "savefig.pad_inches": 0.05,
    "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9, "axes.titlesize": 9.5, "axes.labelsize": 9,
    "legend.fontsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8,
    "axes.titlelocation": "left", "axes.titleweight": "bold",
    "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
    "grid.alpha": 0.3, "grid.linewidth": 0.6, "axes.axisbelow": True,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE), "legend.frameon": False,
    "errorbar.capsize": 2.5, "lines.markersize": 4,
    "svg.fonttype": "none", "svg.hashsalt": "briscasim",
}


def figure(rows: int = 1, cols: int = 1, width: str | float = "page",
           panel_height: float = 2.2, **kw):
    """A figure of ``rows`` x ``cols`` panels (``squeeze=False``), ``width`` ``"page"``,
    ``"column"`` or inches; the height grows with the rows. Extra keywords go to
    :func:`matplotlib.pyplot.subplots` (``sharex``, ``sharey``...)."""
    w = {"page": PAGE, "column": COLUMN}.get(width, width)
    with plt.rc_context(RC):
        fig, axes = plt.subplots(rows, cols, figsize=(w, 0.5 + panel_height * rows),
                                 squeeze=False, layout="constrained", **kw)
    return fig, axes


def hide_unused(axes, used: int) -> None:
    """Hide the panels of a grid past the first ``used``."""
    for ax in np.ravel(axes)[used:]:
        ax.set_visible(False)


def clip_outliers(ax, values, lo, hi, limit: tuple[float, float], labels, y) -> None:
    """Keep the x axis at ``limit`` and mark each point outside it with an arrow at the edge
    and its value, so one outlier does not squash the others."""
    for v, a, b, lab, yy in zip(values, lo, hi, labels, y):
        if limit[0] <= v <= limit[1]:
            continue
        edge = limit[0] if v < limit[0] else limit[1]
        ax.annotate(f"{lab} {v:+.1f} [{a:+.1f}, {b:+.1f}]",
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
    with plt.rc_context(RC):
        fig.draw_without_rendering()
        crop = fig.get_tightbbox(fig.canvas.get_renderer()).padded(RC["savefig.pad_inches"])
        fig.savefig(path.with_suffix(".png"), bbox_inches=crop)
        fig.savefig(path.with_suffix(".svg"), bbox_inches=crop, metadata={"Date": None})
    plt.close(fig)
    return path.with_suffix(".png")


def style():
    """The chart style as a context: draw every chart inside it (``with style(): ...``)."""
    return plt.rc_context(RC)
