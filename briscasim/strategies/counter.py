"""``counter``: a public-information counter, one reading of the policy named in Giacomelli,
"Beyond the briscola advantage" (arXiv 2605.17043, 2026).

The paper's exact rules were not available to us (only its abstract and summaries: "a
public-information counter policy", a deterministic rule-based refinement of the naive
greedy policy). This is the most faithful reading of the name we can justify, not a
reproduction of the paper's player: it counts what is public (cards played, the face-up
card, cards known to be in a hand) to know which trumps and which loads (A and 3) may still
be held against it, and plays greedy's rules with that count:

- **following**: win with a plain card when one wins (the most points, then the weakest);
  otherwise spend the weakest winning trump on a trick worth at least ``threshold`` points,
  keeping the trump A and 3 for tricks of 10 points or more; otherwise throw the cheapest card, a plain one before any trump.
  It does not overtake a partner who is winning the trick.
- **leading**: a plain card that nothing still out can beat (no stronger card of its suit and
  no trump unseen) banks its points: the one with the most; otherwise the cheapest card,
  preferring a suit in which no unseen A or 3 can take it, and a plain card before a trump.

Under ``objective = fewest`` and at swap offers it plays as ``greedy``. Deterministic.
"""
from numba import njit

from ..engine.primitives import beats, card_face, card_points, card_strength, card_suit
from ..engine.layout import KNOWN_FACE_UP, KNOWN_UNSEEN, N_CARD_IDS, NO_CARD
from . import view as V
from .greedy import _fewest, greedy_strategy
from .hoard import cheapest, partner_winning, plain_win, weakest_winning_trump
from .params import Param, StrategyDef

P_THRESHOLD = 0


_A, _THREE = 0, 1


@njit(cache=True, _nrt=False, inline="always")
def _out(rules, public, hand, seat, card):
    """True if ``card`` may be held by another seat (or is still to be drawn), as far as the
    public record and the seat's own hand tell."""
    w = V.where(public, card)
    if w == KNOWN_UNSEEN:
        for i in range(hand.shape[0]):
            if hand[i] == card:
                return False
        return True
    return w == KNOWN_FACE_UP or (0 <= w < V.players(rules) and w != seat)


@njit(cache=True, _nrt=False, inline="always")
def _beaten_by_out(rules, public, hand, seat, card, trump, loads_only):
    """True if a card still out beats ``card`` (only an A or 3 of its suit if
    ``loads_only``)."""
    for c in range(N_CARD_IDS):
        if not _out(rules, public, hand, seat, c):
            continue
        face = card_face(rules, c)
        if loads_only and (card_suit(rules, c) != card_suit(rules, card)
                           or ((face != _A) & (face != _THREE))):
            continue
        if beats(rules, c, card, trump):
            return True
    return False


@njit(cache=True, _nrt=False)
def counter_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """The counting decision (module docstring); ``rng`` is unused (jitted)."""
    # greedy reads only its objective and swap slots (3 and 4) here, unused (0: auto) in ours
    if V.swap_offered(public) or _fewest(rules, params):
        return greedy_strategy(rules, public, hand, legal, seat, signals, params, rng)
    trump = V.trump(public)
    if V.trick_size(public) == 0:
        bank = NO_CARD
        bank_key = -1
        low = NO_CARD
        low_key = 1 << 30
        for i in range(legal.shape[0]):
            c = legal[i]
            is_trump = card_suit(rules, c) == trump
            pts = card_points(rules, c)
            if not is_trump and pts > bank_key and not _beaten_by_out(
                    rules, public, hand, seat, c, trump, False):
                bank = c
                bank_key = pts
            key = 10000 * is_trump + 100 * pts + card_strength(rules, c)
            if not is_trump and _beaten_by_out(rules, public, hand, seat, c, trump, True):
                key += 5000
            if key < low_key:
                low = c
                low_key = key
        return bank if bank != NO_CARD and bank_key > 0 else low
    if partner_winning(rules, public, seat):
        return cheapest(rules, legal, trump)
    best = V.winning_card(rules, public)
    c = plain_win(rules, legal, best, trump)
    if c != NO_CARD:
        return c
    table = V.trick_points(rules, public)
    if table >= params[P_THRESHOLD]:
        c = weakest_winning_trump(rules, legal, best, trump)
        face = card_face(rules, c) if c != NO_CARD else -1
        if c != NO_CARD and (((face != _A) & (face != _THREE)) or table >= 10):
            return c
    return cheapest(rules, legal, trump)


DEFINITION = StrategyDef("counter", 8, (
    Param("threshold", int, 2, 0, 120, "points on the table worth a trump"),
), "a reading of Giacomelli's public-information counter: greedy's rules with the trumps "
   "and loads still out counted", fn=counter_strategy)
