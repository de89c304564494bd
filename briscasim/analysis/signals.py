"""``signals``: what partner signals are worth. For every cell, the first side's score against
the second on duplicate deals; for every lineup played both with signals on and off (same
cards), the first side's score and margin with signals on minus off, paired deal by deal."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import stats
from ..experiments.report import markdown_table
from ..experiments.style import figure, legend, reference, save_all, series, style, title
from .document import Context, header, write
from .runs import Run, ensure, per_deal

NAME = "signals"


def check(runs: list[Run]) -> None:
    for run in runs:
        ensure(any(c["rules"].get("signals", "none") != "none" for c in run.cells), NAME, run,
               "no cell plays with partner signals",
               "use brisca-4-pairs-signals (or rules with signals = \"honest\")")
        ensure(all(c["rotations"] > 1 for c in run.cells), NAME, run,
               "its cells are not played on duplicate deals", "use a lineup, duplicate = true")


def tables(runs: list[Run]):
    rows, diffs = [], []
    for run in runs:
        per = {}
        for cell in run.cells:
            long = run.long(cell)
            score = per_deal(long, 0)
            per[(cell["variant"], tuple(cell["labels"]))] = (
                cell["rules"].get("signals", "none") != "none", score, per_deal(long, 0, "margin"))
            s = stats.mean_ci(score, null=0.5)
            d = stats.paired(per_deal(long, 0, "points"), per_deal(long, 1, "points"))
            rows.append(dict(variant=cell["variant"], a=cell["labels"][0], b=cell["labels"][1],
                             signals=cell["rules"].get("signals", "none"), deals=s.n,
                             score=s.mean, lo=s.lo, hi=s.hi, p=s.p, points_diff=d.mean,
                             points_lo=d.lo, points_hi=d.hi, spec=run.name))
        for labels in dict.fromkeys(k[1] for k in per):
            on = [v for k, v in per.items() if k[1] == labels and v[0]]
            off = [v for k, v in per.items() if k[1] == labels and not v[0]]
            if on and off:
                ds = stats.paired(on[0][1], off[0][1])
                dm = stats.paired(on[0][2], off[0][2])
                diffs.append(dict(a=labels[0], b=labels[1], deals=ds.n, score_diff=ds.mean,
                                  score_lo=ds.lo, score_hi=ds.hi, p=ds.p, margin_diff=dm.mean,
                                  margin_lo=dm.lo, margin_hi=dm.hi, spec=run.name))
    t, d = pd.DataFrame(rows), pd.DataFrame(diffs)
    t["p_adj"] = stats.adjust(t["p"])
    if len(d):
        d["p_adj"] = stats.adjust(d["p"])
    return t, d


def analyse(runs: list[Run], ctx: Context):
    check(runs)
    t, d = tables(runs)
    with style():
        save_all(figures({"signals": t}), ctx.out)
    lines = header(runs, ctx, holm=True)
    lines += ["## Conclusion", ""] + conclusion(t, d) + [""]
    lines += ["## Method", "",
              "Each cell plays a lineup of two sides on duplicate deals (every rotation of the "
              "seats with the same cards); the first side's score is wins + draws/2. A lineup "
              "played in a variant with signals and in one without shuffles the same cards "
              "in both (same seed and deck), so the first side's score with signals on minus "
              "off is paired deal by deal: what the signals are worth to that side against "
              "those opponents. Greedy reads the signals in two places (it does not spend a "
              "trump when its partner, still to play, signalled the top trump left, and it "
              "loads points on such a trick); `greedy:use_signals=false` ignores them. ISMCTS "
              "uses them when it samples the hidden cards. With the same strategy on both "
              "sides and no signals the score must be exactly 50% (a control).", "",
              "![signals](signals.png)", "", "## Results", "",
              markdown_table(t, {
                  "variant": ("variant", None), "a": ("first side", None),
                  "b": ("second side", None), "deals": ("deals", ","),
                  "s": ("score of first side %", lambda r: stats.fmt_ci(r["score"], r["lo"],
                                                                        r["hi"])),
                  "p_adj": ("p adj (vs 50%)", ".2g"),
                  "p": ("points first - second", lambda r: stats.fmt_ci(
                      r["points_diff"], r["points_lo"], r["points_hi"], 1, 2, True))}), ""]
    if len(d):
        lines += ["### Signals on minus off, same cards", "", markdown_table(d, {
            "a": ("first side", None), "b": ("second side", None), "deals": ("deals", ","),
            "s": ("score on - off (pp)", lambda r: stats.fmt_ci(
                r["score_diff"], r["score_lo"], r["score_hi"], sign=True, digits=2)),
            "p_adj": ("p adj", ".2g"),
            "m": ("margin on - off (pts)", lambda r: stats.fmt_ci(
                r["margin_diff"], r["margin_lo"], r["margin_hi"], 1, 2, True))}), ""]
    return write(ctx.out, lines, {"signals": t, "on_minus_off": d})


def figures(tables: dict) -> dict:
    """The chart of the report, from its table ``signals``."""
    return {"signals": chart(tables["signals"])}


def chart(t: pd.DataFrame):
    """One panel per lineup (shared x): the first side's score with and without signals."""
    t = t.assign(lineup=t["a"] + " vs " + t["b"])
    lineups = list(dict.fromkeys(t["lineup"]))
    fig, axes = figure(len(lineups), 1, panel_height=0.35 + 0.25 * t["variant"].nunique(),
                       sharex=True)
    for ax, lu in zip(axes[:, 0], lineups):
        g = t[t["lineup"] == lu].reset_index(drop=True)
        y = np.arange(len(g))
        for i, r in g.iterrows():
            on = r["signals"] != "none"
            ax.errorbar(100 * r["score"], i, xerr=[[100 * (r["score"] - r["lo"])],
                                                   [100 * (r["hi"] - r["score"])]],
                        label="with signals" if on else "without signals",
                        linestyle="none", **series(0 if on else 1))
        reference(ax, "x", 50, "even (50%)")
        ax.set_yticks(y, g["variant"])
        ax.set_ylim(len(g) - 0.5, -0.5)
        ax.set_title(lu)
        ax.grid(axis="y", visible=False)
    axes[-1, 0].set_xlabel("score of the first side (wins + draws/2, %)")
    title(fig, "What are honest partner signals worth? The first side's score with and "
          "without them, on duplicate deals")
    legend(fig, title="95% CI")
    return fig


def conclusion(t: pd.DataFrame, d: pd.DataFrame) -> list[str]:
    lines = []
    for _, r in t[t["signals"] != "none"].iterrows():
        est = stats.Estimate(r["score"], r["lo"], r["hi"], r["deals"])
        lines.append(f"- **{r['a']} against {r['b']}, {r['variant']}:** the first side scores "
                     f"{est.fmt()}% ("
                     + stats.verdict(est, "ahead of an even 50%", "behind an even 50%", 0.5,
                                     "not distinguishable from an even 50%")
                     + ") and takes "
                     f"{stats.fmt_ci(r['points_diff'], r['points_lo'], r['points_hi'], 1, 2, True)}"
                     " card points per deal more than the other side.")
    for _, r in d.iterrows():
        est = stats.Estimate(r["score_diff"], r["score_lo"], r["score_hi"], r["deals"])
        lines.append(f"- **Signals on minus off for {r['a']} against {r['b']}** (same cards): "
                     f"score {est.fmt(sign=True, digits=2)} pp, margin "
                     f"{stats.fmt_ci(r['margin_diff'], r['margin_lo'], r['margin_hi'], 1, 2, True)}"
                     f" points per deal ({stats.verdict(est, 'signals help it', 'signals hurt it')};"
                     f" {r['deals']:,} deals).")
    return lines
