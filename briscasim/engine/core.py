"""The rules engine: one set of jitted kernels for every variant of docs/rules.md.

Every function here is ``@njit(cache=True)`` and works on the arrays of
:mod:`briscasim.engine.layout`: ``rules`` (the int64 rules vector) and ``state`` (the int16
deal state). Batch simulation, search, replays and interactive play all call these.

A deal runs as: :func:`start_deal` with a deck order, then :func:`step` with one action at a
time until the phase is ``PHASE_OVER``. :func:`legal_actions` lists what the seat to act may do.
Between tricks the engine resolves the trick, offers the swap to the winner (phase
``PHASE_SWAP``) when docs/rules.md allows it, and draws, all inside :func:`step`. Briscola
Chiamata's auction, reopen question and call come before the play (:mod:`.chiamata`). The
events, card tables and hand slots they build on are :mod:`.primitives`.
"""
import numpy as np
from numba import njit

from .. import jit as _jit  # noqa: F401  (mends numba's inliner before anything compiles)
from . import chiamata
from .layout import (
    ACTION_KEEP, ACTION_SWAP, DRAW, EVENT_BLACK_HAND, EVENT_DEALT, EVENT_DECLINE, EVENT_DRAW,
    EVENT_OVER, EVENT_PLAY, EVENT_SWAP, EVENT_TRICK, EVENT_TURNED, KNOWN_FACE_UP, KNOWN_PLAYED,
    LEFTOVER_FACE_UP, MAX_HAND,
    NO_CARD, N_CARD_IDS, OBJECTIVE_FEWEST, PHASE_OVER, PHASE_PLAY, PHASE_SWAP, PLAY_SEAT,
    REC_BLACK_HAND,
    REC_LAST_WINNER, REC_OUT_POINTS, REC_POINTS, REC_SWAP2_CARD, REC_SWAP2_DECLINED,
    REC_SWAP2_SEAT, REC_SWAP2_TRICK, REC_SWAP7_CARD, REC_SWAP7_DECLINED, REC_SWAP7_SEAT,
    REC_SWAP7_TRICK, REC_TRUMP, REC_TURNED, REC_WINNER, R_BLACK_HAND, 
    R_AUCTION, R_DECK, R_DECK_N, R_HAND_SIZE, R_LEFTOVER,
    R_N_SIDES,
    R_N_UNDRAWN, R_OBJECTIVE, R_PLAYERS, R_RESHUFFLE, R_SEVEN_FACES, R_SIDE, R_START_STATE,
    R_SWAP_SEVEN, R_SWAP_TIMING, R_SWAP_TWO, R_TIE, R_TWO_FACES, START_STATE_SLOTS, STATE_LEN,
    S_BLACK_HAND, S_DRAWN, S_FACEDOWN_TO_DRAW, S_FACE_UP, S_KNOWN, S_LAST_WINNER,
    S_LAST_WON, S_LEADER, S_N_FACEDOWN, S_N_TRICKS, S_PHASE, S_PLAYS, S_POINTS, S_STOCK,
    S_SWAP2_CARD,
    S_SWAP2_DECLINED, S_SWAP2_SEAT, S_SWAP2_TRICK, S_SWAP7_CARD, S_SWAP7_DECLINED,
    S_SWAP7_SEAT, S_SWAP7_TRICK, S_TO_DRAW, S_TRICK, S_TRICKS_WON, S_TRICK_N, S_TRICK_NO,
    S_TRUMP, S_TURN, S_TURNED, S_WINNER, TIE_LAST_TRICK, TIMING_BEFORE_DRAW,
)
from .layout import (  # the options of the named forms, and the features a kernel holds
    EVERY_FEATURE, F_AUCTION, F_BLACK_HAND, F_FOLLOW_SUIT, F_PLAYS, F_RAIS,
    F_SHOWN, F_TARGET,
    EVENT_TARGET, KNOWN_STOCK_TOP, R_FOLLOW_SUIT, R_NO_TRUMP, R_OPEN_HANDS, R_STOCK_TOP_VISIBLE,
    R_RAIS, R_SIGNALS, R_TARGET_POINTS, RAIS_CARICO, RAIS_DRESSED_TRUMP, RAIS_HAND_SHIFT,
    RAIS_LOW_TRUMP, RAIS_WINNER, RAIS_WINNER_KNOWN, RAIS_WORTHLESS, REC_TARGET_SEAT,
    SIGNALS_RAIS, SIG_VALID, S_SEAT_POINTS, S_TARGET_SEAT,
)
from .primitives import (at, beats, card_face, card_points, card_suit, emit, give, hand_base,
                         hand_slot, holds, packed_hands, remove_slot, seat_after, slots_equal,
                         window)
from .rng import STREAMS_PER_DEAL, shuffle, start_stream, substream_key

_ACE, _THREE, _KING, _SEVEN, _TWO = 0, 1, 2, 7, 11
_JACK, _SIX, _FOUR = 4, 8, 10


# ---- tricks ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def trick_winner_index(rules, state):
    """Index, in playing order, of the card winning the current trick so far (jitted)."""
    return _winning(rules, state, state[S_TRICK_N])[0]


@njit(cache=True, _nrt=False, inline="always")
def trick_so_far(rules, state):
    """The current trick, at least one card played: the index in playing order of the card
    winning it so far, that card, and the card points on the table (jitted; one pass)."""
    return _winning(rules, state, state[S_TRICK_N])


@njit(cache=True, _nrt=False, inline="always")
def _winning(rules, state, k):
    """Index and card of the card winning among the first ``k >= 1`` cards of the trick, and
    the card points of those ``k`` cards."""
    trump = state[S_TRUMP]
    best = 0
    best_card = state[S_TRICK]
    points = card_points(rules, best_card)
    for i in range(1, k):
        card = state[S_TRICK + i]
        points += card_points(rules, card)
        b = beats(rules, card, best_card, trump)
        best = i if b else best
        best_card = card if b else best_card
    return best, best_card, points


@njit(cache=True, _nrt=False)
def _following_cards(rules, state, seat, out):
    """Under ``must_follow_suit``: write the seat's cards of the suit led into ``out`` and
    return how many (0: it holds none, and may play any card) (out of line)."""
    led = card_suit(rules, state[S_TRICK])
    base = hand_base(seat)
    k = 0
    for i in range(MAX_HAND):
        c = state[at(base + i)]
        out[at(k)] = c
        k += card_suit(rules, c) == led
    return k


@njit(cache=True, _nrt=False)
def _fails_to_follow(rules, state, seat, card):
    """Under ``must_follow_suit``: True if ``card`` is not of the suit led while the seat
    holds a card of it (out of line)."""
    led = card_suit(rules, state[S_TRICK])
    if card_suit(rules, card) == led:
        return False
    base = hand_base(seat)
    for i in range(MAX_HAND):
        if card_suit(rules, state[at(base + i)]) == led:
            return True
    return False


@njit(cache=True, _nrt=False)
def _black_hand(rules, state, seat):
    """True if ``seat`` holds the trump A, 3 and R (called only under the black-hand rule,
    and out of line: it is rare, and kept out of the kernels' code)."""
    t = state[S_TRUMP] * 12
    return (holds(state, seat, t + _ACE) and holds(state, seat, t + _THREE)
            and holds(state, seat, t + _KING))


@njit(cache=True, _nrt=False, inline="always")
def _end_by_black_hand(rules, state, seat, events):
    side = rules[at(R_SIDE + seat)]
    state[S_BLACK_HAND] = seat
    state[S_WINNER] = side
    state[S_PHASE] = PHASE_OVER
    emit(events, EVENT_BLACK_HAND, seat, -1, -1)
    emit(events, EVENT_OVER, side, state[S_POINTS], state[S_POINTS + 1])


# ---- dealing ---------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def start_deal(rules, state, deck, events=None, features=EVERY_FEATURE):
    """Set up a deal from ``deck``: the ``R_DECK_N`` cards in play order, top first; report
    the cards dealt and the card turned into ``events`` (or ``None``) (jitted).

    Copies the rules vector's ``R_START_STATE`` (all that does not depend on the cards, worked
    out once by :meth:`briscasim.rules.Rules.to_array`), deals ``hand_size`` cards to each seat
    one at a time from seat 0, turns the next card face up (with ``face_up_reshuffle``, an A or 3 goes
    back into the middle of the stock; with ``trump = none`` no card is turned: the start
    state says there is no trump), and checks for a black hand in dealing order.
    ``features`` (``F_*``) names the rule features whose code is compiled in (every one by
    default).
    """
    n = rules[R_PLAYERS]
    start = rules[R_START_STATE:R_START_STATE + START_STATE_SLOTS].view(np.int16)
    for i in range(STATE_LEN):
        state[i] = start[i]
    pos = 0
    for r in range(rules[R_HAND_SIZE]):
        for s in range(n):
            state[at(hand_base(s) + r)] = deck[at(pos)]
            emit(events, EVENT_DEALT, s, deck[at(pos)], -1)
            pos += 1
    if features & F_AUCTION and rules[R_AUCTION] != 0:
        return      # Briscola Chiamata: every card is dealt; the auction comes next
    m = state[S_N_FACEDOWN]
    if rules[R_NO_TRUMP] != 0:
        for i in range(m):
            state[at(S_STOCK + i)] = deck[at(pos + i)]
        if features & F_SHOWN and (rules[R_OPEN_HANDS] | rules[R_STOCK_TOP_VISIBLE]) != 0:
            _show_dealt(rules, state)
        return
    turned = deck[at(pos)]
    for i in range(m):
        state[at(S_STOCK + i)] = deck[at(pos + 1 + i)]
    if rules[R_RESHUFFLE] != 0:
        # docs/rules.md: the A or 3 goes back after floor(m/2) face-down cards, the top one
        # is turned; if every candidate is an A or 3, the last one turned stays.
        tries = 0
        while ((card_face(rules, turned) == _ACE or card_face(rules, turned) == _THREE)
               and tries < m + 1 and m > 0):
            half = m // 2
            if half > 0:
                top = state[S_STOCK]
                for i in range(half - 1):
                    state[S_STOCK + i] = state[S_STOCK + i + 1]
                state[S_STOCK + half - 1] = turned
                turned = top
            tries += 1
    state[S_TRUMP] = card_suit(rules, turned)
    state[S_FACE_UP] = turned
    state[S_TURNED] = turned
    state[at(S_KNOWN + turned)] = KNOWN_FACE_UP
    emit(events, EVENT_TURNED, -1, turned, state[S_TRUMP])
    if features & F_SHOWN and (rules[R_OPEN_HANDS] | rules[R_STOCK_TOP_VISIBLE]) != 0:
        _show_dealt(rules, state)
    if features & F_BLACK_HAND and rules[R_BLACK_HAND] != 0:
        for s in range(n):
            if _black_hand(rules, state, s):
                _end_by_black_hand(rules, state, s, events)
                return


@njit(cache=True, _nrt=False, inline="always")
def default_deck(rules, out):
    """Write the unshuffled deck of these rules into ``out`` (jitted)."""
    for i in range(rules[R_DECK_N]):
        out[i] = rules[R_DECK + i]


@njit(cache=True, _nrt=False, inline="always")
def shuffled_deck(rules, deck, partners, rng, key, deal_no):
    """Write the deck order of deal ``deal_no`` of the item whose
    :func:`~briscasim.engine.rng.item_key` is ``key`` into ``deck``, drawing from its card
    stream with the stream array ``rng``; ``partners`` is scratch for
    :func:`~briscasim.engine.rng.shuffle` (jitted)."""
    start_stream(rng, substream_key(key, STREAMS_PER_DEAL * deal_no))
    default_deck(rules, deck)
    shuffle(rng, deck, rules[R_DECK_N], partners)


# ---- swaps -----------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def swap_card(rules, state, seat, features=EVERY_FEATURE):
    """The trump 7 or 2 that ``seat`` could swap for the face-up card now, else -1 (jitted).

    Checks the cards only (the seat holds the right trump and the face-up card qualifies);
    the timing window is checked by the engine when it offers the swap.
    """
    face_up = state[S_FACE_UP]
    if state[at(S_KNOWN + face_up)] != KNOWN_FACE_UP:
        return -1
    t = state[S_TRUMP] * 12
    face = card_face(rules, face_up)
    # the rules tests are the same all deal long; holding the 7 or 2 is rare: both predictable
    if rules[R_SWAP_SEVEN] != 0 and (rules[R_SEVEN_FACES] >> face) & 1 != 0:
        if holds(state, seat, t + _SEVEN, features):
            return t + _SEVEN
    if rules[R_SWAP_TWO] != 0 and (rules[R_TWO_FACES] >> face) & 1 != 0:
        if holds(state, seat, t + _TWO, features):
            return t + _TWO
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _offer_swap(rules, state, seat, needed, features=EVERY_FEATURE):
    """Enter the swap phase if ``seat`` may swap with ``needed`` cards still to draw."""
    if state[S_TO_DRAW] < needed or swap_card(rules, state, seat, features) < 0:
        return False
    state[S_PHASE] = PHASE_SWAP
    state[S_TURN] = seat
    return True


@njit(cache=True, _nrt=False, inline="always")
def _do_swap(rules, state, seat, events):
    given = swap_card(rules, state, seat)
    taken = state[S_FACE_UP]
    emit(events, EVENT_SWAP, seat, given, taken)
    state[hand_base(seat) + hand_slot(state, seat, given)] = taken
    state[S_FACE_UP] = given
    state[S_KNOWN + given] = KNOWN_FACE_UP
    state[S_KNOWN + taken] = seat
    if card_face(rules, given) == _SEVEN:
        state[S_SWAP7_SEAT] = seat
        state[S_SWAP7_TRICK] = state[S_TRICK_NO]
        state[S_SWAP7_CARD] = taken
    else:
        state[S_SWAP2_SEAT] = seat
        state[S_SWAP2_TRICK] = state[S_TRICK_NO]
        state[S_SWAP2_CARD] = taken


# ---- drawing ---------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def _draw_round(rules, state, seat, events, features=EVERY_FEATURE):
    """Everyone draws one card, the trick's winner ``seat`` first. Returns False if a black
    hand ended the deal."""
    to_draw = state[S_TO_DRAW]
    if to_draw == 0:
        return True
    n = rules[R_PLAYERS]
    black_hand = rules[R_BLACK_HAND] != 0
    drawn = state[S_DRAWN]
    facedown = state[S_FACEDOWN_TO_DRAW]
    for _ in range(n):
        face_up = drawn >= facedown
        if not face_up:
            card = state[at(S_STOCK + drawn)]
            drawn += 1
        else:
            card = state[S_FACE_UP]
            state[at(S_KNOWN + card)] = seat
        to_draw -= 1
        give(state, seat, card, features)
        # the rules tests are the same all deal long: predictable
        if features & F_SHOWN and (rules[R_OPEN_HANDS] | rules[R_STOCK_TOP_VISIBLE]) != 0:
            _show_drawn(rules, state, seat, card, drawn, facedown)
        emit(events, EVENT_DRAW, seat, card, face_up)
        if features & F_BLACK_HAND and black_hand and _black_hand(rules, state, seat):
            state[S_DRAWN] = drawn
            state[S_TO_DRAW] = to_draw
            _end_by_black_hand(rules, state, seat, events)
            return False
        seat += 1
        seat = 0 if seat == n else seat
    state[S_DRAWN] = drawn
    state[S_TO_DRAW] = to_draw
    return True


@njit(cache=True, _nrt=False, inline="always")
def _show_stock_top(rules, state, drawn, facedown):
    """With ``stock_top_visible``, show everyone the next face-down card to draw (``drawn``
    drawn so far of the ``facedown`` that will be)."""
    if rules[R_STOCK_TOP_VISIBLE] != 0 and drawn < facedown:
        state[at(S_KNOWN + state[at(S_STOCK + drawn)])] = KNOWN_STOCK_TOP


@njit(cache=True, _nrt=False)
def _show_dealt(rules, state):
    """After the deal: with ``open_hands`` every card dealt is public in its seat's hand;
    with ``stock_top_visible`` the top of the stock is shown (out of line, as every rare
    path: the kernels that inline the deal stay smaller)."""
    if rules[R_OPEN_HANDS] != 0:
        for s in range(rules[R_PLAYERS]):
            for i in range(rules[R_HAND_SIZE]):
                state[at(S_KNOWN + state[at(hand_base(s) + i)])] = s
    _show_stock_top(rules, state, 0, state[S_FACEDOWN_TO_DRAW])


@njit(cache=True, _nrt=False)
def _show_drawn(rules, state, seat, card, drawn, facedown):
    """Under ``open_hands`` or ``stock_top_visible``: the ``card`` ``seat`` just drew was
    seen (as it was picked up, or on top of the stock), so it is public in that hand; the
    next top is shown (out of line)."""
    state[at(S_KNOWN + card)] = seat
    _show_stock_top(rules, state, drawn, facedown)


@njit(cache=True, _nrt=False, inline="always")
def _after_draw(rules, state, winner, features=EVERY_FEATURE):
    """After this trick's draw: offer the trick's ``winner`` an ``after_draw`` swap, or let
    it lead the next trick."""
    if rules[R_SWAP_TIMING] != TIMING_BEFORE_DRAW:
        if _offer_swap(rules, state, winner, rules[R_PLAYERS], features):
            return
    state[S_PHASE] = PHASE_PLAY
    state[S_TURN] = winner


@njit(cache=True, _nrt=False, inline="always")
def _finish_deal(rules, state, events, features):
    if features & F_AUCTION and rules[R_AUCTION] != 0:
        chiamata.settle(rules, state, events)
        return
    n_sides = rules[R_N_SIDES]
    fewest = rules[R_OBJECTIVE] == OBJECTIVE_FEWEST
    best = state[S_POINTS]
    for s in range(1, n_sides):
        p = state[S_POINTS + s]
        if (p < best) if fewest else (p > best):
            best = p
    winner = DRAW
    n_best = 0
    latest = 0
    for s in range(n_sides):
        if state[S_POINTS + s] == best:
            n_best += 1
            if state[S_LAST_WON + s] > latest:
                latest = state[S_LAST_WON + s]
                winner = s
            elif n_best == 1:
                winner = s
    if n_best > 1 and (rules[R_TIE] != TIE_LAST_TRICK or latest == 0):
        winner = DRAW
    state[S_WINNER] = winner
    state[S_PHASE] = PHASE_OVER
    emit(events, EVENT_OVER, winner, state[S_POINTS], state[S_POINTS + 1])


@njit(cache=True, _nrt=False)
def _reached_target(rules, state, winner, pts, events):
    """Add the trick's ``pts`` to its ``winner``'s own captured points; if they reach
    ``target_points``, the winner's side wins the deal at once (True) (out of line)."""
    own = state[at(S_SEAT_POINTS + winner)] + pts
    state[at(S_SEAT_POINTS + winner)] = own
    if own < rules[R_TARGET_POINTS]:
        return False
    side = rules[at(R_SIDE + winner)]
    state[S_TARGET_SEAT] = winner
    state[S_WINNER] = side
    state[S_PHASE] = PHASE_OVER
    emit(events, EVENT_TARGET, winner, own, state[S_TRICK_NO])
    emit(events, EVENT_OVER, side, state[S_POINTS], state[S_POINTS + 1])
    return True


@njit(cache=True, _nrt=False, inline="always")
def _finish_trick(rules, state, last, events, features):
    """Resolve the trick whose ``last`` card was just played, then offer the swap or draw;
    return the trick's winner, who acts next (swap offer or lead) unless the deal is over.

    The seats and cards that decide who acts next are passed along, not read back from the
    state just written: that would put a store-to-load round trip on the deal's critical path.
    """
    n = rules[R_PLAYERS]
    wi, best_card, _ = _winning(rules, state, n - 1)
    wi = n - 1 if beats(rules, last, best_card, state[S_TRUMP]) else wi
    winner = seat_after(state[S_LEADER], wi, n)
    side = rules[at(R_SIDE + winner)]
    if features & F_AUCTION and rules[R_AUCTION] != 0:
        chiamata.reveal_partner(rules, state)
    pts = 0
    for i in range(n):
        pts += card_points(rules, state[S_TRICK + i])
        state[S_TRICK + i] = NO_CARD
    trick_no = state[S_TRICK_NO] + 1
    state[at(S_POINTS + side)] += pts
    state[at(S_TRICKS_WON + side)] += 1
    state[at(S_LAST_WON + side)] = trick_no
    state[S_TRICK_NO] = trick_no
    state[S_LAST_WINNER] = winner
    state[S_TRICK_N] = 0
    state[S_LEADER] = winner
    state[S_TURN] = winner
    emit(events, EVENT_TRICK, winner, pts, trick_no)
    # the rules test is the same all deal long: predictable; before any swap offer, draw
    # or normal end
    if (features & F_TARGET and rules[R_TARGET_POINTS] != 0
            and _reached_target(rules, state, winner, pts, events)):
        return winner
    if trick_no == state[S_N_TRICKS]:
        _finish_deal(rules, state, events, features)
        return winner
    if rules[R_SWAP_TIMING] == TIMING_BEFORE_DRAW:
        if _offer_swap(rules, state, winner, 2 * n, features):
            return winner
    if _draw_round(rules, state, winner, events, features):
        _after_draw(rules, state, winner, features)
    return winner


# ---- the step API ----------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def step(rules, state, action, events=None, features=EVERY_FEATURE):
    """Apply ``action`` for the seat to act; return the seat to act next (``S_TURN``), or
    -1 if the action is not legal (jitted).

    In ``PHASE_PLAY`` the action is a legal card of the seat's hand; in ``PHASE_SWAP`` it is
    ``ACTION_SWAP`` or ``ACTION_KEEP``. An illegal action leaves the state unchanged. What
    happens (the card played, a trick won, draws, swaps, the end of the deal) is appended to
    ``events`` (:func:`emit`), or to nothing when ``events`` is ``None``. The batch loop takes
    the next seat from the return value rather than loading ``S_TURN`` back just after it was
    stored (a round trip on the deal's critical path). ``features`` as :func:`start_deal`'s.
    """
    phase = state[S_PHASE]
    seat = state[S_TURN]
    if phase == PHASE_PLAY:
        if action < 0 or action >= N_CARD_IDS:
            return -1
        slot = hand_slot(state, seat, action)
        if slot < 0:
            return -1
        n = rules[R_PLAYERS]
        played = state[S_TRICK_N]
        # the rules test is the same all deal long: predictable
        if (features & F_FOLLOW_SUIT and rules[R_FOLLOW_SUIT] != 0 and played > 0
                and _fails_to_follow(rules, state, seat, action)):
            return -1
        if packed_hands(rules, features):
            remove_slot(state, hand_base(seat), slot)
        else:
            state[at(hand_base(seat) + slot)] = NO_CARD
        state[at(S_TRICK + played)] = action
        state[at(S_KNOWN + action)] = KNOWN_PLAYED
        if features & F_PLAYS:
            state[at(S_PLAYS + state[S_TRICK_NO] * n + played)] = PLAY_SEAT * seat + action
        emit(events, EVENT_PLAY, seat, action, played)
        played += 1
        state[S_TRICK_N] = played
        if played < n:
            # written out rather than seat_after(seat, 1, n): in this spot, on the deal's
            # critical path, that compiled to code measured 20 - 80% slower
            seat += 1
            seat = 0 if seat == n else seat
            state[S_TURN] = seat
            return seat
        return _finish_trick(rules, state, action, events, features)
    if phase == PHASE_SWAP:
        return _answer_swap(rules, state, seat, action, events)
    if features & F_AUCTION:
        return chiamata.auction_step(rules, state, action, events)
    return -1


@njit(cache=True, _nrt=False)
def _answer_swap(rules, state, seat, action, events):
    """:func:`step` at a swap offer to ``seat``: swap or keep, then the draw if the offer came
    before it (out of line: an offer comes a few times a deal at most, and the kernels that
    inline :func:`step` stay smaller to compile)."""
    offered = swap_card(rules, state, seat)
    seven = card_face(rules, offered) == _SEVEN
    if action == ACTION_SWAP:
        _do_swap(rules, state, seat, events)
        if rules[R_BLACK_HAND] != 0 and _black_hand(rules, state, seat):
            _end_by_black_hand(rules, state, seat, events)
            return seat
    elif action == ACTION_KEEP:
        emit(events, EVENT_DECLINE, seat, offered, -1)
        if seven:
            state[S_SWAP7_DECLINED] += 1
        else:
            state[S_SWAP2_DECLINED] += 1
    else:
        return -1
    # the swapping seat won the trick and leads the next one (after the draw, if the
    # swap came before it)
    if (rules[R_SWAP_TIMING] == TIMING_BEFORE_DRAW
            and not _draw_round(rules, state, seat, events)):
        return seat
    state[S_PHASE] = PHASE_PLAY
    state[S_TURN] = seat
    return seat


@njit(cache=True, _nrt=False, inline="always")
def legal_actions(rules, state, out, features=EVERY_FEATURE):
    """Write the legal actions of the seat to act into ``out`` (room for ``MAX_LEGAL``, or
    ``MAX_LEGAL_ANY`` in Briscola Chiamata's auction and call); return
    how many (jitted). The one place that decides what is legal: every strategy receives its
    result, and :func:`step` refuses anything else."""
    phase = state[S_PHASE]
    if phase == PHASE_PLAY:
        # every card in hand may be played: the hand's cards in slot order, packed by
        # selects (which slots are empty is as random as the deal); out has room for more
        seat = state[S_TURN]
        base = hand_base(seat)
        if features & F_FOLLOW_SUIT and rules[R_FOLLOW_SUIT] != 0 and state[S_TRICK_N] > 0:
            k = _following_cards(rules, state, seat, out)
            if k > 0:
                return k
        k = 0
        for i in range(MAX_HAND):
            c = state[at(base + i)]
            out[at(k)] = c
            k += c != NO_CARD
        return k
    if phase == PHASE_SWAP:
        out[0] = ACTION_SWAP
        out[1] = ACTION_KEEP
        return 2
    if phase != PHASE_OVER and features & F_AUCTION:
        return chiamata.legal_auction_actions(rules, state, out)
    return 0



@njit(cache=True, _nrt=False, inline="always")
def legal_view(rules, state, seat, hand, out, features=EVERY_FEATURE):
    """The legal actions of ``seat``, the seat to act, as an array (jitted): ``hand`` itself
    (:func:`hand_of`), when every slot of it holds a card that may be played (most
    decisions: nothing is copied), or its cards when the hands are packed
    (:func:`packed_hands`), otherwise :func:`legal_actions` written into ``out`` (int16, as
    the hand). Either way the same actions in the same order; with ``must_follow_suit`` a
    follower's legal cards are always listed in ``out``."""
    free = ((features & F_FOLLOW_SUIT) == 0) | (rules[R_FOLLOW_SUIT] == 0) | (
        state[S_TRICK_N] == 0)
    if packed_hands(rules, features):
        if (state[S_PHASE] == PHASE_PLAY) & free:
            # a card a trick from a hand of hand_size: the seat to act has not played yet
            return window(hand, 0, rules[R_HAND_SIZE] - state[S_TRICK_NO])
        return window(out, 0, legal_actions(rules, state, out, features))
    empty = slots_equal(state, hand_base(seat), NO_CARD) & ((1 << rules[R_HAND_SIZE]) - 1)
    if (state[S_PHASE] == PHASE_PLAY) & (empty == 0) & free:
        return hand
    return window(out, 0, legal_actions(rules, state, out, features))


@njit(cache=True, _nrt=False, inline="always")
def signals(rules, state, seat, features=EVERY_FEATURE):
    """The partner signals ``seat`` receives (docs/rules.md), one byte per partner in
    seat order after ``seat``; 0 when signals are off or the seat has no partner; under
    ``signals = rais``, :func:`rais_signals` (jitted)."""
    if features & F_RAIS and rules[R_SIGNALS] == SIGNALS_RAIS:
        return rais_signals(rules, state, seat)
    out = np.int64(0)
    n = rules[R_PLAYERS]
    side = rules[R_SIDE + seat]
    trump = state[S_TRUMP]
    shift = 0
    for i in range(1, n):
        p = seat_after(seat, i, n)
        if rules[R_SIDE + p] != side:
            continue
        b = 128
        any_trump = False
        for j in range(rules[R_HAND_SIZE]):
            # selects, not branches: what a partner holds is as random as the deal; an empty
            # slot is in no suit and of no face (EMPTY_*), so it adds nothing
            c = state[at(hand_base(p) + j)]
            f = card_face(rules, c)
            is_trump = card_suit(rules, c) == trump
            any_trump |= is_trump
            b |= np.int64(is_trump & (f <= 4)) << f                 # the trump A 3 R C S
            b |= np.int64((not is_trump) & (f <= _THREE)) << 5      # a plain A or 3
        b |= np.int64(not any_trump) << 6                           # no trump
        out |= np.int64(b) << shift
        shift += 8
    return out


@njit(cache=True, _nrt=False)
def rais_signals(rules, state, seat):
    """What a captain learns of his partners' hands under ``signals = rais`` (docs/rules.md,
    Schembil): from the end of the first trick a byte of ``RAIS_*`` bits per partner, in
    seat order after him, and once no draw is left the cards of the next team-mate's hand
    from bit ``RAIS_HAND_SHIFT``; 0 for a seat that is not its side's captain (jitted)."""
    side = rules[R_SIDE + seat]
    if rules[R_RAIS + side] != seat or state[S_TRICK_NO] == 0:
        return np.int64(0)
    n = rules[R_PLAYERS]
    trump = state[S_TRUMP]
    trick_n = state[S_TRICK_N]
    best = state[S_TRICK + _winning(rules, state, trick_n)[0]] if trick_n > 0 else NO_CARD
    out = np.int64(0)
    shift = 0
    mate = -1
    for i in range(1, n):
        p = seat_after(seat, i, n)
        if rules[R_SIDE + p] != side:
            continue
        mate = p if mate < 0 else mate
        place = p - state[S_LEADER]
        place += n if place < 0 else 0
        open_trick = (trick_n > 0) & (place >= trick_n)     # a card to beat, p still to play
        b = SIG_VALID | (RAIS_WINNER_KNOWN if open_trick else 0)
        for j in range(MAX_HAND):
            c = state[hand_base(p) + j]
            if c == NO_CARD:
                continue
            f = card_face(rules, c)
            if card_suit(rules, c) == trump:
                if f == _TWO or (_SIX <= f <= _FOUR):
                    b |= RAIS_LOW_TRUMP
                elif _KING <= f <= _JACK:
                    b |= RAIS_DRESSED_TRUMP
            else:
                if card_points(rules, c) == 0:
                    b |= RAIS_WORTHLESS
                if f == _ACE or f == _THREE:
                    b |= RAIS_CARICO
                if open_trick and beats(rules, c, best, trump):
                    b |= RAIS_WINNER
        out |= np.int64(b) << shift
        shift += 8
    if state[S_TO_DRAW] == 0 and mate >= 0:
        for j in range(MAX_HAND):
            c = state[hand_base(mate) + j]
            if c != NO_CARD:
                out |= np.int64(1) << (RAIS_HAND_SHIFT + c)
    return out


@njit(cache=True, _nrt=False, inline="always")
def write_record(rules, state, out, features=EVERY_FEATURE):
    """Write the per-deal record (``REC_*`` fields) of a finished deal into ``out`` (jitted)."""
    out[REC_WINNER] = state[S_WINNER]
    out[REC_BLACK_HAND] = state[S_BLACK_HAND]
    out[REC_LAST_WINNER] = state[S_LAST_WINNER]
    out[REC_TRUMP] = state[S_TRUMP]
    out[REC_TURNED] = state[S_TURNED]
    out[REC_SWAP7_SEAT] = state[S_SWAP7_SEAT]
    out[REC_SWAP7_TRICK] = state[S_SWAP7_TRICK]
    out[REC_SWAP7_CARD] = state[S_SWAP7_CARD]
    out[REC_SWAP2_SEAT] = state[S_SWAP2_SEAT]
    out[REC_SWAP2_TRICK] = state[S_SWAP2_TRICK]
    out[REC_SWAP2_CARD] = state[S_SWAP2_CARD]
    out[REC_SWAP7_DECLINED] = state[S_SWAP7_DECLINED]
    out[REC_SWAP2_DECLINED] = state[S_SWAP2_DECLINED]
    out[REC_OUT_POINTS] = out_of_play_points(rules, state)
    out[REC_TARGET_SEAT] = state[S_TARGET_SEAT]
    for s in range(6):
        out[REC_POINTS + s] = state[S_POINTS + s] if s < rules[R_N_SIDES] else 0
    if features & F_AUCTION and rules[R_AUCTION] != 0:
        chiamata.write_contract(rules, state, out)


@njit(cache=True, _nrt=False, inline="always")
def out_of_play_points(rules, state):
    """Card points of the cards that stay undrawn in this deal (jitted)."""
    m = state[S_N_FACEDOWN]
    pts = 0
    if rules[R_LEFTOVER] == LEFTOVER_FACE_UP:
        if rules[R_N_UNDRAWN] > 0:
            pts += card_points(rules, state[S_FACE_UP])
        first = m - (rules[R_N_UNDRAWN] - 1)
    else:
        first = m - rules[R_N_UNDRAWN]
    for i in range(first, m):
        pts += card_points(rules, state[S_STOCK + i])
    return pts
