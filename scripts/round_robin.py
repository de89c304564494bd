"""Round robin of rule-based players on duplicate brisca-2 deals.

Every pairing plays ``--deals`` deals, each deal twice (the seats swapped). For each pairing
it prints the score of the first (wins + draws / 2, 95% interval over the deals) and, to set
beside figures quoted "over non-tied games", its share of the deal-plays that were not
drawn (95% Wilson interval; the two plays of a duplicate deal are counted apart, so this
interval is slightly too narrow).

    python scripts/round_robin.py --deals 200000
    python scripts/round_robin.py --deals 20000 --players greedy hoard counter expert
"""
from __future__ import annotations

import argparse
import itertools
import json
import math

import numpy as np

from briscasim.engine import layout as L
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.stats import wilson_interval


def pairing(preset: str, a: str, b: str, deals: int, seed: int) -> dict:
    rules = Rules.preset(preset)
    assert rules.players == 2
    rec = play_chunk(rules, Lineup.build(rules, [a, b]), seed, 0, deals, rotations=2)
    w = rec[:, L.REC_WINNER].reshape(deals, 2).astype(np.int64)
    a_seat = np.array([0, 1])                     # rotation r seats a at seat r
    won = (w == a_seat[None, :])
    drawn = w == L.DRAW
    per_deal = (won + 0.5 * drawn).mean(axis=1)
    mean = float(per_deal.mean())
    half = 1.96 * float(per_deal.std(ddof=1)) / math.sqrt(deals)
    wins, decided = int(won.sum()), int((~drawn).sum())
    lo, hi = wilson_interval(wins, decided)
    return {"a": a, "b": b, "deals": deals, "plays": 2 * deals, "seed": seed,
            "score": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "draws": int(drawn.sum()), "win_share_non_tied": round(wins / decided, 4),
            "win_share_ci95": [round(lo, 4), round(hi, 4)]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="brisca-2")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--players", nargs="+", default=["greedy", "hoard", "counter"])
    args = ap.parse_args(argv)
    for a, b in itertools.combinations(args.players, 2):
        print(json.dumps(pairing(args.preset, b, a, args.deals, args.seed)), flush=True)


if __name__ == "__main__":
    main()
