"""``swap_policy``: swap policies of lineup entry 0 against the control that swaps at once.

Fits a run whose cells vary entry 0's swap policy (``STRATEGY+POLICY``) over rules with the
swap of the 7, with a control cell ``+immediate`` per variant: every cell of a variant deals
the same cards, so entry 0's result is compared with the control deal by deal.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .. import stats
from ..experiments.report import markdown_table
from ..experiments.style import (PALETTE, figure, hide_unused, legend, lowest_labels,
                                 not_run, reference, save_all, style, title)
from .document import Context, header, write
from .runs import Run, ensure, entry_won, per_deal

NAME = "swap_policy"

POLICY_NAMES = {
    "immediate": "immediate (control)", "never": "never",
    "hold": "hold to the last chance",
    "hold:trumps_gone=true": "hold until the trump A and 3 are gone (or last chance)",
}


def policy_name(label: str) -> str:
    """A swap policy's name in words, from a strategy label ``STRATEGY+POLICY``."""
    pol = label.partition("+")[2] or "by_play"
    m = re.fullmatch(r"hold:stock=(\d+),last_chance=false", pol)
    if m:
        return f"hold until {m.group(1)} cards are left to draw"
    return POLICY_NAMES.get(pol, pol)


def check(runs: list[Run]) -> None:
    for run in runs:
        for cell in run.cells:
            ensure(cell["rules"].get("swap_seven", False), NAME, run,
                   f"cell {cell['id']} ({cell['preset']}) has no swap of the 7",
                   "use it with Brisca presets (or rules with swap_seven = true)")
            ensure("+" in cell["labels"][0], NAME, run,
                   f"cell {cell['id']}'s entry 0 ({cell['labels'][0]}) names no swap policy",
                   "vary lineup.0 over STRATEGY+POLICY values (briscasim strategies)")
        for variant in dict.fromkeys(c["variant"] for c in run.cells):
            ensure(any(c["variant"] == variant and c["labels"][0].endswith("+immediate")
                       for c in run.cells), NAME, run,
                   f"variant {variant!r} has no control cell with entry 0 '+immediate'",
                   "add STRATEGY+immediate to the lineup.0 grid")


def table(runs: list[Run]) -> pd.DataFrame:
    """One row per (variant, play, policy): entry 0's score and its paired difference from
    the control in score and margin, and how often it swapped, held and lost the swap."""
    rows = []
    for run in runs:
        for variant in dict.fromkeys(c["variant"] for c in run.cells):
            cells = [c for c in run.cells if c["variant"] == variant]
            for play in dict.fromkeys(c["labels"][0].partition("+")[0] for c in cells):
                group = [c for c in cells if c["labels"][0].partition("+")[0] == play]
                control = next(c for c in group if c["labels"][0].endswith("+immediate"))
                clong = run.long(control)
                c_score, c_margin = per_deal(clong, 0), per_deal(clong, 0, "margin")
                for cell in group:
                    rows.append(_row(run, cell, variant, play, c_score, c_margin))
    t = pd.DataFrame(rows)
    t["d_score_p_adj"] = stats.adjust(t["d_score_p"])
    return t


def _row(run, cell, variant, play, c_score, c_margin) -> dict:
    rules = run.rules(cell)
    n = len(cell["seating"])
    cols = ["deal", "rotation", "winner", "swap7_seat", "swap7_declined"] + [
        f"entry_{s}" for s in range(n)] + [f"points_{t}" for t in range(len(rules.sides))]
    rec = run.records(cell, cols)
    long = run.long(cell, rec)
    score, margin = per_deal(long, 0), per_deal(long, 0, "margin")
    ent = rec[[f"entry_{s}" for s in range(n)]].to_numpy()
    seat = rec["swap7_seat"].to_numpy()
    who = np.where(seat >= 0, ent[np.arange(len(rec)), np.maximum(seat, 0)], -1)
    swapped = who == 0
    held = rec["swap7_declined"].to_numpy() > 0
    lost = held & ~swapped
    won = entry_won(rec, n, rules.side_of)
    lost_ci = stats.mean_ci(pd.Series(lost).groupby(rec["deal"].to_numpy()).mean())
    s = stats.mean_ci(score)
    control = cell["labels"][0].endswith("+immediate")
    ds = stats.paired(score, c_score) if not control else stats.Estimate(0, 0, 0, s.n)
    dm = stats.paired(margin, c_margin) if not control else stats.Estimate(0, 0, 0, s.n)
    return dict(variant=variant, play=play, policy=policy_name(cell["labels"][0]),
                strategy=cell["labels"][0], opponent=" / ".join(cell["labels"][1:]),
                deals=s.n, score=s.mean, score_lo=s.lo, score_hi=s.hi,
                d_score=ds.mean, d_score_lo=ds.lo, d_score_hi=ds.hi, d_score_p=ds.p,
                d_margin=dm.mean, d_margin_lo=dm.lo, d_margin_hi=dm.hi,
                swapped=swapped.mean(), held=held.mean(), lost=lost.mean(),
                lost_lo=lost_ci.lo, lost_hi=lost_ci.hi,
                lost_if_held=lost.sum() / held.sum() if held.any() else math.nan,
                win_if_lost=float(won[lost].mean()) if lost.any() else math.nan,
                spec=run.name)


def analyse(runs: list[Run], ctx: Context):
    check(runs)
    t = table(runs)
    out = ctx.out
    out.mkdir(parents=True, exist_ok=True)
    with style():
        save_all(figures({"policies": t}), out)
    lines = header(runs, ctx, holm=True)
    lines += ["## Conclusion", ""] + conclusion(t) + [""]
    plays = t["play"].unique()
    lines += ["## Method", "",
              "Entry 0 plays each swap policy; its opponents are the lineup's other entries "
              "(" + "; ".join(f"{p}: {', '.join(sorted(set(t[t['play'] == p]['opponent'])))}"
                              for p in plays) + "). Every cell of a variant deals the same "
              "cards, so entry 0's result in each cell is compared, deal by deal, with the "
              "control cell where entry 0 swaps at once (`+immediate`). *Score* is entry 0's "
              "wins + draws/2 (0.5 is an even game in two sides, 1/3 in three players); "
              "*margin* its side's card points minus the best other side's. A hold with "
              "`last_chance=false` swaps only once the stock is down to k cards still to "
              "draw: if the window closes first (before_draw: at least 2n cards to draw, "
              "after_draw: n) it never swaps. *Held* = a 7-swap offer was declined; *lost* = "
              "declined and never made.", "",
              "Precision: median 95% half-width of the score difference "
              + ", ".join(f"{p} {_half(t[t['play'] == p], 'd_score', 100):.2f} pp "
                          f"({t[t['play'] == p]['deals'].min():,} deals per cell)"
                          for p in plays) + ".", "",
              "![score difference](score_difference.png)", "",
              "![margin difference](margin_difference.png)", "",
              "![swap lost](swap_lost.png)", "", "## Results", ""]
    for (variant, play), g in t.groupby(["variant", "play"], sort=False):
        lines += [f"### {variant}, {play}", "", markdown_table(g, {
            "policy": ("policy", None), "deals": ("deals", ","),
            "s": ("score %", lambda r: stats.fmt_ci(r["score"], r["score_lo"], r["score_hi"])),
            "d": ("score - control (pp)", lambda r: stats.fmt_ci(
                r["d_score"], r["d_score_lo"], r["d_score_hi"], sign=True, digits=2)),
            "d_score_p": ("p", ".2g"), "d_score_p_adj": ("p adj", ".2g"),
            "m": ("margin - control (pts)", lambda r: stats.fmt_ci(
                r["d_margin"], r["d_margin_lo"], r["d_margin_hi"], 1, 2, True)),
            "w": ("7-swap made %", lambda r: f"{100 * r['swapped']:.1f}"),
            "h": ("held %", lambda r: f"{100 * r['held']:.1f}"),
            "l": ("lost %", lambda r: f"{100 * r['lost']:.2f}"),
            "lh": ("lost if held %", lambda r: "" if math.isnan(r["lost_if_held"])
                   else f"{100 * r['lost_if_held']:.1f}"),
            "wl": ("win % when lost", lambda r: "" if math.isnan(r["win_if_lost"])
                   else f"{100 * r['win_if_lost']:.1f}")}), ""]
    lines += ["Percentages of plays of entry 0 (a duplicate deal counts once per rotation). "
              "p: two-sided paired t-test of the score difference; p adj: Holm-adjusted over "
              "every comparison of this report. CSV: `policies.csv`."]
    return write(out, lines, {"policies": t})


def _half(t: pd.DataFrame, col: str, scale: float) -> float:
    d = t[~t["policy"].str.startswith("immediate")]
    return float(scale * ((d[col + "_hi"] - d[col + "_lo"]) / 2).median()) if len(d) else math.nan


def figures(tables: dict) -> dict:
    """The charts of the report, from its table ``policies``."""
    t = tables["policies"]
    return {"score_difference": forest(t, "d_score", 100, "score", "percentage points"),
            "margin_difference": forest(t, "d_margin", 1, "point margin", "card points"),
            "swap_lost": lost_bars(t)}


def forest(t: pd.DataFrame, col: str, scale: float, what: str, unit: str):
    """Small multiples, one panel per (variant, play), shared x and y axes: each policy's
    paired difference from the control with its 95% interval; "not run" where a panel lacks
    a policy."""
    groups = list(t.groupby(["variant", "play"], sort=False))
    policies = list(dict.fromkeys(t["policy"]))
    cols = 2 if len(groups) > 1 else 1
    rows = math.ceil(len(groups) / cols)
    fig, axes = figure(rows, cols, panel_height=0.3 + 0.24 * len(policies),
                       sharex=True, sharey=True)
    y = np.arange(len(policies))
    for ax, ((variant, play), g) in zip(axes.flat, groups):
        g = g.set_index("policy").reindex(policies)
        m = scale * g[col]
        err = np.nan_to_num([m - scale * g[col + "_lo"], scale * g[col + "_hi"] - m])
        ax.errorbar(m, y, xerr=err, fmt="o", color=PALETTE[0], markersize=3.5,
                    label=f"{what} minus the control's, 95% CI")
        not_run(ax, y[m.isna().to_numpy()])
        reference(ax, "x", 0, "no difference from swapping at once")
        ax.set_yticks(y, policies)
        ax.set_title(f"{variant}, {play}")
        ax.grid(axis="y", visible=False)
    axes[0, 0].set_ylim(len(policies) - 0.5, -0.5)
    lowest_labels(axes, len(groups))
    hide_unused(axes, len(groups))
    fig.supxlabel(f"{what} minus the control's ({unit})")
    title(fig, f"Does holding the 7 of trumps pay? Entry 0's {what} with each swap policy "
          "against swapping at once, on the same deals")
    legend(fig, loc="outside upper center", ncol=2)
    return fig


def lost_bars(t: pd.DataFrame):
    """How often each hold policy never made the 7-swap, per (variant, play); "not run"
    where a (variant, play) lacks a policy."""
    g = t[~t["policy"].str.startswith("immediate")].copy()
    g["cell"] = g["variant"] + ", " + g["play"]
    cells = list(dict.fromkeys(g["cell"]))
    policies = list(dict.fromkeys(g["policy"]))
    fig, axes = figure(1, 1, panel_height=0.5 + 0.12 * len(policies) * len(cells))
    ax = axes[0, 0]
    height = 0.8 / len(cells)
    for i, cell in enumerate(cells):
        h = g[g["cell"] == cell].set_index("policy").reindex(policies)
        y = np.arange(len(policies)) + (i - (len(cells) - 1) / 2) * height
        ax.barh(y, 100 * h["lost"], height * 0.9, color=PALETTE[i % len(PALETTE)], label=cell)
        ax.errorbar(100 * h["lost"], y, xerr=np.nan_to_num(
            [100 * (h["lost"] - h["lost_lo"]), 100 * (h["lost_hi"] - h["lost"])]),
            fmt="none", ecolor="black", elinewidth=0.8, capsize=1.5,
            label="95% CI" if i == len(cells) - 1 else None)
        not_run(ax, y[h["lost"].isna().to_numpy()], at=0.01, fontsize=6)
    ax.set_yticks(range(len(policies)), policies)
    ax.set_ylim(len(policies) - 0.5, -0.5)
    ax.set_xlabel("plays in which entry 0 declined the 7-swap and never made it (%)")
    ax.grid(axis="y", visible=False)
    title(fig, "How often does holding the 7 of trumps lose the swap altogether?")
    legend(fig, loc="outside lower center", ncol=2)
    return fig


def conclusion(t: pd.DataFrame) -> list[str]:
    """One bullet per (variant, play): does any hold policy beat swapping at once."""
    lines = []
    for (variant, play), g in t.groupby(["variant", "play"], sort=False):
        g = g[~g["policy"].str.startswith("immediate")]
        best = g.loc[g["d_score"].idxmax()]
        sig = g["d_score_p_adj"] < 0.05
        sig_up = g[sig & (g["d_score"] > 0)]["policy"].tolist()
        sig_down = g[sig & (g["d_score"] < 0)]["policy"].tolist()

        def d(r):
            return stats.fmt_ci(r["d_score"], r["d_score_lo"], r["d_score_hi"], sign=True,
                                digits=2) + " pp"
        if len(g) == 1:
            s = (f"- **{variant}, {play}: "
                 + ("holding pays" if sig_up else "swap at once" if sig_down else
                    "holding neither helps nor hurts measurably") + ".**")
        elif sig_up:
            s = (f"- **{variant}, {play}: holding pays.** Best: *{best['policy']}*, {d(best)} "
                 f"of score against swapping at once; significantly better: "
                 f"{', '.join(sig_up)}.")
        elif len(sig_down) == len(g):
            s = (f"- **{variant}, {play}: swap at once.** Every hold policy scores "
                 f"significantly less than swapping at the first offer; the least costly is "
                 f"*{best['policy']}*, {d(best)}.")
        else:
            s = (f"- **{variant}, {play}: no policy beats swapping at once.** The best is "
                 f"*{best['policy']}*, {d(best)}; significantly worse (Holm-adjusted): "
                 f"{', '.join(sig_down) or 'none'}.")
        for name, what in (("hold to the last chance", "Holding to the last chance"),
                           ("never", "Never swapping")):
            r = g[g["policy"] == name]
            if len(r):
                r = r.iloc[0]
                s += (f" {what}: {d(r)}, margin "
                      f"{stats.fmt_ci(r['d_margin'], r['d_margin_lo'], r['d_margin_hi'], 1, 2, True)}"
                      " points" + (f"; it loses the swap in {100 * r['lost']:.1f}% of plays "
                                   f"({100 * r['lost_if_held']:.0f}% of the deals where it "
                                   "held)" if name != "never" and r["held"] > 0 else "") + ".")
        lines.append(s)
    return lines + agreement(t)


def _verdict(r) -> str:
    if r["d_score_p_adj"] >= 0.05:
        return "no measurable effect"
    return "pays" if r["d_score"] > 0 else "costs"


def agreement(t: pd.DataFrame, policy: str = "hold to the last chance") -> list[str]:
    """One bullet per variant that more than one play measured ``policy`` in: whether the
    plays reach the same verdict (pays, costs, no measurable effect; Holm-adjusted) and
    which plays' intervals of the difference from the control do not overlap."""
    lines = []
    rows = t[t["policy"] == policy]
    for variant, g in rows.groupby("variant", sort=False):
        if len(g) < 2:
            continue
        verdicts = {r["play"]: _verdict(r) for _, r in g.iterrows()}
        each = "; ".join(
            f"{r['play']} " + stats.fmt_ci(r["d_score"], r["d_score_lo"], r["d_score_hi"],
                                           sign=True, digits=2) + " pp"
            for _, r in g.iterrows())
        rs = list(g.itertuples())
        apart = [f"{x.play} and {y.play}" for i, x in enumerate(rs) for y in rs[i + 1:]
                 if x.d_score_hi < y.d_score_lo or y.d_score_hi < x.d_score_lo]
        if len(set(verdicts.values())) == 1:
            s = (f"- **{variant}: the players agree.** *{policy.capitalize()}* "
                 f"{next(iter(verdicts.values()))} for each of {', '.join(verdicts)} ({each})")
        else:
            s = (f"- **{variant}: the players disagree.** *{policy.capitalize()}*: "
                 + ", ".join(f"{p} {v}" for p, v in verdicts.items()) + f" ({each})")
        s += ("; the intervals overlap." if not apart else
              f"; the sizes differ: the intervals of {', and of '.join(apart)} do not "
              "overlap.")
        lines.append(s)
    return lines
