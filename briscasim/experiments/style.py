"""The one chart style of briscasim: sizes, fonts, a colour-blind-safe palette, PNG and SVG."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#000000"]
"""Okabe and Ito's colour-blind-safe colours."""

RC = {
    "figure.figsize": (7.0, 4.2), "figure.dpi": 100, "savefig.dpi": 200,
    "savefig.bbox": "tight", "font.size": 10, "axes.titlesize": 11, "axes.labelsize": 10,
    "legend.fontsize": 9, "xtick.labelsize": 9, "ytick.labelsize": 9,
    "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
    "grid.alpha": 0.3, "grid.linewidth": 0.6, "axes.axisbelow": True,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE), "legend.frameon": False,
    "svg.fonttype": "none", "svg.hashsalt": "briscasim",
}


def save(fig, path: Path) -> Path:
    """Save ``path``.png and ``path``.svg; return the PNG path."""
    with plt.rc_context(RC):
        fig.savefig(path.with_suffix(".png"))
        fig.savefig(path.with_suffix(".svg"), metadata={"Date": None})
    plt.close(fig)
    return path.with_suffix(".png")
