"""Charts of a run, drawn from the tables of :func:`briscasim.experiments.report.summarize`.

:func:`plot_all` writes every chart that applies, each as PNG and SVG:

- ``win_rates``: win rate per cell and strategy with 95% Wilson error bars;
- ``seat_advantage``: each seat's (or side's) win rate minus its fair share, per cell;
- ``score_distribution``: distribution of the side's card points per strategy, per cell;
- ``sweep_<key>``: the win rate against a numeric grid key (a rule option or a strategy
  parameter) as a line with a 95% band, one line per variant and lineup entry.
"""
from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from .style import (LINESTYLES, PALETTE, figure, hide_unused, legend, lowest_labels,
                    reference, save_all, series, style, title)

MAX_PANELS = 6
BIN = 5           # card points per bin of the score distribution


def _colors(labels) -> dict:
    uniq = list(dict.fromkeys(labels))
    return {lab: PALETTE[i % len(PALETTE)] for i, lab in enumerate(uniq)}


def win_rates(strat: pd.DataFrame):
    """Horizontal bars: win rate (%) of each strategy in each cell, 95% Wilson error bars."""
    cells = list(dict.fromkeys(strat["label"]))
    colors = _colors(strat["strategy"])
    per = strat.groupby("label", sort=False).size().max()
    height = 0.8 / per
    fig, axes = figure(1, 1, panel_height=0.5 + 0.32 * len(strat) + 0.25 * len(cells))
    ax = axes[0, 0]
    for i, cell in enumerate(cells):
        rows = strat[strat["label"] == cell].reset_index(drop=True)
        for k, r in rows.iterrows():
            y = i + (k - (len(rows) - 1) / 2) * height
            rate = 100 * r["win_rate"]
            err = [[rate - 100 * r["win_lo"]], [100 * r["win_hi"] - rate]]
            ax.barh(y, rate, height * 0.9, color=colors[r["strategy"]], label=r["strategy"])
            ax.errorbar(rate, y, xerr=err, fmt="none", ecolor="black", elinewidth=1,
                        capsize=2.5, label="95% Wilson interval")
    ax.set_yticks(range(len(cells)), cells)
    ax.invert_yaxis()
    ax.set_xlabel("win rate (%)")
    ax.set_xlim(0, 100)
    ax.grid(axis="y", visible=False)
    title(fig, "How often does each strategy win, cell by cell?")
    legend(fig, loc="outside lower center", ncol=3)
    return fig


def seat_advantage(sides: pd.DataFrame):
    """Each side's win rate minus its fair share (percentage points), per cell."""
    cells = list(dict.fromkeys(sides["label"]))
    n_sides = int(sides["side"].max()) + 1
    height = 0.8 / n_sides
    fig, axes = figure(1, 1, panel_height=0.6 + 0.3 * len(sides) + 0.2 * len(cells))
    ax = axes[0, 0]
    for i, cell in enumerate(cells):
        rows = sides[sides["label"] == cell].reset_index(drop=True)
        for _, r in rows.iterrows():
            s = int(r["side"])
            y = i + (s - (n_sides - 1) / 2) * height
            d = 100 * (r["win_rate"] - r["fair_share"])
            err = [[100 * (r["win_rate"] - r["win_lo"])], [100 * (r["win_hi"] - r["win_rate"])]]
            ax.barh(y, d, height * 0.9, color=PALETTE[s % len(PALETTE)],
                    label=f"side {s}" + (" (first seat)" if s == 0 else ""))
            ax.errorbar(d, y, xerr=err, fmt="none", ecolor="black", elinewidth=1, capsize=2.5,
                        label="95% Wilson interval")
    reference(ax, "x", 0, "fair share")
    ax.set_yticks(range(len(cells)), cells)
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("win rate minus fair share (percentage points)")
    title(fig, "Does the side holding the first seat win more than its fair share?")
    legend(fig)
    return fig


def score_distribution(hist: pd.DataFrame):
    """Share of plays (%) by the side's card points in ``BIN``-point bins (points come in
    steps of 2, 3, 4, 10 and 11, so one-point bins are jagged), per strategy; a panel per cell
    (the first few cells, shared axes)."""
    cells = list(dict.fromkeys(hist["label"]))[:MAX_PANELS]
    cols = min(len(cells), 2)
    rows_n = math.ceil(len(cells) / cols)
    fig, axes = figure(rows_n, cols, panel_height=2.2, sharex=True, sharey=True)
    strategies = list(dict.fromkeys(hist["strategy"]))
    for ax, cell in zip(axes.flat, cells):
        h = hist[hist["label"] == cell]
        for strategy, g in h.groupby("strategy", sort=False):
            j = strategies.index(strategy)
            bins = g.groupby(g["points"] // BIN * BIN)["plays"].sum()
            share = 100 * bins / bins.sum()
            ax.step(bins.index + BIN / 2, share, where="mid", color=PALETTE[j % len(PALETTE)],
                    linestyle=LINESTYLES[j % len(LINESTYLES)], label=strategy, linewidth=1.2)
        reference(ax, "x", 60, "60 points: half the deck")
        ax.set_title(textwrap.fill(cell, 36))
    lowest_labels(axes, len(cells))
    hide_unused(axes, len(cells))
    fig.supxlabel("card points of the side")
    fig.supylabel(f"share of plays (% per {BIN} points)")
    title(fig, "How many card points does each strategy's side take?")
    legend(fig, loc="outside upper center", ncol=3, title="strategy")
    return fig


def sweep_keys(strat: pd.DataFrame) -> list[str]:
    """Grid keys of ``strat`` with numeric values and at least two of them."""
    keys = []
    for col in strat.columns:
        if "." not in col:              # grid keys are rules.X or lineup.I.PARAM
            continue
        vals = strat[col].dropna().unique()
        if len(vals) >= 2 and all(isinstance(v, (int, float, np.integer, np.floating))
                                  and not isinstance(v, (bool, np.bool_)) for v in vals):
            keys.append(col)
    return keys


def sweep(strat: pd.DataFrame, key: str):
    """Win rate (%) against the numeric grid key ``key``, a line with a 95% band per variant
    and lineup entry (other grid keys held apart)."""
    fig, axes = figure(1, 1, panel_height=2.8)
    ax = axes[0, 0]
    others = [c for c in sweep_keys(strat) if c != key]
    strat = strat[strat[key].notna()]             # cells of other grids lack this key
    groups = strat.groupby(["variant", "entry"] + others, sort=False)
    for i, (gkey, g) in enumerate(groups):
        g = g.sort_values(key)
        name = re.sub(rf"\b{re.escape(key.split('.')[-1])}=[^,+]*,?", "", g["strategy"].iloc[0])
        name = name.rstrip(":,")
        extra = ", ".join(f"{o}={v}" for o, v in zip(others, gkey[2:]))
        label = f"{gkey[0]}: {name} (entry {gkey[1]})" + (f", {extra}" if extra else "")
        look = series(i)
        ax.plot(g[key], 100 * g["win_rate"], markersize=3.5, label=label,
                linestyle=LINESTYLES[i % len(LINESTYLES)], **look)
        ax.fill_between(g[key], 100 * g["win_lo"], 100 * g["win_hi"], color=look["color"],
                        alpha=0.2, linewidth=0, label="95% Wilson band" if i == 0 else None)
    ax.set_xlabel(_axis_name(key))
    ax.set_ylabel("win rate (%)")
    title(fig, f"How does the win rate change with {key.split('.')[-1]}?")
    legend(fig)
    return fig


def _axis_name(key: str) -> str:
    parts = key.split(".")
    if parts[0] == "rules":
        return f"rule option {parts[1]}"
    if len(parts) == 3:
        return f"parameter {parts[2]} of lineup entry {parts[1]}"
    return key


def figures(tables: dict) -> dict:
    """Every chart that applies to the tables of :func:`~.report.summarize`."""
    strat = tables["strategies"]
    figs = {"win_rates": win_rates(strat), "seat_advantage": seat_advantage(tables["sides"]),
            "score_distribution": score_distribution(tables["points_hist"])}
    for key in sweep_keys(strat):
        figs["sweep_" + re.sub(r"[^A-Za-z0-9_]+", "_", key)] = sweep(strat, key)
    return figs


def plot_all(tables: dict, out) -> dict[str, Path]:
    """Write every chart that applies into ``out``; ``{name: PNG path}``."""
    with style():
        return save_all(figures(tables), Path(out))
