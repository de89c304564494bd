"""Nodes and time of the exact solver per endgame (engineering figures for docs/performance.md).

Positions are random play-outs of ``--deals`` deals stopped with ``--plies`` cards left to
play; each is solved exactly (every legal action to the end of the deal) from the side to
act, on one working memory per position (a fresh table, as pimc and ismcts take one per
decision). Prints nodes and microseconds per endgame, compile time excluded.

    python scripts/bench_solver.py --preset brisca-2 --plies 6 10 14 --deals 300
"""
import argparse
import time

import numpy as np

from briscasim.engine import layout as L
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.strategies.solver import (LEGAL_STRIDE, NO_HORIZON, clear_table, new_search,
                                         remaining_plies, root_values)


def positions(rules, plies, deals, seed):
    """Random play-outs of ``deals`` deals stopped with ``plies`` cards left to play."""
    r = rules.to_array()
    rng = np.random.default_rng(seed)
    out = []
    for d in range(deals):
        deal = Deal.from_seed(rules, seed, d)
        while not deal.over and remaining_plies(r, deal.state) > plies:
            legal = deal.legal_actions()
            deal.play(int(legal[rng.integers(len(legal))]))
        if not deal.over and len(deal.legal_actions()) > 1:
            out.append(deal.state.copy())
    return out


def measure(rules, states):
    """``(nodes, seconds)`` per endgame, averaged over ``states``."""
    r = rules.to_array()
    search = new_search()
    actions = np.zeros(LEGAL_STRIDE, np.int64)
    values = np.zeros(LEGAL_STRIDE)
    nodes = 0
    elapsed = 0.0
    for st in states:
        clear_table(search)
        t0 = time.perf_counter()
        root_values(r, st, r[L.R_SIDE + st[L.S_TURN]], NO_HORIZON, NO_HORIZON, search,
                    actions, values)
        elapsed += time.perf_counter() - t0
        nodes += search.nodes[0]
    return nodes / len(states), elapsed / len(states)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="brisca-2")
    ap.add_argument("--plies", type=int, nargs="+", default=[6, 10, 14])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rules = Rules.preset(args.preset)
    measure(rules, positions(rules, 6, 2, args.seed))    # compile / warm up
    for plies in args.plies:
        states = positions(rules, plies, args.deals, args.seed)
        nodes, seconds = measure(rules, states)
        print(f"{args.preset} {plies} plies left: {len(states)} endgames, "
              f"{nodes:,.0f} nodes, {seconds * 1e6:,.0f} us per endgame")


if __name__ == "__main__":
    main()
