"""Batch kernels: many deals (or matches) between strategies, one record each.

Random streams (see :mod:`briscasim.engine.rng`): deal ``j`` of item ``i`` (an item is a deal,
or a match of several deals) takes its cards from stream ``(seed, i, 64 * j)`` and the seat
``s`` decides with stream ``(seed, i, 64 * j + 1 + 6 * k + s)``, where ``k`` is the
rotation ``r`` for single deals and the seating shift ``(j + r) % n`` in deal ``j`` of a
match. The cards never depend on the strategies or the rotation, which is what duplicate
play needs.

A *lineup* holds one strategy per seat. With ``n_rot`` rotations each deal is played
``n_rot`` times with the same cards, rotation ``r`` seating lineup entry ``(s + r) % n`` at
seat ``s``. The kernels take the lineup first, as
:meth:`briscasim.lineup.Lineup.arrays` gives it (``kinds, params, entry_fns, search_fn``),
then the rules vector. At every decision the engine works out the seat's legal actions
(:func:`~briscasim.engine.core.legal_actions`) and the strategy picks one.

Each kernel is compiled per lineup shape (:func:`~briscasim.strategies.dispatch.kernel_shape`:
the strategy kinds the lineup holds) when a run first needs it, with only the strategies of
that shape: :func:`kernel`.
"""
import threading

import numpy as np
from numba import njit, types

from .engine.core import legal_view, shuffled_deck, start_deal, step, write_record
from .engine.primitives import hand_base, window
from .engine.layout import (EVERY_FEATURE, F_AUCTION, F_LARGE_HAND, MAX_LEGAL_ANY,
                            MAX_PLAYERS, MAX_SIDES, N_CARD_IDS, PHASE_OVER, PUBLIC_LEN, RULES_LEN, R_HAND_SIZE, R_PLAYERS,
                            R_START_STATE, S_PHASE, S_TURN, STATE_LEN, UNDECIDED)
from .engine.match import (TALLY_BLACK_HAND, TALLY_SAME_DEALER, TALLY_THROWN_IN,
                           match_result, seating, tally_deal)
from .engine.rng import STREAM_LEN, item_key, seat_stream, start_stream, substream_key
from .jit import compiled, ready
from .strategies.dispatch import (EVERY_SHAPE, HAS_RANDOM, SPECIAL_SHAPES, EntryFunctions,
                                  SearchFunction, decider, draws_random)

# Match record fields (int32).
M_WINNER = 0        # physical side that won the match, or DRAW
M_DEALS = 1         # deals played
M_BLACK_HANDS = 2   # deals ended by a black hand
M_DEALS_WON = 3     # [6] per physical side
M_POINTS = 9        # [6] per physical side
MATCH_RECORD_LEN = 15


@njit(cache=True, _nrt=False, inline="always")
def _seat_stream(rngs, seat):
    """The random stream of ``seat``: its row of ``rngs`` (jitted)."""
    return window(rngs, seat * STREAM_LEN, STREAM_LEN)


@njit(cache=True, _nrt=False, inline="always")
def _scratch(work16, work64):
    """The scratch of :func:`new_work` cut into what a kernel plays with: the state, the deck,
    the shuffle's partners, the seats' streams, the card stream and the legal actions (the
    match tallies are ``work64[:2 * MAX_SIDES]``)."""
    seats = 2 * MAX_SIDES + MAX_PLAYERS * STREAM_LEN
    deck = STATE_LEN + N_CARD_IDS
    partners = deck + N_CARD_IDS
    return (work16[:STATE_LEN], work16[STATE_LEN:deck], work16[deck:partners],
            work64[2 * MAX_SIDES:seats].view(np.uint64),
            work64[seats:seats + STREAM_LEN].view(np.uint64),
            work16[partners:partners + MAX_LEGAL_ANY])


def deal_player(shape: int, features: int):
    """The jitted loop that plays one deal for lineups of ``shape`` and rules of
    ``features`` (``F_*``) (inlined into the kernels)::

        play_one(rules, kinds, params, entry_fns, search_fn, state, public, rngs, legal, deck,
                 key, deal_no, rot) -> bool

    It plays the deal from ``deck`` to the end and returns False if a strategy chose an
    illegal action; ``public`` is ``state[:PUBLIC_LEN]``, ``rngs`` the seats' streams,
    ``legal`` scratch for the legal actions, ``key`` the item's
    :func:`~briscasim.engine.rng.item_key`."""
    decide_view = decider(shape, features)
    draws = draws_random(shape)

    @njit(cache=True, _nrt=False, inline="always")
    def play_one(rules, kinds, params, entry_fns, search_fn, state, public, rngs, legal, deck,
                 key, deal_no, rot):
        n = rules[R_PLAYERS]
        hand_size = rules[R_HAND_SIZE]
        if draws:
            for s in range(n):
                start_stream(_seat_stream(rngs, s),
                             substream_key(key, seat_stream(deal_no, rot, s)))
        start_deal(rules, state, deck, None, features)
        # int64 from the start, as step returns it: numba types the loop's calls once, not
        # once for an int16 seat and again for an int64 one
        seat = np.int64(state[S_TURN])
        while state[S_PHASE] != PHASE_OVER:
            entry = seat + rot
            if entry >= n:
                entry -= n
            hand = window(state, hand_base(seat), hand_size)
            a = decide_view(kinds, params, entry_fns, search_fn, rules, state, public, hand,
                            legal_view(rules, state, seat, hand, legal, features), seat,
                            entry, _seat_stream(rngs, seat))
            seat = step(rules, state, a, None, features)
            if seat < 0:
                return False
        return True

    return play_one


KERNEL_SIGNATURE = types.int64(
    types.int64[:, ::1], types.float64[:, :, ::1], EntryFunctions, SearchFunction,
    types.int64[::1], types.uint64, types.int64, types.int64, types.int64, types.int32[:, ::1],
    types.int16[::1], types.int64[::1])
"""The signature of the kernels of :func:`deals_kernel` and :func:`matches_kernel`, which
compile on first use (:func:`kernel`)."""

WORK_I16 = STATE_LEN + 2 * N_CARD_IDS + MAX_LEGAL_ANY
"""scratch: a state, a deck, the shuffle's partners, the legal actions"""
WORK_I64 = 2 * MAX_SIDES + (MAX_PLAYERS + 1) * STREAM_LEN
"""scratch: match tallies, streams"""
_PAGE = 4096
_I16_SLOTS = (WORK_I16 + 3) // 4
_RULES_AT = _I16_SLOTS + WORK_I64     # new_work's block: int16 | int64 slots | rules vector
_BLOCK = _RULES_AT + RULES_LEN
assert (_RULES_AT + R_START_STATE) * 8 <= _PAGE


def new_work():
    """Scratch for one thread running a batch kernel: ``(rules, work16, work64)``, where
    ``rules`` receives a copy of the rules vector (:func:`briscasim.simulate.play_chunk`).

    All three start in one 4 KB page, the rules vector last: only its tail, the start-state
    template that :func:`~briscasim.engine.core.start_deal` copies once a deal, may run past
    the page. Zen 4, like most x86 cores, treats a load as dependent on an earlier store whose
    address has the same low 12 bits ("4K aliasing"); with the state, the streams and the
    rules vector in separate allocations, how often that stalls the deal loop was up to the
    allocator (measured: 591-631 ns per random deal, depending only on where the state fell).
    Within one page no two of the addresses the deal loop uses alias.
    """
    block = np.empty(_PAGE // 8 + _BLOCK, np.int64)
    start = (-block.ctypes.data % _PAGE) // 8
    work = block[start:start + _BLOCK]
    return (work[_RULES_AT:], work[:_I16_SLOTS].view(np.int16)[:WORK_I16],
            work[_I16_SLOTS:_RULES_AT])


def deals_kernel(shape: int, features: int):
    """The single-deal kernel ``play_deals`` for lineups of ``shape`` and rules of
    ``features`` (not compiled yet)."""
    play_one = deal_player(shape, features)

    @njit(cache=True, nogil=True, _nrt=False)
    def play_deals(kinds, params, entry_fns, search_fn, rules, seed, first, count, n_rot, out,
                   work16, work64):
        """Play deals ``first .. first + count - 1``, each in ``n_rot`` rotations, writing
        one ``REC_*`` record per (deal, rotation) into ``out`` (row ``i * n_rot + r``).
        Returns -1, or the first deal where a strategy chose an illegal action (jitted,
        releases the GIL)."""
        state, deck, partners, rngs, card_rng, legal = _scratch(work16, work64)
        public = state[:PUBLIC_LEN]
        for i in range(count):
            item = first + i
            key = item_key(seed, item)
            shuffled_deck(rules, deck, partners, card_rng, key, 0)
            for r in range(n_rot):
                if not play_one(rules, kinds, params, entry_fns, search_fn, state, public,
                                rngs, legal, deck, key, 0, r):
                    return item
                write_record(rules, state, out[i * n_rot + r], features)
        return -1

    return play_deals


def matches_kernel(shape: int, features: int):
    """The match kernel ``play_matches`` for lineups of ``shape`` and rules of ``features``
    (not compiled yet)."""
    play_one = deal_player(shape, features)

    @njit(cache=True, nogil=True, _nrt=False)
    def play_matches(kinds, params, entry_fns, search_fn, rules, seed, first, count, n_rot,
                     out, work16, work64):
        """Like ``play_deals`` for matches: one ``M_*`` record per (match, rotation); the
        deal passes round the table (:func:`~briscasim.engine.match.seating`), and sides
        in the record are the players' sides (jitted, releases the GIL).
        """
        n = rules[R_PLAYERS]
        state, deck, partners, rngs, card_rng, legal = _scratch(work16, work64)
        public = state[:PUBLIC_LEN]
        won = work64[:MAX_SIDES]
        points = work64[MAX_SIDES:2 * MAX_SIDES]
        for i in range(count):
            item = first + i
            key = item_key(seed, item)
            for r in range(n_rot):
                won[:] = 0
                points[:] = 0
                black = 0
                j = 0
                counted = 0
                shift = 0       # times the deal has passed on (j, but for redeals)
                result = UNDECIDED
                while result == UNDECIDED:
                    shuffled_deck(rules, deck, partners, card_rng, key, j)
                    if not play_one(rules, kinds, params, entry_fns, search_fn, state,
                                    public, rngs, legal, deck, key, j, seating(shift, r, n)):
                        return item
                    tally = tally_deal(rules, state, shift, won, points)
                    black += (tally & TALLY_BLACK_HAND) != 0
                    counted += (tally & TALLY_THROWN_IN) == 0
                    shift += (tally & TALLY_SAME_DEALER) == 0
                    j += 1
                    result = match_result(rules, counted, j, won, points)
                row = i * n_rot + r
                out[row, M_WINNER] = result
                out[row, M_DEALS] = j
                out[row, M_BLACK_HANDS] = black
                for s in range(MAX_SIDES):
                    out[row, M_DEALS_WON + s] = won[s]
                    out[row, M_POINTS + s] = points[s]
        return -1

    return play_matches


CHIAMATA_FEATURES = F_AUCTION | F_LARGE_HAND
"""The rule features every Briscola Chiamata preset needs (the auction, hands of eight)."""

KERNEL_KEYS = {
    "deal": (*((shape, 0) for shape in SPECIAL_SHAPES), (EVERY_SHAPE, 0),
             (HAS_RANDOM, CHIAMATA_FEATURES), (EVERY_SHAPE, CHIAMATA_FEATURES),
             (EVERY_SHAPE, EVERY_FEATURE)),
    "match": ((EVERY_SHAPE, EVERY_FEATURE),),
}
"""The ``(shape, features)`` of every batch kernel, by match kind (``"deal"``: single deals,
``"match"``: matches), fastest first: what ``briscasim compile`` compiles ahead. Only the
specialisations that pay for themselves in speed are kept
(docs/notes/2026-12-06-compile-once.md): the classic rules (no ``F_*`` feature: most
presets) and, with them, lineups of random or expert players alone (``SPECIAL_SHAPES``); and
Briscola Chiamata's rules (``CHIAMATA_FEATURES``: 11-13% faster than every rule's kernel),
with them random players alone (10% faster again)."""

_KERNELS = {}
_KERNELS_LOCK = threading.Lock()


def _kind(match_kind: str) -> str:
    return "deal" if match_kind == "deal" else "match"


def _uncompiled(match_kind: str, shape: int, features: int):
    with _KERNELS_LOCK:
        key = (_kind(match_kind) == "deal", shape, features)
        if key not in _KERNELS:
            _KERNELS[key] = (deals_kernel if key[0] else matches_kernel)(shape, features)
    return _KERNELS[key]


def kernel_keys(match_kind: str, shape: int, features: int) -> list[tuple[int, int]]:
    """The ``(shape, features)`` of the kernels of :data:`KERNEL_KEYS` that play lineups
    holding the strategy kinds ``shape`` (``HAS_*``) on rules needing ``features``
    (``F_*``), fastest first."""
    return [key for key in KERNEL_KEYS[_kind(match_kind)]
            if shape & ~key[0] == 0 and features & ~key[1] == 0]


def kernel_key(match_kind: str, shape: int, features: int) -> tuple[int, int]:
    """Of :func:`kernel_keys`, the first compiled here or in the cache, else the kernel of
    every lineup for the first one's rule features: without ``briscasim compile``, one
    compile for the classic rules, one for Briscola Chiamata's and one for the others serve
    every later run (a run compiles only when no kernel that plays it is ready)."""
    holding = kernel_keys(match_kind, shape, features)
    for key in holding:
        if ready(_uncompiled(match_kind, *key), KERNEL_SIGNATURE):
            return key
    return [key for key in holding if key[1] == holding[0][1]][-1]


def kernel(match_kind: str, shape: int, features: int = EVERY_FEATURE):
    """The batch kernel for ``match_kind`` (``"deal"``: single deals, else matches), lineups
    of ``shape`` and rules of ``features`` (``F_*``: the rule features whose code it holds),
    compiled or loaded from the numba cache on its first use."""
    return compiled(_uncompiled(match_kind, shape, features), KERNEL_SIGNATURE)


def compiled_kernels() -> list[tuple[str, int, int]]:
    """The ``(match kind, shape, features)`` of every kernel this process has compiled or
    loaded from the cache, sorted."""
    return sorted(("deal" if d else "match", shape, f)
                  for (d, shape, f), k in list(_KERNELS.items()) if k.overloads)
