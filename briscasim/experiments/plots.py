"""Charts of a run, drawn from the tables of :func:`briscasim.experiments.report.summarize`.

:func:`plot_all` writes every chart that applies, each as PNG and SVG:

- ``win_rates``: win rate per cell and strategy with 95% Wilson error bars;
- ``seat_advantage``: each seat's (or side's) win rate minus its fair share, per cell;
- ``score_distribution``: distribution of the side's card points per strategy, per cell;
- ``sweep_<key>``: the win rate against a numeric grid key (a rule option or a strategy
  parameter) as a line with a 95% band, one line per variant and lineup entry.
"""
from __future__ import annotations

import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .style import PALETTE, RC, save

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
    fig, ax = plt.subplots(figsize=(7.0, 1.0 + 0.32 * len(strat) + 0.25 * len(cells)))
    seen = set()
    for i, cell in enumerate(cells):
        rows = strat[strat["label"] == cell].reset_index(drop=True)
        for k, r in rows.iterrows():
            y = i + (k - (len(rows) - 1) / 2) * height
            rate = 100 * r["win_rate"]
            err = [[rate - 100 * r["win_lo"]], [100 * r["win_hi"] - rate]]
            label = r["strategy"] if r["strategy"] not in seen else None
            seen.add(r["strategy"])
            ax.barh(y, rate, height * 0.9, color=colors[r["strategy"]], label=label)
            ax.errorbar(rate, y, xerr=err, fmt="none", ecolor="black", elinewidth=1,
                        capsize=2.5)
    ax.set_yticks(range(len(cells)), cells)
    ax.invert_yaxis()
    ax.set_xlabel("win rate (%), 95% Wilson interval")
    ax.set_xlim(0, 100)
    ax.grid(axis="y", visible=False)
    ax.set_title("Win rate by cell and strategy")
    ax.legend(title="strategy", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def seat_advantage(sides: pd.DataFrame):
    """Each side's win rate minus its fair share (percentage points), per cell."""
    cells = list(dict.fromkeys(sides["label"]))
    n_sides = int(sides["side"].max()) + 1
    height = 0.8 / n_sides
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 0.3 * len(sides) + 0.2 * len(cells)))
    for i, cell in enumerate(cells):
        rows = sides[sides["label"] == cell].reset_index(drop=True)
        for _, r in rows.iterrows():
            s = int(r["side"])
            y = i + (s - (n_sides - 1) / 2) * height
            d = 100 * (r["win_rate"] - r["fair_share"])
            err = [[100 * (r["win_rate"] - r["win_lo"])], [100 * (r["win_hi"] - r["win_rate"])]]
            ax.barh(y, d, height * 0.9, color=PALETTE[s % len(PALETTE)], label=f"side {s}")
            ax.errorbar(d, y, xerr=err, fmt="none", ecolor="black", elinewidth=1, capsize=2.5)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(cells)), cells)
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("win rate minus fair share (percentage points), 95% Wilson interval")
    ax.set_title("Seat advantage: side 0 holds the first seat to play")
    handles, labels = ax.get_legend_handles_labels()
    uniq = dict(zip(labels, handles))
    ax.legend(uniq.values(), uniq.keys(), loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def score_distribution(hist: pd.DataFrame):
    """Share of plays (%) by the side's card points in ``BIN``-point bins (points come in
    steps of 2, 3, 4, 10 and 11, so one-point bins are jagged), per strategy; a panel per cell
    (the first few cells, shared axes, panel titles only)."""
    cells = list(dict.fromkeys(hist["label"]))[:MAX_PANELS]
    cols = min(len(cells), 2)
    rows_n = (len(cells) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(7.0, 2.6 * rows_n + 0.6), squeeze=False,
                             sharex=True, sharey=True)
    colors = _colors(hist["strategy"])
    for ax, cell in zip(axes.flat, cells):
        h = hist[hist["label"] == cell]
        for strategy, g in h.groupby("strategy", sort=False):
            bins = g.groupby(g["points"] // BIN * BIN)["plays"].sum()
            share = 100 * bins / bins.sum()
            ax.step(bins.index + BIN / 2, share, where="mid", color=colors[strategy],
                    label=strategy, linewidth=1.2)
        ax.axvline(60, color="grey", linewidth=0.8, linestyle=":")
        ax.set_title(cell, fontsize=9)
        ax.set_ylabel(f"share of plays (% per {BIN} points)")
    for ax in axes.flat[len(cells):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("card points of the side")
    handles, labels = [], []
    for ax in axes.flat:
        for hnd, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(hnd)
                labels.append(lab)
    fig.legend(handles, labels, title="strategy", loc="upper center",
               bbox_to_anchor=(0.5, 0.0), ncol=min(len(labels), 3))
    fig.tight_layout()
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
    fig, ax = plt.subplots()
    others = [c for c in sweep_keys(strat) if c != key]
    strat = strat[strat[key].notna()]             # cells of other grids lack this key
    groups = strat.groupby(["variant", "entry"] + others, sort=False)
    for i, (gkey, g) in enumerate(groups):
        g = g.sort_values(key)
        name = re.sub(rf"\b{re.escape(key.split('.')[-1])}=[^,+]*,?", "", g["strategy"].iloc[0])
        name = name.rstrip(":,")
        extra = ", ".join(f"{o}={v}" for o, v in zip(others, gkey[2:]))
        label = f"{gkey[0]}: {name} (entry {gkey[1]})" + (f", {extra}" if extra else "")
        c = PALETTE[i % len(PALETTE)]
        ax.plot(g[key], 100 * g["win_rate"], marker="o", markersize=3.5, color=c, label=label)
        ax.fill_between(g[key], 100 * g["win_lo"], 100 * g["win_hi"], color=c, alpha=0.2,
                        linewidth=0)
    ax.set_xlabel(_axis_name(key))
    ax.set_ylabel("win rate (%), 95% Wilson band")
    ax.set_title(f"Win rate against {key.split('.')[-1]}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def _axis_name(key: str) -> str:
    parts = key.split(".")
    if parts[0] == "rules":
        return f"rule option {parts[1]}"
    if len(parts) == 3:
        return f"parameter {parts[2]} of lineup entry {parts[1]}"
    return key


def plot_all(tables: dict, out) -> dict[str, Path]:
    """Write every chart that applies into ``out``; ``{name: PNG path}``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figs = {}
    with plt.rc_context(RC):
        strat = tables["strategies"]
        figs["win_rates"] = save(win_rates(strat), out / "win_rates")
        figs["seat_advantage"] = save(seat_advantage(tables["sides"]), out / "seat_advantage")
        figs["score_distribution"] = save(score_distribution(tables["points_hist"]),
                                          out / "score_distribution")
        for key in sweep_keys(strat):
            name = "sweep_" + re.sub(r"[^A-Za-z0-9_]+", "_", key)
            figs[name] = save(sweep(strat, key), out / name)
    return figs
