"""``round_robin``: pairings of strategies on duplicate deals, each pairing's score with its
interval and a maximum-likelihood Elo (Bradley-Terry) rating per variant with standard errors.

``reverse_objective`` is the same analysis for runs that play Brisca al revés (objective
``fewest``) beside a usual variant: it adds which strategies carry over to the reverse
objective.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import stats
from ..experiments.report import markdown_table
from ..experiments.style import (PALETTE, figure, legend, not_run, reference, save_all,
                                 style, title)
from ..strategies.registry import REGISTRY
from .elo import fit_elo
from .document import Context, header, write
from .runs import Run, ensure, per_deal

NAME = "round_robin"
CHEATING = tuple(n for n, d in REGISTRY.items() if d.omniscient)
"""The cheating references (they read hidden cards): rated, labelled, never ranked."""


def check(runs: list[Run], name: str = NAME) -> None:
    for run in runs:
        for cell in run.cells:
            ensure(len(cell["labels"]) == 2 and cell["rotations"] > 1, name, run,
                   f"cell {cell['id']} is not a pairing of two strategies on duplicate deals",
                   "use lineup = [A, B] with duplicate deals")
            ensure(len(run.rules(cell).sides) == 2, name, run,
                   f"cell {cell['id']} ({cell['preset']}) has more than two sides")


def pairings(runs: list[Run]) -> pd.DataFrame:
    """One row per cell: A's score against B over duplicate deals, its margin, and the
    effective number of plays for the Elo fit."""
    rows = []
    for run in runs:
        for cell in run.cells:
            long = run.long(cell)
            s = stats.mean_ci(per_deal(long, 0), null=0.5)
            m = stats.mean_ci(per_deal(long, 0, "margin"))
            a_rows = long[long["entry"] == 0]
            rows.append(dict(variant=cell["variant"], a=cell["labels"][0], b=cell["labels"][1],
                             deals=s.n, plays=len(a_rows), plays_eff=stats.effective_n(s),
                             score=s.mean, lo=s.lo, hi=s.hi, p=s.p,
                             win_a=(a_rows["result"] == 1).mean(),
                             draws=(a_rows["result"] == 0).mean(), margin=m.mean,
                             margin_lo=m.lo, margin_hi=m.hi, spec=run.name))
    t = pd.DataFrame(rows)
    t["p_adj"] = stats.adjust(t["p"])
    return t


def elo_by_variant(pairs: pd.DataFrame) -> pd.DataFrame:
    """Elo ratings (random = 0 when random plays, else the first strategy) per variant."""
    fits = []
    for variant, g in pairs.groupby("variant", sort=False):
        names = set(g["a"]) | set(g["b"])
        fit = fit_elo(g[["a", "b", "score", "plays_eff"]].rename(columns={"plays_eff": "plays"}),
                      anchor="random" if "random" in names else None, anchor_rating=0.0)
        fit.insert(0, "variant", variant)
        fits.append(fit)
    elo = pd.concat(fits, ignore_index=True)
    elo["cheating"] = elo["strategy"].str.startswith(CHEATING)
    return elo


def analyse(runs: list[Run], ctx: Context, name: str = NAME, extra=None):
    check(runs, name)
    pairs = pairings(runs)
    elo = elo_by_variant(pairs)
    ctx.out.mkdir(parents=True, exist_ok=True)
    with style():
        save_all(figures({"elo": elo, "pairings": pairs}), ctx.out)
    anchor = "random" if "random" in set(elo["strategy"]) else elo["strategy"].iloc[-1]
    lines = header(runs, ctx, holm=True)
    lines += ["## Conclusion", ""] + (extra(pairs, elo) if extra else []) \
        + conclusion(pairs, elo) + [""]
    lines += ["## Method", "",
              "Every pairing plays duplicate deals (each deal once per rotation of the seats, "
              "same cards). Strategies: "
              + ", ".join(f"`{x}`" for x in dict.fromkeys(pairs["a"].tolist() + pairs["b"].tolist()))
              + "".join(f". `{s}` **is a cheating reference ({REGISTRY[s].doc.partition(': ')[2]}):"
                        " an upper bound, not a player**"
                        for s in dict.fromkeys(elo.loc[elo["cheating"], "strategy"]))
              + ". Deals per pairing: "
              + ", ".join(f"`{s}` {g['deals'].min():,}" for s, g in pairs.groupby("spec", sort=False))
              + ".", "",
              "The Elo rating is a Bradley-Terry model fit by maximum likelihood over all "
              "pairings of a variant at once (a binomial GLM in statsmodels; expected score "
              "1/(1+10^(-diff/400)), draws count half, one drawn pseudo-play per pairing keeps "
              f"a clean sweep finite), anchored at {anchor} = 0. Each pairing enters with its "
              "effective number of plays, s(1-s)/SE^2 from the per-deal interval, so the "
              "duplicate pairing of rotations is accounted for. Rating intervals are 95% "
              f"relative to {anchor}. *p adj*: t-test of the score against 50%, Holm-adjusted "
              "over every pairing.", "",
              "![Elo](elo.png)", "", "![pairings](pairings.png)", "", "## Ratings", "",
              markdown_table(elo, {
                  "variant": ("variant", None),
                  "s": ("strategy", lambda r: r["strategy"] + (" (CHEATING)" if r["cheating"]
                                                               else "")),
                  "r": ("Elo", lambda r: f"{r['rating']:.0f} [{r['lo']:.0f}, {r['hi']:.0f}]"),
                  "se": ("SE", ".0f")}), "", "## Pairings", "",
              "Score of A against B (wins + draws/2) on duplicate deals; the margin is A's card "
              "points minus B's (negative is good where the fewest points win).", "",
              markdown_table(pairs, {
                  "variant": ("variant", None), "a": ("A", None), "b": ("B", None),
                  "deals": ("deals", ","),
                  "s": ("score of A %", lambda r: stats.fmt_ci(r["score"], r["lo"], r["hi"])),
                  "p_adj": ("p adj", ".2g"),
                  "w": ("A wins %", lambda r: f"{100 * r['win_a']:.1f}"),
                  "d": ("draws %", lambda r: f"{100 * r['draws']:.1f}"),
                  "m": ("margin of A (pts)", lambda r: stats.fmt_ci(
                      r["margin"], r["margin_lo"], r["margin_hi"], 1, 1, True))}), ""]
    return write(ctx.out, lines, {"pairings": pairs, "elo": elo})


def figures(tables: dict) -> dict:
    """The charts of the report, from its tables ``elo`` and ``pairings``."""
    return {"elo": elo_chart(tables["elo"]), "pairings": pairs_chart(tables["pairings"])}


def elo_chart(elo: pd.DataFrame):
    """One panel per variant, shared x: each strategy's rating with its 95% interval (the
    cheating references apart in colour); "not run" where a variant lacks a strategy."""
    variants = list(dict.fromkeys(elo["variant"]))
    strategies = list(dict.fromkeys(elo["strategy"]))
    fig, axes = figure(1, len(variants), panel_height=0.5 + 0.28 * len(strategies),
                       sharex=True, sharey=True)
    y = np.arange(len(strategies))
    labels = [s + (" (cheating)" if s.startswith(CHEATING) else "") for s in strategies]
    anchors = list(dict.fromkeys(elo.loc[elo["rating"] == 0, "strategy"]))
    for ax, v in zip(axes[0], variants):
        g = elo[elo["variant"] == v].set_index("strategy").reindex(strategies)
        cheat = g["cheating"].fillna(False).astype(bool).to_numpy()
        for mask, what, c in ((~cheat, "a strategy", PALETTE[0]),
                              (cheat, "a cheating reference (reads hidden cards)", PALETTE[1])):
            if mask.any():
                ax.barh(y[mask], g["rating"][mask], 0.6, color=c, label=f"Elo rating of {what}")
        ax.errorbar(g["rating"], y, xerr=[g["rating"] - g["lo"], g["hi"] - g["rating"]],
                    fmt="none", ecolor="black", label="95% CI")
        not_run(ax, y[g["rating"].isna().to_numpy()])
        reference(ax, "x", 0, f"0: the rating of {' / '.join(anchors) or 'the anchor'}")
        ax.set_yticks(y, labels)
        ax.set_title(v)
        ax.set_xlabel("Elo rating")
        ax.grid(axis="y", visible=False)
    axes[0, 0].invert_yaxis()
    title(fig, "How strong is each strategy? Elo rating from every pairing on duplicate deals")
    legend(fig, loc="outside lower center", ncol=2)
    return fig


def pairs_chart(pairs: pd.DataFrame):
    """One panel per variant, shared axes: each pairing's score of A with its interval;
    "not run" where a variant lacks a pairing."""
    variants = list(dict.fromkeys(pairs["variant"]))
    keys = list(dict.fromkeys(pairs["a"] + " vs " + pairs["b"]))
    fig, axes = figure(1, len(variants), panel_height=0.5 + 0.22 * len(keys),
                       sharex=True, sharey=True)
    y = np.arange(len(keys))
    for ax, v in zip(axes[0], variants):
        g = pairs[pairs["variant"] == v].assign(k=lambda d: d["a"] + " vs " + d["b"])
        g = g.set_index("k").reindex(keys)
        ax.errorbar(100 * g["score"], y, xerr=[100 * (g["score"] - g["lo"]),
                                               100 * (g["hi"] - g["score"])],
                    fmt="o", color=PALETTE[0], label="score of A (wins + draws/2), 95% CI")
        not_run(ax, y[g["score"].isna().to_numpy()])
        reference(ax, "x", 50, "even (50%)")
        ax.set_xlim(0, 100)
        ax.set_yticks(y, keys)
        ax.set_title(v)
        ax.grid(axis="y", visible=False)
    axes[0, 0].invert_yaxis()
    fig.supxlabel("score of A (%)")
    title(fig, "How does A score against B? Each pairing on duplicate deals")
    legend(fig, loc="outside upper center", ncol=2)
    return fig


def conclusion(pairs: pd.DataFrame, elo: pd.DataFrame) -> list[str]:
    lines = []
    for v, g in elo.groupby("variant", sort=False):
        honest = g[~g["cheating"]]
        order = " > ".join(f"{r['strategy']} {r['rating']:.0f} [{r['lo']:.0f}, {r['hi']:.0f}]"
                           for _, r in honest.iterrows())
        lines.append(f"- **{v}:** ladder (Elo): {order}."
                     + "".join(f" The cheating reference {r['strategy']} rates {r['rating']:.0f} "
                               f"[{r['lo']:.0f}, {r['hi']:.0f}]." for _, r in
                               g[g["cheating"]].iterrows()))
        p = pairs[(pairs["variant"] == v) & pairs["b"].isin(["random", "greedy"])
                  & ~pairs["a"].str.startswith(CHEATING)]
        if len(p):
            lines.append("  Head to head: " + "; ".join(
                f"{r['a']} vs {r['b']} {stats.fmt_ci(r['score'], r['lo'], r['hi'])}%"
                for _, r in p.iterrows()) + ".")
    return lines


# ---- reverse objective -------------------------------------------------------------------

REVERSE = "reverse_objective"


def check_reverse(runs: list[Run]) -> None:
    check(runs, REVERSE)
    ensure(any(c["rules"]["objective"] == "fewest" for r in runs for c in r.cells), REVERSE,
           runs[0], "no cell plays for the fewest points",
           "use brisca-reves (or rules with objective = \"fewest\")")


def analyse_reverse(runs: list[Run], ctx: Context):
    check_reverse(runs)
    reverse = {c["variant"] for r in runs for c in r.cells if c["rules"]["objective"] == "fewest"}
    usual = [v for r in runs for v in dict.fromkeys(c["variant"] for c in r.cells)
             if v not in reverse]
    return analyse(runs, ctx, REVERSE,
                   extra=lambda p, e: carry_over(p, sorted(reverse)[0],
                                                 usual[0] if usual else None))


def carry_over(pairs: pd.DataFrame, v: str, usual: str | None) -> list[str]:
    def get(variant, a, b):
        g = pairs[(pairs["variant"] == variant) & (pairs["a"] == a) & (pairs["b"] == b)]
        return g.iloc[0] if len(g) else None

    def ci(r):
        return stats.fmt_ci(r["score"], r["lo"], r["hi"])
    lines = []
    most, fewest = get(v, "greedy:objective=most", "random"), get(v, "greedy:objective=fewest",
                                                                  "random")
    head = get(v, "greedy:objective=fewest", "greedy:objective=most")
    m2 = get(usual, "greedy:objective=most", "random") if usual else None
    if most is not None:
        lines.append(f"- **Carried over unchanged**, the Brisca greedy (most points) scores "
                     f"{ci(most)}% against random in {v}"
                     + (f", against {ci(m2)}% in {usual}" if m2 is not None else "") + ": "
                     + ("it does not carry over: it loses to random." if most["hi"] < 0.5 else
                        "it keeps an edge over random." if most["lo"] > 0.5 else
                        "it is no better than random."))
    if fewest is not None:
        lines.append(f"- **Built for it**, greedy playing for the fewest points scores "
                     f"{ci(fewest)}% against random"
                     + (f" and {ci(head)}% against the greedy that plays for the most (margin "
                        f"{stats.fmt_ci(head['margin'], head['margin_lo'], head['margin_hi'], 1, 1, True)}"
                        " card points per deal)." if head is not None else "."))
    for a in (a for a in dict.fromkeys(pairs["a"]) if a.startswith(("ismcts", "pimc"))):
        for b in ("random", "greedy:objective=most", "greedy:objective=fewest"):
            r, r2 = get(v, a, b), get(usual, a, b) if usual else None
            if r is not None:
                lines.append(f"- {a} against {b}: {ci(r)}% in {v}"
                             + (f", {ci(r2)}% in {usual}" if r2 is not None else "") + ".")
    return lines
