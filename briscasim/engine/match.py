"""Match scoring (RULES.md section 6 and 10.9), jitted."""
from numba import njit

from .layout import (DRAW, MATCH_DEALS, MATCH_POINTS, MATCH_ROUNDS, OBJECTIVE_FEWEST,
                     R_MATCH_KIND, R_MATCH_N, R_MAX_DEALS, R_N_SIDES, R_OBJECTIVE, UNDECIDED)


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
