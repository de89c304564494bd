"""``expert``: a fast rule-based player, tuned on duplicate deals against greedy.

Every card has a *keep value*, what holding it on is worth in points, worked out from what
the seat has seen:

- a trump is worth ``trump_keep_early`` while the stock is full, falling linearly to
  ``trump_keep_late`` as it runs out, and ``high_trump_keep`` more for the trump A or 3;
- a plain card is worth ``plain_keep`` per point it carries (negative: a load is a liability
  while the other hand may still take it);
- a card no card another seat may hold can beat (every stronger card of its suit and, for a
  plain card, every trump already played) is worth ``master_keep`` more.

The cards another seat may hold are counted from the public knowledge of every card
(``view.where``): unseen cards not in the seat's own hand, the face-up card, and cards
publicly known to be in another hand. A card's *beaters* are those of them that beat it.

**Two players**, ``objective = most`` (what it was first built and tuned for):

1. **following** (the seat plays last): for each legal card, the points it takes (or gives
   away: the table and the card itself) minus its keep value; the best is played. This wins
   a trick with a plain card when it can, spends a trump on a trick worth more than it, and
   otherwise throws the card cheapest to lose;
2. **leading**: the card of least keep value plus ``lead_risk`` times its points times the
   share of the opponent's possible cards that beat it (about the chance of losing it);
3. **the endgame**: once the stock is empty every card is known (what the seat does not hold
   and has not seen played is in the opponent's hand), and with ``endgame`` on the rest of
   the deal is solved exactly by a small minimax over the cards (:func:`endgame_value`):
   first to win the deal (a tie read as the rules read it), then by the final point margin.

**More than two players** (alone or in teams, any hand size: Briscola Chiamata's eight cards
too), ``objective = most``, by keep values of their own (the ``many_*`` parameters): for
each legal card, the chance ``p`` that the seat's side takes the trick. If the card leads or
wins the trick so far, or a partner is winning it, ``p`` is the chance that the opponents
still to play (each holding as many cards as the seat) hold none of the winning card's
beaters, among the cards out of sight (hypergeometric) and among those publicly known to be
in their hands (the face-up card once drawn, a card taken by a swap); otherwise the chance
that a partner still to play holds one and the opponents after him none. A trump counts as
a beater in proportion to what the trick is worth, up to ``ruff_points`` (an opponent does
not spend a trump on a blank trick). Following, a card is worth
``(p - (1 - p) * give_weight)`` times the points on the table with it, minus its keep value
(``give_weight`` only with more than two sides: what an opponent's point costs against one
of the seat's); leading, minus its keep value and ``many_lead_risk`` times its points times
``1 - p``. No exact endgame.
Partner signals are not read: read as greedy reads them (a partner behind who signalled the
top trump takes the trick) they scored 0.593 against greedy in brisca-4-pairs-signals,
unread 0.598.

**Under** ``target_points`` (Briscola a 31) it races as greedy does when it plays the last
card of a trick (greedy's ``_race``: it takes the trick with a card that reaches the target,
or stops an opponent close to it) and otherwise plays by the rules above: 0.583 against
greedy in briscola-2-31 (0.540 without the race). With more than two players and no
partners it plays as greedy there: by its own rules it scored 0.307 and 0.312 against two
greedy players in briscola-3 and brisca-3-remove2 with ``target_points = 31`` (fair share
0.333), though 0.586 with a pair in brisca-4-pairs (20,000 deals of seed 3 each).

With two players and hands of other than three cards, or under ``objective = fewest``, it
plays as ``greedy`` with the first six parameters, which mean what they mean for greedy
(``trump_threshold``, ``high_trump_threshold``, ``trump_keep``, ``objective``, ``swap``,
``use_signals``). A swap offer (without a swap policy) is answered as greedy answers it, and
in Briscola Chiamata it bids and calls by greedy's rule. Deterministic: no randomness.

Tuning (``scripts/tune_expert.py``): a coordinate search over the keep values and the lead
risk, each candidate scored against greedy on the same duplicate deals (every rotation of
the seats): brisca-2 for two players, the mean over brisca-4-pairs and brisca-3-remove2 for
more; fresh deals for the final measurement. The defaults below are its result (the
script's docstring records the runs, their seeds and the figures).
"""
import numpy as np
from numba import njit

from ..engine.core import trick_so_far
from ..engine.primitives import (beats, card_face, card_points, card_strength, card_suit,
                                 hand_of, known_bits, known_in_hands, popcount, seat_after)
from ..engine.layout import (KNOWN_UNSEEN, N_CARD_IDS, NO_CARD, PHASE_AUCTION, PHASE_PLAY,
                             R_CARD_STRONGER, R_TARGET_POINTS, R_TIE, S_PHASE,
                             S_TRICK_N, S_TURN, TIE_DRAW)
from . import view as V
from .greedy import (DEFINITION as GREEDY, _card_bits, _fewest, _race, _suit_bits,
                     greedy_strategy)
from .params import INLINE_OR_ENTRY, Param, StrategyDef

# slots 0..5 are greedy's (greedy_strategy reads them beyond two players and under fewest)
P_TRUMP_KEEP_EARLY = 6
P_TRUMP_KEEP_LATE = 7
P_HIGH_TRUMP_KEEP = 8
P_PLAIN_KEEP = 9
P_MASTER_KEEP = 10
P_LEAD_RISK = 11
P_ENDGAME = 12

# The keep values and the lead risk: name, bounds, what it is, and its defaults with two
# players and with more (parameters of their own, ``many_*``, in the same order)
_KEEP = (
    ("trump_keep_early", -50.0, 100.0, "points a trump is worth in hand while the stock is "
     "full", 4.0, 8.0),
    ("trump_keep_late", -50.0, 100.0, "points a trump is worth in hand as the stock runs out",
     6.0, 10.0),
    ("high_trump_keep", -50.0, 100.0, "points the trump A or 3 is worth in hand on top of a "
     "trump's", 12.0, 4.0),
    ("plain_keep", -2.0, 2.0, "worth in hand of a plain card per point it carries", 0.2, 0.1),
    ("master_keep", -50.0, 100.0, "worth in hand of a card nothing another seat may hold can "
     "beat", 7.0, 27.0),
    ("lead_risk", 0.0, 5.0, "weight of the points a lead may lose: its points times the "
     "chance of losing it", 2.0, 0.5),
)

# more than two players: the same keep values and lead risk, in the same order, then theirs
P_MANY = P_ENDGAME + 1
P_RUFF_POINTS = P_MANY + len(_KEEP)
P_GIVE_WEIGHT = P_RUFF_POINTS + 1


WIN = 1000.0
_A, _THREE = 0, 1
_EMPTY = 255


@njit(cache=True, _nrt=False, inline="always")
def _slot(packed, i):
    """Card in slot ``i`` (0..2) of a packed hand (8 bits a slot, 255: empty), or NO_CARD."""
    b = (packed >> (8 * i)) & 255
    return NO_CARD if b == _EMPTY else b


@njit(cache=True, _nrt=False, inline="always")
def _without(packed, i):
    """The packed hand with slot ``i`` emptied."""
    return packed | (_EMPTY << (8 * i))


@njit(cache=True, _nrt=False, inline="always")
def _trick(rules, trump, mine, theirs, i_lead, margin):
    """Margin after the seat plays ``mine`` and the opponent ``theirs`` to a trick the seat
    leads if ``i_lead``; and whether the seat takes it."""
    lead = mine if i_lead else theirs
    follow = theirs if i_lead else mine
    pts = card_points(rules, lead) + card_points(rules, follow)
    i_take = beats(rules, follow, lead, trump) != i_lead
    return (margin + pts if i_take else margin - pts), i_take


@njit(cache=True, _nrt=False, inline="always")
def _final(rules, margin, i_took_last):
    """Value of a finished deal: the margin, plus or minus ``WIN`` for a won or lost deal; a
    tie is a draw, or under ``tie=last_trick`` won by the seat that took the last trick
    (``i_took_last``)."""
    if margin == 0.0:
        if rules[R_TIE] == TIE_DRAW:
            return 0.0
        return WIN if i_took_last else -WIN
    return margin + (WIN if margin > 0 else -WIN)


@njit(cache=True, _nrt=False)
def _last_trick(rules, trump, mine, theirs, i_lead, margin):
    """Value of the last trick: the seat plays card ``mine``, the opponent ``theirs``."""
    m, take = _trick(rules, trump, mine, theirs, i_lead, margin)
    return _final(rules, m, take)


@njit(cache=True, _nrt=False)
def _two_tricks(rules, trump, mine, theirs, i_lead, margin, alpha, beta):
    """Minimax value of the last two tricks, two cards each (packed hands), searched in the
    window ``(alpha, beta)`` (the loops of :func:`_three_tricks` with two cards, written out:
    numba caches no recursion)."""
    best = -np.inf if i_lead else np.inf
    for i in range(2):
        worst = np.inf if i_lead else -np.inf
        lo = max(alpha, best) if i_lead else alpha
        hi = beta if i_lead else min(beta, best)
        for j in range(2):
            a = i if i_lead else j          # the seat's slot
            b = j if i_lead else i          # the opponent's
            m, take = _trick(rules, trump, _slot(mine, a), _slot(theirs, b), i_lead, margin)
            v = _last_trick(rules, trump, _slot(mine, 1 - a), _slot(theirs, 1 - b), take, m)
            worst = min(worst, v) if i_lead else max(worst, v)
            if (worst <= lo) if i_lead else (worst >= hi):
                break
        best = max(best, worst) if i_lead else min(best, worst)
        if (best >= beta) if i_lead else (best <= alpha):
            break
    return best


@njit(cache=True, _nrt=False)
def _compact(packed):
    """The packed hand with its cards moved to the first slots."""
    out = -1
    k = 0
    for i in range(3):
        c = _slot(packed, i)
        if c != NO_CARD:
            out = (out & ~(255 << (8 * k))) | (c << (8 * k))
            k += 1
    return out


@njit(cache=True, _nrt=False)
def _three_tricks(rules, trump, mine, theirs, i_lead, margin, alpha, beta):
    """Minimax value of the last three tricks, three cards each (packed hands), by
    alpha-beta in the window ``(alpha, beta)``: exact inside it, else a bound beyond the
    side of the window it falls (fail-soft). The outer loop is over the leader's card, the
    inner over the follower's answer; ``i_lead`` says whether the seat (maximising) leads."""
    best = -np.inf if i_lead else np.inf
    for i in range(3):
        worst = np.inf if i_lead else -np.inf
        lo = max(alpha, best) if i_lead else alpha
        hi = beta if i_lead else min(beta, best)
        for j in range(3):
            a = i if i_lead else j
            b = j if i_lead else i
            m, take = _trick(rules, trump, _slot(mine, a), _slot(theirs, b), i_lead, margin)
            v = _two_tricks(rules, trump, _compact(_without(mine, a)),
                            _compact(_without(theirs, b)), take, m,
                            lo if i_lead else max(lo, worst), min(hi, worst) if i_lead else hi)
            worst = min(worst, v) if i_lead else max(worst, v)
            if (worst <= lo) if i_lead else (worst >= hi):
                break
        best = max(best, worst) if i_lead else min(best, worst)
        if (best >= beta) if i_lead else (best <= alpha):
            break
    return best


@njit(cache=True, _nrt=False)
def _after(rules, trump, mine, theirs, i_lead, margin, cards, alpha, beta):
    """Value of the rest of the deal with ``cards`` cards in each hand (0..3), searched in
    the window ``(alpha, beta)``."""
    mine = _compact(mine)
    theirs = _compact(theirs)
    if cards == 0:
        return _final(rules, margin, i_lead)      # the last trick's taker leads next
    if cards == 1:
        return _last_trick(rules, trump, _slot(mine, 0), _slot(theirs, 0), i_lead, margin)
    if cards == 2:
        return _two_tricks(rules, trump, mine, theirs, i_lead, margin, alpha, beta)
    return _three_tricks(rules, trump, mine, theirs, i_lead, margin, alpha, beta)


@njit(cache=True, _nrt=False, inline="always")
def _unseen_mask(public, hand, opp):
    """Bit mask of the cards the opponent may hold besides the face-up card: the cards out of
    sight that are not in ``hand``, and those publicly known to be in its hand (branch-free:
    which they are is as random as the deal)."""
    mask = np.int64(0)
    for c in range(N_CARD_IDS):
        w = V.where(public, c)
        mask |= np.int64((w == KNOWN_UNSEEN) | (w == opp)) << c
    for i in range(hand.shape[0]):
        c = np.int64(hand[i])
        mask &= ~(np.int64(c >= 0) << (c if c >= 0 else 0))
    return mask


@njit(cache=True, _nrt=False, inline="always")
def _pack_mask(mask):
    """The cards of ``mask`` (at most three), ascending, as a packed hand."""
    packed = -1
    k = 0
    while mask != 0 and k < 3:
        c = _lowest_bit(mask)
        packed = (packed & ~(255 << (8 * k))) | (c << (8 * k))
        mask &= mask - 1
        k += 1
    return packed


@njit(cache=True, _nrt=False, inline="always")
def _lowest_bit(x):
    """Index of the lowest set bit of ``x`` (not 0)."""
    return popcount((x & -x) - 1)


@njit(cache=True, _nrt=False, inline="always")
def _pack_hand(hand, leave):
    """The cards of ``hand`` (at most three) but ``leave``, in order, as a packed hand."""
    packed = -1
    k = 0
    for i in range(hand.shape[0]):
        c = np.int64(hand[i])
        if c != NO_CARD and c != leave:
            packed = (packed & ~(255 << (8 * k))) | (c << (8 * k))
            k += 1
    return packed


@njit(cache=True, _nrt=False, inline="always")
def _n_cards(packed):
    """Cards in a packed hand whose cards fill its first slots."""
    k = 0
    for i in range(3):
        k += _slot(packed, i) != NO_CARD
    return k


@njit(cache=True, _nrt=False)
def _endgame_card(rules, trump, hand, theirs, k, card, margin, lead, alpha):
    """:func:`endgame_value` of ``card`` with the opponent's hand ``theirs`` (packed, ``k``
    cards) and the margin so far worked out; ``lead`` is the card led, NO_CARD if the seat
    leads. Exact if above ``alpha``, else some value at most ``alpha``."""
    mine = _pack_hand(hand, card)
    mk = _n_cards(mine)
    if lead == NO_CARD:
        if k != mk + 1:
            return np.nan
        # the opponent answers the lead with the card worst for the seat
        worst = np.inf
        for j in range(k):
            m, take = _trick(rules, trump, card, _slot(theirs, j), True, margin)
            worst = min(worst, _after(rules, trump, mine, _without(theirs, j), take, m, mk,
                                      alpha, worst))
            if worst <= alpha:
                break
        return worst
    if k != mk:
        return np.nan
    m, take = _trick(rules, trump, card, lead, False, margin)
    return _after(rules, trump, mine, theirs, take, m, mk, alpha, np.inf)


@njit(cache=True, _nrt=False, inline="always")
def _endgame_view(rules, public, seat):
    """The trump, the margin so far and the card led (NO_CARD if the seat leads)."""
    margin = float(V.points(public, V.side_of(rules, seat))
                   - V.points(public, V.side_of(rules, 1 - seat)))
    lead = V.trick_card(public, 0) if V.trick_size(public) != 0 else NO_CARD
    return V.trump(public), margin, lead


@njit(cache=True, _nrt=False)
def endgame_value(rules, public, hand, seat, card):
    """Exact value for ``seat`` of playing ``card`` in a 2-player deal whose stock is empty
    (``view.to_draw(public) == 0``): what it does not hold and has not seen played is its
    opponent's hand. The value is the final point margin (the seat's points minus the
    opponent's), plus 1000 for a won deal, minus 1000 for a lost one (a 60-60 tie under
    ``tie=last_trick`` is won by the seat that takes the last trick), both sides playing
    perfectly from here (minimax over the cards; jitted).

    Usable from any strategy with the seat's view; ``card`` must be one of ``hand``. Returns
    NaN if the cards the opponent may hold are not exactly its hand (cards out of sight that
    are not in play), or if the hands hold more than three cards.
    """
    if hand.shape[0] > 3:
        return np.nan
    mask = _unseen_mask(public, hand, 1 - seat)
    k = popcount(mask)
    if k > 3:
        return np.nan
    trump, margin, lead = _endgame_view(rules, public, seat)
    return _endgame_card(rules, trump, hand, _pack_mask(mask), k, card, margin, lead, -np.inf)


@njit(cache=True, _nrt=False)
def settled_value(rules, state, seat):
    """Exact value for ``seat`` (as :func:`endgame_value`'s) of a whole 2-player deal state
    at the start of a trick once the stock is empty, by the same minimax; NaN for any other
    state, or under rules it does not model (:func:`_minimax_plays`; a black hand needs a
    draw, so it plays no part once the stock is empty) (jitted)."""
    if (not _minimax_plays(rules) or V.to_draw(state) != 0 or state[S_PHASE] != PHASE_PLAY
            or state[S_TRICK_N] != 0):
        return np.nan
    mine = _pack_hand(hand_of(rules, state, seat), NO_CARD)
    theirs = _pack_hand(hand_of(rules, state, 1 - seat), NO_CARD)
    trump, margin, _ = _endgame_view(rules, state, seat)
    return _after(rules, trump, mine, theirs, state[S_TURN] == seat, margin, _n_cards(mine),
                  -np.inf, np.inf)


@njit(cache=True, _nrt=False, inline="always")
def _endgame_move(rules, public, hand, legal, seat):
    """The card of ``legal`` of best :func:`endgame_value` in a 2-player deal of three-card
    hands whose stock is empty; ``NO_CARD`` if the opponent's hand is not known exactly."""
    mask = _unseen_mask(public, hand, 1 - seat)
    n_theirs = popcount(mask)
    if n_theirs > 3:
        return NO_CARD
    theirs = _pack_mask(mask)
    trump, margin, lead = _endgame_view(rules, public, seat)
    best = legal[0]
    best_v = -np.inf
    for i in range(legal.shape[0]):
        # a card not better than the best so far need not be valued exactly
        v = _endgame_card(rules, trump, hand, theirs, n_theirs, legal[i], margin, lead, best_v)
        if v > best_v:
            best = legal[i]
            best_v = v
    return best if best_v > -np.inf else NO_CARD     # -inf: some card was not known


@njit(cache=True, _nrt=False, inline="always")
def _minimax_plays(rules):
    """True for the rules the packed minimax plays: two players, three-card hands, the most
    points winning, no ``target_points``."""
    return (V.players(rules) == 2 and V.hand_size(rules) == 3
            and rules[R_TARGET_POINTS] == 0 and not V.fewest_wins(rules))


@njit(cache=True, _nrt=False)
def endgame_move(rules, public, hand, legal, seat):
    """The exact endgame's move for any strategy with the seat's view: in a 2-player deal of
    three-card hands where the most points win, with no ``target_points``, once the stock is
    empty, the card of ``legal`` of best :func:`endgame_value` (the first of equals);
    otherwise, or if the opponent's hand is not known exactly, ``NO_CARD`` (jitted)."""
    if (not _minimax_plays(rules) or V.to_draw(public) != 0
            or V.swap_offered(public) or public[S_PHASE] >= PHASE_AUCTION
            or legal.shape[0] < 2 or hand.shape[0] > 3):
        return NO_CARD
    return _endgame_move(rules, public, hand, legal, seat)


@njit(cache=True, _nrt=False, inline="always")
def _beaters(rules, card, trump):
    """Mask of the cards that beat ``card`` led or winning: the stronger cards of its suit,
    and every trump if it is a plain card."""
    plain = np.int64(card_suit(rules, card) != trump)
    return rules[R_CARD_STRONGER + card] | ((-plain) & (np.int64(0xFFF) << (12 * trump)))


@njit(cache=True, _nrt=False, inline="always")
def _stock_share(public, players):
    """The share of the stock still to draw (1 while it is full, 0 once it is empty)."""
    full = players * (V.tricks_in_deal(public) - 3)
    return V.to_draw(public) / full if full > 0 else 0.0


@njit(cache=True, _nrt=False, inline="always")
def _keep(rules, params, card, trump, beaters, stock_share, base=P_TRUMP_KEEP_EARLY):
    """Keep value of ``card`` (module docstring), by the keep values from slot ``base``
    (``P_TRUMP_KEEP_EARLY``, or ``P_MANY`` with more than two players)."""
    pts = card_points(rules, card)
    if card_suit(rules, card) == trump:
        late = params[base + P_TRUMP_KEEP_LATE - P_TRUMP_KEEP_EARLY]
        k = late + (params[base] - late) * stock_share
        face = card_face(rules, card)
        if (face == _A) | (face == _THREE):
            k += params[base + P_HIGH_TRUMP_KEEP - P_TRUMP_KEEP_EARLY]
    else:
        k = params[base + P_PLAIN_KEEP - P_TRUMP_KEEP_EARLY] * pts
    if beaters == 0:
        k += params[base + P_MASTER_KEEP - P_TRUMP_KEEP_EARLY]
    return k + 0.001 * card_strength(rules, card)   # ties: spend the weaker card


@njit(cache=True, _nrt=False, inline="always")
def _play_two(rules, public, hand, legal, seat, params):
    """The decision of the seat in a 2-player deal, ``objective = most``."""
    k = legal.shape[0]
    if k == 1:
        return legal[0]
    if V.to_draw(public) == 0 and params[P_ENDGAME] != 0:
        card = _endgame_move(rules, public, hand, legal, seat)
        if card != NO_CARD:
            return card
    opp = 1 - seat
    mask = _unseen_mask(public, hand, opp)
    trump = V.trump(public)
    c0 = legal[0]
    c1 = legal[1]
    c2 = legal[2] if k > 2 else legal[1]
    if V.face_up_on_table(public):
        mask |= np.int64(1) << V.face_up(public)
    possible = popcount(mask)
    b0 = popcount(mask & _beaters(rules, c0, trump))
    b1 = popcount(mask & _beaters(rules, c1, trump))
    b2 = popcount(mask & _beaters(rules, c2, trump))
    stock_share = _stock_share(public, V.players(rules))
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


@njit(cache=True, _nrt=False, inline="always")
def _weighed(cards, trumps, ruff):
    """How many of the ``cards`` (a mask) count as beaters: a trump counts ``ruff``."""
    return popcount(cards & ~trumps) + ruff * popcount(cards & trumps)


@njit(cache=True, _nrt=False, inline="always")
def _none_among(unknown, beaters, slots, known, beats_top, trumps, ruff):
    """Chance that hands of ``slots`` cards in all hold none of the winning card's beaters
    (``beats_top``, a mask): the cards of mask ``known`` are known to be in them (the
    face-up card once drawn, a card taken by a swap), the rest are drawn from the
    ``unknown`` cards out of sight, ``beaters`` of which beat (hypergeometric; fractional
    counts, a trump counting ``ruff``)."""
    p = 1.0
    if known != 0:
        p = max(1.0 - _weighed(known & beats_top, trumps, ruff), 0.0)
        slots -= popcount(known)
    for i in range(min(slots, unknown)):
        p *= max(unknown - beaters - i, 0.0) / (unknown - i)
    return p


@njit(cache=True, _nrt=False)
def _play_many(rules, public, hand, legal, seat, params):
    """The decision of the seat with more than two players, ``objective = most``."""
    k = legal.shape[0]
    if k == 1:
        return legal[0]
    n = V.players(rules)
    trump = V.trump(public)
    mates = V.known_mates(rules, public, hand, seat)
    held = _card_bits(hand)
    mine = popcount(held)
    out_of_sight = known_bits(public, KNOWN_UNSEEN) & ~held
    unknown = popcount(out_of_sight)
    in_hands = known_in_hands(public, n)
    may_hold = out_of_sight | in_hands & ~held
    if V.face_up_on_table(public):
        may_hold |= np.int64(1) << V.face_up(public)
    # the seats still to play in this trick: opponents, partners and opponents after the last
    # partner, and the cards publicly known to be in their hands (the face-up card once
    # drawn, a card taken by a swap)
    pos = V.trick_size(public)
    opp_after = 0
    partners_after = 0
    opp_behind_partner = 0
    known_opp_after = np.int64(0)
    known_partners_after = np.int64(0)
    known_behind_partner = np.int64(0)
    for j in range(1, n - pos):
        s = seat_after(seat, j, n)
        known = np.int64(0)
        rest = in_hands
        while rest != 0:        # seldom more than one card (the face-up card once drawn)
            c = _lowest_bit(rest)
            rest &= rest - 1
            known |= np.int64(V.where(public, c) == s) << c
        if (mates >> s) & 1:
            partners_after += 1
            known_partners_after |= known
            opp_behind_partner = 0
            known_behind_partner = 0
        else:
            opp_after += 1
            known_opp_after |= known
            opp_behind_partner += 1
            known_behind_partner |= known
    stock_share = _stock_share(public, n)
    if pos > 0:
        wi, best, table = trick_so_far(rules, public)
        ours_now = (mates >> seat_after(V.trick_leader(public), wi, n)) & 1 != 0
    else:
        best = NO_CARD
        table = 0
        ours_now = False
    trumps = _suit_bits(trump)
    give = params[P_GIVE_WEIGHT] if V.n_sides(rules) > 2 else 1.0
    choice = legal[0]
    choice_v = -np.inf
    for i in range(k):
        c = legal[i]
        pts = card_points(rules, c)
        takes = pos == 0 or beats(rules, c, best, trump)
        top = c if takes else best
        beats_top = _beaters(rules, top, trump)
        worth = table + pts
        ruff = min(1.0, worth / params[P_RUFF_POINTS]) if params[P_RUFF_POINTS] > 0 else 1.0
        b = _weighed(out_of_sight & beats_top, trumps, ruff)
        if takes or ours_now:
            p_ours = _none_among(unknown, b, mine * opp_after, known_opp_after, beats_top,
                                 trumps, ruff)
        else:
            p_ours = ((1.0 - _none_among(unknown, b, mine * partners_after, known_partners_after,
                                         beats_top, trumps, ruff))
                      * _none_among(unknown, b, mine * opp_behind_partner, known_behind_partner,
                                    beats_top, trumps, ruff))
        keep = _keep(rules, params, c, trump, popcount(may_hold & _beaters(rules, c, trump)),
                     stock_share, P_MANY)
        if pos == 0:
            v = -keep - params[P_MANY + P_LEAD_RISK - P_TRUMP_KEEP_EARLY] * pts * (1.0 - p_ours)
        else:
            v = (p_ours - (1.0 - p_ours) * give) * worth - keep
        if v > choice_v:
            choice = c
            choice_v = v
    return choice


@njit(cache=True, _nrt=False, inline="always")
def expert_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """The expert decision for ``seat`` (module docstring); ``rng`` is unused (jitted)."""
    n = V.players(rules)
    if (V.swap_offered(public) or public[S_PHASE] >= PHASE_AUCTION or _fewest(rules, params)
            or rules[R_TARGET_POINTS] != 0 and n > 2 and V.n_sides(rules) == n):
        return greedy_strategy(rules, public, hand, legal, seat, signals, params, rng)
    if rules[R_TARGET_POINTS] != 0:
        card = _race(rules, public, hand, legal, seat, params)
        if card != NO_CARD:
            return card
    if n > 2:
        return _play_many(rules, public, hand, legal, seat, params)
    if V.hand_size(rules) != 3:
        return greedy_strategy(rules, public, hand, legal, seat, signals, params, rng)
    return _play_two(rules, public, hand, legal, seat, params)


DEFINITION = StrategyDef("expert", 6, GREEDY.params + tuple(
    Param(name, float, two, low, high, "two players: " + doc)
    for name, low, high, doc, two, _ in _KEEP) + (
    Param("endgame", bool, True, doc="two players: solve the deal exactly once the stock is "
          "empty"),
) + tuple(
    Param("many_" + name, float, many, low, high, "more than two players: " + doc)
    for name, low, high, doc, _, many in _KEEP) + (
    Param("ruff_points", float, 31.0, 0.0, 120.0,
          "more than two players: points a trick must be worth for an opponent to be counted "
          "on to trump it (fewer: in proportion; 0 = always)"),
    Param("give_weight", float, 0.8, 0.0, 2.0,
          "more than two sides: what a point taken by an opponent costs, against a point "
          "taken"),
), "keep values from counted cards; two players: exact endgame; more: the chance the side "
   "takes the trick", fn=expert_strategy, dispatch=INLINE_OR_ENTRY, deterministic=True)
