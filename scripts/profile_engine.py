"""Where the time of a batch deal goes: 2-player brisca-2, random vs random, one thread.

    python scripts/profile_engine.py [--deals 1000000] [--repeat 3] [--preset brisca-2]

Times, best of ``--repeat``, in deals per second of thread CPU time (the machine is
shared; CPU time is steadier than wall time):

- ``play_chunk``: the real batch path, in chunks as ``briscasim bench`` plays it.
- ``play_chunk greedy``: the same with ``greedy`` in every seat.
- ``shuffle``: only the deck of each deal (stream seeding, default deck, Fisher-Yates).
- ``shuffle+start``: the deck and :func:`start_deal`.
- ``engine loop``: deck, start_deal, and step with ``random_strategy`` called directly (no
  dispatch, no records): the cost of the rules themselves.

The gap between ``engine loop`` and ``play_chunk`` is the strategy dispatch and the batch
bookkeeping. The machine is shared: repeat, and compare figures taken in one run only.
"""
import argparse
import time

import numpy as np
from numba import njit

from briscasim.batch import new_work
from briscasim.bench import CHUNK
from briscasim.engine.core import legal_actions, shuffled_deck, start_deal, step
from briscasim.engine.primitives import hand_of
from briscasim.engine.layout import (PHASE_OVER, PUBLIC_LEN, S_PHASE,
                                     S_TURN, STATE_LEN)
from briscasim.engine.rng import item_key, new_stream
from briscasim.rules import Rules
from briscasim.strategies.random import random_strategy
from briscasim.simulate import Lineup, play_chunk


@njit(_nrt=False)
def _shuffle_only(rules, deck, partners, rng, seed, count):
    acc = 0
    for i in range(count):
        shuffled_deck(rules, deck, partners, rng, item_key(seed, i), 0)
        acc += deck[0]
    return acc


@njit(_nrt=False)
def _shuffle_start(rules, state, deck, partners, rng, seed, count):
    acc = 0
    for i in range(count):
        shuffled_deck(rules, deck, partners, rng, item_key(seed, i), 0)
        start_deal(rules, state, deck)
        acc += state[S_PHASE]
    return acc


@njit(_nrt=False)
def _engine_loop(rules, state, deck, partners, rng, seed, count, params, legal):
    acc = 0
    for i in range(count):
        shuffled_deck(rules, deck, partners, rng, item_key(seed, i), 0)
        start_deal(rules, state, deck)
        while state[S_PHASE] != PHASE_OVER:
            seat = state[S_TURN]
            hand = hand_of(rules, state, seat)
            k = legal_actions(rules, state, legal)
            a = random_strategy(rules, state[:PUBLIC_LEN], hand, legal[:k], seat, 0, params,
                                rng)
            step(rules, state, a)
        acc += state[S_PHASE]
    return acc


def _best(fn, repeat):
    fn()  # compile / warm up
    best = float("inf")
    for _ in range(repeat):
        t = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--preset", default="brisca-2")
    a = ap.parse_args()
    rules = Rules.preset(a.preset)
    lineup = Lineup.build(rules, "random")
    greedy = Lineup.build(rules, "greedy")
    r = rules.to_array()
    n = a.deals
    state = np.zeros(STATE_LEN, np.int16)
    deck = np.zeros(48, np.int16)
    partners = np.zeros(48, np.int16)
    rng = new_stream()
    seed = np.uint64(1)
    params = np.zeros(16)
    work = new_work()

    def chunks(lu):
        # in chunks of CHUNK deals as briscasim bench plays them (one record array of a
        # million deals would add page faults the bench does not see)
        for first in range(0, n, CHUNK):
            play_chunk(rules, lu, 1, first, min(CHUNK, n - first), work=work)

    cases = {
        "play_chunk": lambda: chunks(lineup),
        "play_chunk greedy": lambda: chunks(greedy),
        "shuffle": lambda: _shuffle_only(r, deck, partners, rng, seed, n),
        "shuffle+start": lambda: _shuffle_start(r, state, deck, partners, rng, seed, n),
        "engine loop": lambda: _engine_loop(r, state, deck, partners, rng, seed, n, params,
                                                  np.zeros(8, np.int64)),
    }
    print(f"{a.preset}, {n} deals, best of {a.repeat}")
    for name, fn in cases.items():
        t = _best(fn, a.repeat)
        print(f"  {name:17s} {t:7.3f} s  {n / t / 1e6:6.3f} M deals/s  {t / n * 1e9:7.1f} ns/deal")


if __name__ == "__main__":
    main()
