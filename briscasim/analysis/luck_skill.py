"""``luck_skill``: how much of a deal's result does the deal decide?

For every preset and strategy pairing played on duplicate deals (one strategy against
another at two sides, or against two sides of another at three):

1. a logistic regression of the pairing's first strategy's result on the signed difference in
   trumps dealt to its side (the three-card hands, partners added; minus the mean of the other
   sides') and on the pairing (standard errors clustered by deal: the cells of a preset share
   their deals);
2. a decomposition of the point margin's variance into the deal (what changes when the same
   cards go to the other strategy: cards and seat) and the play (what stays: the strategies,
   their skill and their randomness), with bootstrap intervals over deals;
3. how many deals the better strategy needs to win 95% of matches (most deals won over N
   deals, or first to K deal wins), from its deal win and draw rates.

Trumps dealt are computed from the deal's cards (:func:`briscasim.game.seeded_deck`, the
cards the batch simulation dealt for that seed and deal index); the records do not store them.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .. import stats
from .. import cards as C
from ..experiments.report import markdown_table
from ..experiments.style import (LINESTYLES, MARKERS, PALETTE, counts, figure, hide_unused,
                                 legend, lowest_labels, not_run, reference, save_all, series,
                                 style, title)
from ..game import Deal, seeded_deck
from .document import Context, header, write
from .runs import Run, ensure

NAME = "luck_skill"
HAND = 3
TARGET = 0.95
MAX_DEALS = 2001
"""The longest match searched against one opponent."""
MAX_DEALS_TWO = 301
"""The longest match searched against two opponents (a joint distribution of two leads)."""


def check(runs: list[Run]) -> None:
    for run in runs:
        for cell in run.cells:
            k = len(run.rules(cell).sides)
            ensure(k in (2, 3), NAME, run, f"cell {cell['id']} ({cell['preset']}) has {k} "
                   "sides", "it needs two or three sides (players, or teams)")
            ensure(len(cell["labels"]) == k and cell["rotations"] == k
                   and len(set(cell["lineup"][1:])) == 1, NAME, run,
                   f"cell {cell['id']} is not a pairing on duplicate deals",
                   "use lineup = [A, B] (two sides) or [A, B, B] (three) with duplicate deals")
            ensure(cell["rules"]["match"] == "deal", NAME, run,
                   f"cell {cell['id']} plays matches", "it needs single deals")


def trumps_dealt(rules, seed: int, deals: np.ndarray) -> np.ndarray:
    """``(len(deals), players)``: trumps in each seat's dealt hand for each deal index."""
    r = rules.to_array()
    n = rules.players
    out = np.zeros((len(deals), n), np.int8)
    suit = np.array([C.suit_of(c) for c in range(C.N_CARD_IDS)])
    for i, d in enumerate(np.asarray(deals, np.int64)):
        deck = seeded_deck(r, seed, int(d))
        hands = deck[:HAND * n].reshape(HAND, n)            # dealt one card at a time
        if rules.face_up_reshuffle:                          # the turned card may change
            trump = Deal.from_seed(rules, seed, int(d)).trump
        else:
            trump = suit[deck[HAND * n]]
        out[i] = (suit[hands] == trump).sum(axis=0)
    return out


def plays(run: Run, cell: dict, dealt: dict | None = None) -> pd.DataFrame:
    """One row per play of the pairing's first strategy: deal, rotation, score, margin (its
    side's points minus the mean of the other sides', which have as many points on average
    when the strategies are equal) and the signed trump difference (its side's trumps dealt
    minus the other sides' mean). ``dealt``
    keeps the trumps dealt by (rules, seed) for the next cells with the same deals."""
    rules = run.rules(cell)
    long = run.long(cell)
    a = long[long["entry"] == 0].copy()
    deals = np.sort(a["deal"].unique())
    key = (repr(sorted(cell["rules"].items())), run.spec["seed"], deals.tobytes())
    dealt = {} if dealt is None else dealt
    if key not in dealt:
        dealt[key] = trumps_dealt(rules, run.spec["seed"], deals)
    tr = dealt[key]
    side_of = np.asarray(rules.side_of)
    k = len(rules.sides)
    side_tr = np.stack([tr[:, side_of == t].sum(axis=1) for t in range(k)], axis=1)
    row = np.searchsorted(deals, a["deal"].to_numpy())
    own = side_tr[row, a["side"].to_numpy()]
    a["trump_diff"] = (k * own - side_tr[row].sum(axis=1)) / (k - 1)   # own - others' mean
    # the margin against the others' mean (each side holds one lineup entry, one long row)
    total = long.groupby(["deal", "rotation"])["points"].transform("sum")[a.index]
    a["margin"] = (k * a["points"] - total) / (k - 1)
    a["preset"] = cell["variant"]
    a["pair"] = pair_name(cell)
    a["sides"] = k
    a["seed"] = run.spec["seed"]
    return a[["preset", "pair", "sides", "seed", "deal", "rotation", "result", "score",
              "margin", "trump_diff"]]


def pair_name(cell: dict) -> str:
    """``A vs B`` (two sides) or ``A vs 2 B`` (three)."""
    k = len(cell["labels"])
    return f"{cell['labels'][0]} vs {'' if k == 2 else f'{k - 1} '}{cell['labels'][1]}"


def regression(d: pd.DataFrame) -> dict:
    """Binomial GLM of the score on the trump difference and the pairing, clustered by deal;
    and the share of the null deviance each explains alone."""
    pairs = list(dict.fromkeys(d["pair"]))
    X = pd.DataFrame({"const": 1.0, "trump_diff": d["trump_diff"].astype(float)})
    for p in pairs[1:]:
        X[p] = (d["pair"] == p).astype(float)
    fit = stats.logistic(d["score"], X, groups=d["seed"].astype(np.int64) * 2**32 + d["deal"])
    ci = fit.conf_int(alpha=1 - stats.LEVEL)
    out = dict(preset=d["preset"].iloc[0], plays=len(d),
               deals=int(d[["seed", "deal"]].drop_duplicates().shape[0]),
               trump_coef=fit.params["trump_diff"], trump_lo=ci.loc["trump_diff", 0],
               trump_hi=ci.loc["trump_diff", 1], trump_p=fit.pvalues["trump_diff"],
               baseline=pairs[0])
    null = stats.logistic(d["score"], X[["const"]]).deviance
    alone_t = stats.logistic(d["score"], X[["const", "trump_diff"]]).deviance
    alone_p = stats.logistic(d["score"], X.drop(columns="trump_diff")).deviance
    out.update(r2_trumps=1 - alone_t / null, r2_pair=1 - alone_p / null,
               r2_both=1 - fit.deviance / null)
    out["pair_effects"] = "; ".join(
        f"{p}: {fit.params[p]:+.2f} [{ci.loc[p, 0]:+.2f}, {ci.loc[p, 1]:+.2f}]" for p in pairs[1:])
    return out


def decomposition(d: pd.DataFrame, resamples: int = 400, seed: int = 0) -> dict:
    """The mean square of the first strategy's point margin split into the deal, the
    strategy and the rest, with bootstrap intervals over deals (``scipy.stats.bootstrap``).

    In a duplicate deal the first strategy holds each side's cards in one of the k
    rotations, so what the cards (and seats) give it in one rotation they take away in the
    others: with card effects that sum to zero over the rotations, the deal's variance is
    minus k - 1 times the mean covariance of two rotations' margins (minus the covariance of
    the two margins at two sides). The strategy's part is the squared mean margin (its
    systematic edge); the rest (play randomness, interactions of cards and play) is what
    remains of the mean square.
    """
    from scipy.stats import bootstrap
    w = d.pivot_table(index="deal", columns="rotation", values="margin", aggfunc="mean")
    y = w.to_numpy(float)
    y = y[~np.isnan(y).any(axis=1)]
    k = y.shape[1]

    def parts(y):
        # y: (..., deals, 2) -> (deal, strategy) shares of the mean square
        mean_sq = (y ** 2).mean(axis=(-1, -2))
        c = y - y.mean(axis=-2, keepdims=True)
        cov = np.mean([(c[..., i] * c[..., j]).mean(axis=-1)
                       for i in range(k) for j in range(i + 1, k)], axis=0)
        deal = -(k - 1) * cov
        strategy = y.mean(axis=(-1, -2)) ** 2
        return deal / mean_sq, strategy / mean_sq

    deal, strategy = (float(x) for x in parts(y))
    res = bootstrap((np.arange(len(y)),), lambda i, axis=-1: np.stack(parts(y[i])),
                    vectorized=True, n_resamples=resamples, confidence_level=stats.LEVEL,
                    method="percentile", random_state=np.random.default_rng(seed))
    lo, hi = res.confidence_interval
    m = stats.mean_ci(y.mean(axis=1))
    sd = float(y.std(ddof=1))
    return dict(deal_share=deal, deal_lo=float(lo[0]), deal_hi=float(hi[0]),
                strategy_share=strategy, strategy_lo=float(lo[1]), strategy_hi=float(hi[1]),
                rest_share=1 - deal - strategy, margin=m.mean, margin_lo=m.lo, margin_hi=m.hi,
                margin_sd=sd, effect_size=m.mean / sd if sd else math.nan)


def match_lengths(d: pd.DataFrame) -> dict:
    """Deals (most deals won over N) and deal wins (first to K) the better strategy needs to
    win 95% of matches, at its measured deal win and draw rates and at the ends of the
    interval of its edge (deal wins minus its opponents' deal wins per opponent).

    At three sides only the single strategy's matches are measured (against the two sides of
    the other, who share the deals it does not win or draw equally)."""
    others = int(d["sides"].iloc[0]) - 1
    cap = MAX_DEALS if others == 1 else MAX_DEALS_TWO
    s = stats.mean_ci(d.groupby("deal")["score"].mean(), null=0.5)
    edge = d["result"].map({1: 1.0, 0: 0.0, -1: -1.0 / others})
    e = stats.mean_ci(edge.groupby(d["deal"]).mean())
    win, draw = float((d["result"] == 1).mean()), float((d["result"] == 0).mean())
    out = dict(score=s.mean, score_lo=s.lo, score_hi=s.hi, win=win, draw=draw, cap=cap)
    names = d["pair"].iloc[0].split(" vs ")
    if not (e.lo > 0 or e.hi < 0):
        return {**out, "best_of": None, "best_of_range": "", "first_to": None,
                "first_to_range": "", "who": "neither (not distinguishable)"}
    flip = e.mean < 0            # the second strategy is the better one
    loss = 1 - win - draw
    if flip and others > 1:
        return {**out, "best_of": None, "best_of_range": "", "first_to": None,
                "first_to_range": "", "who": names[1].split(" ")[-1]}
    w, l_ = (loss, win) if flip else (win, loss)

    def need(win_rate, loss_rate):
        draws = 1 - win_rate - loss_rate
        return (stats.deals_needed(win_rate, draws, TARGET, cap, others),
                stats.rounds_needed(win_rate, draws, TARGET, cap, others))
    n, k = need(w, l_)
    # the ends of the interval: move the win/loss split by the edge's half-width
    h = e.half_width * others / (others + 1)
    n_fast, k_fast = need(min(1.0, w + h), max(0.0, l_ - h))
    n_slow, k_slow = need(max(0.0, w - h), min(1.0, l_ + h))
    return {**out, "best_of": n, "first_to": k,
            "best_of_range": _range(n_fast, n_slow, cap),
            "first_to_range": _range(k_fast, k_slow, cap),
            "who": names[1 if flip else 0]}


def _range(a, b, cap: int) -> str:
    return f"{_fmt_n(a, cap)}-{_fmt_n(b, cap)}"


def _length(n, interval: str, cap: int) -> str:
    """A match length with its range as the report prints it: ``67 (67-69)``, or ``more
    than 2001`` when the whole range lies beyond the longest match computed."""
    if interval == _range(None, None, cap):
        return f"more than {cap}"
    return f"{_fmt_n(n, cap)} ({interval})"


def tables(runs: list[Run]):
    regs, decs, matches = [], [], []
    by_preset: dict[str, list] = {}
    dealt: dict = {}
    for run in runs:
        for cell in run.cells:
            d = plays(run, cell, dealt)
            by_preset.setdefault(cell["variant"], []).append(d)
            pair = d["pair"].iloc[0]
            decs.append(dict(preset=cell["variant"], pair=pair, deals=int(
                d["deal"].nunique()), spec=run.name, **decomposition(d)))
            matches.append(dict(preset=cell["variant"], pair=pair, **match_lengths(d)))
    for preset, parts in by_preset.items():
        regs.append(regression(pd.concat(parts, ignore_index=True)))
    reg, dec, mat = pd.DataFrame(regs), pd.DataFrame(decs), pd.DataFrame(matches)
    reg["trump_p_adj"] = stats.adjust(reg["trump_p"])
    return reg, dec, mat


def curves(mat: pd.DataFrame, deals: int = 201) -> dict:
    """``{(preset, pairing): P(the better strategy wins a match of N deals), N = 1..deals}``
    for every pairing of the match-length table with a better strategy, from its deal win and
    draw rates."""
    out = {}
    for _, m in mat[mat["best_of"].notna()].iterrows():
        first, _, rest = m["pair"].partition(" vs ")
        many = re.match(r"(\d+) ", rest)
        others = int(many.group(1)) if many else 1
        w = m["win"] if m["who"] == first else 1 - m["win"] - m["draw"]
        out[(m["preset"], m["pair"])] = stats.match_curve(w, m["draw"], deals, others)
    return out


def analyse(runs: list[Run], ctx: Context):
    check(runs)
    reg, dec, mat = tables(runs)
    tabs = {"regression": reg, "variance": dec, "match_length": mat}
    with style():
        figs = save_all(figures(tabs), ctx.out)
    lines = header(runs, ctx, holm=True)
    lines += ["## Conclusion", ""] + conclusion(reg, dec, mat) + [""]
    lines += ["## Method", "",
              "Each pairing plays duplicate deals (the same cards once per rotation of the "
              "seats), so every deal is played with the cards in each strategy's hands. "
              "Pairings: " + ", ".join(f"`{p}`" for p in dict.fromkeys(dec["pair"]))
              + "; at three sides one strategy plays against two sides of the other (`A vs 2 "
              "B`). The strategy specs that played: "
              + ", ".join(f"`{x}`" for x in _specs(runs)) + ". `expert` plays as `greedy` "
              "under the reverse objective, and with more than two players under a points "
              "target.", "",
              "1. **Trumps dealt.** For each deal the three-card hands are recomputed from the "
              "seed and deal index (`briscasim.game.seeded_deck`, the cards the simulation "
              "dealt); a side's trumps dealt are its players' trumps (partners added), the "
              "signed difference is the first strategy's side minus the other (at three sides, "
              "minus the mean of the other two). A binomial GLM "
              "(statsmodels) of the first strategy's result (win 1, draw 1/2, loss 0) on the "
              "trump difference and the pairing (one preset at a time, all its pairings, "
              "standard errors clustered by deal) gives the log-odds per trump; *R² trumps* / "
              "*R² pairing* are the shares of the null deviance each explains alone (McFadden), "
              "*R² both* together.",
              "2. **The point margin's mean square, split.** The margin is the first "
              "strategy's side's points minus the other side's (at three sides, minus the mean "
              "of the other two, so that equal strategies have a mean margin of zero and the "
              "margins of a deal's three hands sum to zero). In a duplicate deal the "
              "first strategy holds each side's cards (and seat) in one rotation, so what the "
              "cards give it in one rotation they take away in the others: the *deal* part is "
              "minus the covariance of the deal's two margins (at three sides, minus twice the "
              "mean covariance of two rotations' margins, which assumes the cards' effects sum "
              "to zero over the rotations); the "
              "*strategy* part is the squared mean margin (the systematic edge); the *rest* "
              "(play randomness, interactions of cards and play) is what remains. Shares of "
              "the mean square, with 95% percentile bootstrap intervals over deals. The effect "
              "size is the mean margin over its SD. The deal's share is estimated from a "
              "covariance, so a slightly negative estimate is sampling noise around zero.",
              f"3. **Match length.** With independent deals at the better strategy's measured "
              f"win and draw rates: the fewest deals N of a match won on most deals won (a "
              f"level match is not a win) and the fewest deal wins K of a first-to-K match "
              f"(draws count for no one) that the better strategy wins with probability "
              f"{TARGET:.0%}; the range moves the win rate by the 95% half-width of the "
              f"edge (deal wins minus the opponents' deal wins per opponent). At three sides "
              f"the match is won with more deal wins than each of the two other sides (they "
              f"share the deals the first strategy neither wins nor draws), searched up to "
              f"{MAX_DEALS_TWO} deals (exactly, over the joint distribution of the two leads). "
              "The rules' `rounds_to_win` allows K up to 7 only.", "",
              "![trump effect](trump_effect.png)", "", "![deal share](deal_share.png)", ""]
    if "match_length" in figs:
        lines += ["![match length](match_length.png)", ""]
    lines += ["## Trumps dealt and the pairing", "", markdown_table(reg, {
        "preset": ("preset", None), "deals": ("deals", ","),
        "t": ("log-odds per trump", lambda r: stats.fmt_ci(
            r["trump_coef"], r["trump_lo"], r["trump_hi"], 1, 2, True)),
        "o": ("odds ratio", lambda r: f"{math.exp(r['trump_coef']):.2f}"),
        "trump_p_adj": ("p adj", ".2g"), "r2_trumps": ("R² trumps", ".3f"),
        "r2_pair": ("R² pairing", ".3f"), "r2_both": ("R² both", ".3f"),
        "pair_effects": ("pairing log-odds against the first pairing", None)}), "",
        f"The first pairing of each preset is the baseline "
        f"({', '.join(sorted(set(reg['baseline'])))}).", "",
        "## The point margin: deal, strategy and the rest", "", markdown_table(dec, {
            "preset": ("preset", None), "pair": ("pairing", None), "deals": ("deals", ","),
            "s": ("deal %", lambda r: stats.fmt_ci(r["deal_share"], r["deal_lo"],
                                                   r["deal_hi"])),
            "t": ("strategy %", lambda r: stats.fmt_ci(r["strategy_share"], r["strategy_lo"],
                                                       r["strategy_hi"])),
            "r": ("rest %", lambda r: f"{100 * r['rest_share']:.1f}"),
            "m": ("mean margin of the first (pts)", lambda r: stats.fmt_ci(
                r["margin"], r["margin_lo"], r["margin_hi"], 1, 1, True)),
            "margin_sd": ("SD (pts)", ".1f"), "effect_size": ("effect size", "+.2f")}), "",
        "## Match length for 95% of matches", "", markdown_table(mat, {
            "preset": ("preset", None), "pair": ("pairing", None),
            "s": ("score of the first %", lambda r: stats.fmt_ci(r["score"], r["score_lo"],
                                                                 r["score_hi"])),
            "who": ("better", None),
            "n": ("deals N (range)", lambda r: "" if not r["best_of_range"] else
                  _length(r["best_of"], r["best_of_range"], r["cap"])),
            "k": ("first to K (range)", lambda r: "" if not r["first_to_range"] else
                  _length(r["first_to"], r["first_to_range"], r["cap"]))}), ""]
    return write(ctx.out, lines, tabs)


def _specs(runs: list[Run]) -> list[str]:
    """Every strategy spec of the runs' lineups, in order of first appearance."""
    return list(dict.fromkeys(e for run in runs for cell in run.cells for e in cell["lineup"]))


def _fmt_n(x, cap: int = MAX_DEALS) -> str:
    return f">{cap}" if x is None or pd.isna(x) else f"{int(x)}"


def figures(tables: dict) -> dict:
    """The charts of the report, from its tables ``regression``, ``variance`` and
    ``match_length``."""
    figs = {"trump_effect": trump_chart(tables["regression"]),
            "deal_share": share_chart(tables["variance"])}
    c = curves(tables["match_length"])
    if c:
        figs["match_length"] = curve_chart(c)
    return figs


def trump_chart(reg: pd.DataFrame):
    """Log-odds of the result per trump dealt, per preset, with its 95% interval."""
    fig, axes = figure(1, 1, width="column", panel_height=0.4 + 0.2 * len(reg))
    ax = axes[0, 0]
    y = np.arange(len(reg))
    ax.errorbar(reg["trump_coef"], y, xerr=[reg["trump_coef"] - reg["trump_lo"],
                                           reg["trump_hi"] - reg["trump_coef"]],
                fmt="o", color=PALETTE[0], label="log-odds per trump, 95% CI")
    reference(ax, "x", 0, "no effect")
    ax.set_yticks(y, reg["preset"])
    ax.invert_yaxis()
    ax.set_xlabel("log-odds of winning per trump dealt\n(trumps more than the opponents')")
    ax.grid(axis="y", visible=False)
    title(fig, "How much is a trump dealt worth?")
    legend(fig, loc="outside lower center", ncol=2)
    return fig


def share_chart(dec: pd.DataFrame):
    """The deal's share of the margin's variance per preset: a panel per first strategy of
    the pairing (shared axes), a colour and marker per opponent; "not run" where a panel
    lacks a preset."""
    presets = list(dict.fromkeys(dec["preset"]))
    first = dec["pair"].str.partition(" vs ")[0]
    against = dec["pair"].str.partition(" vs ")[2]
    groups = list(dict.fromkeys(first))
    opponents = list(dict.fromkeys(against))
    cols = min(2, len(groups))
    rows = math.ceil(len(groups) / cols)
    fig, axes = figure(rows, cols, panel_height=0.5 + 0.2 * len(presets), sharex=True,
                       sharey=True)
    y0 = np.arange(len(presets))
    off = 0.7 / len(opponents)
    for ax, grp in zip(axes.flat, groups):
        g = dec[first == grp]
        for j, o in enumerate(opponents):
            h = g[against[first == grp] == o].set_index("preset").reindex(presets)
            if h["deal_share"].isna().all():
                continue
            y = y0 + (j - (len(opponents) - 1) / 2) * off
            ax.errorbar(100 * h["deal_share"], y,
                        xerr=np.nan_to_num([100 * (h["deal_share"] - h["deal_lo"]),
                                            100 * (h["deal_hi"] - h["deal_share"])]),
                        linestyle="none", markersize=3.5, label=f"against {o}", **series(j))
        not_run(ax, [y for y, p in zip(y0, presets) if p not in set(g["preset"])])
        ax.set_yticks(y0, presets)
        ax.set_xlim(-5, 105)
        ax.set_title(f"{grp} against ...")
        ax.grid(axis="y", visible=False)
    axes[0, 0].invert_yaxis()
    lowest_labels(axes, len(groups))
    hide_unused(axes, len(groups))
    fig.supxlabel("share of the point margin's mean square decided by the deal (%)")
    title(fig, "How much of the point margin does the deal decide? Its share of the margin's "
          "mean square, by preset and pairing")
    legend(fig, title="95% CI")
    return fig


def curve_chart(curves: dict):
    """Probability that the better strategy wins a match of N deals, one panel per preset
    (shared axes), a line per pairing: its colour the pairing's first strategy, its marker
    and line its opponent; the dotted line is 95%."""
    presets = list(dict.fromkeys(k[0] for k in curves))
    # in the order the panels show them, so the legend's order is the colours' order
    pairs = list(dict.fromkeys(k[1] for p in presets for k in curves if k[0] == p))
    firsts = list(dict.fromkeys(p.partition(" vs ")[0] for p in pairs))
    opponents = list(dict.fromkeys(p.partition(" vs ")[2] for p in pairs))
    cols = min(3, len(presets))
    rows = math.ceil(len(presets) / cols)
    fig, axes = figure(rows, cols, panel_height=1.6, sharex=True, sharey=True)
    n = np.arange(1, 202)
    odd = n[::2]
    for ax, preset in zip(axes.flat, presets):
        for p in pairs:
            c = curves.get((preset, p))
            if c is not None:
                first, _, opponent = p.partition(" vs ")
                k = opponents.index(opponent)
                ax.plot(odd, 100 * c[::2], label=p, linewidth=1.1, markersize=3,
                        color=PALETTE[firsts.index(first) % len(PALETTE)],
                        marker=MARKERS[k % len(MARKERS)],
                        linestyle=LINESTYLES[k % len(LINESTYLES)],
                        markevery=[0, 2, 7, 24, 99])
        reference(ax, "y", 100 * TARGET, f"{100 * TARGET:.0f}% of matches")
        ax.set_xscale("log")
        counts(ax.xaxis, log=True)
        ax.set_title(preset)
    lowest_labels(axes, len(presets))
    for ax in axes[:, 0]:
        ax.set_ylabel("match won (%)")
    hide_unused(axes, len(presets))
    fig.supxlabel("deals in the match (odd N, log scale)")
    title(fig, "How many deals does the better strategy need to win the match? The chance "
          "that it wins more of N deals than its opponent")
    legend(fig, title="pairing")
    return fig


def conclusion(reg, dec, mat) -> list[str]:
    lines = []
    r = reg.sort_values("trump_coef")
    lines.append("- **Trumps dealt.** Each trump more in the dealt hand than the "
                 "opponents' multiplies the odds of winning by "
                 + f"{math.exp(r['trump_coef'].iloc[0]):.2f} ({r['preset'].iloc[0]}) to "
                 f"{math.exp(r['trump_coef'].iloc[-1]):.2f} ({r['preset'].iloc[-1]}); "
                 "alone they explain "
                 f"{100 * reg['r2_trumps'].min():.1f}-{100 * reg['r2_trumps'].max():.1f}% of the "
                 "deviance, the pairing alone "
                 f"{100 * reg['r2_pair'].min():.1f}-{100 * reg['r2_pair'].max():.1f}%.")
    for pair, g in dec.groupby("pair", sort=False):
        lines.append(f"- **{pair}:** of the point margin's mean square, the deal decides "
                     + _span(g, "deal_share") + ", the strategy " + _span(g, "strategy_share")
                     + ", the rest (play randomness, and how cards and play combine) the "
                     "remainder.")
    better = mat[mat["best_of_range"] != ""]
    for _, m in better.iterrows():
        if m["preset"] in ("brisca-2", "briscola-2", "brisca-4-pairs", "brisca-3-remove2"):
            lines.append(f"- **{m['preset']}, {m['pair']}:** {m['who']} wins 95% of matches "
                         f"of {_length(m['best_of'], m['best_of_range'], m['cap'])} deals or "
                         f"of first to {_length(m['first_to'], m['first_to_range'], m['cap'])}"
                         " deal wins.")
    return lines + agreement(dec, mat)


def agreement(dec: pd.DataFrame, mat: pd.DataFrame, a: str = "learned",
              b: str = "ismcts") -> list[str]:
    """One bullet per opponent that both ``a`` and ``b`` met in a preset: whether they reach
    the same conclusions there (which decides more of the margin, the deal or the strategy,
    and which strategy is the better one)."""
    lines = []
    rows = dec.merge(mat[["preset", "pair", "who", "score"]], on=["preset", "pair"])
    rows["first"] = rows["pair"].str.partition(" vs ")[0]
    rows["opponent"] = rows["pair"].str.partition(" vs ")[2]
    for opp in dict.fromkeys(rows[rows["first"] == a]["opponent"]):
        if opp in (a, b):
            continue
        ga = rows[(rows["first"] == a) & (rows["opponent"] == opp)].set_index("preset")
        gb = rows[(rows["first"] == b) & (rows["opponent"] == opp)].set_index("preset")
        both = [p for p in ga.index if p in gb.index]
        if not both:
            continue
        same, differ = [], []
        for p in both:
            ra, rb = ga.loc[p], gb.loc[p]
            more = ["deal" if r["deal_share"] > r["strategy_share"] else "strategy"
                    for r in (ra, rb)]
            better = [r["who"].replace(a, "it").replace(b, "it") for r in (ra, rb)]
            text = (f"{p} ({a}: the {more[0]} {100 * max(ra['deal_share'], ra['strategy_share']):.0f}%, "
                    f"scores {100 * ra['score']:.1f}%; {b}: the {more[1]} "
                    f"{100 * max(rb['deal_share'], rb['strategy_share']):.0f}%, scores "
                    f"{100 * rb['score']:.1f}%)")
            (same if more[0] == more[1] and better[0] == better[1] else differ).append(text)
        s = f"- **{a} and {b} against {opp}:** "
        if same:
            s += "the same conclusions (what decides more of the margin, and who is better) in " \
                 + "; ".join(same) + ("." if not differ else "")
        if differ:
            s += ("; different ones in " if same else "different conclusions in ") \
                 + "; ".join(differ) + "."
        lines.append(s)
    return lines


def _span(g: pd.DataFrame, col: str) -> str:
    """``a%`` in one preset, else ``a-b% across presets (lowest P, highest Q)``."""
    if len(g) == 1:
        return f"{100 * g[col].iloc[0]:.0f}% ({g['preset'].iloc[0]})"
    lo, hi = g.loc[g[col].idxmin()], g.loc[g[col].idxmax()]
    if round(100 * lo[col]) == round(100 * hi[col]):
        return f"{100 * lo[col]:.0f}% in every preset"
    return (f"{100 * lo[col]:.0f} to {100 * hi[col]:.0f}% across presets (lowest "
            f"{lo['preset']}, highest {hi['preset']})")
