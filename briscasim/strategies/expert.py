"""``expert``: a fast rule-based player for two, tuned on duplicate deals against greedy.

Two players, ``objective = most`` (what it was built and tuned for). Every card has a *keep
value*, what holding it on is worth in points, worked out from what the seat has seen:

- a trump is worth ``trump_keep_early`` while the stock is full, falling linearly to
  ``trump_keep_late`` as it runs out, and ``high_trump_keep`` more for the trump A or 3;
- a plain card is worth ``plain_keep`` per point it carries (negative: a load is a liability
  while the other hand may still take it);
- a card no card the opponent may hold can beat (every stronger card of its suit and, for a
  plain card, every trump already played) is worth ``master_keep`` more.

The cards the opponent may hold are counted from the public knowledge of every card
(``view.where``): unseen cards not in the seat's own hand, the face-up card, and cards
publicly known to be in the opponent's hand. A card's *beaters* are those of them that beat
it. Then

1. **following** (the seat plays last): for each legal card, the points it takes (or gives
   away: the table and the card itself) minus its keep value; the best is played. This wins
   a trick with a plain card when it can, spends a trump on a trick worth more than it, and
   otherwise throws the card cheapest to lose;
2. **leading**: the card of least keep value plus ``lead_risk`` times its points times the
   share of the opponent's possible cards that beat it (about the chance of losing it);
3. **the endgame**: once the stock is empty every card is known (what the seat does not hold
   and has not seen played is in the opponent's hand), and with ``endgame`` on the rest of
   the deal is solved exactly by a small minimax over the cards (:func:`endgame_value`):
   first to win the deal, then by the final point margin.

With more than two players, or under ``objective = fewest``, it plays as ``greedy`` with the
first six parameters, which mean what they mean for greedy (``trump_threshold``,
``high_trump_threshold``, ``trump_keep``, ``objective``, ``swap``, ``use_signals``). A swap
offer (without a swap policy) is answered as greedy answers it. Deterministic: no randomness.

Tuning (``scripts/tune_expert.py``): a coordinate search over the keep values and
``lead_risk``, each candidate scored against greedy on the same duplicate brisca-2 deals
(seats swapped), with fresh deals for the final measurement; the defaults below are its
result (the script's docstring records the run, its seeds and the figures).
"""
import numpy as np
from numba import njit, types

from ..engine.core import beats, card_face, card_points, card_strength, card_suit
from ..engine.layout import KNOWN_FACE_UP, KNOWN_UNSEEN, N_CARD_IDS, NO_CARD
from . import view as V
from .api import KIND_EXPERT
from .greedy import DEFINITION as GREEDY, _fewest, greedy_strategy
from .params import Param, StrategyDef

# slots 0..5 are greedy's (greedy_strategy reads them beyond two players and under fewest)
P_TRUMP_KEEP_EARLY = 6
P_TRUMP_KEEP_LATE = 7
P_HIGH_TRUMP_KEEP = 8
P_PLAIN_KEEP = 9
P_MASTER_KEEP = 10
P_LEAD_RISK = 11
P_ENDGAME = 12

DEFINITION = StrategyDef("expert", KIND_EXPERT, GREEDY.params + (
    Param("trump_keep_early", float, 8.0, -50.0, 100.0,
          "points a trump is worth in hand while the stock is full"),
    Param("trump_keep_late", float, 4.0, -50.0, 100.0,
          "points a trump is worth in hand as the stock runs out"),
    Param("high_trump_keep", float, 12.0, -50.0, 100.0,
          "points the trump A or 3 is worth in hand on top of a trump's"),
    Param("plain_keep", float, 0.0, -2.0, 2.0,
          "worth in hand of a plain card per point it carries"),
    Param("master_keep", float, 3.0, -50.0, 100.0,
          "worth in hand of a card nothing the opponent may hold can beat"),
    Param("lead_risk", float, 1.0, 0.0, 5.0,
          "weight of the points a lead may lose: points times the share of the opponent's "
          "possible cards that beat it"),
    Param("endgame", bool, True, doc="solve the deal exactly once the stock is empty (two "
          "players)"),
), "two players: keep values from counted cards, exact endgame; otherwise greedy")

WIN = 1000.0
_A, _THREE = 0, 1
_EMPTY = 255
_SOLVE_SIGNATURE = types.float64(types.int64[::1], types.int64, types.int64, types.int64,
                                 types.boolean, types.int64, types.float64, types.float64,
                                 types.float64)


@njit(cache=True, _nrt=False, inline="always")
def _slot(packed, i):
    """Card in slot ``i`` (0..2) of a packed hand, or NO_CARD."""
    b = (packed >> (8 * i)) & 255
    return NO_CARD if b == _EMPTY else b


@njit(cache=True, _nrt=False, inline="always")
def _without(packed, i):
    """The packed hand with slot ``i`` emptied."""
    return packed | (_EMPTY << (8 * i))


@njit(_SOLVE_SIGNATURE, cache=True, _nrt=False)
def _solve(rules, trump, mine, theirs, i_lead, lead, margin, alpha, beta):
    """Minimax value for the seat holding ``mine`` (packed) against ``theirs``; ``lead`` is
    the card led to the current trick (NO_CARD: none yet), ``i_lead`` whether the seat leads
    it; ``margin`` the points of the seat minus the opponent's so far."""
    if lead == NO_CARD:
        hand = mine if i_lead else theirs
        if hand == -1:   # every slot empty: the deal is over
            return margin + (WIN if margin > 0 else (-WIN if margin < 0 else 0.0))
        mover_is_me = i_lead
    else:
        hand = theirs if i_lead else mine
        mover_is_me = not i_lead
    best = -np.inf if mover_is_me else np.inf
    for i in range(3):
        c = _slot(hand, i)
        if c == NO_CARD:
            continue
        rest = _without(hand, i)
        if lead == NO_CARD:
            if mover_is_me:
                v = _solve(rules, trump, rest, theirs, True, c, margin, alpha, beta)
            else:
                v = _solve(rules, trump, mine, rest, False, c, margin, alpha, beta)
        else:
            pts = card_points(rules, lead) + card_points(rules, c)
            follower_wins = beats(rules, c, lead, trump)
            me_wins = follower_wins == mover_is_me
            m = margin + pts if me_wins else margin - pts
            if mover_is_me:
                v = _solve(rules, trump, rest, theirs, me_wins, NO_CARD, m, alpha, beta)
            else:
                v = _solve(rules, trump, mine, rest, me_wins, NO_CARD, m, alpha, beta)
        if mover_is_me:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


@njit(cache=True, _nrt=False)
def _pack(cards0, cards1, cards2):
    packed = -1
    k = 0
    for c in (cards0, cards1, cards2):
        if c != NO_CARD:
            packed = (packed & ~(255 << (8 * k))) | (c << (8 * k))
            k += 1
    return packed


@njit(cache=True, _nrt=False)
def endgame_value(rules, public, hand, seat, card):
    """Exact value for ``seat`` of playing ``card`` in a 2-player deal whose stock is empty:
    what it does not hold and has not seen played is its opponent's hand. The value is the
    final point margin (the seat's points minus the opponent's), plus 1000 for a won deal,
    minus 1000 for a lost one, with both playing perfectly from here (jitted).

    Usable from any strategy with the seat's view; ``card`` must be one of ``hand``.
    """
    trump = V.trump(public)
    opp = 1 - seat
    o0 = NO_CARD
    o1 = NO_CARD
    o2 = NO_CARD
    for c in range(N_CARD_IDS):
        w = V.where(public, c)
        if (w == KNOWN_UNSEEN and hand[0] != c and hand[1] != c and hand[2] != c) or w == opp:
            if o0 == NO_CARD:
                o0 = c
            elif o1 == NO_CARD:
                o1 = c
            else:
                o2 = c
    r0 = hand[0] if hand[0] != card else NO_CARD
    r1 = hand[1] if hand[1] != card else NO_CARD
    r2 = hand[2] if hand[2] != card else NO_CARD
    mine = _pack(r0, r1, r2)
    theirs = _pack(o0, o1, o2)
    margin = float(V.points(public, V.side_of(rules, seat))
                   - V.points(public, V.side_of(rules, opp)))
    if V.trick_size(public) == 0:
        return _solve(rules, trump, mine, theirs, True, card, margin, -np.inf, np.inf)
    lead = V.trick_card(public, 0)
    pts = card_points(rules, lead) + card_points(rules, card)
    wins = beats(rules, card, lead, trump)
    return _solve(rules, trump, mine, theirs, wins, NO_CARD,
                  margin + pts if wins else margin - pts, -np.inf, np.inf)


@njit(cache=True, _nrt=False, inline="always")
def _keep(rules, params, card, trump, beaters, stock_share):
    """Keep value of ``card`` (module docstring)."""
    pts = card_points(rules, card)
    if card_suit(rules, card) == trump:
        k = (params[P_TRUMP_KEEP_LATE]
             + (params[P_TRUMP_KEEP_EARLY] - params[P_TRUMP_KEEP_LATE]) * stock_share)
        face = card_face(rules, card)
        if (face == _A) | (face == _THREE):
            k += params[P_HIGH_TRUMP_KEEP]
    else:
        k = params[P_PLAIN_KEEP] * pts
    if beaters == 0:
        k += params[P_MASTER_KEEP]
    return k + 0.001 * card_strength(rules, card)   # ties: spend the weaker card


@njit(cache=True, _nrt=False)
def _play_two(rules, public, hand, legal, seat, params):
    """The decision of the seat in a 2-player deal, ``objective = most``."""
    k = legal.shape[0]
    if k == 1:
        return legal[0]
    if V.to_draw(public) == 0 and params[P_ENDGAME] != 0:
        best = legal[0]
        best_v = -np.inf
        for i in range(k):
            v = endgame_value(rules, public, hand, seat, legal[i])
            if v > best_v:
                best = legal[i]
                best_v = v
        return best
    trump = V.trump(public)
    opp = 1 - seat
    c0 = legal[0]
    c1 = legal[1]
    c2 = legal[2] if k > 2 else legal[1]
    possible = 0
    b0 = 0
    b1 = 0
    b2 = 0
    for c in range(N_CARD_IDS):
        w = V.where(public, c)
        if ((w == KNOWN_UNSEEN and hand[0] != c and hand[1] != c and hand[2] != c)
                or w == opp or w == KNOWN_FACE_UP):
            possible += 1
            b0 += beats(rules, c, c0, trump)
            b1 += beats(rules, c, c1, trump)
            b2 += beats(rules, c, c2, trump)
    full = V.players(rules) * (V.tricks_in_deal(public) - 3)
    stock_share = V.to_draw(public) / full if full > 0 else 0.0
    leading = V.trick_size(public) == 0
    lead = V.trick_card(public, 0)
    table = card_points(rules, lead) if not leading else 0
    best = c0
    best_v = -np.inf
    for i in range(k):
        c = legal[i]
        beaters = b0 if i == 0 else (b1 if i == 1 else b2)
        keep = _keep(rules, params, c, trump, beaters, stock_share)
        pts = card_points(rules, c)
        if leading:
            risk = params[P_LEAD_RISK] * pts * beaters / possible if possible > 0 else 0.0
            v = -keep - risk
        else:
            won = table + pts
            v = (won if beats(rules, c, lead, trump) else -won) - keep
        if v > best_v:
            best = c
            best_v = v
    return best


@njit(cache=True, _nrt=False)
def expert_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """The expert decision for ``seat`` (module docstring); ``rng`` is unused (jitted)."""
    if V.players(rules) != 2 or V.swap_offered(public) or _fewest(rules, params):
        return greedy_strategy(rules, public, hand, legal, seat, signals, params, rng)
    return _play_two(rules, public, hand, legal, seat, params)
