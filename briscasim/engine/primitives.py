"""The engine's primitives: events, indexing, cards and hands (jitted).

The small kernels every part of the engine and every strategy builds on:
:func:`emit` an event, :func:`at` an index, a card's points, strength, suit and face from
the rules vector, :func:`beats`, and the hand slots of the deal state (vector compares
over a hand's eight slots). :mod:`.core` (the deal) and :mod:`.chiamata` (the auction and
call) both import them.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.np.arrayobj import populate_array
from numba.extending import intrinsic, overload

from .. import jit as _jit  # noqa: F401  (mends numba's inliner before anything compiles)
from .layout import (EVERY_FEATURE, F_AUCTION, F_LARGE_HAND, MAX_HAND, NO_CARD, N_CARD_IDS,
                     R_AUCTION, R_CARD_FACE, R_CARD_POINTS, R_CARD_STRENGTH, R_CARD_SUIT,
                     R_HAND_SIZE, S_HANDS, S_KNOWN)


# ---- events --------------------------------------------------------------------------------

def emit(events, kind, seat, a, b):
    """Append the event ``(kind, seat, a, b)`` to ``events`` (jitted; layout ``EVENT_*``).

    ``events`` is an int16 buffer of ``MAX_EVENTS`` rows of ``EVENT_LEN`` (row 0 counts the
    events; a full buffer keeps its first events), or ``None``: then the call compiles to
    nothing, so the batch kernels pay nothing for the events they do not ask for."""


@overload(emit, inline="always", jit_options={"_nrt": False})
def _emit(events, kind, seat, a, b):
    if isinstance(events, (types.NoneType, types.Omitted)):
        return lambda events, kind, seat, a, b: None

    def write(events, kind, seat, a, b):
        i = events[0, 0] + 1
        if i < events.shape[0]:
            events[i, 0] = kind
            events[i, 1] = seat
            events[i, 2] = a
            events[i, 3] = b
            events[0, 0] = i
    return write


# ---- indexing ----------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def at(i):
    """``i`` as an unsigned array index (jitted).

    Numba wraps a negative signed index around (a compare and a select on every access);
    every index the engine computes is non-negative, so the hot paths index with ``at(i)``
    and skip that work. ``i`` must be ``>= 0``: there is no bounds check either way.
    """
    return np.uint64(i)


@njit(cache=True, _nrt=False, inline="always")
def seat_after(seat, k, n):
    """The seat ``k`` places after ``seat`` at a table of ``n``, for ``0 <= k < n`` (jitted;
    a compare, not the division of a signed ``%``)."""
    p = seat + k
    return p - n if p >= n else p


# ---- cards ---------------------------------------------------------------------------
# Per-card tables of the rules vector: no division by 12 (signed, so costly) in the kernels.

@njit(cache=True, _nrt=False, inline="always")
def card_points(rules, card):
    """Points of a card under these rules (jitted)."""
    return rules[at(R_CARD_POINTS + card)]


@njit(cache=True, _nrt=False, inline="always")
def card_strength(rules, card):
    """Strength of a card within its suit, higher wins (jitted)."""
    return rules[at(R_CARD_STRENGTH + card)]


@njit(cache=True, _nrt=False, inline="always")
def card_suit(rules, card):
    """Suit of a card, 0..3 (jitted)."""
    return rules[at(R_CARD_SUIT + card)]


@njit(cache=True, _nrt=False, inline="always")
def card_face(rules, card):
    """Face of a card, 0..11 (jitted)."""
    return rules[at(R_CARD_FACE + card)]


@njit(cache=True, _nrt=False, inline="always")
def beats(rules, card, best, trump):
    """True if ``card`` beats ``best``, the card currently winning the trick (jitted)."""
    cs = card_suit(rules, card)
    bs = card_suit(rules, best)
    # branch-free: which card wins is as random as the deal
    return ((cs == bs) & (card_strength(rules, card) > card_strength(rules, best))) | (
        (cs != bs) & (cs == trump))


# ---- hands -----------------------------------------------------------------------------
# A seat's hand is MAX_HAND slots of the state from S_HANDS + seat * MAX_HAND; a hand of
# hand_size cards fills the first hand_size of them, and every empty slot is NO_CARD (where a
# card was played, or, when the hands are packed, the slots after the cards left). The
# slot tests compare all MAX_HAND slots at once (one vector compare): the empty slots past
# the hand size never match a card, so the same code serves every hand size.

assert MAX_HAND == 8, "slots_equal compares eight slots"


def _splat(builder, value, lanes):
    """The code of a vector of ``lanes`` int16, each ``value``."""
    vector = ir.VectorType(ir.IntType(16), lanes)
    one = builder.insert_element(ir.Constant(vector, ir.Undefined),
                                 builder.trunc(value, ir.IntType(16)), ir.IntType(32)(0))
    return builder.shuffle_vector(one, ir.Constant(vector, ir.Undefined),
                                  ir.Constant(ir.VectorType(ir.IntType(32), lanes),
                                              [0] * lanes))


def _equal_bits(context, builder, array_type, array, first, value, lanes, below=False):
    """The code of a bit per entry ``i`` of ``array[first + i] == value`` (or, with
    ``below``, ``0 <= array[first + i] < value``) for ``lanes`` int16 entries: one vector
    compare, zero-extended to 64 bits."""
    data = context.make_array(array_type)(context, builder, array).data
    vector = ir.VectorType(ir.IntType(16), lanes)
    entries = builder.load(builder.bitcast(builder.gep(data, [first]), vector.as_pointer()),
                           align=2)
    every = _splat(builder, value, lanes)
    test = (builder.icmp_unsigned("<", entries, every) if below
            else builder.icmp_signed("==", entries, every))
    return builder.zext(builder.bitcast(test, ir.IntType(lanes)), ir.IntType(64))


@intrinsic
def window(typingctx, array, start, length):
    """``array[start:start + length]`` as a view, without a slice's tests (jitted; ``array``
    a contiguous 1-d array, ``0 <= start`` and ``start + length <= len(array)``: there is no
    bounds check). The batch loop cuts the seat's hand and stream with it at every decision,
    where a slice clamps its bounds and multiplies by a row stride read at run time."""
    if not (isinstance(array, types.Array) and array.ndim == 1 and array.layout == "C"):
        return None

    def codegen(context, builder, signature, args):
        source, first, n = args
        array_type = signature.args[0]
        whole = context.make_array(array_type)(context, builder, source)
        part = context.make_array(array_type)(context, builder)
        first = context.cast(builder, first, signature.args[1], types.intp)
        n = context.cast(builder, n, signature.args[2], types.intp)
        itemsize = context.get_constant(types.intp,
                                        context.get_abi_sizeof(context.get_data_type(
                                            array_type.dtype)))
        populate_array(part, data=builder.gep(whole.data, [first]),
                       shape=cgutils.pack_array(builder, [n]),
                       strides=cgutils.pack_array(builder, [itemsize]), itemsize=itemsize,
                       meminfo=whole.meminfo, parent=whole.parent)
        # a new reference to the array's memory (a no-op in kernels compiled without NRT)
        return impl_ret_borrowed(context, builder, array_type, part._getvalue())
    return array(array, start, length), codegen


@intrinsic
def slots_equal(typingctx, state, start, value):
    """A bit per slot ``i`` of ``state[start + i] == value`` for the eight slots from
    ``start`` (jitted; one vector compare; ``state`` an int16 array with the eight entries in
    it: there is no bounds check)."""
    def codegen(context, builder, signature, args):
        array, first, v = args
        return _equal_bits(context, builder, signature.args[0], array, first, v, MAX_HAND)
    return types.int64(state, start, value), codegen


@intrinsic
def known_bits(typingctx, public, value):
    """A bit per card id ``c`` of ``public[S_KNOWN + c] == value`` (jitted; vector compares;
    ``public`` an int16 array holding at least the public state)."""
    def codegen(context, builder, signature, args):
        array, v = args
        return _equal_bits(context, builder, signature.args[0], array,
                           ir.IntType(64)(S_KNOWN), v, N_CARD_IDS)
    return types.int64(public, value), codegen


@intrinsic
def known_in_hands(typingctx, public, players):
    """A bit per card id ``c`` publicly known to be in a hand: ``0 <= public[S_KNOWN + c] <
    players`` (jitted; vector compares)."""
    def codegen(context, builder, signature, args):
        array, n = args
        return _equal_bits(context, builder, signature.args[0], array,
                           ir.IntType(64)(S_KNOWN), n, N_CARD_IDS, below=True)
    return types.int64(public, players), codegen


@intrinsic
def popcount(typingctx, x):
    """Set bits of the int64 ``x`` (jitted; LLVM's ``ctpop``: one instruction where the
    processor has it)."""
    def codegen(context, builder, signature, args):
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, args)
    return types.int64(types.int64), codegen


@intrinsic
def remove_slot(typingctx, state, start, slot):
    """Take the card out of slot ``slot`` of the eight slots from ``start``, moving the later
    slots down one and ``NO_CARD`` into the last (jitted; one vector load, shuffle, select and
    store; ``state`` an int16 array with the eight entries in it: there is no bounds check)."""
    def codegen(context, builder, signature, args):
        array, first, k = args
        data = context.make_array(signature.args[0])(context, builder, array).data
        i16 = ir.IntType(16)
        lanes = ir.VectorType(i16, MAX_HAND)
        where = builder.bitcast(builder.gep(data, [first]), lanes.as_pointer())
        slots = builder.load(where, align=2)
        down = builder.shuffle_vector(
            slots, ir.Constant(lanes, [NO_CARD] * MAX_HAND),
            ir.Constant(ir.VectorType(ir.IntType(32), MAX_HAND), list(range(1, MAX_HAND + 1))))
        before = builder.icmp_signed("<", ir.Constant(lanes, list(range(MAX_HAND))),
                                     _splat(builder, k, MAX_HAND))
        builder.store(builder.select(before, slots, down), where, align=2)
        return context.get_dummy_value()
    return types.none(state, start, slot), codegen


@njit(cache=True, _nrt=False, inline="always")
def packed_hands(rules, features=EVERY_FEATURE):
    """True if the hands are kept packed: a card played leaves the hand by
    :func:`remove_slot`, so a hand of ``k`` cards fills its first ``k`` slots in the order
    dealt. So in Briscola Chiamata, where every card is dealt and none drawn: the hand is
    its own legal list (:func:`legal_view`). Games with a stock leave the slot empty for
    the card drawn next (jitted)."""
    return (features & F_AUCTION) != 0 and rules[R_AUCTION] != 0


@njit(cache=True, _nrt=False, inline="always")
def hand_base(seat):
    """Index in the state of the seat's first hand slot (jitted)."""
    return S_HANDS + seat * MAX_HAND


@njit(cache=True, _nrt=False, inline="always")
def hand_of(rules, state, seat):
    """The seat's hand as strategies receive it: its first ``hand_size`` slots, a view of
    ``state`` (jitted)."""
    base = hand_base(seat)
    return state[base:base + rules[R_HAND_SIZE]]


@njit(cache=True, _nrt=False, inline="always")
def hand_bits(state, base, value, features=EVERY_FEATURE):
    """A bit per slot ``i`` of the hand from ``base`` of ``state[base + i] == value``
    (jitted): :func:`slots_equal`'s eight slots, or, when no hand holds more than three
    cards (no ``F_LARGE_HAND``), the three slots a hand uses, read one by one. For the reads
    that follow a store to the same hand closely (a card drawn into the slot just played
    from; the swap checks after a trick): a store of one slot forwards to a load of that
    slot, while a vector load of the eight waits until the store has completed.
    """
    if features & F_LARGE_HAND:
        return slots_equal(state, base, value)
    return (np.int64(state[at(base)] == value) | (np.int64(state[at(base + 1)] == value) << 1)
            | (np.int64(state[at(base + 2)] == value) << 2))


@njit(cache=True, _nrt=False, inline="always")
def hand_slot(state, seat, card):
    """Slot of ``card`` in the seat's hand, or -1 (jitted)."""
    # branch-free (which slot holds the card is as random as the deal): the first set bit
    first = trailing_zeros(slots_equal(state, hand_base(seat), card) | (1 << MAX_HAND))
    return first if first < MAX_HAND else -1


@njit(cache=True, _nrt=False, inline="always")
def holds(state, seat, card, features=EVERY_FEATURE):
    """True if the seat's hand holds ``card`` (jitted)."""
    return hand_bits(state, hand_base(seat), card, features) != 0


@njit(cache=True, _nrt=False, inline="always")
def give(state, seat, card, features=EVERY_FEATURE):
    """Put ``card`` in the seat's first empty slot (a drawing seat has one)."""
    base = hand_base(seat)
    state[at(base + trailing_zeros(hand_bits(state, base, NO_CARD, features)))] = card
