"""Alpha-beta search of a fully known deal: the exact endgame solver and its depth-limited form.

The search sees a complete engine state (a sampled world, or the true state for the
omniscient reference) and plays it with :func:`play` (the engine's ``step``) on copies kept in
a fixed-size stack of states, one per ply. Sides other than the searcher's are assumed to
play together against it ("paranoid" search); with two sides that is plain minimax, exact
for 2-player Brisca once the stock is empty (every card is then known to both players).

The value of a position for side ``s`` is its point margin (its points minus the best other
side's, negated under ``objective = fewest``) plus ``WIN`` for a won deal, minus ``WIN`` for
a lost one (a draw adds nothing): the search prefers winning, then the larger margin. A
depth-limited search stops at the first trick boundary ``horizon`` plies down and scores the
margin taken so far.
"""
import numpy as np
from numba import njit

from ..engine.core import legal_actions, step
from ..engine.layout import (DRAW, OBJECTIVE_FEWEST, PHASE_OVER, PHASE_PLAY, R_N_SIDES,
                             R_OBJECTIVE, R_PLAYERS, R_SIDE, S_PHASE, S_POINTS, S_N_TRICKS,
                             S_TRICK_N, S_TRICK_NO, S_TURN, S_WINNER, STATE_LEN)

WIN = 1000.0
MAX_PLY = 112        # plies in a deal: at most 48 cards and a swap answer per trick
LEGAL_STRIDE = 4     # legal actions per ply (3 cards, or swap / keep)
NO_HORIZON = 1 << 30


@njit(cache=True, _nrt=False)
def play(rules, state, action):
    """:func:`~briscasim.engine.core.step`, as a plain call: what the search strategies use.

    ``step`` is inlined into its caller at compile time, which costs seconds of compile time
    per call site; the batch kernels need that, a search spending microseconds per move does
    not (jitted)."""
    return step(rules, state, action)


@njit(cache=True, _nrt=False, inline="always")
def copy_state(dst, src):
    """``dst[:] = src`` for two states, without the runtime (jitted)."""
    for i in range(STATE_LEN):
        dst[i] = src[i]


@njit(cache=True, _nrt=False)
def position_value(rules, state, side):
    """Value of ``state`` for ``side``: margin, plus or minus ``WIN`` once over (jitted)."""
    n_sides = rules[R_N_SIDES]
    fewest = rules[R_OBJECTIVE] == OBJECTIVE_FEWEST
    mine = state[S_POINTS + side]
    other = -1
    for o in range(n_sides):
        if o != side:
            p = state[S_POINTS + o]
            if other < 0 or (p < other if fewest else p > other):
                other = p
    margin = float(mine - other) if not fewest else float(other - mine)
    if state[S_PHASE] != PHASE_OVER:
        return margin
    w = state[S_WINNER]
    if w == side:
        return margin + WIN
    if w == DRAW and margin >= 0:
        return margin
    return margin - WIN


@njit(cache=True, _nrt=False)
def remaining_plies(rules, state):
    """Cards still to be played in the deal (jitted)."""
    return (rules[R_PLAYERS] * (state[S_N_TRICKS] - state[S_TRICK_NO])
            - state[S_TRICK_N])


@njit(cache=True, _nrt=False)
def alphabeta(rules, stack, legal, fwork, iwork, side, horizon):
    """Paranoid alpha-beta value for ``side`` of the state in ``stack`` row 0 (jitted).

    Iterative over a fixed-size stack: ``stack`` holds ``MAX_PLY`` states (flat int16),
    ``legal`` ``MAX_PLY * LEGAL_STRIDE`` actions, ``fwork`` (float64) and ``iwork`` (int64)
    ``3 * MAX_PLY`` entries of per-ply bookkeeping (alpha, beta, best; next action, number of
    actions, maximising or not). Row 0 is left untouched.
    """
    alpha = fwork[:MAX_PLY]
    beta = fwork[MAX_PLY:2 * MAX_PLY]
    best = fwork[2 * MAX_PLY:]
    nxt = iwork[:MAX_PLY]
    count = iwork[MAX_PLY:2 * MAX_PLY]
    maxi = iwork[2 * MAX_PLY:]
    ply = 0
    alpha[0] = -np.inf
    beta[0] = np.inf
    value = 0.0
    entering = True
    while True:
        if entering:
            st = stack[ply * STATE_LEN:(ply + 1) * STATE_LEN]
            if st[S_PHASE] == PHASE_OVER or (ply >= horizon and st[S_PHASE] == PHASE_PLAY
                                             and st[S_TRICK_N] == 0):
                value = position_value(rules, st, side)
                entering = False
                continue
            count[ply] = legal_actions(rules, st, legal[ply * LEGAL_STRIDE:
                                                        (ply + 1) * LEGAL_STRIDE])
            maxi[ply] = 1 if rules[R_SIDE + st[S_TURN]] == side else 0
            best[ply] = -np.inf if maxi[ply] else np.inf
            nxt[ply] = 0
        else:
            if ply == 0:
                return value
            ply -= 1
            if maxi[ply]:
                if value > best[ply]:
                    best[ply] = value
                if value > alpha[ply]:
                    alpha[ply] = value
            else:
                if value < best[ply]:
                    best[ply] = value
                if value < beta[ply]:
                    beta[ply] = value
            if alpha[ply] >= beta[ply] or nxt[ply] == count[ply]:
                value = best[ply]
                continue
        # descend into the next action of this ply
        child = stack[(ply + 1) * STATE_LEN:(ply + 2) * STATE_LEN]
        copy_state(child, stack[ply * STATE_LEN:(ply + 1) * STATE_LEN])
        play(rules, child, legal[ply * LEGAL_STRIDE + nxt[ply]])
        nxt[ply] += 1
        alpha[ply + 1] = alpha[ply]
        beta[ply + 1] = beta[ply]
        ply += 1
        entering = True


@njit(cache=True, _nrt=False)
def root_values(rules, state, side, horizon, exact_plies, stack, legal, fwork, iwork, actions,
                values):
    """Search every legal action of ``state`` for ``side`` (the side to act); write the
    actions and their values, return how many (jitted).

    The search is exact (to the end of the deal) when at most ``exact_plies`` cards remain
    to be played, else it stops ``horizon`` plies down (at a trick boundary). Scratch:
    see :func:`alphabeta`.
    """
    h = NO_HORIZON if remaining_plies(rules, state) <= exact_plies else horizon
    k = legal_actions(rules, state, actions)
    root = stack[:STATE_LEN]
    for i in range(k):
        copy_state(root, state)
        play(rules, root, actions[i])
        values[i] = alphabeta(rules, stack, legal, fwork, iwork, side, h - 1)
    return k
