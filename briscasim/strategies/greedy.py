"""``greedy``: the advice of the Brisca and Briscola source texts ("Consejos") made precise.

Every card has a *keep cost*, what it costs to let it go on a trick the seat's side loses:
its points for a plain card, ``trump_keep`` plus its points for a trump, and far more for
the trump A and 3 ("keep the trump A and 3"); a hundredth of a point per step of strength
breaks ties. Keep costs are counted exactly, in integer hundredths of a point
(``trump_keep`` is taken to the hundredth). With ``objective = most`` the seat

1. **leads low**: the card of least keep cost (a blank plain card, the lowest first);
2. **takes a trick its side is sure to win with a plain card**, picking the plain card with
   the most points ("quality before quantity": it banks them). Sure means nobody who can
   still overtake plays after it, or no card that a later opponent may hold beats it. This
   also loads points onto a trick a partner is sure to take, or one a partner behind it will
   take with the top trump it signalled;
3. **spends a trump only on a trick worth it**: with at least ``trump_threshold`` points on
   the table, the cheapest trump that wins (the lowest); the trump A or 3 only from
   ``high_trump_threshold`` points; never over a partner who is winning;
4. otherwise **throws the card of least keep cost** ("sometimes it is better to lose").

Signals back a load (rule 2): a partner still to play who signalled the highest trump in
play (partner signals), or, to a captain under ``signals = "rais"`` (Schembil), a partner
still to play whose card outside trumps takes the trick as it lies (``use_signals = false``
ignores both). Under ``target_points`` (Briscola a 31), playing the last card of a trick it
takes the trick with a card that brings its own captured points to the target (the deal is
won there and then); and when an opponent winning the trick is within 11 points of the
target with it, it takes the trick with its cheapest winning card, or else gives it a card
that keeps him short.

With ``objective = fewest`` (``brisca-reves``, or ``objective=fewest``) it mirrors this: it
dumps its most valuable card on a trick someone else takes, and when it must take a trick it
takes the fewest points, getting rid of its strongest card. A swap offer (when no swap
policy is set) is accepted at once, except under ``fewest``. Deterministic: no randomness.

In Briscola Chiamata it bids and calls by :mod:`.bidding`'s rule, then plays as above with
the seats it knows to be on its side as partners (:func:`~.view.known_mates`: the called
card's holder knows the caller at once, the others learn the sides when that card is played);
a seat it cannot place counts as an opponent.
"""
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ..engine.core import trick_so_far, trick_winner_index
from ..engine.primitives import (at, beats, card_face, card_points, card_strength, card_suit,
                                 known_bits, known_in_hands, packed_hands, seat_after)
from ..engine.layout import (ACTION_KEEP, ACTION_SWAP, EVERY_FEATURE, F_AUCTION, F_FEWEST,
                             F_LARGE_HAND, F_SIGNALS, F_TARGET, KNOWN_UNSEEN, NO_CARD, NO_TRUMP,
                             PHASE_AUCTION, RAIS_WINNER, R_CARD_STRONGER,
                             R_SIGNALS, R_TARGET_POINTS,
                             S_PHASE, S_SEAT_POINTS, SIGNALS_RAIS,
                             SIG_TRUMP_ACE, SIG_TRUMP_HORSE, SIG_TRUMP_JACK, SIG_TRUMP_KING,
                             SIG_TRUMP_THREE)
from . import view as V
from .bidding import contract_decision
from .params import INLINE, Param, StrategyDef

P_TRUMP_THRESHOLD = 0
P_HIGH_TRUMP_THRESHOLD = 1
P_TRUMP_KEEP = 2
P_OBJECTIVE = 3
P_SWAP = 4
P_USE_SIGNALS = 5

OBJ_AUTO, OBJ_MOST, OBJ_FEWEST = 0, 1, 2
ANSWER_AUTO, ANSWER_SWAP, ANSWER_KEEP = 0, 1, 2


_HIGH_TRUMP_COST = 1000
_HIGH_CARDS = np.int64(0x003003003003)    # the A and 3 of every suit (card id suit * 12 + face)
# SIG_* bit of each trump face a partner signals, by face (A 3 R C S)
_SIGNAL_BIT = (SIG_TRUMP_ACE, SIG_TRUMP_THREE, SIG_TRUMP_KING, SIG_TRUMP_HORSE, SIG_TRUMP_JACK)


@njit(cache=True, _nrt=False, inline="always")
def _keep_cost(rules, card, trumps, trump_keep):
    """What letting ``card`` go on a lost trick costs, in hundredths of a point (``trump_keep``
    too); ties go to the weaker card. ``trumps`` is the trump suit's bit mask
    (:func:`_suit_bits`)."""
    plain = 100 * card_points(rules, card) + card_strength(rules, card)
    bit = card & 63             # NO_CARD reads bit 63, in no mask
    # a trump costs trump_keep more; the trump A and 3 far more (then the A, with more
    # points and strength, more than the 3)
    extra = 100 * _HIGH_TRUMP_COST if (_HIGH_CARDS >> bit) & 1 != 0 else trump_keep
    return plain + (extra if (trumps >> bit) & 1 != 0 else 0)


@njit(cache=True, _nrt=False, inline="always")
def _trump_keep(params):
    """``trump_keep`` in whole hundredths of a point."""
    return np.int64(100 * params[P_TRUMP_KEEP] + 0.5)


@njit(cache=True, _nrt=False, inline="always")
def _card_at(legal, i):
    """``legal[i]``, or ``NO_CARD`` past the end of ``legal`` (selects, no branch)."""
    n = legal.shape[0]
    c = np.int64(legal[at(i if i < n else 0)])
    return c if i < n else NO_CARD


@njit(cache=True, _nrt=False, inline="always")
def _three(legal):
    """The legal cards (at most three) as a fixed tuple, ``NO_CARD`` where there are fewer,
    so that greedy's loops have a fixed trip count (compiled unrolled and branch-free): an
    empty entry reads as a card in no suit that never wins and costs more than any
    (``EMPTY_*``)."""
    return (np.int64(legal[0]), _card_at(legal, 1), _card_at(legal, 2))


@njit(cache=True, _nrt=False, inline="always")
def _cheapest(rules, cards, trumps, trump_keep):
    """The card of ``cards`` (:func:`_three`, or the legal list) with the least keep cost (the
    first)."""
    best = cards[0]
    best_cost = _keep_cost(rules, best, trumps, trump_keep)
    for i in range(1, len(cards)):
        c = cards[i]
        cost = _keep_cost(rules, c, trumps, trump_keep)
        take = cost < best_cost
        best = c if take else best
        best_cost = cost if take else best_cost
    return best


@njit(cache=True, _nrt=False, inline="always")
def _in_hand(hand, card):
    """True if ``hand`` holds ``card``."""
    for i in range(hand.shape[0]):
        if hand[i] == card:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _card_bits(cards):
    """A bit per card id of ``cards``: a hand's slots, the legal list or :func:`_three` (an
    empty slot or ``NO_CARD`` adds none)."""
    bits = np.int64(0)
    for i in range(len(cards)):
        c = np.int64(cards[i])
        bits |= (np.int64(1) << (c & 63)) if c >= 0 else np.int64(0)
    return bits


@njit(cache=True, _nrt=False, inline="always")
def _before(cards, a, b):
    """True if card ``a`` comes before card ``b`` in ``cards`` (``a`` is among them)."""
    for i in range(len(cards)):
        if cards[i] == a:
            return True
        if cards[i] == b:
            return False
    return False


@njit(cache=True, _nrt=False, inline="always")
def _suit_bits(suit):
    """The bit mask of the card ids of ``suit``; none for ``NO_TRUMP``."""
    return np.int64(0xFFF) << (12 * suit) if suit != NO_TRUMP else np.int64(0)


@njit(cache=True, _nrt=False)   # out of line: greedy's loop over three cards stays unrolled
def _danger(rules, public, hand, seat, pos, mates, shown_in_hands):
    """The cards an opponent still to play in this trick may hold, as a bit mask of card ids:
    those unseen by ``seat`` and, if ``shown_in_hands``, those publicly known to be in such an
    opponent's hand (none when every seat still to play is known to be on the seat's side,
    ``mates``: :func:`~.view.known_mates`). A card is threatened when one of its beaters is
    in it."""
    n = V.players(rules)
    # the seats after the seat in this trick, as a run of bits from seat + 1 wrapped at n
    run = ((1 << (n - 1 - pos)) - 1) << (seat + 1)
    after = (run | (run >> n)) & ((1 << n) - 1) & ~mates
    if after == 0:
        return np.int64(0)
    danger = known_bits(public, KNOWN_UNSEEN) & ~_card_bits(hand)
    if not shown_in_hands:
        return danger
    shown = known_in_hands(public, n)       # rare: open hands, face-up card drawn or swapped
    while shown != 0:
        c = trailing_zeros(shown)
        shown &= shown - 1
        danger |= ((after >> V.where(public, c)) & 1) << c
    return danger


@njit(cache=True, _nrt=False, inline="always")
def _partner_holds_top_trump(rules, public, hand, seat, signals, pos):
    """True if a partner still to play in this trick signalled the highest trump that is
    still in anyone's hand."""
    n = V.players(rules)
    side = V.side_of(rules, seat)
    trump = V.trump(public)
    top = NO_CARD
    for f in range(12):
        c = trump * 12 + f
        where = V.where(public, c)
        if where == KNOWN_UNSEEN or 0 <= where < n:
            if top == NO_CARD or card_strength(rules, c) > card_strength(rules, top):
                top = c
    face = card_face(rules, top) if top != NO_CARD else 12
    if face >= 5 or _in_hand(hand, top):
        return False   # no trump left, the top one is never signalled, or it is the seat's
    shift = 0
    for k in range(1, n):
        p = seat_after(seat, k, n)
        if V.side_of(rules, p) != side:
            continue
        byte = (signals >> shift) & 255
        shift += 8
        if k < n - pos and (byte & _SIGNAL_BIT[face]) != 0:
            return True
    return False


@njit(cache=True, _nrt=False)   # out of line: only games with signals play it
def _partner_backs(rules, public, hand, seat, signals, pos):
    """True if a partner still to play in this trick will take it, as far as the signals
    tell: he signalled the highest trump still in play (partner signals), or, to a captain
    under ``signals = rais``, a card outside trumps that takes the trick as it lies."""
    if rules[R_SIGNALS] != SIGNALS_RAIS:
        return _partner_holds_top_trump(rules, public, hand, seat, signals, pos)
    n = V.players(rules)
    side = V.side_of(rules, seat)
    shift = 0
    for k in range(1, n):
        p = seat_after(seat, k, n)
        if V.side_of(rules, p) != side:
            continue
        if (signals >> shift) & RAIS_WINNER != 0:
            return True
        shift += 8
    return False


@njit(cache=True, _nrt=False, inline="always")
def _play_most(rules, public, hand, cards, seat, signals, params, features):
    """The decision under ``objective = most`` among ``cards`` (:func:`_three` of the legal
    cards, or the legal list itself); ``features`` as :func:`greedy_strategy`'s."""
    n = V.players(rules)
    trump = V.trump(public)
    pos = V.trick_size(public)
    # bit mask of card ids of the trump suit (none under NO_TRUMP)
    trumps = _suit_bits(trump)
    if pos == 0:
        return _cheapest(rules, cards, trumps, _trump_keep(params))
    wi, best, table = trick_so_far(rules, public)
    mates = V.known_mates(rules, public, hand, seat, features)
    winner = seat_after(V.trick_leader(public), wi, n)
    partner_winning = (mates >> winner) & 1 != 0
    last = pos == n - 1
    backed = False
    if features & F_SIGNALS and not last and signals != 0:
        backed = _partner_backs(rules, public, hand, seat, signals, pos)
    # the cards that beat the winning one, as a bit mask of card ids
    beaters = rules[at(R_CARD_STRONGER + best)] | (trumps if card_suit(rules, best) != trump
                                                   else np.int64(0))
    # The first of these that applies decides:
    # 1. a sure plain-card win (or a load onto our side's sure trick): bank the most points,
    #    then the weakest card (100 * points - strength: strengths are below 100), the first
    #    of the legal cards among equals;
    # 2. a trick worth a trump: the lowest trump that wins;
    # 3. not worth fighting for: the card of least keep cost (the first).
    # The candidates of 1 and 2 are bit masks of card ids (the tests that do not depend on
    # the card, worked out once), so only the cards they hold are looked at.
    check_threat = not last and not backed
    # in Briscola Chiamata (packed hands) no card is drawn, swapped or shown: none is
    # publicly known to be in a hand
    shown_in_hands = not packed_hands(rules, features)
    danger = np.int64(-1)       # _danger, worked out at the first candidate to check
    held = _card_bits(cards)
    # 1. a plain card that wins, or any plain card onto our side's trick
    candidates = held & ~trumps & (np.int64(-1) if partner_winning | backed else beaters)
    bank = NO_CARD
    bank_key = -1000
    while candidates != 0:
        c = np.int64(trailing_zeros(candidates))
        candidates &= candidates - 1
        key = 100 * card_points(rules, c) - card_strength(rules, c)
        if key < bank_key or (key == bank_key and not _before(cards, c, bank)):
            continue
        if check_threat:
            if danger < 0:
                danger = _danger(rules, public, hand, seat, pos, mates, shown_in_hands)
            # a winning card is threatened by its own beaters, a load by the winning card's
            wins = (beaters >> c) & 1 != 0
            if (rules[at(R_CARD_STRONGER + c)] | trumps if wins else beaters) & danger != 0:
                continue
        bank = c
        bank_key = key
    if bank != NO_CARD:
        return bank
    # 2. a trump that wins, when the trick is worth one (the trump A and 3 are spared on a
    # trick worth less than high_trump_threshold); a suit's strengths differ
    spared = _HIGH_CARDS if table < params[P_HIGH_TRUMP_THRESHOLD] else np.int64(0)
    fight = (not partner_winning) & (table >= params[P_TRUMP_THRESHOLD])
    ruffing = held & trumps & beaters & ~spared if fight else np.int64(0)
    ruff = NO_CARD
    ruff_strength = 1000
    while ruffing != 0:
        c = np.int64(trailing_zeros(ruffing))
        ruffing &= ruffing - 1
        strength = card_strength(rules, c)
        ruff = c if strength < ruff_strength else ruff
        ruff_strength = min(strength, ruff_strength)
    return ruff if ruff != NO_CARD else _cheapest(rules, cards, trumps, _trump_keep(params))


@njit(cache=True, _nrt=False)   # out of line: only Brisca al revés plays it
def _play_fewest(rules, public, legal, seat):
    n = V.players(rules)
    trump = V.trump(public)
    pos = V.trick_size(public)
    side = V.side_of(rules, seat)
    choice = NO_CARD
    if pos == 0:
        # lead the card least able to win, with the fewest points
        cost_best = 0.0
        for i in range(legal.shape[0]):
            c = legal[i]
            cost = card_points(rules, c) + 0.1 * card_strength(rules, c)
            if card_suit(rules, c) == trump:
                cost += 20.0
            if choice == NO_CARD or cost < cost_best:
                choice = c
                cost_best = cost
        return choice
    wi = trick_winner_index(rules, public)
    best = V.trick_card(public, wi)
    winner = seat_after(V.trick_leader(public), wi, n)
    partner_winning = V.side_of(rules, winner) == side
    # dump the most valuable card that leaves the trick to an opponent
    dump_best = -1.0
    if not partner_winning:
        for i in range(legal.shape[0]):
            c = legal[i]
            if beats(rules, c, best, trump):
                continue
            v = card_points(rules, c) + 0.1 * card_strength(rules, c)
            if card_suit(rules, c) == trump:
                v += 5.0
            if v > dump_best:
                choice = c
                dump_best = v
        if choice != NO_CARD:
            return choice
    # our side takes it: add the fewest points, shedding the strongest card
    cost_best = 0.0
    for i in range(legal.shape[0]):
        c = legal[i]
        cost = card_points(rules, c) - 0.01 * card_strength(rules, c)
        if choice == NO_CARD or cost < cost_best:
            choice = c
            cost_best = cost
    return choice


@njit(cache=True, _nrt=False, inline="always")
def _fewest(rules, params, features=EVERY_FEATURE):
    if not features & F_FEWEST:
        return False
    obj = params[P_OBJECTIVE]
    if obj == OBJ_AUTO:
        return V.fewest_wins(rules)
    return obj == OBJ_FEWEST


@njit(cache=True, _nrt=False, inline="always")
def greedy_strategy(rules, public, hand, legal, seat, signals, params, rng,
                    features=EVERY_FEATURE):
    """The greedy decision for ``seat`` (module docstring); ``rng`` is unused; ``features``
    (``F_*``) names the rule features whose code is compiled in (jitted)."""
    if features & F_LARGE_HAND and legal.shape[0] == 1:
        return legal[0]     # a forced action (the last trick): nothing to weigh
    if features & F_AUCTION and public[S_PHASE] >= PHASE_AUCTION:
        return contract_decision(rules, public, hand, legal)   # Briscola Chiamata
    fewest = _fewest(rules, params, features)
    if V.swap_offered(public):
        answer = params[P_SWAP]
        if answer == ANSWER_AUTO:
            return ACTION_KEEP if fewest else ACTION_SWAP
        return ACTION_SWAP if answer == ANSWER_SWAP else ACTION_KEEP
    if features & F_FEWEST and fewest:
        return _play_fewest(rules, public, legal, seat)
    if features & F_TARGET and rules[R_TARGET_POINTS] != 0:
        card = _race(rules, public, hand, legal, seat, params)
        if card != NO_CARD:
            return card
    if params[P_USE_SIGNALS] == 0:
        signals = 0     # play as if no signals were given
    # the loops of a hand of three have a trip count of three; larger hands loop over the
    # legal list itself
    if not features & F_LARGE_HAND:
        return _play_most(rules, public, hand, _three(legal), seat, signals, params, features)
    return _play_most(rules, public, hand, legal, seat, signals, params, features)


@njit(cache=True, _nrt=False)   # out of line: only games with target_points play it
def _race(rules, public, hand, legal, seat, params):
    """Under ``target_points``, the last card of a trick: take the trick with a card that
    brings the seat's own points to the target (the deal is won there and then); else, when
    an opponent winning the trick is within 11 points (an ace) of the target with it, take it
    with the cheapest card that can, or give it the cheapest card that keeps him short;
    ``NO_CARD`` when neither applies (the usual decision follows)."""
    n = V.players(rules)
    pos = V.trick_size(public)
    if pos != n - 1:
        return NO_CARD
    trump = V.trump(public)
    target = rules[R_TARGET_POINTS]
    trump_keep = _trump_keep(params)
    trumps = _suit_bits(trump)
    wi, best, table = trick_so_far(rules, public)
    winner = seat_after(V.trick_leader(public), wi, n)
    own = public[S_SEAT_POINTS + seat]
    threat = (V.known_mates(rules, public, hand, seat) >> winner) & 1 == 0
    threat &= public[S_SEAT_POINTS + winner] + table >= target - 11
    take = NO_CARD
    take_cost = 0
    short = NO_CARD
    short_cost = 0
    for i in range(legal.shape[0]):
        c = legal[i]
        pts = card_points(rules, c)
        cost = _keep_cost(rules, c, trumps, trump_keep)
        if beats(rules, c, best, trump):
            if own + table + pts >= target:
                return c                    # the target: the deal is won
            if take == NO_CARD or cost < take_cost:
                take, take_cost = c, cost
        elif public[S_SEAT_POINTS + winner] + table + pts < target and (
                short == NO_CARD or cost < short_cost):
            short, short_cost = c, cost
    if not threat:
        return NO_CARD
    if take != NO_CARD:
        return take
    return short


DEFINITION = StrategyDef("greedy", 1, (
    Param("trump_threshold", int, 2, 0, 120,
          "points on the table worth spending a trump on"),
    Param("high_trump_threshold", int, 10, 0, 120,
          "points on the table worth spending the trump A or 3 on"),
    Param("trump_keep", float, 10.0, 0.0, 100.0,
          "points a low trump is worth in hand: it is thrown rather than a card worth more "
          "(to the hundredth)"),
    Param("objective", str, "auto", doc="most or fewest points; auto follows the rules",
          choices=("auto", "most", "fewest")),
    Param("swap", str, "auto", doc="answer to swap offers without a swap policy: auto is "
          "swap under most, keep under fewest", choices=("auto", "swap", "keep")),
    Param("use_signals", bool, True, doc="use the partner signals and a rais captain's "
          "information (false: play as if none were given, to measure what they are worth)"),
), "the source texts' advice: lead low, win worthwhile tricks cheaply, save trumps, keep "
   "the trump A and 3", fn=greedy_strategy, dispatch=INLINE, features=True, bids=True,
   deterministic=True)
