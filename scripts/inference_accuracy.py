"""How much of the other sides' hands the worlds of ``ismcts`` get right.

Seat 0 plays greedy against greedy; at each of its decisions with a choice, ``--worlds``
worlds are drawn as ``ismcts`` draws them (:func:`briscasim.strategies.ismcts.draw_world`)
under each inference setting below, and the share of the other sides' hand cards a world
puts in the right hand is printed by trick (uniform worlds, the defaults, harder rejection,
more or fewer past tricks read). With every hand told (the cheating reference ``peek``) the
share is 1.

    python scripts/inference_accuracy.py --preset brisca-3-remove2 --deals 30
"""
from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from briscasim.engine import layout as L
from briscasim.engine.primitives import hand_base, hand_of
from briscasim.engine.rng import new_stream, seed_stream
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.strategies import inference as F
from briscasim.strategies import ismcts as I
from briscasim.strategies.sampling import prepare_worlds

# name, history, infer, draws (infer 1: no inference, worlds uniform)
SETTINGS = (("uniform", 0, 1.0, 1), ("defaults: history 2, infer 0.05, draws 64", 2, 0.05, 64),
            ("history 2, infer 0, draws 10000", 2, 0.0, 10_000),
            ("history 1, infer 0, draws 10000", 1, 0.0, 10_000),
            ("history 24, infer 0, draws 10000", 24, 0.0, 10_000))


@njit(cache=True)
def right_cards(rules, state, seat, history, infer, draws, n_worlds, ws, rng):
    """(cards the worlds put in the right hand, cards of the other sides' hands) summed over
    ``n_worlds`` worlds drawn for ``seat`` in ``state``."""
    public = state[:L.PUBLIC_LEN]
    prepare_worlds(rules, public, hand_of(rules, state, seat), seat, 0, ws.base, ws.spec)
    observed = F.prepare_inference(rules, public, seat, history, ws) if infer < 1.0 else 0
    right = 0
    total = 0
    for _ in range(n_worlds):
        F.draw_world(rules, ws, infer, observed, 1.0, draws, rng)
        for x in range(rules[L.R_PLAYERS]):
            if rules[L.R_SIDE + x] == rules[L.R_SIDE + seat]:
                continue
            h = hand_base(x)
            for i in range(L.MAX_HAND):
                c = state[h + i]
                if c == L.NO_CARD:
                    continue
                total += 1
                for j in range(L.MAX_HAND):
                    right += ws.world[h + j] == c
    return right, total


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="brisca-3-remove2")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--worlds", type=int, default=40, help="worlds per decision and setting")
    args = ap.parse_args(argv)
    rules = Rules.preset(args.preset)
    r = rules.to_array()
    ws = I.numpy_workspace()
    rng = new_stream()
    legal = np.zeros(L.MAX_LEGAL_ANY, np.int16)
    tricks = int(r[L.R_DECK_N]) // rules.players
    counts = np.zeros((len(SETTINGS), tricks, 2))
    for d in range(args.deals):
        deal = Deal.from_seed(rules, args.seed, d)
        while not deal.over:
            if deal.turn == 0 and len(deal.legal_actions()) > 1:
                t = int(deal.state[L.S_TRICK_NO])
                for k, (_, history, infer, draws) in enumerate(SETTINGS):
                    seed_stream(rng, args.seed, d * 100 + t, k)
                    counts[k, t] += right_cards(r, deal.state.copy(), 0, history, infer, draws,
                                                args.worlds, ws, rng)
            deal.play(int(F.policy_move(r, deal.state.copy(), F.GREEDY, 0.0, ws.greedy_params,
                                        rng, legal, L.EVERY_FEATURE)))
    print(f"{args.preset}, {args.deals} deals of seed {args.seed}: share of the other sides' "
          "hand cards a world gets right, by trick")
    print(f"{'':42s}" + "".join(f"{t:>6d}" for t in range(tricks)))
    for k, (name, *_) in enumerate(SETTINGS):
        shares = [f"{a / b:6.2f}" if b else "     -" for a, b in counts[k]]
        print(f"{name:42s}" + "".join(shares))


if __name__ == "__main__":
    main()
