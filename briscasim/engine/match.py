"""Matches (docs/rules.md, matches): who deals, how deals are tallied, who wins; jitted.

Batch play (:func:`briscasim.batch.matches_kernel`) and match replays
(:func:`briscasim.replay.replay_match`) both go through these functions: after each deal,
:func:`tally_deal` adds it up and says whether it counts and whether the deal passes on, then
:func:`match_result` decides. Briscola Chiamata's matches count game points, and a deal
thrown in counts for no one (the dealer keeps the deal unless ``redeal_next_dealer``)."""
from numba import njit

from .layout import (ALL_PASS_REDEAL_NEXT_DEALER, DRAW, MATCH_DEALS, MATCH_POINTS,
                     MATCH_ROUNDS, OBJECTIVE_FEWEST, R_ALL_PASS, R_AUCTION, R_MATCH_KIND,
                     R_MATCH_N, R_MAX_DEALS, R_N_SIDES, R_OBJECTIVE, R_PLAYERS, R_SIDE,
                     S_BLACK_HAND, S_CALLER, S_GAME_POINTS, S_POINTS, S_WINNER, UNDECIDED)

TALLY_BLACK_HAND = 1
"""Bits of :func:`tally_deal`'s answer: the deal ended by a black hand; it does not count
towards ``deals N`` (thrown in); the dealer deals again (the deal does not pass on)."""
TALLY_THROWN_IN = 2
TALLY_SAME_DEALER = 4


@njit(cache=True, _nrt=False)
def _unique_best(values, n, lowest):
    """Index of the unique best of ``values[:n]``, or DRAW if the best is shared."""
    best = 0
    shared = False
    for s in range(1, n):
        better = values[s] < values[best] if lowest else values[s] > values[best]
        if better:
            best = s
            shared = False
        elif values[s] == values[best]:
            shared = True
    return DRAW if shared else best


@njit(cache=True, _nrt=False)
def match_result(rules, deals_counted, deals_played, deals_won, points):
    """The match's winning side, ``DRAW``, or ``UNDECIDED`` to play another deal (jitted).

    ``deals_won`` and ``points`` hold per side the deals won and the card points (in
    Briscola Chiamata the game points) taken so far; ``deals_played`` counts every deal
    (``max_deals``), ``deals_counted`` those not thrown in (``deals N``). A single-deal match
    is decided by its one deal (``deals_won``).
    """
    n_sides = rules[R_N_SIDES]
    kind = rules[R_MATCH_KIND]
    target = rules[R_MATCH_N]
    capped = deals_played >= rules[R_MAX_DEALS]
    if kind == MATCH_ROUNDS:
        for s in range(n_sides):
            if deals_won[s] >= target:
                return s
        return _unique_best(deals_won, n_sides, False) if capped else UNDECIDED
    if kind == MATCH_POINTS:
        reached = False
        for s in range(n_sides):
            if points[s] >= target:
                reached = True
        if reached:
            w = _unique_best(points, n_sides, rules[R_OBJECTIVE] == OBJECTIVE_FEWEST)
            if w != DRAW or capped:
                return w
            return UNDECIDED
        return DRAW if capped else UNDECIDED
    if kind == MATCH_DEALS:
        if deals_counted >= target or capped:
            # Chiamata: the highest total of game points
            return _unique_best(points if rules[R_AUCTION] != 0 else deals_won, n_sides,
                                False)
        return UNDECIDED
    return _unique_best(deals_won, n_sides, False)


@njit(cache=True, _nrt=False, inline="always")
def seating(deal_no, rotation, n):
    """The lineup shift of a deal of a match played in ``rotation`` at a table of ``n``,
    after the deal has passed on ``deal_no`` times (one seat to the right after every deal but
    a Chiamata redeal): engine seat ``s`` is player ``(s + deal_no) % n``, who plays lineup
    entry ``(s + deal_no + rotation) % n`` (jitted)."""
    return (deal_no + rotation) % n


@njit(cache=True, _nrt=False, inline="always")
def tally_deal(rules, state, shift, deals_won, points):
    """Add a finished deal of a match (``state``), played with the deal passed ``shift``
    times, to the players' sides' ``deals_won`` and ``points``; return ``TALLY_*`` bits
    (jitted).

    Engine side ``s`` holds engine seat ``s``, who is player ``(s + shift) % n``: its
    points go to that player's side. In Briscola Chiamata a player's points are its game
    points, and a deal with positive game points counts as won."""
    n = rules[R_PLAYERS]
    if rules[R_AUCTION] != 0:
        for s in range(n):
            g = state[S_GAME_POINTS + s]
            p = rules[R_SIDE + (s + shift) % n]
            points[p] += g
            deals_won[p] += g > 0
        if state[S_CALLER] >= 0:
            return 0
        if rules[R_ALL_PASS] == ALL_PASS_REDEAL_NEXT_DEALER:
            return TALLY_THROWN_IN
        return TALLY_THROWN_IN | TALLY_SAME_DEALER
    for s in range(rules[R_N_SIDES]):
        points[rules[R_SIDE + (s + shift) % n]] += state[S_POINTS + s]
    w = state[S_WINNER]
    if w != DRAW:
        deals_won[rules[R_SIDE + (w + shift) % n]] += 1
    return TALLY_BLACK_HAND if state[S_BLACK_HAND] >= 0 else 0
