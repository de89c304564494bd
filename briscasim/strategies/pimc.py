"""``pimc``: perfect-information Monte Carlo with an exact endgame.

For each of ``worlds`` worlds sampled uniformly from those consistent with the seat's view
(:mod:`briscasim.strategies.sampling`), every legal action is searched with the alpha-beta
solver of :mod:`briscasim.strategies.solver` as if all cards were known: exactly to the end of
the deal when at most ``exact_plies`` cards remain to be played, else ``depth`` plies deep
(completed to the trick's end) with the margin taken so far as evaluation. The action is
chosen by ``average`` (highest mean value over the worlds) or ``vote`` (most worlds in which
it is best; ties by mean value).

In 2-player play once the stock is empty every card is known to both players: only one world
is consistent with the view, and it is solved exactly once.

With ``leaf_model`` (a trained network, :mod:`~.learned`'s models; trick games only) the
depth-limited search values its leaves by the network instead of the margin so far
(:mod:`~.solver`'s ``Search.leaf``).

Parameters (float64 slots, in order): ``worlds`` (1..10000, default 40), ``depth`` (plies of
the depth-limited search, default 6), ``exact_plies`` (default 10), ``choose``
(``average`` | ``vote``), ``leaf_model`` (its slot holds the weights' address, written by
:func:`bind`; ``none`` by default).
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.layout import EVERY_FEATURE, N_CARD_IDS, STATE_LEN
from .learned import ModelParam, bind_leaf_model
from .params import SEARCH, Param, StrategyDef
from .sampling import SPEC_LEN, prepare_worlds, sample_world, unique_world
from .scratch import aligned, release, take, view
from .solver import (LEGAL_STRIDE, Search, copy_state, root_values, search_bytes,
                     search_views, team_of)

P_WORLDS, P_DEPTH, P_EXACT_PLIES, P_CHOOSE, P_LEAF_MODEL = 0, 1, 2, 3, 4
CHOOSE_AVERAGE, CHOOSE_VOTE = 0, 1


@njit(cache=True, _nrt=False)
def choose_action(k, actions, total, votes, rule):
    """The action with the best mean value (``CHOOSE_AVERAGE``) or the most votes, ties by
    mean value (``CHOOSE_VOTE``) (jitted)."""
    best = 0
    for i in range(1, k):
        if rule == CHOOSE_VOTE and votes[i] != votes[best]:
            if votes[i] > votes[best]:
                best = i
        elif total[i] > total[best]:
            best = i
    return actions[best]


class Worlds(NamedTuple):
    """PIMC's working memory, views into one scratch block (:func:`worlds_views`)."""
    base: np.ndarray        # int16 state: the seat's view, unknown cards unplaced (or the
                            # true state, searched as it is)
    spec: np.ndarray        # int64: how to deal the unknown cards (sampling.SPEC_LEN)
    world: np.ndarray       # int16 state: the world being searched
    actions: np.ndarray     # int64 per legal action
    values: np.ndarray      # float64 per legal action: its value in this world
    total: np.ndarray       # float64 per legal action: summed over the worlds
    votes: np.ndarray       # float64 per legal action: worlds where it is best
    search: Search          # the solver's working memory (one table for every world)


@njit(cache=True, _nrt=False)
def worlds_bytes():
    """Bytes of scratch memory :func:`worlds_views` needs (jitted)."""
    return (3 * aligned(2 * STATE_LEN) + aligned(8 * SPEC_LEN) + 4 * aligned(8 * LEGAL_STRIDE)
            + search_bytes())


@njit(cache=True, _nrt=False)
def worlds_views(block):
    """The :class:`Worlds` viewing ``worlds_bytes()`` bytes of ``block``, the solver's table
    emptied (jitted)."""
    o_spec = aligned(2 * STATE_LEN)
    o_world = o_spec + aligned(8 * SPEC_LEN)
    o_actions = o_world + aligned(2 * STATE_LEN)
    per_action = aligned(8 * LEGAL_STRIDE)
    o_search = o_actions + 4 * per_action
    return Worlds(view(block, 0, STATE_LEN, np.int16),
                  view(block, o_spec, SPEC_LEN, np.int64),
                  view(block, o_world, STATE_LEN, np.int16),
                  view(block, o_actions, LEGAL_STRIDE, np.int64),
                  view(block, o_actions + per_action, LEGAL_STRIDE, np.float64),
                  view(block, o_actions + 2 * per_action, LEGAL_STRIDE, np.float64),
                  view(block, o_actions + 3 * per_action, LEGAL_STRIDE, np.float64),
                  search_views(block, o_search))


@njit(cache=True, _nrt=False)
def search_worlds(rules, memory, seat, n_worlds, sampled, horizon, exact_plies, rule, rng,
                  features=EVERY_FEATURE):
    """Search ``n_worlds`` worlds sampled from ``memory.base`` and ``memory.spec`` (prepared
    by :func:`briscasim.strategies.sampling.prepare_worlds`), or, with ``sampled`` false, the
    full state ``memory.base`` itself once; return the chosen action (jitted). ``memory`` is
    a :class:`Worlds`; ``features`` as :mod:`~briscasim.strategies.solver`'s."""
    world, actions, values = memory.world, memory.actions, memory.values
    total, votes = memory.total, memory.votes
    k = 0
    for w in range(n_worlds):
        if sampled:
            sample_world(memory.base, memory.spec, rng, world)
        else:
            copy_state(world, memory.base)
        k = root_values(rules, world, team_of(rules, world, seat), horizon, exact_plies,
                        memory.search, actions, values, features)
        best = 0
        for i in range(k):
            if w == 0:
                total[i] = 0.0
                votes[i] = 0.0
            total[i] += values[i]
            if values[i] > values[best]:
                best = i
        votes[best] += 1.0
    return choose_action(k, actions, total, votes, rule)


@njit(cache=True, _nrt=False)
def pimc_strategy(rules, public, hand, legal, seat, signals, params, rng,
                  features=EVERY_FEATURE):
    """PIMC from the seat's view; see the module docstring (jitted)."""
    if legal.shape[0] == 1:
        return legal[0]
    block = take(worlds_bytes())
    memory = worlds_views(block)
    memory.search.leaf[0] = np.int64(params[P_LEAF_MODEL])
    prepare_worlds(rules, public, hand, seat, signals, memory.base, memory.spec)
    n_worlds = np.int64(params[P_WORLDS])
    exact_plies = np.int64(params[P_EXACT_PLIES])
    if unique_world(memory.spec):
        # every card is known (2-player play once the stock is empty): the exact endgame
        n_worlds = 1
        exact_plies = N_CARD_IDS
    a = search_worlds(rules, memory, seat, n_worlds, True, np.int64(params[P_DEPTH]),
                      exact_plies, np.int64(params[P_CHOOSE]), rng, features)
    release(block)
    return a


def bind(rules, strategy):
    """``strategy`` with the weights' address of its ``leaf_model`` for ``rules`` in its
    parameter row (:func:`~.learned.bind_leaf_model`)."""
    return bind_leaf_model(rules, strategy, P_LEAF_MODEL)


DEFINITION = StrategyDef(
    "pimc", 3, (
        Param("worlds", int, 40, 1, 10_000, "worlds sampled per move"),
        Param("depth", int, 6, 1, 100, "plies of the depth-limited search (then to the end "
              "of the trick)"),
        Param("exact_plies", int, 10, 0, 48, "search to the end of the deal when at most "
              "this many cards remain to be played"),
        Param("choose", str, "average", doc="average: best mean value over the worlds; "
              "vote: best in the most worlds", choices=("average", "vote")),
        ModelParam("leaf_model", str, "none", doc="a network valuing the depth-limited "
                   "search's leaves (trick games): a shipped model, a model file's path or "
                   "auto (the preset's own); none: the margin so far"),
    ),
    "perfect-information Monte Carlo: alpha-beta on sampled worlds, exact endgame",
    test_params="worlds=4,depth=2,exact_plies=6",
    fn=pimc_strategy, dispatch=SEARCH, bind=bind,
)
