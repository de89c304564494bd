"""What a seat may know, read through named accessors (all jitted and inlined: free to call).

A strategy is handed its seat's view as arrays (:mod:`briscasim.strategies.api`): ``rules``
(the rules vector), ``public`` (the public part of the deal state), ``hand`` (its own slots),
``legal`` (its legal actions, worked out by the engine) and ``signals`` (its partners' signal
bytes). These functions read them by name, so a strategy never needs the layout's offsets::

    from briscasim.strategies import view as V

    trump = V.trump(public)
    if V.trick_size(public) > 0 and V.card_suit(rules, V.winning_card(rules, public)) == trump:
        ...

Cards are ids 0..47 (``suit * 12 + face``; docs/rules.md, card codes), ``NO_CARD`` (-1) marks an
empty hand slot.
"""
from numba import njit

from ..engine.chiamata import trick_partner
from ..engine.core import trick_winner_index
from ..engine.primitives import beats, card_face, card_points, card_strength, card_suit, seat_after
from ..engine.layout import (EVERY_FEATURE, F_AUCTION, KNOWN_FACE_UP, KNOWN_PLAYED,
                             KNOWN_UNSEEN, OBJECTIVE_FEWEST, PHASE_SWAP, R_AUCTION,
                             R_HAND_SIZE, R_MATES, R_N_SIDES,
                             R_OBJECTIVE, R_PLAYERS, R_SIDE, S_CALLED, S_CALLER,
                             S_FACE_UP, S_KNOWN,
                             S_LEADER, S_PHASE, S_POINTS, S_TO_DRAW, S_TRICK, S_TRICK_N,
                             S_TRICK_NO, S_N_TRICKS, S_TRUMP, S_TRICKS_WON)

__all__ = ["players", "hand_size", "n_sides", "side_of", "known_mates", "seat_after",
           "fewest_wins", "card_points",
           "card_strength", "card_suit", "card_face", "beats", "swap_offered", "trump",
           "face_up", "face_up_on_table", "to_draw", "trick_no", "tricks_in_deal",
           "trick_size", "trick_card", "trick_leader", "winning_index", "winning_card",
           "winning_seat", "trick_points", "points", "tricks_won", "where", "played",
           "unseen", "partner_signal"]


# ---- the table -----------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def players(rules):
    """Number of seats."""
    return rules[R_PLAYERS]


@njit(cache=True, _nrt=False, inline="always")
def hand_size(rules):
    """Cards in each hand after the deal (the length of the ``hand`` a strategy receives)."""
    return rules[R_HAND_SIZE]


@njit(cache=True, _nrt=False, inline="always")
def n_sides(rules):
    """Number of sides (teams, or players when everyone plays alone)."""
    return rules[R_N_SIDES]


@njit(cache=True, _nrt=False, inline="always")
def side_of(rules, seat):
    """The side a seat plays for."""
    return rules[R_SIDE + seat]


@njit(cache=True, _nrt=False, inline="always")
def known_mates(rules, public, hand, seat, features=EVERY_FEATURE):
    """Bit mask of the seats ``seat`` knows to be on its side, itself included: its side's
    seats; in Briscola Chiamata, as far as the seat can tell (the caller knows his partner
    only once the called card is played; its holder knows the caller from the call; a
    defender knows the other defenders once the partner is public)."""
    if not features & F_AUCTION or rules[R_AUCTION] == 0:
        return rules[R_MATES + seat]
    caller = public[S_CALLER]
    partner = trick_partner(rules, public)
    called = public[S_CALLED]
    holds_called = False
    for i in range(hand.shape[0]):
        holds_called |= (hand[i] == called) & (called >= 0)
    me = 1 << seat
    if partner >= 0:
        side = (1 << caller) | (1 << partner)
        return side if (side & me) != 0 else ((1 << rules[R_PLAYERS]) - 1) & ~side
    return me | (1 << caller) if holds_called and seat != caller else me


@njit(cache=True, _nrt=False, inline="always")
def fewest_wins(rules):
    """True under ``objective = fewest`` (the fewest points win)."""
    return rules[R_OBJECTIVE] == OBJECTIVE_FEWEST


# ---- the deal so far -----------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def swap_offered(public):
    """True when the decision is the answer to a swap offer (``ACTION_SWAP`` or
    ``ACTION_KEEP``), False when it is a card to play."""
    return public[S_PHASE] == PHASE_SWAP


@njit(cache=True, _nrt=False, inline="always")
def trump(public):
    """The trump suit, 0..3."""
    return public[S_TRUMP]


@njit(cache=True, _nrt=False, inline="always")
def face_up(public):
    """The face-up card (after any swap)."""
    return public[S_FACE_UP]


@njit(cache=True, _nrt=False, inline="always")
def face_up_on_table(public):
    """True while the face-up card is still on the table (not yet drawn)."""
    return public[S_KNOWN + public[S_FACE_UP]] == KNOWN_FACE_UP


@njit(cache=True, _nrt=False, inline="always")
def to_draw(public):
    """Cards still to be drawn from the stock (the face-up card included)."""
    return public[S_TO_DRAW]


@njit(cache=True, _nrt=False, inline="always")
def trick_no(public):
    """Tricks completed so far."""
    return public[S_TRICK_NO]


@njit(cache=True, _nrt=False, inline="always")
def tricks_in_deal(public):
    """Tricks in the whole deal."""
    return public[S_N_TRICKS]


# ---- the current trick ---------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def trick_size(public):
    """Cards played so far to the current trick."""
    return public[S_TRICK_N]


@njit(cache=True, _nrt=False, inline="always")
def trick_card(public, i):
    """The ``i``-th card played to the current trick (0: the lead)."""
    return public[S_TRICK + i]


@njit(cache=True, _nrt=False, inline="always")
def trick_leader(public):
    """The seat that led the current trick."""
    return public[S_LEADER]


@njit(cache=True, _nrt=False, inline="always")
def winning_index(rules, public):
    """Index, in playing order, of the card winning the current trick so far (needs a card
    played)."""
    return trick_winner_index(rules, public)


@njit(cache=True, _nrt=False, inline="always")
def winning_card(rules, public):
    """The card winning the current trick so far (needs a card played)."""
    return public[S_TRICK + trick_winner_index(rules, public)]


@njit(cache=True, _nrt=False, inline="always")
def winning_seat(rules, public):
    """The seat winning the current trick so far (needs a card played)."""
    return seat_after(public[S_LEADER], trick_winner_index(rules, public), rules[R_PLAYERS])


@njit(cache=True, _nrt=False, inline="always")
def trick_points(rules, public):
    """Card points on the table in the current trick."""
    total = 0
    for i in range(public[S_TRICK_N]):
        total += card_points(rules, public[S_TRICK + i])
    return total


# ---- scores and what is known of every card ------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def points(public, side):
    """Card points a side has taken so far."""
    return public[S_POINTS + side]


@njit(cache=True, _nrt=False, inline="always")
def tricks_won(public, side):
    """Tricks a side has taken so far."""
    return public[S_TRICKS_WON + side]


@njit(cache=True, _nrt=False, inline="always")
def where(public, card):
    """What every seat knows of ``card``: a seat number (publicly known to be in that
    seat's hand: a face-up card drawn, or taken by a swap), ``KNOWN_PLAYED``,
    ``KNOWN_FACE_UP``, ``KNOWN_OUT`` (not in play) or ``KNOWN_UNSEEN`` (in some hand or the
    face-down stock; a seat's own hand says which of its cards these are)."""
    return public[S_KNOWN + card]


@njit(cache=True, _nrt=False, inline="always")
def played(public, card):
    """True if ``card`` has been played (to a finished trick or the current one)."""
    return public[S_KNOWN + card] == KNOWN_PLAYED


@njit(cache=True, _nrt=False, inline="always")
def unseen(public, hand, card):
    """True if ``card`` may be in another seat's hand or the face-down stock, as far as the
    seat holding ``hand`` knows."""
    if public[S_KNOWN + card] != KNOWN_UNSEEN:
        return False
    for i in range(hand.shape[0]):
        if hand[i] == card:
            return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def partner_signal(signals, i):
    """The signal byte of the ``i``-th partner after the seat (``SIG_*`` bits; 0: none)."""
    return (signals >> (8 * i)) & 255

