"""Prototype strategies: plain Python functions, played by a Python loop. SLOW.

For trying an idea before writing it in numba. A prototype strategy is::

    def my_idea(view, params, rng):
        return min(view.legal)       # a card id or code ("Ao"), or "swap" / "keep"

- ``view``: a :class:`PrototypeView`, the seat's :class:`~briscasim.game.SeatView` (public
  state, own hand, partner signals) plus the ``rules`` and the ``legal`` actions.
- ``params``: its parameter values by name (from ``register_strategy(..., params)``).
- ``rng``: a ``numpy.random.Generator`` seeded from the seat's own random stream of the deal,
  so results are reproducible for a seed.

Register it with :func:`briscasim.strategies.registry.register_strategy` or name it as
``module:function``; :func:`briscasim.simulate.play_chunk` then plays the whole lineup here
instead of in the batch kernels. Expect thousands of deals per second, not millions. Jitted
entries of the lineup decide exactly as in the kernels, with the same random streams, so a
lineup without prototypes gives the kernels' records (tested).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine import core
from ..engine import layout as L
from ..engine.rng import new_stream, seat_stream, seed_stream
from ..game import SeatView, action_code, parse_action, seeded_deck
from .api import SWAP_BY_PLAY
from .dispatch import decide_entry
from .params import StrategyError


@dataclass(frozen=True)
class PrototypeView(SeatView):
    """A seat's view for a prototype strategy: :class:`SeatView` with the rules and the
    legal actions."""
    rules: object = field(default=None, repr=False)
    legal: tuple = ()

    @property
    def phase(self) -> str:
        """``"play"`` or ``"swap"`` (a swap offer: answer ``"swap"`` or ``"keep"``)."""
        return "swap" if self.public[L.S_PHASE] == L.PHASE_SWAP else "play"

    @property
    def trick(self) -> list[int]:
        """Cards of the current trick so far, in playing order."""
        return [int(c) for c in self.public[L.S_TRICK:L.S_TRICK + self.public[L.S_TRICK_N]]]


def play_prototype_chunk(rules, lineup, seed: int, first: int, count: int,
                         rotations: int = 1) -> np.ndarray:
    """Like :func:`briscasim.simulate.play_chunk` (single deals only), for lineups holding
    prototype strategies. Same deck and seat random streams as the batch kernels."""
    if rules.match_kind != "deal":
        raise StrategyError("prototype (pure-Python) strategies play single deals only; "
                            f"rules {rules.name} ask for matches")
    r = rules.to_array()
    n = rules.players
    arrays = lineup.arrays()
    kinds = arrays[0]
    strategies = lineup.strategies
    out = np.empty((count * rotations, L.RECORD_LEN), np.int32)
    state = np.zeros(L.STATE_LEN, np.int16)
    rngs = [new_stream() for _ in range(n)]
    legal = np.zeros(L.N_ACTIONS, np.int64)
    for i in range(count):
        item = first + i
        deck = seeded_deck(r, seed, item)
        for rot in range(rotations):
            py_rng = {}
            for s in range(n):
                # the seat's stream, as in briscasim.batch (deal 0 of the item)
                seed_stream(rngs[s], np.uint64(seed), item, seat_stream(0, rot, s))
                if strategies[(s + rot) % n].python_fn is not None:
                    py_rng[s] = np.random.default_rng(int(rngs[s][0]))   # the stream's key
            core.start_deal(r, state, deck)
            while state[L.S_PHASE] != L.PHASE_OVER:
                seat = int(state[L.S_TURN])
                entry = (seat + rot) % n
                strategy = strategies[entry]
                k = core.legal_actions(r, state, legal)
                if strategy.python_fn is None or (state[L.S_PHASE] == L.PHASE_SWAP and
                                                  kinds[entry, 1] != SWAP_BY_PLAY):
                    a = decide_entry(arrays, r, state, seat, entry, rngs[seat])
                else:
                    a = _ask(strategy, r, rules, state, seat, legal[:k], py_rng[seat])
                if a not in legal[:k] or core.step(r, state, a) < 0:
                    raise StrategyError(
                        f"strategy {strategy.label} (seat {seat}) chose {_code(a)}, not legal "
                        f"in deal {item} (seed {seed}); legal: "
                        f"{' '.join(action_code(int(x)) for x in legal[:k])}")
            core.write_record(r, state, out[i * rotations + rot])
    return out


def _ask(strategy, r, rules, state, seat, legal, rng) -> int:
    base = L.S_HANDS + seat * L.HAND_SIZE
    sig = int(core.signals(r, state, seat)) if r[L.R_SIGNALS] else 0
    view = PrototypeView(seat, state[:L.PUBLIC_LEN].copy(), state[base:base + L.HAND_SIZE].copy(),
                         sig, rules=rules, legal=tuple(int(x) for x in legal))
    answer = strategy.python_fn(view, dict(strategy.values), rng)
    try:
        return parse_action(answer)
    except ValueError as e:
        raise StrategyError(f"strategy {strategy.label} (seat {seat}) answered {answer!r}: "
                            f"{e}") from None


def _code(a: int) -> str:
    return action_code(a) if 0 <= a < L.N_ACTIONS else str(a)
