"""``hoard``: a briscola-hoarding player, one reading of the policy named in Giacomelli,
"Beyond the briscola advantage" (arXiv 2605.17043, 2026).

The paper's exact rules were not available to us (only its abstract and summaries: "a
briscola-hoarding policy", a deterministic rule-based refinement of the naive greedy
policy). This is the most faithful reading of the name we can justify, not a reproduction of
the paper's player:

- **following**: win the trick with a plain card when one wins (the one taking the most
  points, then the weakest); otherwise spend a trump only on a trick holding at least
  ``threshold`` points (default 10: an A or a 3 is on the table) or once the stock is empty
  (hoarded trumps are for the end), and then the weakest trump that wins; otherwise throw the
  cheapest card, a plain one before any trump (points, then strength);
- **leading**: the cheapest plain card; a trump only when it holds nothing else, the weakest.

It never looks at who is winning beyond the current trick, and counts no cards: it hoards
its trumps, no more. With a partner winning the trick it does not overtake him (it throws).
Under ``objective = fewest`` and at swap offers it plays as ``greedy``. Deterministic.
"""
from numba import njit

from ..engine.primitives import beats, card_points, card_strength, card_suit
from ..engine.layout import NO_CARD
from . import view as V
from .greedy import _fewest, greedy_strategy
from .params import Param, StrategyDef

P_THRESHOLD = 0


@njit(cache=True, _nrt=False, inline="always")
def cheapest(rules, legal, trump):
    """The legal card cheapest to give away: a plain card before any trump, then the fewest
    points, then the weakest (jitted)."""
    best = legal[0]
    best_key = 1 << 30
    for i in range(legal.shape[0]):
        c = legal[i]
        key = (1000 * (card_suit(rules, c) == trump) + 100 * card_points(rules, c)
               + card_strength(rules, c))
        if key < best_key:
            best = c
            best_key = key
    return best


@njit(cache=True, _nrt=False, inline="always")
def plain_win(rules, legal, best, trump):
    """The plain card that beats ``best`` taking the most points (then the weakest), or
    NO_CARD (jitted)."""
    choice = NO_CARD
    choice_key = -1000
    for i in range(legal.shape[0]):
        c = legal[i]
        if card_suit(rules, c) == trump or not beats(rules, c, best, trump):
            continue
        key = 100 * card_points(rules, c) - card_strength(rules, c)
        if key > choice_key:
            choice = c
            choice_key = key
    return choice


@njit(cache=True, _nrt=False, inline="always")
def weakest_winning_trump(rules, legal, best, trump):
    """The weakest trump that beats ``best``, or NO_CARD (jitted)."""
    choice = NO_CARD
    for i in range(legal.shape[0]):
        c = legal[i]
        if (card_suit(rules, c) == trump and beats(rules, c, best, trump)
                and (choice == NO_CARD
                     or card_strength(rules, c) < card_strength(rules, choice))):
            choice = c
    return choice


@njit(cache=True, _nrt=False, inline="always")
def partner_winning(rules, public, seat):
    """True if the current trick (with a card played) is being won by the seat's side
    (jitted)."""
    return V.side_of(rules, V.winning_seat(rules, public)) == V.side_of(rules, seat)


@njit(cache=True, _nrt=False)
def hoard_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """The hoarding decision (module docstring); ``rng`` is unused (jitted)."""
    # greedy reads only its objective and swap slots (3 and 4) here, unused (0: auto) in ours
    if V.swap_offered(public) or _fewest(rules, params):
        return greedy_strategy(rules, public, hand, legal, seat, signals, params, rng)
    trump = V.trump(public)
    if V.trick_size(public) == 0 or partner_winning(rules, public, seat):
        return cheapest(rules, legal, trump)
    best = V.winning_card(rules, public)
    c = plain_win(rules, legal, best, trump)
    if c != NO_CARD:
        return c
    if V.trick_points(rules, public) >= params[P_THRESHOLD] or V.to_draw(public) == 0:
        c = weakest_winning_trump(rules, legal, best, trump)
        if c != NO_CARD:
            return c
    return cheapest(rules, legal, trump)


DEFINITION = StrategyDef("hoard", 7, (
    Param("threshold", int, 10, 0, 120,
          "points on the table worth a trump while the stock lasts"),
), "a reading of Giacomelli's briscola-hoarding policy: trumps saved for loads and the "
   "endgame", fn=hoard_strategy)
