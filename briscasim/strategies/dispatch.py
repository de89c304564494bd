"""From a seat's strategy ids to its decision: one dispatcher for every caller, built from the
registry.

Every built-in says in its definition (:class:`~briscasim.strategies.params.StrategyDef`) how
the kernels reach its function (``dispatch``):

- ``INLINE``: compiled into the batch kernels (random, greedy);
- ``INLINE_OR_ENTRY``: compiled into the kernels of lineups without an entry-slot strategy,
  else through its lineup entry's function slot (expert: large code, compiled once);
- ``ENTRY``: through its lineup entry's function slot (hoard, counter, and every user
  strategy);
- ``SEARCH``: through the lineup's search slot (ismcts, pimc, the cheating references
  omniscient and peek), which hands the whole state to the ``omniscient`` ones.

So a kernel compiles only what its lineup needs: a slot strategy compiles on the first run
whose lineup holds it, then loads from the numba cache (:mod:`briscasim.jit`).

A batch kernel is compiled for a lineup *shape* (bits: ``HAS`` of each strategy compiled
into the kernels, ``HAS_SLOT``, ``HAS_SEARCH``, ``HAS_SWAP_POLICY``), and its dispatcher
(:func:`decider`) holds only the branches of that shape: numba never even types a strategy
the shape rules out, and with a single play strategy the seat's strategy is not looked up at
all. Lineups of random players alone and of expert players alone have kernels of their own
(:data:`SPECIAL_SHAPES`, :func:`kernel_shape`); every other lineup runs the kernel of every
shape, whose inlined strategies are the ``INLINE`` ones and the swap policies (a greedy-only
kernel was measured as fast as it: docs/notes/2026-12-06-compile-once.md).
"""
import numpy as np
from numba import njit, types

from ..engine.core import legal_view, signals
from ..engine.layout import (EVERY_FEATURE, F_AUCTION, F_PLAYS, F_SIGNALS, MAX_LEGAL_ANY,
                             MAX_PLAYERS, NO_CARD, PHASE_AUCTION, PHASE_SWAP, PUBLIC_LEN,
                             R_SIGNALS, S_PHASE)
from ..engine.primitives import at, hand_of
from ..engine.rng import STREAM_LEN
from ..jit import compiled, function_slot, ready
from .api import KIND_USER, STRATEGY_SIGNATURE, SWAP_BY_PLAY, StrategyFunction
from .bidding import contract_decision
from .params import ENTRY, INLINE, INLINE_OR_ENTRY, SEARCH
from .registry import DEFINITIONS
from .swap import swap_decision

INLINED = tuple(d for d in DEFINITIONS if d.dispatch in (INLINE, INLINE_OR_ENTRY))
"""The built-ins compiled into the kernels (``INLINE_OR_ENTRY`` ones where no slot is)."""
SEARCHES = tuple(d for d in DEFINITIONS if d.dispatch == SEARCH)
"""The built-ins played through the search slot."""
SEARCH_KINDS = tuple(d.kind for d in SEARCHES)
SLOT_BUILTINS = {d.kind: d.fn for d in DEFINITIONS if d.dispatch in (ENTRY, INLINE_OR_ENTRY)}
"""The built-ins played through their lineup entry's function slot, by kind."""
SLOT_KINDS = (KIND_USER, *SLOT_BUILTINS)
_SELF_BIDDING = (KIND_USER, *(d.kind for d in DEFINITIONS
                              if d.bids and d.dispatch in (ENTRY, SEARCH)))
"""The slot strategies that answer Briscola Chiamata's auction and call themselves."""

# Lineup shape bits: which strategies a kernel is compiled to dispatch to.
HAS_SLOT = 1            # a strategy played through its entry's slot (ENTRY, user strategies)
HAS_SEARCH = 2          # a strategy played through the search slot (SEARCH)
HAS_SWAP_POLICY = 4     # a swap policy other than by_play
HAS = {d.name: 8 << i for i, d in enumerate(INLINED)}
"""The shape bit of each strategy compiled into the kernels, by name."""
PLAY_BITS = HAS_SLOT | HAS_SEARCH | sum(HAS.values())
EVERY_SHAPE = PLAY_BITS | HAS_SWAP_POLICY
_PLAY_BIT = {**{k: HAS_SLOT for k in SLOT_KINDS}, **{k: HAS_SEARCH for k in SEARCH_KINDS},
             **{d.kind: HAS[d.name] for d in INLINED}}
_DETERMINISTIC = sum(HAS[d.name] for d in INLINED if d.deterministic)

HAS_RANDOM, HAS_EXPERT = HAS["random"], HAS["expert"]
SPECIAL_SHAPES = (HAS_RANDOM, HAS_EXPERT)
"""The shapes with kernels of their own (random alone, expert alone); any other lineup runs
the kernel of ``EVERY_SHAPE``."""


def kernel_shape(kinds) -> int:
    """The shape of the batch kernel that plays a lineup of ``kinds``."""
    shape = lineup_shape(kinds)
    return shape if shape in SPECIAL_SHAPES else EVERY_SHAPE


def lineup_shape(kinds) -> int:
    """The shape bits of a lineup's ``kinds`` (``[entry, (play, swap)]``); prototype
    (pure-Python) strategies add none: they never run in the kernels."""
    kinds = np.asarray(kinds)
    shape = 0
    for k in kinds[:, 0]:
        shape |= _PLAY_BIT.get(int(k), 0)
    if (kinds[:, 1] != SWAP_BY_PLAY).any():
        shape |= HAS_SWAP_POLICY
    return shape


def draws_random(shape: int) -> bool:
    """False if the strategies of a lineup of ``shape`` never draw from their random
    streams, so that a kernel may leave them unstarted (the ``deterministic`` ones compiled
    into the kernels: greedy and expert)."""
    return shape & ~_DETERMINISTIC != 0


def _one_of(kinds: tuple):
    """A jitted test (inlined) of whether a kind is one of ``kinds``."""
    @njit(cache=True, _nrt=False, inline="always")
    def one_of(kind):
        found = False
        for k in kinds:
            found |= kind == k
        return found
    return one_of


_in_slot = _one_of(SLOT_KINDS)
_bids_itself = _one_of(_SELF_BIDDING)


SEARCH_SIGNATURE = types.int64(
    types.int64[::1],    # rules
    types.int16[::1],    # the whole deal state (only the cheating references look past
                         # the seat's view)
    types.int16[::1],    # legal actions
    types.int64,         # seat
    types.int64,         # kind (one of SEARCH_KINDS)
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


@njit(cache=True, _nrt=False, inline="always")
def _no_search(rules, state, legal, seat, kind, sig, params, rng):
    return NO_CARD


def _search_branch(d, features: int, otherwise):
    """The search slot's branch of the search strategy ``d``: its function's action if the
    kind is ``d.kind`` (or, with ``otherwise`` None, the last branch: whatever the kind),
    else ``otherwise``'s. A strategy not marked ``omniscient`` receives the seat's view
    alone."""
    fn, kind, whole, last = d.fn, d.kind, d.omniscient, otherwise is None
    otherwise = otherwise or _no_search

    @njit(cache=True, _nrt=False, inline="always")
    def branch(rules, state, legal, seat, k, sig, params, rng):
        if last or k == kind:
            if whole:
                return fn(rules, state, legal, seat, sig, params, rng, features)
            return fn(rules, state[:PUBLIC_LEN], hand_of(rules, state, seat), legal, seat,
                      sig, params, rng, features)
        return otherwise(rules, state, legal, seat, k, sig, params, rng)
    return branch


_SEARCH_DECIDERS = {}


def search_decider(features: int):
    """The jitted function of the search slot for rules of ``features`` (``F_*``; a
    constant of the function and of the searches it calls)::

        search_decide(rules, state, legal, seat, kind, sig, params, rng) -> action

    the action of the search strategy ``kind`` (a branch per :data:`SEARCHES`)."""
    if features in _SEARCH_DECIDERS:
        return _SEARCH_DECIDERS[features]
    branches = None
    for d in reversed(SEARCHES):
        branches = _search_branch(d, features, branches)

    @njit(cache=True, _nrt=False)
    def search_decide(rules, state, legal, seat, kind, sig, params, rng):
        return branches(rules, state, legal, seat, kind, sig, params, rng)

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


# ---- the dispatcher of a kernel: its branches, from the last to the first -----------------
# Each branch decides for the strategies it covers, or passes the decision on to the next
# (``otherwise``); numba inlines the whole chain into one function.

@njit(cache=True, _nrt=False, inline="always")
def _no_strategy(kinds, entry_fns, search_fn, rules, state, public, hand, legal, seat, e,
                 sig, p, rng):
    return NO_CARD   # a lineup of another shape: the batch loop reports an illegal action


def _search_slot(otherwise):
    @njit(cache=True, _nrt=False, inline="always")
    def branch(kinds, entry_fns, search_fn, rules, state, public, hand, legal, seat, e, sig,
               p, rng):
        return search_fn(rules, state, legal, seat, kinds[e, 0], sig, p, rng)
    return branch


def _entry_slot(only: bool, otherwise):
    @njit(cache=True, _nrt=False, inline="always")
    def branch(kinds, entry_fns, search_fn, rules, state, public, hand, legal, seat, e, sig,
               p, rng):
        if only or _in_slot(kinds[e, 0]):
            return entry_fns[e](rules, public, hand, legal, seat, sig, p, rng)
        return otherwise(kinds, entry_fns, search_fn, rules, state, public, hand, legal,
                         seat, e, sig, p, rng)
    return branch


def _inlined(d, only: bool, features: int, otherwise):
    """The branch of the strategy ``d`` compiled into the kernel (its function called with
    the rule ``features`` if it takes them)."""
    fn, kind, with_features = d.fn, d.kind, d.features

    @njit(cache=True, _nrt=False, inline="always")
    def branch(kinds, entry_fns, search_fn, rules, state, public, hand, legal, seat, e, sig,
               p, rng):
        if only or kinds[e, 0] == kind:
            if with_features:
                return fn(rules, public, hand, legal, seat, sig, p, rng, features)
            return fn(rules, public, hand, legal, seat, sig, p, rng)
        return otherwise(kinds, entry_fns, search_fn, rules, state, public, hand, legal,
                         seat, e, sig, p, rng)
    return branch


def _rule_bidder(features: int, otherwise):
    """Briscola Chiamata's auction and call: the rule-based bidder
    (:func:`~briscasim.strategies.bidding.contract_decision`) for every strategy that does
    not bid itself."""
    @njit(cache=True, _nrt=False, inline="always")
    def branch(kinds, entry_fns, search_fn, rules, state, public, hand, legal, seat, e, sig,
               p, rng):
        if features & F_AUCTION and state[S_PHASE] >= PHASE_AUCTION:
            if not _bids_itself(kinds[e, 0]):
                return contract_decision(rules, public, hand, legal)
        return otherwise(kinds, entry_fns, search_fn, rules, state, public, hand, legal,
                         seat, e, sig, p, rng)
    return branch


def _branches(shape: int, features: int):
    """The chain of branches of lineups of ``shape``: the inlined strategies that bid
    themselves, the rule-based bidder (for the others, when the shape holds any), the other
    inlined strategies, the entry slots, the search slot."""
    plays = shape & PLAY_BITS
    has_slot, has_search = plays & HAS_SLOT != 0, plays & HAS_SEARCH != 0
    inlined = [d for d in INLINED if plays & HAS[d.name] and not (
        has_slot and d.dispatch == INLINE_OR_ENTRY)]
    chain = _no_strategy
    if has_search:
        chain = _search_slot(chain)
    if has_slot:
        chain = _entry_slot(plays == HAS_SLOT, chain)
    for d in reversed([d for d in inlined if not d.bids]):
        chain = _inlined(d, plays == HAS[d.name], features, chain)
    if has_slot or has_search or any(not d.bids for d in inlined):
        chain = _rule_bidder(features, chain)
    for d in reversed([d for d in inlined if d.bids]):
        chain = _inlined(d, plays == HAS[d.name], features, chain)
    return chain


_DECIDERS = {}


def decider(shape: int, features: int = EVERY_FEATURE):
    """The dispatcher of lineups of ``shape`` for rules of ``features`` (``F_*``: the rule
    features whose code it holds), a jitted function (inlined where it is called)::

        decide_view(kinds, params, entry_fns, search_fn, rules, state, public, hand, legal,
                    seat, entry, rng) -> action

    ``entry`` is the seat's place in the lineup: ``kinds[entry, 0]`` is its play strategy
    (its kind), ``kinds[entry, 1]`` its swap policy (``SWAP_*``), ``params[entry, 0]`` and
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
    swap_policy = shape & HAS_SWAP_POLICY != 0
    branches = _branches(shape, features)

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
        return branches(kinds, entry_fns, search_fn, rules, state, public, hand, legal, seat,
                        e, sig, params[e, 0], rng)

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
