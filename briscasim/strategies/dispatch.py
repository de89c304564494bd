"""From a seat's strategy ids to its decision: one dispatcher for every caller.

Random, greedy and the swap policies are compiled into the batch kernels, and expert into
the kernels of lineups without a slot strategy. Every other strategy is reached through a
function slot, so that a kernel compiles only what its lineup needs: the search strategies
(ISMCTS, PIMC, the cheating references omniscient and peek) through the lineup's search slot
(:func:`search_function`), and the rule-based players (expert elsewhere, hoard, counter) and
user strategies through their lineup entry's own slot (:func:`entry_function`). A slot
strategy compiles on the first run whose lineup holds it, then loads from the numba cache
(:mod:`briscasim.jit`).

A batch kernel is compiled for a lineup *shape* (``HAS_*`` bits: the strategy kinds its
lineups hold), and its dispatcher (:func:`decider`) holds only the branches of that shape:
numba never even types a strategy the shape rules out, and with a single play strategy the
seat's strategy is not looked up at all. Lineups of random players alone and of expert
players alone have kernels of their own (:func:`kernel_shape`); every other lineup runs the
kernel of every shape, whose inlined strategies are random, greedy and the swap policies (a
greedy-only kernel was measured as fast as it: docs/notes/2026-12-06-compile-once.md).
"""
import numpy as np
from numba import njit, types

from ..engine.core import legal_view, signals
from ..engine.primitives import at, hand_of
from ..engine.layout import (EVERY_FEATURE, F_AUCTION, F_PLAYS, F_SIGNALS, MAX_LEGAL_ANY,
                             MAX_PLAYERS, NO_CARD, PHASE_AUCTION, PHASE_SWAP, PUBLIC_LEN,
                             R_SIGNALS, S_PHASE)
from ..engine.rng import STREAM_LEN
from ..jit import compiled, function_slot, ready
from .api import (KIND_COUNTER, KIND_EXPERT, KIND_GREEDY, KIND_HOARD, KIND_ISMCTS,
                  KIND_OMNISCIENT, KIND_PEEK, KIND_PIMC, KIND_RANDOM, KIND_USER,
                  STRATEGY_SIGNATURE, SWAP_BY_PLAY, StrategyFunction)
from .bidding import contract_decision
from .counter import counter_strategy
from .expert import expert_strategy
from .greedy import greedy_strategy
from .hoard import hoard_strategy
from .ismcts import ismcts_strategy
from .omniscient import omniscient_strategy
from .peek import peek_strategy
from .pimc import pimc_strategy
from .random import random_strategy
from .swap import swap_decision

SEARCH_KINDS = (KIND_ISMCTS, KIND_PIMC, KIND_OMNISCIENT, KIND_PEEK)
SLOT_BUILTINS = {KIND_EXPERT: expert_strategy, KIND_HOARD: hoard_strategy,
                 KIND_COUNTER: counter_strategy}
"""The built-ins played through their lineup entry's function slot, by kind."""
SLOT_KINDS = (KIND_USER, *SLOT_BUILTINS)

# Lineup shape bits: which strategies a kernel is compiled to dispatch to.
HAS_RANDOM = 1
HAS_GREEDY = 2
HAS_SLOT = 4            # a user strategy, hoard or counter (an entry's slot)
HAS_SEARCH = 8          # ismcts, pimc, omniscient or peek (the search slot)
HAS_SWAP_POLICY = 16    # a swap policy other than by_play
HAS_EXPERT = 32         # expert: inlined in a kernel without HAS_SLOT, else through its slot
PLAY_BITS = HAS_RANDOM | HAS_GREEDY | HAS_SLOT | HAS_SEARCH | HAS_EXPERT
EVERY_SHAPE = PLAY_BITS | HAS_SWAP_POLICY
_PLAY_BIT = {KIND_RANDOM: HAS_RANDOM, KIND_GREEDY: HAS_GREEDY,
             **{k: HAS_SEARCH for k in SEARCH_KINDS}, **{k: HAS_SLOT for k in SLOT_KINDS},
             KIND_EXPERT: HAS_EXPERT}

SPECIAL_SHAPES = (HAS_RANDOM, HAS_EXPERT)
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
    types.int16[::1],    # the whole deal state (only the cheating references look past
                         # the seat's view)
    types.int16[::1],    # legal actions
    types.int64,         # seat
    types.int64,         # kind (KIND_ISMCTS, KIND_PIMC, KIND_OMNISCIENT or KIND_PEEK)
    types.int64,         # signals
    types.float64[::1],  # params
    types.uint64[::1],   # rng
)
SearchFunction = types.FunctionType(SEARCH_SIGNATURE)


def search_features(features: int, fastest: bool = False) -> int:
    """The rule features (``F_*``) the search slot of a run needing ``features`` compiles
    for: none when the run needs no rule feature (the classic presets) and that search is
    compiled or cached (or, if ``fastest``, whether or not it is: the benchmarks), else every
    feature. Each variant compiles the whole of the searches
    (tens of seconds), hence two, not one per feature set, and the one of every feature
    first (it serves every run); the one without features plays the classic presets'
    searches with some 15% fewer instructions. The searches read the order of play of the
    position searched, which the batch kernel records (``F_PLAYS``); their own play-outs
    need not record it."""
    if features & ~F_PLAYS == 0 and (fastest or ready(search_decider(0), SEARCH_SIGNATURE)):
        return 0
    return EVERY_FEATURE


_SEARCH_DECIDERS = {}


def search_decider(features: int):
    """The jitted function of the search slot for rules of ``features`` (``F_*``; a
    constant of the function and of the searches it calls)::

        search_decide(rules, state, legal, seat, kind, sig, params, rng) -> action

    the action of the search strategy ``kind``. ISMCTS and PIMC receive only the seat's
    view."""
    if features in _SEARCH_DECIDERS:
        return _SEARCH_DECIDERS[features]

    @njit(cache=True, _nrt=False)
    def search_decide(rules, state, legal, seat, kind, sig, params, rng):
        if kind == KIND_OMNISCIENT:
            return omniscient_strategy(rules, state, legal, seat, params, rng, features)
        if kind == KIND_PEEK:
            return peek_strategy(rules, state, legal, seat, sig, params, rng, features)
        public = state[:PUBLIC_LEN]
        hand = hand_of(rules, state, seat)
        if kind == KIND_ISMCTS:
            return ismcts_strategy(rules, public, hand, legal, seat, sig, params, rng,
                                   features)
        return pimc_strategy(rules, public, hand, legal, seat, sig, params, rng, features)

    return _SEARCH_DECIDERS.setdefault(features, search_decide)


@njit(SEARCH_SIGNATURE, cache=True, _nrt=False)
def no_search(rules, state, legal, seat, kind, sig, params, rng):
    """The search slot of a lineup without search strategies (never called)."""
    return -1


def search_function(kinds, features: int = EVERY_FEATURE):
    """The search slot for a lineup's ``kinds`` (``[entry, (play, swap)]``) and rules of
    ``features``: the compiled :func:`search_decider` of :func:`search_features` if the
    lineup holds a search strategy, else :func:`no_search` (as
    :class:`~briscasim.jit.FunctionSlot`: neither raises)."""
    kernel = (search_decider(search_features(features)) if lineup_shape(kinds) & HAS_SEARCH
              else no_search)
    return function_slot(kernel, SEARCH_SIGNATURE)


@njit(STRATEGY_SIGNATURE, cache=True, _nrt=False)
def no_entry_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """The function slot of a lineup entry whose strategy is compiled into the kernels (never
    called)."""
    return -1


def entry_functions(strategies) -> tuple:
    """The function slots of a lineup's entries (resolved strategies), padded to
    ``MAX_PLAYERS``: a user strategy's own dispatcher, which passes its exceptions on; a
    :data:`SLOT_BUILTINS` strategy compiled on first use (as a
    :class:`~briscasim.jit.FunctionSlot`: it raises none); otherwise
    :func:`no_entry_strategy`."""
    slots = [s.user_fn if s.kinds[0] == KIND_USER else function_slot(
        SLOT_BUILTINS.get(s.kinds[0], no_entry_strategy), STRATEGY_SIGNATURE)
        for s in strategies]
    empty = function_slot(no_entry_strategy, STRATEGY_SIGNATURE)
    return tuple(slots + [empty] * (MAX_PLAYERS - len(slots)))


EntryFunctions = types.UniTuple(StrategyFunction, MAX_PLAYERS)
"""The lineup's function slots: slot ``e`` holds the strategy of lineup entry ``e`` if it is
played through its slot (:data:`SLOT_KINDS`), else a placeholder."""


@njit(cache=True, _nrt=False, inline="always")
def _in_slot(kind):
    """True if a strategy of ``kind`` is played through its lineup entry's function slot."""
    return (kind == KIND_USER) | (kind == KIND_EXPERT) | (kind == KIND_HOARD) | (
        kind == KIND_COUNTER)


def draws_random(shape: int) -> bool:
    """False if the strategies of a lineup of ``shape`` never draw from their random
    streams, so that a kernel may leave them unstarted: greedy and expert are deterministic."""
    return shape & ~(HAS_GREEDY | HAS_EXPERT) != 0


_DECIDERS = {}


def decider(shape: int, features: int = EVERY_FEATURE):
    """The dispatcher of lineups of ``shape`` for rules of ``features`` (``F_*``: the rule
    features whose code it holds), a jitted function (inlined where it is called)::

        decide_view(kinds, params, entry_fns, search_fn, rules, state, public, hand, legal,
                    seat, entry, rng) -> action

    ``entry`` is the seat's place in the lineup: ``kinds[entry, 0]`` is its play strategy
    (``KIND_*``), ``kinds[entry, 1]`` its swap policy (``SWAP_*``), ``params[entry, 0]`` and
    ``params[entry, 1]`` their parameters; ``entry_fns`` are the entries' function slots
    (:data:`EntryFunctions`), ``search_fn`` the search slot (:func:`search_function`);
    ``public`` is ``state[:PUBLIC_LEN]``, ``hand`` the seat's slots and ``legal`` its legal
    actions. Every strategy but the cheating references (omniscient, peek) receives only
    the seat's view.

    The shape's and the features' bits are constants of the function, so numba prunes the
    branches of the strategies the shape rules out, and of the rule features the kernel does
    not hold, before it types anything: a kernel compiles only what its lineups and rules
    need.
    """
    if (shape, features) in _DECIDERS:
        return _DECIDERS[shape, features]
    plays = shape & PLAY_BITS
    swap_policy = shape & HAS_SWAP_POLICY != 0
    has_random, only_random = plays & HAS_RANDOM != 0, plays == HAS_RANDOM
    has_greedy, only_greedy = plays & HAS_GREEDY != 0, plays == HAS_GREEDY
    has_slot, only_slot = plays & HAS_SLOT != 0, plays == HAS_SLOT
    has_search = plays & HAS_SEARCH != 0
    inline_expert, only_expert = plays & (HAS_EXPERT | HAS_SLOT) == HAS_EXPERT, (
        plays == HAS_EXPERT)

    @njit(cache=True, _nrt=False, inline="always")
    def decide_view(kinds, params, entry_fns, search_fn, rules, state, public, hand, legal,
                    seat, entry, rng):
        sig = np.int64(0)
        if features & F_SIGNALS and rules[R_SIGNALS] != 0:
            sig = signals(rules, state, seat, features)
        e = at(entry)
        if swap_policy:
            if state[S_PHASE] == PHASE_SWAP and kinds[e, 1] != SWAP_BY_PLAY:
                return swap_decision(kinds[e, 1], params[e, 1], rules, public, hand, seat,
                                     sig, rng)
        p = params[e, 0]
        if has_random:
            if only_random or kinds[e, 0] == KIND_RANDOM:
                return random_strategy(rules, public, hand, legal, seat, sig, p, rng)
        if has_greedy:
            if only_greedy or kinds[e, 0] == KIND_GREEDY:
                return greedy_strategy(rules, public, hand, legal, seat, sig, p, rng,
                                       features)
        if (has_slot | has_search | inline_expert) and features & F_AUCTION and (
                state[S_PHASE] >= PHASE_AUCTION):
            # Briscola Chiamata's auction and call: the rule-based bidder for every strategy
            # but random and greedy (which bid on their own)
            if kinds[e, 0] != KIND_USER:
                return contract_decision(rules, public, hand, legal)
        if inline_expert:
            if only_expert or kinds[e, 0] == KIND_EXPERT:
                return expert_strategy(rules, public, hand, legal, seat, sig, p, rng)
        if has_slot:
            if only_slot or _in_slot(kinds[e, 0]):
                return entry_fns[e](rules, public, hand, legal, seat, sig, p, rng)
        if has_search:
            return search_fn(rules, state, legal, seat, kinds[e, 0], sig, p, rng)
        return NO_CARD   # a lineup of another shape: the batch loop reports an illegal action

    return _DECIDERS.setdefault((shape, features), decide_view)


_decide_any = decider(EVERY_SHAPE)


@njit(cache=True, _nrt=False, inline="always")
def decide(kinds, params, entry_fns, search_fn, rules, state, seat, entry, rng, legal):
    """The action of ``seat``'s strategy in ``state`` for a lineup of any shape (jitted; the
    arguments as :func:`decider`'s, ``legal`` scratch for ``MAX_LEGAL_ANY`` legal actions)."""
    hand = hand_of(rules, state, seat)
    return _decide_any(kinds, params, entry_fns, search_fn, rules, state, state[:PUBLIC_LEN],
                       hand, legal_view(rules, state, seat, hand, legal), seat, entry, rng)


DECIDE_SIGNATURE = types.int64(types.int64[:, ::1], types.float64[:, :, ::1], EntryFunctions,
                               SearchFunction, types.int64[::1], types.int16[::1], types.int64,
                               types.int64, types.uint64[::1], types.int16[::1])


@njit(cache=True, _nrt=False)
def _decide_entry(kinds, params, entry_fns, search_fn, rules, state, seat, entry, rng, legal):
    return decide(kinds, params, entry_fns, search_fn, rules, state, seat, entry, rng, legal)


def decide_entry(lineup_arrays, rules, state, seat, entry, rng) -> int:
    """:func:`decide` called from Python: ``lineup_arrays`` is
    :meth:`briscasim.lineup.Lineup.arrays`, ``rules`` the rules vector, ``state`` a deal
    state, ``rng`` the seat's stream (advanced in place)."""
    if rng.shape != (STREAM_LEN,):
        raise ValueError(f"rng must be a stream of {STREAM_LEN} uint64 "
                         "(briscasim.engine.rng.new_stream), not an array of shape "
                         f"{rng.shape}")
    kernel = compiled(_decide_entry, DECIDE_SIGNATURE)
    return int(kernel(*lineup_arrays, rules, state, seat, entry, rng,
                      np.empty(MAX_LEGAL_ANY, np.int16)))
