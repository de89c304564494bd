"""The strategy interface: one signature for every strategy, built-in or user-written.

A strategy is a jitted function::

    def my_strategy(rules, public, hand, legal, seat, signals, params, rng) -> action

- ``rules``: int64 rules vector (:mod:`briscasim.engine.layout`, ``R_*``).
- ``public``: int16 public part of the deal state: the trick so far, scores, the face-up card,
  what is publicly known of every card.
- ``hand``: int16 array of the seat's hand slots (``NO_CARD`` = -1 when empty).
- ``legal``: int64 array of the seat's legal actions, worked out by the engine: the cards it
  may play (in hand-slot order), or ``ACTION_SWAP`` and ``ACTION_KEEP`` at a swap offer. It is
  never empty, and a strategy returns one of them: legality is the engine's business alone.
- ``seat``: the seat deciding. ``signals``: its partners' signals (``SIG_*`` bytes), 0 if none.
- ``params``: float64 parameters of this strategy (16 slots, meaning set by its registry entry).
- ``rng``: the seat's own random stream (a uint64 array, see :mod:`briscasim.engine.rng`).

:mod:`briscasim.strategies.view` reads these by name (the trump, the trick so far and who is
winning it, the face-up card, points taken, what is known of every card, the signals). This
is everything the seat may know (docs/rules.md, "What each seat may know"); only the clearly
labelled omniscient reference player is handed the whole state.
"""
from numba import types

STRATEGY_SIGNATURE = types.int64(
    types.int64[::1],   # rules
    types.int16[::1],   # public state
    types.int16[::1],   # own hand
    types.int16[::1],   # legal actions
    types.int64,        # seat
    types.int64,        # signals
    types.float64[::1],  # params
    types.uint64[::1],  # rng
)
StrategyFunction = types.FunctionType(STRATEGY_SIGNATURE)

N_PARAMS = 25

# The play kind (kinds[seat, 0]) of every user strategy; a built-in's kind is in its definition
# (StrategyDef.kind, in its module).
KIND_USER = 5

# Swap policies (kinds[seat, 1]). SWAP_BY_PLAY leaves the decision to the play strategy.
SWAP_BY_PLAY = 0
SWAP_IMMEDIATE = 1
SWAP_NEVER = 2
SWAP_HOLD = 3
