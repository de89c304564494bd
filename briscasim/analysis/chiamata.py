"""``chiamata``: Briscola Chiamata, what to bid and whom to call.

From runs of Chiamata cells: the caller's success rate and game points by contract and by the
card points of his hand, calling a partner against calling one's own card, each seat's game
points, who leads first, flat against ladder scoring (cells of the same seed: the same cards,
and greedy's auction is the same whatever the lead or the scoring, so these compare deal by
deal), and the strength of a strategy seated among others on duplicate deals (by its role:
caller, partner, defender), against greedy in the same seat of the same deal when a run with
greedy in every seat and the same seed is given.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import stats
from ..engine import layout as L
from ..experiments.report import markdown_table
from ..experiments.style import MARKERS, PALETTE, figure, legend, reference, save_all, style, title
from ..game import action_code, seeded_deck
from .document import Context, header, write
from .runs import Run, ensure

NAME = "chiamata"
N = 5
HAND_BINS = (0, 20, 30, 40, 50, 121)
C_POINTS = (11, 10, 4, 3, 2, 0, 0, 0, 0, 0, 0, 0)
"""Card points by face (card id % 12)."""


def check(runs: list[Run]) -> None:
    for run in runs:
        for cell in run.cells:
            ensure(run.rules(cell).chiamata, NAME, run, f"cell {cell['id']} is not Briscola "
                   "Chiamata", "it needs Chiamata presets (chiamata-5 ...)")
            ensure(run.rules(cell).match_kind == "deal", NAME, run,
                   f"cell {cell['id']} plays matches", "it needs single deals")


def contract_class(level: int, rules) -> str:
    """A contract's row in the tables: the rank bids, the plain two, then bands of points."""
    if level < 0:
        return "thrown in"
    if level < L.N_RANK_BIDS:
        return action_code(L.ACTION_BID + level)
    pts = level - L.N_RANK_BIDS + L.FIRST_POINT_BID
    rank_auction = rules.auction in ("rank_then_points", "rank_only")
    if pts == rules.min_points and rank_auction:
        return f"bid:{pts} (plain two)"
    lo = max(rules.min_points + rank_auction, (pts - 1) // 10 * 10 + 1)
    return f"bid:{lo}-{min(120, lo // 10 * 10 + 10)}"


def deals(run: Run, cell: dict) -> pd.DataFrame:
    """One row per record (deal and rotation) with the contract, the caller's hand points,
    the strategy at each seat and each seat's game points."""
    rules = run.rules(cell)
    cols = (["deal", "rotation", "contract", "target", "caller", "partner", "side_points",
             "success", "multiplier"] + [f"game_points_{s}" for s in range(N)])
    rec = run.records(cell, cols)
    r = rules.to_array()
    seed = run.manifest["spec"]["seed"]
    points = np.asarray(C_POINTS)
    unique = np.unique(rec["deal"].to_numpy())
    # the cards are dealt one at a time from seat 0: seat s holds deck[s::5]
    hands = np.array([points[seeded_deck(r, seed, int(d)) % 12].reshape(-1, N).sum(axis=0)
                      for d in unique])
    caller = rec["caller"].to_numpy()
    at = np.searchsorted(unique, rec["deal"].to_numpy())
    rec["hand_points"] = np.where(caller >= 0, hands[at, caller.clip(0)], -1)
    rec["alone"] = rec["partner"] == rec["caller"]
    rec["class"] = [contract_class(int(v), rules) for v in rec["contract"]]
    gp = rec[[f"game_points_{s}" for s in range(N)]].to_numpy()
    rec["caller_points"] = np.where(caller >= 0, gp[np.arange(len(rec)), caller.clip(0)],
                                    np.nan)
    seating = np.asarray(cell["seating"])
    labels = np.asarray(cell["labels"])
    rot = rec["rotation"].to_numpy()
    for s in range(N):
        rec[f"strategy_{s}"] = labels[seating[(s + rot) % N]]
    rec["variant"] = cell["variant"]
    return rec



def _rate(x) -> stats.Estimate:
    x = np.asarray(x, float)
    lo, hi = stats.wilson_interval(x.sum(), len(x))
    return stats.Estimate(x.mean() if len(x) else np.nan, lo, hi, len(x))


def by_group(t: pd.DataFrame, key: str) -> pd.DataFrame:
    """Per value of ``key`` among played deals: share, success rate, caller's game points."""
    played = t[t["caller"] >= 0]
    rows = []
    for k, g in played.groupby(key, sort=True):
        s, p = _rate(g["success"]), stats.mean_ci(g["caller_points"])
        rows.append(dict(group=k, deals=len(g), share=len(g) / len(played), success=s.mean,
                         s_lo=s.lo, s_hi=s.hi, points=p.mean, p_lo=p.lo, p_hi=p.hi))
    return pd.DataFrame(rows)


def seats(t: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for s in range(N):
        e = stats.mean_ci(t[f"game_points_{s}"])
        rows.append(dict(seat=int(s), points=e.mean, lo=e.lo, hi=e.hi, p=e.p,
                         caller=(t["caller"] == s).mean()))
    out = pd.DataFrame(rows)
    out["p_adj"] = stats.adjust(out["p"])
    return out


def roles(t: pd.DataFrame, label: str, base: pd.DataFrame | None) -> pd.DataFrame:
    """Game points of the seat holding ``label`` by its role, per deal-play; with ``base``
    (greedy in every seat, same deals), the difference from greedy in that seat."""
    rows, played = [], t[t["caller"] >= 0]
    seat = np.full(len(played), -1)
    for s in range(N):
        seat = np.where(played[f"strategy_{s}"].to_numpy() == label, s, seat)
    gp = played[[f"game_points_{s}" for s in range(N)]].to_numpy()
    mine = gp[np.arange(len(played)), seat]
    role = np.where(played["caller"].to_numpy() == seat, "caller",
                    np.where(played["partner"].to_numpy() == seat, "partner", "defender"))
    diff = None
    if base is not None:
        # greedy's plays of the same deal, in the same rotation if greedy's run rotated
        key = ["deal", "rotation"] if base["rotation"].nunique() > 1 else ["deal"]
        b = base.set_index(key)[[f"game_points_{s}" for s in range(N)]]
        at = pd.MultiIndex.from_frame(played[key]) if len(key) > 1 else played["deal"]
        have = at.isin(b.index)
        bg = b.reindex(at).to_numpy()
        diff = np.where(have, mine - bg[np.arange(len(played)), seat.clip(0)], np.nan)
    deal = played["deal"].to_numpy()
    for name in ("all", "caller", "partner", "defender"):
        m = np.ones(len(played), bool) if name == "all" else role == name
        e = stats.mean_ci(pd.Series(mine[m]).groupby(deal[m]).mean())
        row = dict(strategy=label, role=name, plays=int(m.sum()), points=e.mean, lo=e.lo,
                   hi=e.hi)
        if diff is not None:
            d = stats.mean_ci(pd.Series(diff[m]).groupby(deal[m]).mean())
            row.update(vs_greedy=d.mean, d_lo=d.lo, d_hi=d.hi, d_p=d.p)
        rows.append(row)
    return pd.DataFrame(rows)


def paired_variants(t: pd.DataFrame, a: str, b: str, col: str) -> stats.Estimate:
    x = t[t["variant"] == a].set_index("deal")[col]
    y = t[t["variant"] == b].set_index("deal")[col]
    return stats.paired(x, y)


def _ci(m, lo, hi, scale=100.0, digits=1, sign=False):
    return stats.fmt_ci(m, lo, hi, scale=scale, digits=digits, sign=sign)


def analyse(runs: list[Run], ctx: Context):
    check(runs)
    frames = [deals(run, cell) for run in runs for cell in run.cells]
    alike = [bool(f[[f"strategy_{s}" for s in range(N)]].nunique(axis=1).eq(1).all())
             for f in frames]
    everyone = [f for f, a in zip(frames, alike) if a]
    mixed = [f for f, a in zip(frames, alike) if not a]
    t = pd.concat(everyone, ignore_index=True) if everyone else pd.DataFrame()
    ctx.out.mkdir(parents=True, exist_ok=True)
    lines = header(runs, ctx)
    tables = {}
    body = []
    if len(t):
        base_variant = t["variant"].iloc[0]
        base = t[t["variant"] == base_variant]
        who = base["strategy_0"].iloc[0]
        thrown = (base["caller"] < 0).mean()
        con = by_group(base, "class")
        order = {c: i for i, c in enumerate(
            [action_code(L.ACTION_BID + v) for v in range(L.N_RANK_BIDS)])}
        con["o"] = [order.get(g, 100 + i) for i, g in enumerate(con["group"])]
        con = con.sort_values("o").drop(columns="o")
        hand = base.assign(band=pd.cut(base["hand_points"], HAND_BINS, right=False,
                                       labels=[f"{a}-{b - 1}" for a, b in
                                               zip(HAND_BINS, HAND_BINS[1:])]).astype(str))
        hand_t = by_group(hand[hand["caller"] >= 0], "band")
        alone = by_group(base.assign(call=np.where(base["alone"], "own card (alone)",
                                                   "a partner's card")), "call")
        seat_t = seats(base)
        tables.update(chiamata_contracts=con, chiamata_hand=hand_t, chiamata_self_call=alone,
                      chiamata_seats=seat_t)
        with style():
            save_all(figures(tables), ctx.out)
        fmt_group = {
            "group": ("", None), "deals": ("deals", ","),
            "s": ("share %", lambda r: f"{100 * r['share']:.1f}"),
            "su": ("success %", lambda r: _ci(r["success"], r["s_lo"], r["s_hi"])),
            "gp": ("caller's game points", lambda r: _ci(r["points"], r["p_lo"], r["p_hi"],
                                                         1, 2, True))}
        body += [f"## {who} in every seat ({base_variant})", "",
                 f"{len(base):,} deals, {100 * thrown:.2f}% thrown in (everybody passed). "
                 "Success is the caller's side making its target; the caller's game points "
                 "are per played deal (±2 or ±4 when alone, doubled by cappotto).", "",
                 "![contracts and hands](chiamata.png)", "",
                 "In the chart, above: the caller's side's success rate; below: the "
                 "caller's game points; 95% intervals.", "",
                 "### By contract", "",
                 markdown_table(con, fmt_group), "", "### By the card points of the caller's "
                 "hand", "", markdown_table(hand_t, fmt_group), "",
                 "### Calling a partner's card or one's own", "",
                 markdown_table(alone, fmt_group), "", "### The seats' edge", "",
                 "Mean game points of each seat (0 the eldest, who speaks first and leads, 4 the "
                 "dealer); the game points of a deal sum to zero. p adj: t-test against 0, "
                 "Holm-adjusted over the seats.", "",
                 markdown_table(seat_t, {
                     "seat": ("seat", None),
                     "g": ("game points", lambda r: _ci(r["points"], r["lo"], r["hi"], 1, 3,
                                                        True)),
                     "p_adj": ("p adj", ".2g"),
                     "c": ("caller %", lambda r: f"{100 * r['caller']:.1f}")}), ""]
        compare = []
        for other, what in (("chiamata-5-caller-leads", "the caller leads the first trick"),
                            ("chiamata-5-ladder", "ladder scoring")):
            if other in set(t["variant"]):
                s = paired_variants(t, other, base_variant, "success")
                g = paired_variants(t, other, base_variant, "caller_points")
                o = t[t["variant"] == other]
                compare.append(dict(variant=other, what=what, success=o["success"][
                    o["caller"] >= 0].mean(), ds=s.mean, ds_lo=s.lo, ds_hi=s.hi,
                    dg=g.mean, dg_lo=g.lo, dg_hi=g.hi,
                    sd=o["caller_points"].std(), base_sd=base["caller_points"].std()))
        if compare:
            cmp_t = pd.DataFrame(compare)
            tables["chiamata_variants"] = cmp_t
            body += ["### Who leads first, flat or ladder", "",
                     f"Each variant against {base_variant} on the same deals (same cards, "
                     "same auction): the difference in the caller's success rate and game "
                     "points, paired deal by deal; sd is the spread of the caller's game "
                     "points per deal.", "",
                     markdown_table(cmp_t, {
                         "variant": ("variant", None), "what": ("", None),
                         "s": ("success %", lambda r: f"{100 * r['success']:.1f}"),
                         "d": ("success, difference (pp)",
                               lambda r: _ci(r["ds"], r["ds_lo"], r["ds_hi"], sign=True)),
                         "g": ("caller's game points, difference",
                               lambda r: _ci(r["dg"], r["dg_lo"], r["dg_hi"], 1, 3, True)),
                         "sd": ("sd (variant / base)",
                                lambda r: f"{r['sd']:.2f} / {r['base_sd']:.2f}")}), ""]
        if "chiamata-5-points" in set(t["variant"]):
            pts = by_group(t[t["variant"] == "chiamata-5-points"], "class")
            tables["chiamata_points_auction"] = pts
            body += ["### An auction by points (chiamata-5-points)", "",
                     markdown_table(pts, fmt_group), ""]
    greedy_base = None
    if len(t):
        g = t[(t["variant"] == "chiamata-5") & (t["strategy_0"] == "greedy")]
        greedy_base = g if len(g) else None
    role_tables = []
    for f in mixed:
        counts = pd.Series(f[[f"strategy_{s}" for s in range(N)]].iloc[0]).value_counts()
        label = counts.index[-1]           # the strategy seated once, among the others
        others = counts.index[0]
        rt = roles(f, label, greedy_base if others == "greedy" else None)
        rt["among"] = others
        role_tables.append(rt)
    if role_tables:
        rt = pd.concat(role_tables, ignore_index=True)
        tables["chiamata_strength"] = rt
        cols = {"strategy": ("strategy", None), "among": ("among four", None),
                "role": ("role", None), "plays": ("plays", ","),
                "g": ("game points", lambda r: _ci(r["points"], r["lo"], r["hi"], 1, 2, True))}
        if "vs_greedy" in rt:
            cols["d"] = ("vs greedy in its seat", lambda r: _ci(
                r.get("vs_greedy", np.nan), r.get("d_lo", np.nan), r.get("d_hi", np.nan), 1, 2,
                True))
        body += ["## Strength on duplicate deals", "",
                 "One strategy among four others, the lineup rotated over the seats: its mean "
                 "game points per played deal, overall and by its role in the deal (the "
                 "auction decides the role: random bids at random, greedy, expert and ISMCTS "
                 "by greedy's rule). Against greedy in the same seat of the same deal when the "
                 "greedy run of the same seed is included.", "",
                 markdown_table(rt, cols), ""]
    lines += ["## Conclusion", ""] + conclusion(tables) + [""] + body
    return write(ctx.out, lines, tables)


def figures(tables: dict) -> dict:
    """The charts of the report, from its tables (``chiamata_contracts``, ``chiamata_hand``)."""
    if "chiamata_contracts" not in tables:
        return {}
    return {"chiamata": chart(tables["chiamata_contracts"], tables["chiamata_hand"])}


def chart(con: pd.DataFrame, hand: pd.DataFrame):
    """Success rate (top) and the caller's game points (bottom) by contract and by the card
    points of the caller's hand, with 95% intervals."""
    fig, axes = figure(2, 2, panel_height=1.9, sharex="col", sharey="row")
    for j, (t, what) in enumerate(((con, "contract"),
                                   (hand, "card points in the caller's hand"))):
        x = np.arange(len(t))
        top, bottom = axes[0, j], axes[1, j]
        top.errorbar(x, 100 * t["success"], yerr=[100 * (t["success"] - t["s_lo"]),
                                                  100 * (t["s_hi"] - t["success"])],
                     fmt=MARKERS[0], color=PALETTE[0], linestyle="none",
                     label="the caller's side makes its target (%)")
        bottom.errorbar(x, t["points"], yerr=[t["points"] - t["p_lo"], t["p_hi"] - t["points"]],
                        fmt=MARKERS[1], color=PALETTE[1], linestyle="none",
                        label="the caller's game points per played deal")
        reference(bottom, "y", 0, "no game points won or lost")
        top.set_title(f"by {what}")
        bottom.set_xticks(x, [str(g).replace("bid:", "") for g in t["group"]], rotation=45,
                          ha="right", rotation_mode="anchor")
        bottom.set_xlabel(what + (" (bid)" if what == "contract" else ""))
        for ax in (top, bottom):
            ax.grid(axis="x", visible=False)
    axes[0, 0].set_ylim(0, 100)
    axes[0, 0].set_ylabel("success (%)")
    axes[1, 0].set_ylabel("game points")
    title(fig, "What does the caller make, by contract and by the card points of his hand?")
    legend(fig, loc="outside lower center", ncol=2, title="95% intervals")
    return fig


def conclusion(tables: dict) -> list[str]:
    out = []
    con = tables.get("chiamata_contracts")
    if con is not None and len(con):
        top = con.loc[con["share"].idxmax()]
        best = con.loc[con["points"].idxmax()]
        out.append(f"- The most frequent contract is {top['group']} ({100 * top['share']:.0f}% "
                   f"of played deals, made {100 * top['success']:.0f}%); the best for the "
                   f"caller is {best['group']} ({best['points']:+.2f} game points a deal).")
    hand = tables.get("chiamata_hand")
    if hand is not None and len(hand):
        h = hand[hand["deals"] >= 1000]
        out.append("- By the card points of the caller's hand (bands of at least 1,000 deals): "
                   + ", ".join(f"{r['group']}: made {100 * r['success']:.0f}%, "
                               f"{r['points']:+.2f} game points" for _, r in h.iterrows())
                   + ".")
    alone = tables.get("chiamata_self_call")
    if alone is not None and len(alone) == 2:
        a = alone.set_index("group")
        out.append("- Alone (own card called) against with a partner: success "
                   + " / ".join(f"{100 * a.loc[g, 'success']:.0f}%" for g in a.index)
                   + ", caller's game points "
                   + " / ".join(f"{a.loc[g, 'points']:+.2f}" for g in a.index)
                   + f" ({' / '.join(a.index)}).")
    seat_t = tables.get("chiamata_seats")
    if seat_t is not None:
        sig = seat_t[seat_t["p_adj"] < 0.05]
        rest = "" if len(sig) == len(seat_t) else "; the others are not distinguishable from 0"
        out.append("- Seats' mean game points (0 the eldest, 4 the dealer): " + (
            ", ".join(f"seat {int(r['seat'])} {r['points']:+.3f}" for _, r in sig.iterrows())
            + " differ significantly from 0" + rest if len(sig) else
            "none differs significantly from 0") + ".")
    v = tables.get("chiamata_variants")
    if v is not None:
        for _, r in v.iterrows():
            out.append(f"- {r['what'].capitalize()}: success "
                       f"{_ci(r['ds'], r['ds_lo'], r['ds_hi'], sign=True)} pp, caller's game "
                       f"points {_ci(r['dg'], r['dg_lo'], r['dg_hi'], 1, 3, True)} against "
                       "the default.")
    rt = tables.get("chiamata_strength")
    if rt is not None:
        for (s, among), g in rt.groupby(["strategy", "among"], sort=False):
            a = g.set_index("role")
            roles_ = [k for k in ("caller", "partner", "defender")
                      if k in a.index and a.loc[k, "plays"] > 0]
            never = [k for k in ("caller", "partner", "defender") if k not in roles_]
            line = (f"- {s} among {among}: {a.loc['all', 'points']:+.2f} game points a deal"
                    + "".join(f"; as {k} {a.loc[k, 'points']:+.2f}" for k in roles_))
            if "vs_greedy" in a and not np.isnan(a.loc["all", "vs_greedy"]):
                line += ("; against greedy in its seat "
                         + ", ".join(k + " " + _ci(a.loc[k, "vs_greedy"], a.loc[k, "d_lo"],
                                                   a.loc[k, "d_hi"], 1, 2, True)
                                     for k in ["all"] + roles_))
            out.append(line + (f" (never {', '.join(never)})" if never else "") + ".")
    return out
