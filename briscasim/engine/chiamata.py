"""Briscola Chiamata in the engine: the auction, the reopen question, the call, the result.

These kernels run the phases a Chiamata deal passes through before ``PHASE_PLAY``
(``PHASE_AUCTION``, ``PHASE_REOPEN``, ``PHASE_CALL``) and settle the contract when the last
trick is taken; :func:`briscasim.engine.core.step`, :func:`~briscasim.engine.core.legal_actions`
and :func:`~briscasim.engine.core.write_record` call them, so the trick games never reach
them. The play itself is the engine's (no stock, no face-up card). Like the engine, they are
built on :mod:`.primitives` alone.

Bids are levels (``ACTION_BID + level``, :mod:`briscasim.engine.layout`): 0..8 the ranks
A 3 R C S 7 6 5 4, then ``9 + p - 61`` the contract of ``p`` points. Everything about the
auction and the call is public; the seat that holds the called card is kept in the hidden
part of the state (``S_HOLDER``) until that card is played (:func:`trick_partner`; recorded
in ``S_PARTNER`` when its trick is taken).
"""
from numba import njit

from .layout import (
    ACTION_BID, ACTION_CALL, ACTION_PASS, ALL_PASS_REOPEN_61, AUCTION_POINTS_ONLY,
    AUCTION_RANK_ONLY, CAPPOTTO_OFF, CAPPOTTO_POINTS, DEFENDERS, DRAW, EVENT_BID, EVENT_CALL,
    EVENT_OVER, EVENT_PASS, EVENT_REOPEN, FIRST_POINT_BID, KNOWN_OUT, KNOWN_PLAYED, LEAD_CALLER,
    MAX_PLAYERS, MULTIPLIER_LADDER, N_BID_LEVELS, N_CARD_IDS, N_RANK_BIDS, PHASE_AUCTION,
    PHASE_CALL, PHASE_OVER, PHASE_PLAY, PHASE_REOPEN, REC_CALLED, REC_CALLER, REC_CONTRACT,
    REC_GAME_POINTS, REC_MULTIPLIER, REC_PARTNER, REC_SIDE_POINTS, REC_SIDE_TRICKS, REC_SUCCESS,
    REC_TARGET, R_ALL_PASS, R_AUCTION, R_BID_MULTIPLIER, R_CAPPOTTO, R_FIRST_LEAD, R_MIN_POINTS,
    R_PLAYERS, R_SELF_CALL, S_BID, S_BIDDER, S_CALLED, S_CALLER, S_GAME_POINTS, S_HOLDER,
    S_KNOWN, S_LEADER, S_N_TRICKS, S_PARTNER, S_PASSED, S_PHASE, S_POINTS, S_REOPENED,
    S_SEAT_BIDS, S_TRICK, S_TRICKS_WON, S_TRICK_N, S_TRUMP, S_TURN, S_WINNER,
)
from .primitives import at, card_face, card_suit, emit, holds

_TWO = 11
_BID_FACES = (0, 1, 2, 3, 4, 7, 8, 9, 10)   # layout.BID_FACES, a tuple numba can index


# ---- bids --------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def point_level(rules, points):
    """The bid level of a contract of ``points`` card points (jitted)."""
    return N_RANK_BIDS + points - FIRST_POINT_BID


@njit(cache=True, _nrt=False, inline="always")
def bid_target(rules, level):
    """The card points the caller's side needs under the bid ``level`` (jitted): a rank
    contract needs ``min_points``, a point contract its points."""
    return rules[R_MIN_POINTS] if level < N_RANK_BIDS else level - N_RANK_BIDS + FIRST_POINT_BID


@njit(cache=True, _nrt=False, inline="always")
def bid_exists(rules, level):
    """True if ``level`` is a bid of these rules' auction (jitted): ranks A..4 in the rank
    auctions, then the point contracts from ``min_points`` (in ``rank_only`` only the plain
    two, at ``min_points``)."""
    if level < 0 or level >= N_BID_LEVELS:
        return False
    kind = rules[R_AUCTION]
    lowest = point_level(rules, rules[R_MIN_POINTS])
    if level < N_RANK_BIDS:
        return kind <= AUCTION_RANK_ONLY
    if kind == AUCTION_RANK_ONLY:
        return level == lowest
    return level >= lowest


@njit(cache=True, _nrt=False, inline="always")
def called_face(rules, state):
    """The face of the card the caller must call, or -1 when he may call any card (a points
    auction) (jitted)."""
    if rules[R_AUCTION] == AUCTION_POINTS_ONLY:
        return -1
    level = state[S_BID]
    return _BID_FACES[level] if level < N_RANK_BIDS else _TWO


@njit(cache=True, _nrt=False, inline="always")
def _callable(rules, state, card, face):
    return state[at(S_KNOWN + card)] != KNOWN_OUT and (face < 0 or card_face(rules, card) == face)


@njit(cache=True, _nrt=False, inline="always")
def _candidates(face):
    """The card ids a call of ``face`` may name, as ``(first, step, count)``: the four cards
    of the rank (a card id is ``suit * 12 + face``), or every card id after a points auction
    (``face`` -1)."""
    return (face, 12, 4) if face >= 0 else (0, 1, N_CARD_IDS)


@njit(cache=True, _nrt=False)
def may_call(rules, state, card):
    """True if the caller may call ``card`` now (jitted): a card of the contract's rank (any
    card after a points auction); without ``self_call``, not one in his own hand unless he
    holds every card he could call."""
    face = called_face(rules, state)
    if card < 0 or card >= N_CARD_IDS or not _callable(rules, state, card, face):
        return False
    if rules[R_SELF_CALL] != 0:
        return True
    caller = state[S_CALLER]
    if not holds(state, caller, card):
        return True
    first, step, count = _candidates(face)
    for i in range(count):
        c = first + step * i
        if _callable(rules, state, c, face) and not holds(state, caller, c):
            return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def _legal_calls(rules, state, out):
    """The cards the caller may call (:func:`may_call`), in card order, as call actions into
    ``out``; return how many. Only the cards of the rank are looked at."""
    face = called_face(rules, state)
    first, step, count = _candidates(face)
    caller = state[S_CALLER]
    free = rules[R_SELF_CALL] != 0
    k = 0
    for i in range(count):
        c = first + step * i
        out[at(k)] = ACTION_CALL + c
        k += _callable(rules, state, c, face) and (free or not holds(state, caller, c))
    if k > 0:
        return k
    # he holds every card he could call: he calls one of his own
    for i in range(count):
        c = first + step * i
        out[at(k)] = ACTION_CALL + c
        k += _callable(rules, state, c, face)
    return k


@njit(cache=True, _nrt=False, inline="always")
def legal_auction_actions(rules, state, out):
    """The legal actions of a Chiamata phase before the play into ``out``; return how many
    (jitted): in the auction a pass, then every bid above the standing one; at the reopen
    question a pass (decline) or the bid of ``min_points``; at the call every card that may
    be called.

    The bids above the standing one are at most two runs of consecutive levels (the ranks
    still open, then the point contracts from ``min_points``: :func:`bid_exists`), written
    without a test per level."""
    phase = state[S_PHASE]
    if phase == PHASE_CALL:
        return _legal_calls(rules, state, out)
    out[0] = ACTION_PASS
    lowest = point_level(rules, rules[R_MIN_POINTS])
    if phase == PHASE_REOPEN:
        out[1] = ACTION_BID + lowest
        return 2
    kind = rules[R_AUCTION]
    first = state[S_BID] + 1
    k = 1
    if kind <= AUCTION_RANK_ONLY:
        for level in range(first, N_RANK_BIDS):
            out[at(k)] = ACTION_BID + level
            k += 1
    top = lowest + 1 if kind == AUCTION_RANK_ONLY else N_BID_LEVELS
    for level in range(max(first, lowest), top):
        out[at(k)] = ACTION_BID + level
        k += 1
    return k


@njit(cache=True, _nrt=False)
def holder_of(state, card):
    """The seat whose hand holds ``card``, else -1 (jitted)."""
    holder = -1
    for s in range(MAX_PLAYERS):
        holder = s if holds(state, s, card) else holder
    return holder


@njit(cache=True, _nrt=False)
def place_holder(state):
    """Set the hidden holder of the called card (``S_HOLDER``) of a state whose hands were
    filled in, as a search's sampled world is, unless it is already known (the card has been
    played, :func:`trick_partner`): the seat whose hand holds it (jitted)."""
    if state[S_HOLDER] < 0:
        state[S_HOLDER] = holder_of(state, state[S_CALLED])


# ---- the phases --------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def _next_in_auction(state, seat, n):
    """The next seat after ``seat`` that has not passed."""
    passed = state[S_PASSED]
    for k in range(1, n + 1):
        p = seat + k
        p = p - n if p >= n else p
        if (passed >> p) & 1 == 0:
            return p
    return seat


@njit(cache=True, _nrt=False, inline="always")
def _bid(rules, state, seat, level, events):
    state[S_BID] = level
    state[S_BIDDER] = seat
    state[S_SEAT_BIDS + seat] = level
    emit(events, EVENT_BID, seat, level, bid_target(rules, level))


@njit(cache=True, _nrt=False)
def _throw_in(state, events):
    """Everybody passed and nobody reopened: the deal is over, nothing scored."""
    state[S_WINNER] = DRAW
    state[S_PHASE] = PHASE_OVER
    emit(events, EVENT_OVER, DRAW, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def auction_step(rules, state, action, events):
    """:func:`~briscasim.engine.core.step` in ``PHASE_AUCTION``, ``PHASE_REOPEN`` and
    ``PHASE_CALL``: the seat to act next, or -1 if ``action`` is not legal (jitted)."""
    n = rules[R_PLAYERS]
    phase = state[S_PHASE]
    seat = state[S_TURN]
    if phase == PHASE_CALL:
        card = action - ACTION_CALL
        if not may_call(rules, state, card):
            return -1
        state[S_CALLED] = card
        state[S_HOLDER] = holder_of(state, card)
        state[S_TRUMP] = card_suit(rules, card)
        emit(events, EVENT_CALL, seat, card, card_suit(rules, card))
        lead = seat if rules[R_FIRST_LEAD] == LEAD_CALLER else 0
        state[S_PHASE] = PHASE_PLAY
        state[S_LEADER] = lead
        state[S_TURN] = lead
        return lead
    level = action - ACTION_BID
    if phase == PHASE_REOPEN:
        if action == ACTION_PASS:
            emit(events, EVENT_REOPEN, seat, 0, -1)
            if seat == n - 1:
                _throw_in(state, events)
                return seat
            state[S_TURN] = seat + 1
            return seat + 1
        if level != point_level(rules, rules[R_MIN_POINTS]):
            return -1
        emit(events, EVENT_REOPEN, seat, 1, -1)
        state[S_PASSED] = 0
        state[S_PHASE] = PHASE_AUCTION
        _bid(rules, state, seat, level, events)
        nxt = _next_in_auction(state, seat, n)
        state[S_TURN] = nxt
        return nxt
    if phase != PHASE_AUCTION:
        return -1
    if action == ACTION_PASS:
        state[S_PASSED] |= 1 << seat
        emit(events, EVENT_PASS, seat, -1, -1)
    elif level > state[S_BID] and bid_exists(rules, level):
        _bid(rules, state, seat, level, events)
    else:
        return -1
    waiting = ((1 << n) - 1) & ~state[S_PASSED]     # the seats that have not passed
    if waiting == 0:
        if rules[R_ALL_PASS] == ALL_PASS_REOPEN_61 and state[S_REOPENED] == 0:
            state[S_REOPENED] = 1
            state[S_PHASE] = PHASE_REOPEN
            state[S_TURN] = 0
            return 0
        _throw_in(state, events)
        return seat
    if waiting & (waiting - 1) == 0 and state[S_BIDDER] >= 0:     # one seat is left
        caller = state[S_BIDDER]
        state[S_CALLER] = caller
        state[S_PHASE] = PHASE_CALL
        state[S_TURN] = caller
        return caller
    nxt = _next_in_auction(state, seat, n)
    state[S_TURN] = nxt
    return nxt


@njit(cache=True, _nrt=False, inline="always")
def reveal_partner(rules, state):
    """Record the partner (``S_PARTNER``) when the trick just completed holds the called card
    (jitted; once per trick, not on every card: the card itself is public in the trick as
    soon as it is played, :func:`trick_partner`)."""
    state[S_PARTNER] = trick_partner(rules, state)


@njit(cache=True, _nrt=False, inline="always")
def trick_partner(rules, state):
    """The seat that played the called card, from ``S_PARTNER`` or the current trick; -1 while
    it is unplayed (jitted; reads the public state only)."""
    partner = state[S_PARTNER]
    called = state[S_CALLED]
    if partner >= 0 or state[at(S_KNOWN + called)] != KNOWN_PLAYED:
        return partner      # known already, or unplayed (no call yet: the NO_CARD entry)
    n = rules[R_PLAYERS]
    leader = state[S_LEADER]
    for i in range(state[S_TRICK_N]):
        if state[S_TRICK + i] == called:
            p = leader + i
            partner = p - n if p >= n else p
    return partner


# ---- the result --------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def _ladder(target):
    """The multiplier of a contract's target under ``bid_multiplier = "ladder"``:
    61-70 x1, 71-80 x2, 81-90 x3, 91-100 x4, 101-120 x5."""
    if target <= 70:
        return 1
    if target <= 100:
        return (target - 61) // 10 + 1
    return 5


@njit(cache=True, _nrt=False)
def side_totals(state):
    """Card points and tricks of the caller's side in a finished, played deal."""
    caller = state[S_CALLER]
    holder = state[S_HOLDER]
    pts = state[S_POINTS + caller]
    tricks = state[S_TRICKS_WON + caller]
    if holder != caller:
        pts += state[at(S_POINTS + holder)]
        tricks += state[at(S_TRICKS_WON + holder)]
    return pts, tricks


@njit(cache=True, _nrt=False)
def settle(rules, state, events):
    """Score the finished deal (jitted): the caller's side (caller and holder of the called
    card) against its target, the multiplier (ladder, cappotto), every seat's game points."""
    n = rules[R_PLAYERS]
    caller = state[S_CALLER]
    holder = state[S_HOLDER]
    pts, tricks = side_totals(state)
    total = 0
    for s in range(n):
        total += state[S_POINTS + s]
    target = bid_target(rules, state[S_BID])
    success = pts >= target
    mult = _ladder(target) if rules[R_BID_MULTIPLIER] == MULTIPLIER_LADDER else 1
    cappotto = rules[R_CAPPOTTO]
    if cappotto == CAPPOTTO_POINTS:
        mult *= 2 if pts == total or pts == 0 else 1
    elif cappotto != CAPPOTTO_OFF:
        mult *= 2 if tricks == state[S_N_TRICKS] or tricks == 0 else 1
    unit = mult if success else -mult
    for s in range(n):
        state[S_GAME_POINTS + s] = -unit
    if holder == caller:
        state[S_GAME_POINTS + caller] = (n - 1) * unit
    else:
        state[S_GAME_POINTS + caller] = 2 * unit
        state[at(S_GAME_POINTS + holder)] = unit
    state[S_WINNER] = caller if success else DEFENDERS
    state[S_PHASE] = PHASE_OVER
    emit(events, EVENT_OVER, state[S_WINNER], pts, total - pts)


@njit(cache=True, _nrt=False)
def write_contract(rules, state, out):
    """The Chiamata fields of a finished deal's record (jitted)."""
    n = rules[R_PLAYERS]
    for s in range(n):
        out[REC_GAME_POINTS + s] = state[S_GAME_POINTS + s]
    for s in range(n, 6):
        out[REC_GAME_POINTS + s] = 0
    caller = state[S_CALLER]
    if caller < 0 or state[S_CALLED] < 0:
        for f in (REC_CONTRACT, REC_TARGET, REC_CALLER, REC_CALLED, REC_PARTNER,
                  REC_SIDE_POINTS, REC_SIDE_TRICKS, REC_SUCCESS):
            out[f] = -1
        out[REC_MULTIPLIER] = 0
        return
    pts, tricks = side_totals(state)
    out[REC_CONTRACT] = state[S_BID]
    out[REC_TARGET] = bid_target(rules, state[S_BID])
    out[REC_CALLER] = caller
    out[REC_CALLED] = state[S_CALLED]
    out[REC_PARTNER] = state[S_HOLDER]
    out[REC_SIDE_POINTS] = pts
    out[REC_SIDE_TRICKS] = tricks
    out[REC_SUCCESS] = 1 if state[S_WINNER] == caller else 0
    g = state[S_GAME_POINTS + caller]
    base = (n - 1) if state[S_HOLDER] == caller else 2
    out[REC_MULTIPLIER] = (g if g > 0 else -g) // base
