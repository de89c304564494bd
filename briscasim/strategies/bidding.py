"""Briscola Chiamata's auction and call by a rule from the hand's strength (jitted).

``greedy`` bids and calls with :func:`contract_decision`, and so does every strategy other
than ``random`` (the search strategies search the play, not the auction). The rule:

* the *trump value* of a suit is ``4`` per card held in it plus their card points; the best
  suit is the one of highest trump value;
* the hand's *expected points* as caller are its card points, ``5`` per card of the best suit,
  ``2`` per A or 3 held, and ``10`` for what a partner brings;
* in the auction it makes the lowest legal bid it can afford, else passes: a point contract
  up to its expected points; a rank contract (target ``min_points``) when the expected points
  reach ``min_points``, going down the ranks one level per 2 points above it; at the reopen
  question it reopens when it could afford the plain two;
* it calls in its best suit, a card it does not hold when it may (a partner rather than
  playing alone), the strongest such card when the call is free (a points auction).

Everything it reads is the seat's own hand, the rules and the public auction.
"""
import numpy as np
from numba import njit

from ..engine.primitives import at, card_face, card_points, card_strength, card_suit
from ..engine.layout import (ACTION_BID, ACTION_CALL, ACTION_PASS, FIRST_POINT_BID,
                             N_RANK_BIDS, PHASE_CALL, PHASE_REOPEN, R_MIN_POINTS, S_PHASE)

_A, _THREE = 0, 1


@njit(cache=True, _nrt=False, inline="always")
def _suit_values(rules, hand):
    """Trump value of each suit for ``hand`` (4 per card plus its points)."""
    v0 = v1 = v2 = v3 = 0
    for i in range(hand.shape[0]):
        c = hand[i]
        s = card_suit(rules, c)
        w = 4 + card_points(rules, c)
        v0 += w if s == 0 else 0
        v1 += w if s == 1 else 0
        v2 += w if s == 2 else 0
        v3 += w if s == 3 else 0
    return (v0, v1, v2, v3)


@njit(cache=True, _nrt=False, inline="always")
def expected_points(rules, hand):
    """The card points the seat expects its side to take as caller (module docstring); one
    pass over the hand.

    Each card adds its part to one int64 of byte and nibble fields, so the pass is one sum:
    the trump value of each suit (bits 0-31, a byte a suit: at most 8 * 4 + 30), the cards
    of each suit (bits 32-47, a nibble a suit), the card points (bits 48-55: at most 84) and
    the A and 3 held (bits 56-59)."""
    total = np.int64(0)
    for i in range(hand.shape[0]):
        c = hand[i]
        s = card_suit(rules, c)
        p = card_points(rules, c)
        face = card_face(rules, c)
        high = np.int64((face == _A) | (face == _THREE))
        part = (((4 + p) << (8 * s)) | (np.int64(1) << (32 + 4 * s)) | (p << 48)
                | (high << 56))
        total += part if c >= 0 else 0         # an empty slot adds nothing
    pts = (total >> 48) & 255
    highs = (total >> 56) & 15
    # the best suit: the first of highest trump value
    best = -1
    length = 0
    for s in range(4):
        v = (total >> (8 * s)) & 255
        length = (total >> (32 + 4 * s)) & 15 if v > best else length
        best = v if v > best else best
    return pts + 5 * length + 2 * highs + 10


@njit(cache=True, _nrt=False, inline="always")
def contract_decision(rules, public, hand, legal):
    """The seat's bid, pass, reopen answer or call (module docstring; jitted)."""
    phase = public[S_PHASE]
    if phase == PHASE_CALL:
        values = _suit_values(rules, hand)
        best = legal[0]
        best_key = -1
        for i in range(legal.shape[0]):
            c = legal[i] - ACTION_CALL
            held = False
            for j in range(hand.shape[0]):
                held |= hand[j] == c
            key = (0 if held else 100000) + 100 * values[at(card_suit(rules, c))] + \
                card_strength(rules, c)
            if key > best_key:
                best, best_key = legal[i], key
        return best
    expect = expected_points(rules, hand)
    low = rules[R_MIN_POINTS]
    if phase == PHASE_REOPEN:
        return legal[1] if expect >= low else ACTION_PASS
    # the bids are a run of ranks up to the last, then the point contracts, each run in
    # rising order (legal_auction_actions): a deeper rank asks for more, and so does a later
    # point contract, so only the first of each run can be the lowest bid it can afford
    i = 1
    if i < legal.shape[0] and legal[i] - ACTION_BID < N_RANK_BIDS:
        level = legal[i] - ACTION_BID
        if expect >= low and level <= (expect - low) // 2:
            return legal[i]
        i += N_RANK_BIDS - level
    if i < legal.shape[0] and legal[i] - ACTION_BID - N_RANK_BIDS + FIRST_POINT_BID <= expect:
        return legal[i]
    return ACTION_PASS

