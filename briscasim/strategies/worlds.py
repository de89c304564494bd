"""Sampled worlds searched as if every card were known: the working memory and the loop
shared by ``pimc``, ``omniscient`` (the true deal, searched once) and ``learned``'s late
search with more than two players (:func:`sampled_move`)."""
from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.layout import EVERY_FEATURE, N_CARD_IDS, STATE_LEN
from .sampling import SPEC_LEN, prepare_worlds, sample_world, unique_world
from .scratch import aligned, release, take, view
from .solver import (LEGAL_STRIDE, Search, copy_state, root_values, search_bytes,
                     search_views, team_of)

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
def sampled_move(rules, public, hand, seat, signals, n_worlds, horizon, exact_plies, rule,
                 leaf, rng, features=EVERY_FEATURE):
    """The action ``rule`` (``CHOOSE_*``) picks over ``n_worlds`` worlds drawn uniformly
    from those consistent with the seat's view, each searched by the solver (exactly once at
    most ``exact_plies`` cards remain, else ``horizon`` plies deep, the leaves valued by the
    network at address ``leaf``, 0: the margin so far); where the view leaves one world
    (2-player play once the stock is empty), that world solved exactly once. Takes and
    gives back its scratch memory (jitted)."""
    block = take(worlds_bytes())
    memory = worlds_views(block)
    memory.search.leaf[0] = leaf
    prepare_worlds(rules, public, hand, seat, signals, memory.base, memory.spec)
    if unique_world(memory.spec):
        n_worlds = 1
        exact_plies = N_CARD_IDS
    a = search_worlds(rules, memory, seat, n_worlds, True, horizon, exact_plies, rule, rng,
                      features)
    release(block)
    return a
