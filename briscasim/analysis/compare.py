"""Two players compared on duplicate deals: each one's score and the paired difference.

Every deal is played once per rotation of the lineup over the seats (the same cards, every
seat taken by each strategy in turn). With sides of more than one seat, A holds the seats of
the first seat's side and B the others; without, A holds one seat and B every other
(``brisca-3-remove2``: A against two B players, a fair share of 1/3). A seat's score in a play
is 1 for a win and 1/2 for a draw in which its side is among those tied for the most points
(deals won, under a match rule); a player's score on a deal is that of its seats averaged
over the rotations. In Briscola Chiamata, where the auction makes the sides, A holds one seat
and the score is game points a deal (they sum to zero over the seats, so B's is A's over the
others, turned round). A deal averaged over its rotations is one independent observation:
each score gets the t interval over deals (:func:`briscasim.stats.mean_ci`), and the
difference A - B the paired interval and t-test (:func:`briscasim.stats.paired`).
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from .. import stats
from ..batch import M_DEALS_WON
from ..engine import layout as L
from ..errors import UserError
from ..jit import compile_seconds
from ..limits import deals_error
from ..lineup import Lineup, needed_features
from ..rules import Rules
from ..simulate import play_chunk

CHUNK = 2_000
"""Deals a thread plays at a time (the records of a chunk are folded into scores at once)."""


def duplicate_scores(rules: Rules, a: str, b: str, deals: int, seed: int = 1,
                     workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The scores of ``a`` and of ``b`` on each of ``deals`` duplicate deals of ``rules``
    (matches under a match rule), played on ``workers`` threads (the results do not depend
    on them)."""
    pa, pb = duplicate_plays(rules, a, b, deals, seed, workers)
    return pa.mean(axis=1), pb.mean(axis=1)


def duplicate_plays(rules: Rules, a: str, b: str, deals: int, seed: int = 1,
                    workers: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``[deal, rotation]``: the scores of ``a`` and of ``b`` in every play of ``deals``
    duplicate deals (:func:`duplicate_scores` averages them over the rotations)."""
    side = np.asarray(rules.side_of)
    lineup = Lineup.build(rules, [a if s == side[0] else b for s in side])
    features = needed_features(rules, lineup)     # the kernel simulate() plays them with
    mine = side == side[0]                 # the lineup entries of A
    if rules.chiamata:                     # the auction makes the sides: A is entry 0 alone
        mine = np.arange(rules.players) == 0

    def chunk(first):
        count = min(CHUNK, deals - first)
        rec = play_chunk(rules, lineup, seed, first, count, rules.players, features=features)
        at = _entry_scores(rules, rec, count)
        return at[:, :, mine].mean(axis=2), at[:, :, ~mine].mean(axis=2)

    firsts = range(0, deals, CHUNK)
    if workers <= 1 or len(firsts) == 1:
        parts = [chunk(f) for f in firsts]
    else:
        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(chunk, firsts))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _entry_scores(rules: Rules, rec: np.ndarray, deals: int) -> np.ndarray:
    """``[deal, rotation, lineup entry]``: the score of each entry of the lineup in each play
    of ``deals`` duplicate deals (their records ``rec``)."""
    n = rules.players
    side = np.asarray(rules.side_of)
    if rules.chiamata:
        by_seat = rec[:, L.REC_GAME_POINTS:L.REC_GAME_POINTS + n].reshape(deals, n, n)
    else:
        n_sides = int(side.max()) + 1
        winner = rec[:, L.REC_WINNER].reshape(deals, n, 1).astype(np.int64)
        tally = L.REC_POINTS if rules.match_kind == "deal" else M_DEALS_WON
        points = rec[:, tally:tally + n_sides].reshape(deals, n, n_sides)
        lead = points == points.max(axis=2, keepdims=True)
        sides = np.arange(n_sides)[None, None, :]
        by_side = (winner == sides) + 0.5 * ((winner == L.DRAW) & lead)
        by_seat = by_side[:, :, side]
    seat = (np.arange(n)[None, :] - np.arange(n)[:, None]) % n   # rotation r: entry i at seat
    return np.take_along_axis(by_seat, np.broadcast_to(seat, (deals, n, n)), axis=2)


def compare(a: str, b: str, preset: str = "brisca-2", deals: int = 1000, seed: int = 1,
            rule: dict | None = None, workers: int | None = None) -> dict:
    """``a`` against ``b`` on ``deals`` duplicate deals of ``preset`` (with the rule options
    ``rule`` changed): each one's score with its 95% interval, and the paired difference
    ``a - b`` with its interval and p-value."""
    rules = Rules.preset(preset, **(rule or {}))
    for name, value, low in (("deals", deals, 1), ("seed", seed, 0), ("workers", workers, 1)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < low):
            raise UserError(f"{name} = {value!r} must be a whole number of at least {low}")
    if deals_error(deals):
        raise UserError(f"deals = {deals} {deals_error(deals)}")
    if seed >= 2 ** 64:
        raise UserError(f"seed = {seed} must be below 2**64")
    compiling, start = compile_seconds(), time.perf_counter()
    pa, pb = duplicate_plays(rules, a, b, deals, seed, workers or os.cpu_count() or 1)
    seconds = time.perf_counter() - start - (compile_seconds() - compiling)     # play alone
    sa, sb = pa.mean(axis=1), pb.mean(axis=1)
    diff = stats.paired(pd.Series(sa), pd.Series(sb))
    out = {
        "preset": preset, "rules": {k: _plain(v) for k, v in (rule or {}).items()},
        "deals": deals, "rotations": rules.players, "seed": seed,
        "measure": "game points a deal" if rules.chiamata else "score (wins + draws/2)",
        "a": {"strategy": a, **_estimate(stats.mean_ci(sa))},
        "b": {"strategy": b, **_estimate(stats.mean_ci(sb))},
        "difference": {**_estimate(diff), "p": float(diff.p)},
        "seconds": round(seconds, 2),
    }
    if not rules.chiamata:      # A's plays: won, drawn among the leaders, lost
        out["plays"] = {"won": int((pa == 1).sum()), "drawn": int((pa == 0.5).sum()),
                        "lost": int((pa == 0).sum())}
    return out


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def _estimate(e: stats.Estimate) -> dict:
    return {"mean": float(e.mean), "ci95": [float(e.lo), float(e.hi)]}


def format_comparison(c: dict) -> str:
    """The text ``briscasim compare`` prints."""
    a, b, d = c["a"]["strategy"], c["b"]["strategy"], c["difference"]
    width = max(len(a), len(b), len("A - B"))

    def row(name, e, sign=False):
        f = "{:+.4f}" if sign else "{:.4f}"
        lo, hi = (f.format(x) for x in e["ci95"])
        return f"{name:<{width}}  {f.format(e['mean'])} [{lo}, {hi}]"
    rules = "".join(f" {k}={v}" for k, v in c["rules"].items())
    return "\n".join([
        f"{c['preset']}{rules}: {c['deals']:,} duplicate deals x {c['rotations']} rotations, "
        f"seed {c['seed']} ({c['seconds']:.1f} s)",
        f"{'':<{width}}  {c['measure']} [95% interval]",
        f"A {row(a, c['a'])}",
        f"B {row(b, c['b'])}",
        f"  {row('A - B', d, sign=True)}  {_p(d['p'])} (paired over deals)",
    ] + ([f"A won {c['plays']['won']:,}, drew {c['plays']['drawn']:,} and lost "
          f"{c['plays']['lost']:,} of its plays"] if "plays" in c else []))


def _p(p: float) -> str:
    return "p < 1e-15" if p < 1e-15 else f"p = {p:.3g}"
