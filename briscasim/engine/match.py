"""Matches (docs/rules.md, matches): who deals, how deals are tallied, who wins; jitted.

Batch play (:func:`briscasim.batch.matches_kernel`) and match replays
(:func:`briscasim.replay.replay_match`) both go through these functions."""
from numba import njit

from .layout import (DRAW, MATCH_DEALS, MATCH_POINTS, MATCH_ROUNDS, OBJECTIVE_FEWEST,
                     R_MATCH_KIND, R_MATCH_N, R_MAX_DEALS, R_N_SIDES, R_OBJECTIVE, R_PLAYERS,
                     R_SIDE, S_BLACK_HAND, S_POINTS, S_WINNER, UNDECIDED)


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
def match_result(rules, deals_played, deals_won, points):
    """The match's winning side, ``DRAW``, or ``UNDECIDED`` to play another deal (jitted).

    ``deals_won`` and ``points`` hold per side the deals won and the card points taken so
    far. A single-deal match is decided by its one deal (``deals_won``).
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
        if deals_played >= target or capped:
            return _unique_best(deals_won, n_sides, False)
        return UNDECIDED
    return _unique_best(deals_won, n_sides, False)


@njit(cache=True, _nrt=False, inline="always")
def seating(deal_no, rotation, n):
    """The lineup shift of deal ``deal_no`` of a match played in ``rotation`` at a table of
    ``n``: the deal passes one seat to the right after every deal, so in deal ``j`` engine
    seat ``s`` is player ``(s + j) % n``, who plays lineup entry ``(s + j + rotation) % n``
    (jitted)."""
    return (deal_no + rotation) % n


@njit(cache=True, _nrt=False, inline="always")
def tally_deal(rules, state, deal_no, deals_won, points):
    """Add the finished deal ``deal_no`` of a match (``state``) to the players' sides'
    ``deals_won`` and ``points``; return 1 if it ended by a black hand, else 0 (jitted).

    Engine side ``s`` holds engine seat ``s``, who is player ``(s + deal_no) % n``: its
    points go to that player's side."""
    n = rules[R_PLAYERS]
    for s in range(rules[R_N_SIDES]):
        points[rules[R_SIDE + (s + deal_no) % n]] += state[S_POINTS + s]
    w = state[S_WINNER]
    if w != DRAW:
        deals_won[rules[R_SIDE + (w + deal_no) % n]] += 1
    return 1 if state[S_BLACK_HAND] >= 0 else 0
