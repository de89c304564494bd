"""The strategy interface: one signature for every strategy, built-in or user-written.

A strategy is a jitted function::

    def my_strategy(rules, public, hand, seat, signals, params, rng) -> action

- ``rules``: int64 rules vector (:mod:`briscasim.engine.layout`, ``R_*``).
- ``public``: int16 public part of the deal state (``S_*`` offsets below ``PUBLIC_LEN``):
  the trick so far, scores, the face-up card, what is publicly known of every card.
- ``hand``: int16 array of the seat's three hand slots (``NO_CARD`` = -1 when empty).
- ``seat``: the seat deciding. ``signals``: its partners' signals (``SIG_*`` bytes), 0 if none.
- ``params``: float64 parameters of this strategy (16 slots, meaning set by its registry entry).
- ``rng``: the seat's own random stream (a uint64 array, see :mod:`briscasim.engine.rng`).

It returns a card of ``hand`` in ``PHASE_PLAY``, or ``ACTION_SWAP`` / ``ACTION_KEEP`` when
``public[S_PHASE] == PHASE_SWAP``. This is everything the seat may know (RULES.md section 8);
only the clearly labelled omniscient reference player is handed the whole state.
"""
from numba import types

STRATEGY_SIGNATURE = types.int64(
    types.int64[::1],   # rules
    types.int16[::1],   # public state
    types.int16[::1],   # own hand
    types.int64,        # seat
    types.int64,        # signals
    types.float64[::1],  # params
    types.uint64[::1],  # rng
)
StrategyFunction = types.FunctionType(STRATEGY_SIGNATURE)

N_PARAMS = 16

# Play strategies (kinds[seat, 0]).
KIND_RANDOM = 0
KIND_GREEDY = 1
KIND_ISMCTS = 2
KIND_PIMC = 3
KIND_OMNISCIENT = 4
KIND_USER = 5

# Swap policies (kinds[seat, 1]). SWAP_BY_PLAY leaves the decision to the play strategy.
SWAP_BY_PLAY = 0
SWAP_IMMEDIATE = 1
SWAP_NEVER = 2
SWAP_HOLD = 3
