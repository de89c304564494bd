"""Strength of the search strategies: duplicate deals, seats rotated, score with a 95% CI.

Each match-up plays ``--deals`` deals of a preset, every deal once per rotation of the lineup
(``rotations = players``: same cards, every seat taken by each strategy in turn), with
:func:`briscasim.simulate.play_chunk`. With teams, A holds the seats of one side and B the
others'; without, A holds one seat and B every other (``brisca-3-remove2``: A against two
B players, a fair share of 1/3). The score of strategy A is ``(wins + draws / 2) / deals
played`` over all rotations (a draw counts for A only if A's side is among the sides tied for
the most points); the 95% CI is the t interval over deals of
:func:`briscasim.stats.mean_ci` (a duplicate deal averaged over its rotations is one
independent observation). In Briscola Chiamata the score is A's game points a deal, its one
seat rotated among B players (zero for B in its place).

    python scripts/strength.py                         # the whole ladder (slow)
    python scripts/strength.py --preset brisca-2 --deals 2000 \\
        --pair "ismcts" "random" --pair "ismcts" "greedy"
    python scripts/strength.py --preset briscolone-2 --rule match=deal --pair ismcts greedy
    python scripts/strength.py --speed                 # ismcts iterations/s, one core
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

from briscasim.stats import mean_ci
from briscasim.batch import M_DEALS_WON
from briscasim.engine import layout as L
from briscasim.rules import Rules, parse_override
from briscasim.simulate import Lineup, play_chunk

LADDER = [("ismcts", "random"), ("ismcts", "greedy"), ("pimc", "greedy"), ("pimc", "ismcts"),
          ("omniscient", "greedy"), ("omniscient", "ismcts")]


def duplicate_scores(preset: str, a: str, b: str, deals: int, seed: int = 1,
                     rule: dict | None = None) -> np.ndarray:
    """Score of ``a`` against ``b`` on each of ``deals`` duplicate deals of ``preset`` (with the
    options ``rule`` changed; matches under a match rule): A holds the seats of the first
    seat's side, B the others; a deal's score is A's (wins + draws / 2) over its rotations.
    In Briscola Chiamata, where the auction makes the sides, A holds the first seat and a
    deal's score is its game points averaged over the rotations (B in its place would
    average zero: game points sum to zero over the seats)."""
    rules = Rules.preset(preset, **(rule or {}))
    n = rules.players
    side = np.asarray(rules.side_of)
    specs = [a if side[s] == side[0] else b for s in range(n)]
    rec = play_chunk(rules, Lineup.build(rules, specs), seed, 0, deals, rotations=n)
    # rotation r seats lineup entry (seat + r) % n at seat: entry 0 (A) at -r mod n
    a_seat = -np.arange(n) % n
    if rules.chiamata:
        points = rec[:, L.REC_GAME_POINTS:L.REC_GAME_POINTS + n].reshape(deals, n, n)
        return points[:, np.arange(n), a_seat].mean(axis=1)
    n_sides = int(side.max()) + 1
    winner = rec[:, L.REC_WINNER].reshape(deals, n).astype(np.int64)
    # who is tied for the lead in a draw: card points, or deals won under a match rule
    tally = L.REC_POINTS if rules.match_kind == "deal" else M_DEALS_WON
    points = rec[:, tally:tally + n_sides].reshape(deals, n, n_sides)
    a_side = side[a_seat]
    a_points = points[:, np.arange(n), a_side]
    drawn = (winner == L.DRAW) & (a_points == points.max(axis=2))
    return ((winner == a_side[None, :]) + 0.5 * drawn).mean(axis=1)


def duplicate_score(preset: str, a: str, b: str, deals: int, seed: int = 1,
                    rule: dict | None = None) -> dict:
    """Score of ``a`` against ``b`` (alternating seats / partnerships) over duplicate deals of
    ``preset`` with the options ``rule`` changed, with its 95% interval."""
    t0 = time.perf_counter()
    per_deal = duplicate_scores(preset, a, b, deals, seed, rule)
    dt = time.perf_counter() - t0
    s = mean_ci(per_deal)           # the t interval over deals every report gives a score
    return {"preset": preset, "a": a, "b": b, "deals": deals,
            "rotations": Rules.preset(preset, **(rule or {})).players,
            "score": round(s.mean, 4), "ci95": [round(s.lo, 4), round(s.hi, 4)],
            "seconds": round(dt, 1)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", action="append", help="default: brisca-2 and brisca-4-pairs")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                    help="a rule option changed from the preset's (e.g. match=deal)")
    ap.add_argument("--pair", nargs=2, action="append", metavar=("A", "B"),
                    help="strategy specs to compare (default: the ladder)")
    ap.add_argument("--speed", action="store_true",
                    help="print the default ismcts' iterations per second on one core (brisca-2"
                         ") first")
    args = ap.parse_args(argv)
    if args.speed:
        from briscasim.bench import measure_iterations_per_second
        print(json.dumps({"ismcts": measure_iterations_per_second()}), flush=True)
        if not args.pair and not args.preset:
            return
    rule = dict(parse_override(text) for text in args.rule)
    for preset in args.preset or ["brisca-2", "brisca-4-pairs"]:
        for a, b in args.pair or LADDER:
            print(json.dumps(duplicate_score(preset, a, b, args.deals, args.seed, rule)),
                  flush=True)


if __name__ == "__main__":
    main()
