"""``seat_fairness``: rules variants compared on fairness between the seats (equal strategies),
spread of the scores, skill against luck (a stronger strategy against weaker ones) and the
card out of play. Written for the three-player variants; fits any run of duplicate lineups."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .. import stats
from ..experiments.report import markdown_table
from ..experiments.style import (LINESTYLES, PALETTE, figure, legend, not_run, reference,
                                 save_all, series, style, title)
from .document import Context, header, write
from .runs import Run, ensure, per_deal, per_deal_side

NAME = "seat_fairness"
BIN = 5
"""Card points per bin of the distribution chart: points come in steps of 2, 3, 4, 10 and 11,
so one-point bins are jagged (no deal ends on 1 point)."""


def check(runs: list[Run]) -> None:
    for run in runs:
        ensure(all(c["rotations"] > 1 for c in run.cells), NAME, run,
               "its cells are not played on duplicate deals",
               "use a lineup (rotated over the seats) with duplicate = true")
        ensure(all(c["rules"]["match"] == "deal" for c in run.cells), NAME, run,
               "it needs single deals (match = deal)")


def tables(runs: list[Run]):
    fair, skill, outp, hists = [], [], [], []
    for r in runs:
        for cell in r.cells:
            rules = r.rules(cell)
            n_sides = len(rules.sides)
            cols = ["deal", "rotation", "winner", "out_points"] + [
                f"points_{t}" for t in range(n_sides)]
            rec = r.records(cell, cols)
            long = r.long(cell, rec)
            labels = cell["labels"]
            same = len(set(labels)) == 1
            lineup = f"{len(labels)} x {labels[0]}" if same else " / ".join(labels)
            pts = long["points"]
            top = rec[[f"points_{t}" for t in range(n_sides)]].max(axis=1)
            if same:
                for side in range(n_sides):
                    s = stats.mean_ci(per_deal_side(long, side), null=1 / n_sides)
                    sp = long[long["side"] == side]["points"]
                    fair.append(dict(variant=cell["variant"], strategy=labels[0], seat=side,
                                     deals=s.n, score=s.mean, lo=s.lo, hi=s.hi, p=s.p,
                                     mean_points=sp.mean(), sd_points=sp.std()))
                hists.append((cell["variant"], labels[0], pts.to_numpy()))
                s = stats.NAN._replace(n=int(long["deal"].nunique()))
            else:
                s = stats.mean_ci(per_deal(long, 0))
            skill.append(dict(variant=cell["variant"], lineup=lineup, strategy=labels[0],
                              opponents=" + ".join(labels[1:]), deals=s.n, score=s.mean,
                              lo=s.lo, hi=s.hi, sd_points=pts.std(),
                              iqr_points=pts.quantile(0.75) - pts.quantile(0.25),
                              winner_points=top.mean(),
                              margin_abs=long[long["result"] == 1]["margin"].mean(),
                              draws=(long["result"] == 0).mean()))
            o = rec["out_points"].to_numpy()
            counts = pd.Series(o).value_counts(normalize=True).sort_index()
            outp.append(dict(variant=cell["variant"], lineup=lineup, plays=len(o),
                             has_points=(o > 0).mean(), mean_points=o.mean(),
                             mean_if_points=o[o > 0].mean() if (o > 0).any() else 0.0,
                             distribution=", ".join(f"{int(k)}: {100 * v:.1f}%"
                                                    for k, v in counts.items())))
    fair = pd.DataFrame(fair)
    if len(fair):
        fair["p_adj"] = stats.adjust(fair["p"])
    return fair, pd.DataFrame(skill), pd.DataFrame(outp), histogram(hists)


def histogram(hists) -> pd.DataFrame:
    """A player's card points in ``BIN``-point bins with 0 points apart (a real peak: the
    player took no points), per (variant, strategy): plays and share (% per ``BIN`` points)
    in each bin [lo, hi)."""
    edges = np.concatenate([[0, 1], np.arange(BIN, 121 + BIN, BIN)])
    rows = []
    for variant, strategy, pts in hists:
        counts, _ = np.histogram(pts, bins=edges)
        share = 100 * counts / len(pts) / np.diff(edges) * BIN
        rows += [dict(variant=variant, strategy=strategy, lo=int(a), hi=int(b), plays=int(c),
                      share=x) for a, b, c, x in zip(edges, edges[1:], counts, share)]
    return pd.DataFrame(rows, columns=["variant", "strategy", "lo", "hi", "plays", "share"])


def analyse(runs: list[Run], ctx: Context):
    check(runs)
    fair, skill, outp, hist = tables(runs)
    tabs = {"seats": fair, "skill": skill, "out_of_play": outp, "score_distribution": hist}
    with style():
        figs = list(save_all(figures(tabs), ctx.out))
    fair_share = 1 / len(runs[0].rules(runs[0].cells[0]).sides)
    lines = header(runs, ctx, holm=True)
    lines += ["## Conclusion", ""] + conclusion(fair, skill, outp, fair_share) + [""]
    search = skill["strategy"].str.startswith(("ismcts", "pimc", "omniscient", "peek"))
    lines += ["## Method", "",
              "Each variant plays the same lineups on duplicate deals (every deal once per "
              "rotation of the lineup, one seat further each time): equal strategies (seat "
              "fairness, spread) and a stronger strategy against weaker ones (skill). Deals "
              f"per variant: {skill[~search]['deals'].min():,}"
              + (f" ({skill[search]['deals'].min():,} with search strategies)"
                 if search.any() else "")
              + ". The variants shuffle different decks, so they are compared with "
              "independent intervals, not deal by deal. Seat scores are tested against the "
              f"fair share ({100 * fair_share:.1f}%), Holm-adjusted over every seat of the "
              "table.", ""] + [f"![{f}]({f}.png)\n" for f in figs]
    if len(fair):
        lines += ["## Fairness between the seats", "",
                  "Score (wins + draws/2) of each seat when every seat plays the same "
                  "strategy. Seat 0 leads the first trick.", "",
                  markdown_table(fair, {
                      "variant": ("variant", None), "strategy": ("strategy", None),
                      "seat": ("seat", None), "deals": ("deals", ","),
                      "s": ("score %", lambda r: stats.fmt_ci(r["score"], r["lo"], r["hi"])),
                      "p_adj": ("p adj", ".2g"),
                      "mean_points": ("mean pts", ".1f"), "sd_points": ("SD pts", ".1f")}), ""]
    lines += ["## Spread of the scores and skill against luck", "",
              "Score of the first strategy of the lineup; SD and interquartile range of a "
              "player's card points; mean points of the deal's top scorer; mean margin of a "
              "winner over the runner-up; draws.", "",
              markdown_table(skill, {
                  "variant": ("variant", None), "lineup": ("lineup", None),
                  "deals": ("deals", ","),
                  "s": ("score of first %", lambda r: "" if math.isnan(r["score"])
                        else stats.fmt_ci(r["score"], r["lo"], r["hi"])),
                  "sd_points": ("SD pts", ".1f"), "iqr_points": ("IQR pts", ".0f"),
                  "winner_points": ("top score", ".1f"),
                  "margin_abs": ("winning margin", ".1f"),
                  "dr": ("draws %", lambda r: f"{100 * r['draws']:.2f}")}), "",
              "## The card out of play", "",
              "Points of the cards nobody plays: the removed cards, or the undrawn last card "
              "(after any swap: a swapped 7 or 2 left face up is worth nothing).", "",
              markdown_table(outp, {
                  "variant": ("variant", None), "lineup": ("lineup", None),
                  "plays": ("plays", ","),
                  "h": ("has points %", lambda r: f"{100 * r['has_points']:.1f}"),
                  "mean_points": ("mean pts", ".2f"),
                  "mean_if_points": ("mean pts if any", ".2f"),
                  "distribution": ("distribution (points: share)", None)}), ""]
    return write(ctx.out, lines, tabs)


def _short(variants, common: str | None = None) -> dict:
    """Variant names without their common prefix (``brisca-3-``), for tick labels."""
    names = list(variants)
    import os
    prefix = os.path.commonprefix(names) if len(names) > 1 else ""
    prefix = prefix[:prefix.rfind("-") + 1] if "-" in prefix else ""
    return {v: v[len(prefix):] or v for v in names}


def figures(tables: dict) -> dict:
    """The charts of the report, from its tables ``seats``, ``skill`` and
    ``score_distribution`` (each chart whose table has rows)."""
    figs = {}
    if len(tables["seats"]):
        figs["seat_fairness"] = seat_chart(tables["seats"])
    if tables["skill"]["score"].notna().any():
        figs["skill"] = skill_chart(tables["skill"])
    if len(tables.get("score_distribution", ())):
        figs["score_distribution"] = hist_chart(tables["score_distribution"])
    return figs


def seat_chart(fair: pd.DataFrame):
    """One panel per strategy (shared y): each seat's score per variant with its interval."""
    strategies = list(dict.fromkeys(fair["strategy"]))
    variants = list(dict.fromkeys(fair["variant"]))
    short = _short(variants)
    seats = sorted(fair["seat"].unique())
    fig, axes = figure(1, len(strategies), panel_height=2.4, sharey=True)
    width = 0.8 / len(seats)
    for ax, s in zip(axes[0], strategies):
        g = fair[fair["strategy"] == s]
        for k in seats:
            h = g[g["seat"] == k].set_index("variant").reindex(variants)
            x = np.arange(len(variants)) + (k - (len(seats) - 1) / 2) * width
            ax.errorbar(x, 100 * h["score"], yerr=[100 * (h["score"] - h["lo"]),
                                                    100 * (h["hi"] - h["score"])],
                        linestyle="none", label=f"seat {k}" + (" (leads first)" if k == 0
                                                               else ""), **series(k))
        reference(ax, "y", 100 / len(seats), f"fair share ({100 / len(seats):.1f}%)")
        ax.set_xticks(range(len(variants)), [short[v] for v in variants])
        ax.set_title(f"{len(seats)} x {s}")
        ax.grid(axis="x", visible=False)
    axes[0, 0].set_ylabel("score of the seat (%)")
    fig.supxlabel("variant")
    title(fig, "Is every seat as likely to win? Each seat's score with the same strategy in "
          "every seat")
    legend(fig, title="95% CI")
    return fig


def skill_chart(skill: pd.DataFrame):
    """The first strategy's score per lineup (a panel each, own y scale) and variant."""
    s = skill.dropna(subset=["score"])
    lineups = list(dict.fromkeys(s["lineup"]))
    variants = list(dict.fromkeys(s["variant"]))
    short = _short(variants)
    fig, axes = figure(1, len(lineups), panel_height=2.2, sharey=False)
    for ax, lu in zip(axes[0], lineups):
        g = s[s["lineup"] == lu].set_index("variant").reindex(variants)
        x = np.arange(len(variants))
        ax.errorbar(x, 100 * g["score"], yerr=[100 * (g["score"] - g["lo"]),
                                                100 * (g["hi"] - g["score"])],
                    fmt="o", color=PALETTE[0], label="score of the first strategy, 95% CI")
        not_run(ax, x[g["score"].isna().to_numpy()], axis="x")
        ax.set_xticks(x, [short[v] for v in variants])
        ax.set_xlim(-0.5, len(variants) - 0.5)
        ax.set_title(f"{g['strategy'].dropna().iloc[0]} against "
                     f"{g['opponents'].dropna().iloc[0]}")
        ax.grid(axis="x", visible=False)
    axes[0, 0].set_ylabel("score of the first strategy (%)")
    fig.supxlabel("variant")
    title(fig, "How far does a stronger strategy beat weaker ones in each variant?")
    legend(fig, loc="outside upper center")
    return fig


def hist_chart(hist: pd.DataFrame):
    """Distribution of a player's card points, one panel per strategy (shared axes), a line
    per variant."""
    strategies = list(dict.fromkeys(hist["strategy"]))
    variants = list(dict.fromkeys(hist["variant"]))
    fig, axes = figure(1, len(strategies), panel_height=2.2, sharex=True, sharey=True)
    for ax, strategy in zip(axes[0], strategies):
        for i, variant in enumerate(variants):
            h = hist[(hist["strategy"] == strategy) & (hist["variant"] == variant)]
            if len(h):
                ax.stairs(h["share"], np.append(h["lo"], h["hi"].iloc[-1]), label=variant,
                          color=PALETTE[i % len(PALETTE)], linewidth=1.1,
                          linestyle=LINESTYLES[i % len(LINESTYLES)])
        ax.set_title(f"every seat {strategy}")
    fig.supxlabel("card points of a player")
    axes[0, 0].set_ylabel(f"share of plays (% per {BIN} points)")
    title(fig, "How are a player's card points spread? Every seat playing the same strategy "
          "(no points at all in a bin of its own)")
    legend(fig, title="variant")
    return fig


def conclusion(fair, skill, outp, fair_share) -> list[str]:
    lines = []
    for strategy in dict.fromkeys(fair["strategy"]) if len(fair) else []:
        f = fair[fair["strategy"] == strategy]
        parts = []
        for v, g in f.groupby("variant", sort=False):
            spread = 100 * (g["score"].max() - g["score"].min())
            best = g.loc[g["score"].idxmax()]
            unfair = g[g["p_adj"] < 0.05]["seat"].tolist()
            parts.append(f"{v}: seats {'/'.join(f'{100 * x:.1f}' for x in g['score'])}% "
                         f"(range {spread:.1f} pp; best seat {int(best['seat'])} at "
                         f"{stats.fmt_ci(best['score'], best['lo'], best['hi'])}%; seats off "
                         f"the fair share: {', '.join(map(str, unfair)) or 'none'})")
        lines.append(f"- **Seat fairness, every seat {strategy}.** " + "; ".join(parts) + ".")
    for first in dict.fromkeys(skill.dropna(subset=["score"])["lineup"]):
        g = skill[skill["lineup"] == first]
        best = g.loc[g["score"].idxmax()]
        worst = g.loc[g["score"].idxmin()]
        sep = best["lo"] > worst["hi"]
        lines.append(f"- **Skill, {first} (first strategy's score):** "
                     + ", ".join(f"{r['variant']} {stats.fmt_ci(r['score'], r['lo'], r['hi'])}%"
                                 for _, r in g.iterrows())
                     + f". The first strategy does best in {best['variant']}"
                     + ("" if sep else " but the intervals overlap with "
                        f"{worst['variant']}, so the variants are not clearly apart")
                     + ("; it stays below the fair share everywhere: at this budget it is "
                        "weaker than its opponents" if (g["hi"] < fair_share).all() else "")
                     + ".")
    o = outp.groupby("variant", sort=False).agg(has=("has_points", "mean"),
                                                mean=("mean_points", "mean"),
                                                cond=("mean_if_points", "mean"))
    lines.append("- **The card out of play** has points in "
                 + ", ".join(f"{v} {100 * r['has']:.1f}% of deals (mean {r['mean']:.2f} "
                             f"points, {r['cond']:.1f} when it has any)"
                             for v, r in o.iterrows())
                 + " (averaged over the lineups; the face-up card changes when it is swapped).")
    return lines
