"""``seat_advantage``: the edge of the side holding seat 0 (which leads the first trick) when
every seat plays the same strategy, per preset and strategy."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .. import stats
from ..engine import layout as L
from ..experiments.report import markdown_table
from ..experiments.style import (PALETTE, clip_outliers, figure, legend, not_run, reference,
                                 save_all, style, title)
from .document import Context, header, write
from .runs import Run, ensure

NAME = "seat_advantage"
OUTLIER_PP = 8.0
"""Edges beyond this many percentage points are drawn at the edge of the chart, annotated."""


def check(runs: list[Run]) -> None:
    for run in runs:
        for cell in run.cells:
            ensure(len(set(cell["labels"])) == 1, NAME, run,
                   f"cell {cell['id']} mixes strategies ({', '.join(cell['labels'])})",
                   "it needs the same strategy in every seat (seats = [\"greedy\"])")


def table(runs: list[Run]) -> pd.DataFrame:
    rows = []
    for run in runs:
        for cell in run.cells:
            rules = run.rules(cell)
            n_sides = len(rules.sides)
            rec = run.records(cell, ["deal", "winner"])
            w = rec["winner"].to_numpy()
            s0 = np.where(w == 0, 1.0, np.where(w == L.DRAW, 0.5, 0.0))
            # seats fixed, one play per deal: the deal's plays are independent, and the
            # score over deals is the same t interval as everywhere else
            s = stats.mean_ci(pd.Series(s0).groupby(rec["deal"].to_numpy()).mean(),
                              null=1 / n_sides)
            last = np.where(w == n_sides - 1, 1.0, np.where(w == L.DRAW, 0.5, 0.0))
            rows.append(dict(preset=cell["preset"], strategy=cell["labels"][0],
                             players=rules.players, sides=n_sides, deals=s.n,
                             first_score=s.mean, edge=s.mean - 1 / n_sides,
                             lo=s.lo - 1 / n_sides, hi=s.hi - 1 / n_sides, p=s.p,
                             last_score=last.mean(), draws=(w == L.DRAW).mean()))
    t = pd.DataFrame(rows)
    t["p_adj"] = stats.adjust(t["p"])
    return t


def analyse(runs: list[Run], ctx: Context):
    check(runs)
    t = table(runs)
    with style():
        save_all(figures({"seat_advantage": t}), ctx.out)
    hw = t.groupby("strategy", sort=False)[["lo", "hi"]].apply(
        lambda g: float(100 * ((g["hi"] - g["lo"]) / 2).median()))
    lines = header(runs, ctx, holm=True)
    lines += ["## Conclusion", ""] + conclusion(t) + [""]
    lines += ["## Method", "",
              "Every seat plays the same strategy; each deal is played once with the seats "
              "fixed. Seat 0 leads the first trick (the dealer is the last seat); side 0 is "
              "the side holding seat 0. The *edge* is side 0's score (wins + draws/2) minus "
              "its fair share (1 / number of sides); *p adj* is the t-test against the fair "
              "share, Holm-adjusted over every row. Deals per preset: "
              + ", ".join(f"{k} {v:,}" for k, v in
                          t.groupby("strategy", sort=False)["deals"].min().items())
              + ". Median 95% half-width of the edge: "
              + ", ".join(f"{k} {v:.2f} pp" for k, v in hw.items()) + ".", "",
              f"In the chart an edge beyond ±{OUTLIER_PP:.0f} pp is drawn at the border "
              "with an arrow and its value, so that it does not squash the other presets.",
              "", "![seat advantage](seat_advantage.png)", "", "## Results", "",
              markdown_table(t, {
                  "preset": ("preset", None), "strategy": ("strategy", None),
                  "sides": ("sides", None), "deals": ("deals", ","),
                  "f": ("side 0 score %", lambda r: f"{100 * r['first_score']:.1f}"),
                  "e": ("edge (pp)", lambda r: stats.fmt_ci(r["edge"], r["lo"], r["hi"],
                                                            sign=True)),
                  "p_adj": ("p adj", ".2g"),
                  "l": ("last side's score %", lambda r: f"{100 * r['last_score']:.1f}"),
                  "d": ("draws %", lambda r: f"{100 * r['draws']:.2f}")}), ""]
    return write(ctx.out, lines, {"seat_advantage": t})


def figures(tables: dict) -> dict:
    """The chart of the report, from its table ``seat_advantage``."""
    return {"seat_advantage": chart(tables["seat_advantage"])}


def chart(t: pd.DataFrame):
    """One panel per strategy (shared axes): each preset's edge with its 95% interval; an
    outlier beyond ``OUTLIER_PP`` is drawn at the border and annotated; "not run" where a
    strategy lacks a preset."""
    presets = list(dict.fromkeys(t["preset"]))
    strategies = list(dict.fromkeys(t["strategy"]))
    fig, axes = figure(1, len(strategies), panel_height=0.6 + 0.2 * len(presets),
                       sharex=True, sharey=True)
    ext = 100 * np.nanmax(np.abs(t[["lo", "hi"]].to_numpy()[
        (100 * t["edge"].abs() <= OUTLIER_PP).to_numpy()]))
    limit = (-math.ceil(ext + 0.5), math.ceil(ext + 0.5))
    y = np.arange(len(presets))
    for ax, s in zip(axes[0], strategies):
        g = t[t["strategy"] == s].set_index("preset").reindex(presets)
        e, lo, hi = 100 * g["edge"], 100 * g["lo"], 100 * g["hi"]
        inside = (e.abs() <= OUTLIER_PP).to_numpy()
        ax.errorbar(e[inside], y[inside], xerr=[(e - lo)[inside], (hi - e)[inside]],
                    fmt="o", markersize=3.5, color=PALETTE[0], label="edge, 95% CI")
        out = ~inside & e.notna().to_numpy()
        clip_outliers(ax, e[out], lo[out], hi[out], limit, [""] * int(out.sum()), y[out])
        if out.any():
            ax.plot([], [], linestyle="none", marker=r"$\rightarrow$", color="black",
                    label=f"edge beyond ±{OUTLIER_PP:.0f} pp: drawn at the border, with its "
                          "value and 95% CI")
        not_run(ax, y[e.isna().to_numpy()])
        reference(ax, "x", 0, "no edge (fair share)")
        ax.set_yticks(y, presets)
        ax.grid(axis="y", visible=False)
        ax.set_title(s)
    axes[0, 0].invert_yaxis()
    fig.supxlabel("edge of side 0: its score minus its fair share (percentage points)")
    title(fig, "How much is it worth to play first? The edge of the side holding seat 0, "
          "with the same strategy in every seat")
    legend(fig, loc="outside upper center", ncol=3)
    return fig


def conclusion(t: pd.DataFrame) -> list[str]:
    lines = []
    for s, g in t.groupby("strategy", sort=False):
        sig = g["p_adj"] < 0.05
        up, down = g[sig & (g["edge"] > 0)], g[sig & (g["edge"] < 0)]
        big = g.loc[g["edge"].abs().idxmax()]
        lines.append(
            f"- **{s}:** the first side is significantly ahead in {len(up)} of {len(g)} "
            f"presets and behind in {len(down)}; the largest edge is {big['preset']}, "
            f"{stats.fmt_ci(big['edge'], big['lo'], big['hi'], sign=True)} pp"
            + (f". Behind: {', '.join(down['preset'])}" if len(down) else "")
            + f". Not distinguishable from fair: {', '.join(g[~sig]['preset']) or 'none'}.")
    b2 = t[t["preset"] == "brisca-2"]
    if len(b2):
        lines.append("- **brisca-2 in particular:** " + "; ".join(
            f"{r['strategy']} {stats.fmt_ci(r['edge'], r['lo'], r['hi'], sign=True)} pp"
            for _, r in b2.iterrows()) + ".")
    return lines
