"""From a seat's strategy ids to its decision: one dispatcher for every caller.

Random, greedy, the rule-based players (expert, hoard, counter) and the swap policies are
compiled into the batch kernels. The search
strategies (ISMCTS, PIMC, the omniscient reference) and a user strategy are reached through
function slots, so the kernels compile without them and a run compiles a search strategy
only when its lineup holds one (:func:`search_function`, :mod:`briscasim.jit`).

A batch kernel is compiled for a lineup *shape* (``HAS_*`` bits: the strategy kinds its
lineups hold). The dispatcher leaves out every branch the shape rules out, and with a single
play strategy it does not look the seat's strategy up at all. A kernel takes about 40 s to
compile, so only the bulk of batch work gets its own (:func:`kernel_shape`): lineups of
random players alone and of greedy players alone; every other lineup runs the kernel of
every shape.
"""
import numpy as np
from numba import njit, types

from ..engine.core import at, hand_of, legal_view, signals
from ..engine.layout import (MAX_LEGAL, MAX_PLAYERS, NO_CARD, PHASE_SWAP, PUBLIC_LEN,
                             R_SIGNALS, S_PHASE)
from ..engine.rng import STREAM_LEN
from ..jit import compiled, function_slot
from .api import (KIND_COUNTER, KIND_EXPERT, KIND_GREEDY, KIND_HOARD, KIND_ISMCTS,
                  KIND_OMNISCIENT, KIND_PIMC, KIND_RANDOM, KIND_USER, SWAP_BY_PLAY,
                  StrategyFunction)
from .counter import counter_strategy
from .expert import expert_strategy
from .greedy import greedy_strategy
from .hoard import hoard_strategy
from .ismcts import ismcts_strategy
from .omniscient import omniscient_strategy
from .pimc import pimc_strategy
from .random import random_strategy
from .swap import swap_decision

SEARCH_KINDS = (KIND_ISMCTS, KIND_PIMC, KIND_OMNISCIENT)

# Lineup shape bits: which strategies a kernel is compiled to dispatch to.
HAS_RANDOM = 1
HAS_GREEDY = 2
HAS_USER = 4
HAS_SEARCH = 8          # ismcts, pimc or omniscient
HAS_SWAP_POLICY = 16    # a swap policy other than by_play
HAS_RULED = 32          # expert, hoard or counter
PLAY_BITS = HAS_RANDOM | HAS_GREEDY | HAS_USER | HAS_SEARCH | HAS_RULED
EVERY_SHAPE = PLAY_BITS | HAS_SWAP_POLICY
RULED_KINDS = (KIND_EXPERT, KIND_HOARD, KIND_COUNTER)
_PLAY_BIT = {KIND_RANDOM: HAS_RANDOM, KIND_GREEDY: HAS_GREEDY, KIND_USER: HAS_USER,
             **{k: HAS_SEARCH for k in SEARCH_KINDS}, **{k: HAS_RULED for k in RULED_KINDS}}

SPECIAL_SHAPES = (HAS_RANDOM, HAS_GREEDY)
"""The shapes with kernels of their own; any other lineup runs the kernel of ``EVERY_SHAPE``."""


def kernel_shape(kinds) -> int:
    """The shape of the batch kernel that plays a lineup of ``kinds``."""
    shape = lineup_shape(kinds)
    return shape if shape in SPECIAL_SHAPES else EVERY_SHAPE


def lineup_shape(kinds) -> int:
    """The shape bits (``HAS_*``) of a lineup's ``kinds`` (``[entry, (play, swap)]``);
    prototype (pure-Python) strategies add none: they never run in the kernels."""
    kinds = np.asarray(kinds)
    shape = 0
    for k in kinds[:, 0]:
        shape |= _PLAY_BIT.get(int(k), 0)
    if (kinds[:, 1] != SWAP_BY_PLAY).any():
        shape |= HAS_SWAP_POLICY
    return shape


SEARCH_SIGNATURE = types.int64(
    types.int64[::1],    # rules
    types.int16[::1],    # the whole deal state (only the omniscient reference looks past
                         # the seat's view)
    types.int16[::1],    # legal actions
    types.int64,         # seat
    types.int64,         # kind (KIND_ISMCTS, KIND_PIMC or KIND_OMNISCIENT)
    types.int64,         # signals
    types.float64[::1],  # params
    types.uint64[::1],   # rng
)
SearchFunction = types.FunctionType(SEARCH_SIGNATURE)


@njit(cache=True, _nrt=False)
def search_decide(rules, state, legal, seat, kind, sig, params, rng):
    """The action of the search strategy ``kind`` (jitted; compiled on first use by
    :func:`search_function`). ISMCTS and PIMC receive only the seat's view."""
    if kind == KIND_OMNISCIENT:
        return omniscient_strategy(rules, state, legal, seat, params, rng)
    public = state[:PUBLIC_LEN]
    hand = hand_of(rules, state, seat)
    if kind == KIND_ISMCTS:
        return ismcts_strategy(rules, public, hand, legal, seat, sig, params, rng)
    return pimc_strategy(rules, public, hand, legal, seat, sig, params, rng)


@njit(SEARCH_SIGNATURE, cache=True, _nrt=False)
def no_search(rules, state, legal, seat, kind, sig, params, rng):
    """The search slot of a lineup without search strategies (never called)."""
    return -1


def search_function(kinds):
    """The search slot for a lineup's ``kinds`` (``[entry, (play, swap)]``): the compiled
    :func:`search_decide` if the lineup holds a search strategy, else :func:`no_search` (as
    :class:`~briscasim.jit.FunctionSlot`: neither raises)."""
    kernel = search_decide if lineup_shape(kinds) & HAS_SEARCH else no_search
    return function_slot(kernel, SEARCH_SIGNATURE)


UserFunctions = types.UniTuple(StrategyFunction, MAX_PLAYERS)
"""The lineup's user strategies: slot ``e`` holds the function of lineup entry ``e`` (and a
placeholder for an entry that is not a user strategy)."""


@njit(cache=True, _nrt=False, inline="always")
def decide(kinds, params, user_fns, search_fn, rules, state, seat, entry, rng, legal):
    """The action of ``seat``'s strategy in ``state`` (jitted), for a lineup of any shape.

    ``entry`` is the seat's place in the lineup: ``kinds[entry, 0]`` is its play strategy
    (``KIND_*``), ``kinds[entry, 1]`` its swap policy (``SWAP_*``), ``params[entry, 0]`` and
    ``params[entry, 1]`` their parameters. ``user_fns`` are the user strategies
    (:data:`UserFunctions`), ``search_fn`` the search slot (:func:`search_function`);
    ``legal`` is scratch for the legal actions (``MAX_LEGAL`` entries). Every strategy but the
    omniscient reference receives only the seat's view: the public state, its own hand and
    its legal actions.
    """
    hand = hand_of(rules, state, seat)
    return decide_view(EVERY_SHAPE, kinds, params, user_fns, search_fn, rules, state,
                       state[:PUBLIC_LEN], hand, legal_view(rules, state, seat, hand, legal),
                       seat, entry, rng)


@njit(cache=True, _nrt=False, inline="always")
def draws_random(shape):
    """False if the strategies of a lineup of ``shape`` (a constant) never draw from their
    random streams, so that a kernel may leave them unstarted: greedy play alone is
    deterministic (jitted)."""
    return shape != HAS_GREEDY


@njit(cache=True, _nrt=False, inline="always")
def _plays(shape, bit, kinds, e, kind):
    """True if lineup entry ``e`` plays ``kind`` (whose shape bit is ``bit``); decided when
    compiling where the ``shape`` (a constant) holds no such strategy, or only it."""
    if shape & bit == 0:
        return False
    if shape & PLAY_BITS == bit:
        return True
    return kinds[e, 0] == kind


@njit(cache=True, _nrt=False, inline="always")
def decide_view(shape, kinds, params, user_fns, search_fn, rules, state, public, hand, legal,
                seat, entry, rng):
    """:func:`decide` for a lineup of shape ``shape`` (a constant where the caller compiles,
    so that the branches it rules out compile away), with the seat's view already cut:
    ``public`` is ``state[:PUBLIC_LEN]``, ``hand`` the seat's slots (the batch loop makes
    these views once per deal, not once per decision) and ``legal`` its legal actions
    (jitted)."""
    sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
    e = at(entry)
    if (shape & HAS_SWAP_POLICY != 0 and state[S_PHASE] == PHASE_SWAP
            and kinds[e, 1] != SWAP_BY_PLAY):
        return swap_decision(kinds[e, 1], params[e, 1], rules, public, hand, seat, sig, rng)
    p = params[e, 0]
    if _plays(shape, HAS_RANDOM, kinds, e, KIND_RANDOM):
        return random_strategy(rules, public, hand, legal, seat, sig, p, rng)
    if _plays(shape, HAS_GREEDY, kinds, e, KIND_GREEDY):
        return greedy_strategy(rules, public, hand, legal, seat, sig, p, rng)
    # the rule-based players are called, not inlined: a kernel compiles each once
    if shape & HAS_RULED != 0 and kinds[e, 0] == KIND_EXPERT:
        return expert_strategy(rules, public, hand, legal, seat, sig, p, rng)
    if shape & HAS_RULED != 0 and kinds[e, 0] == KIND_HOARD:
        return hoard_strategy(rules, public, hand, legal, seat, sig, p, rng)
    if shape & HAS_RULED != 0 and kinds[e, 0] == KIND_COUNTER:
        return counter_strategy(rules, public, hand, legal, seat, sig, p, rng)
    if _plays(shape, HAS_USER, kinds, e, KIND_USER):
        return user_fns[e](rules, public, hand, legal, seat, sig, p, rng)
    if shape & HAS_SEARCH != 0:
        return search_fn(rules, state, legal, seat, kinds[e, 0], sig, p, rng)
    return NO_CARD   # a lineup of another shape: the batch loop reports an illegal action


DECIDE_SIGNATURE = types.int64(types.int64[:, ::1], types.float64[:, :, ::1], UserFunctions,
                               SearchFunction, types.int64[::1], types.int16[::1], types.int64,
                               types.int64, types.uint64[::1], types.int16[::1])


@njit(cache=True, _nrt=False)
def _decide_entry(kinds, params, user_fns, search_fn, rules, state, seat, entry, rng, legal):
    return decide(kinds, params, user_fns, search_fn, rules, state, seat, entry, rng, legal)


def decide_entry(lineup_arrays, rules, state, seat, entry, rng) -> int:
    """:func:`decide` called from Python: ``lineup_arrays`` is
    :meth:`briscasim.simulate.Lineup.arrays`, ``rules`` the rules vector, ``state`` a deal
    state, ``rng`` the seat's stream (advanced in place)."""
    if rng.shape != (STREAM_LEN,):
        raise ValueError(f"rng must be a stream of {STREAM_LEN} uint64 "
                         "(briscasim.engine.rng.new_stream), not an array of shape "
                         f"{rng.shape}")
    kernel = compiled(_decide_entry, DECIDE_SIGNATURE)
    return int(kernel(*lineup_arrays, rules, state, seat, entry, rng,
                      np.empty(MAX_LEGAL, np.int16)))
