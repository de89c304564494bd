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
margin taken so far, or, with a network's weights in ``Search.leaf``, ``WIN`` times the
network's value of the position (:func:`~.network.position_chance`, as a chance of winning
between -1 and 1).

Transposition table. The value of a node depends on the engine state (``step`` reads nothing
else besides the rules, and never the order in which the cards were played, ``S_PLAYS``), the
side searching and, in a depth-limited search, the plies left to the horizon (all counts <= 0
are alike: stop at the next trick boundary; all counts above ``MAX_PLY`` are alike: no
horizon). The key is a 64-bit hash of exactly these: the whole state but ``S_PLAYS``, so the
points, the tricks won and the cards known are in it and two nodes share an entry only if
their subtrees are the same game. The table is direct-mapped (``TT_SIZE``
entries, replace always) and an entry holds the whole 64-bit key, so a wrong hit needs a
64-bit collision. An entry stores the value found and whether it is exact or a lower or
upper bound (alpha-beta's window), and the best move, which is tried first when the node is
met again; without one, the move that last cut off at the same ply (the killer) is tried
first. Nodes with fewer than ``TT_MIN_PLIES`` cards left skip the table (cheaper to search).
The table is emptied when the working memory is set up (:func:`clear_table`); entries of
one search stay valid for the next one on the same memory (other worlds, other root moves).

User strategies call :func:`endgame_values` or :func:`endgame_action` with their own view.
ISMCTS's exact search near the end (:func:`exact_worlds`) solves sampled worlds, the other
side playing as the model ``MODEL_MINIMAX`` (a perfect player) or ``MODEL_GREEDY`` (greedy's
moves, :func:`best_reply`).

Every entry point takes ``features`` last (``F_*`` of :mod:`briscasim.engine.layout`, every
feature by default): the rule features whose code the engine calls compile with. Passed as a
constant (a search slot of :mod:`briscasim.strategies.dispatch` does), it is a compile-time
constant of each function down the search, and the code of the absent features is left out.
"""
from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.core import legal_actions, step
from ..engine.layout import (DRAW, EVERY_FEATURE, MAX_LEGAL, NO_CARD, N_CARD_IDS,
                             OBJECTIVE_FEWEST, PHASE_OVER, PHASE_PLAY, PUBLIC_LEN, R_AUCTION,
                             R_N_SIDES, R_OBJECTIVE, R_PLAYERS, R_SIDE, S_CALLER, S_HOLDER,
                             S_PHASE, S_PLAYS, S_POINTS, S_N_TRICKS, S_TRICK_N,
                             S_TRICK_NO, S_TURN, S_WINNER, STATE_LEN)
from .inference import GREEDY, policy_move
from .network import position_chance
from .sampling import SPEC_LEN, prepare_worlds, sample_world, unique_world
from .scratch import aligned, release, take, view
from ..jit import closure_cached

MODEL_MINIMAX, MODEL_GREEDY = 0, 1   # the other side in the exact searches over worlds

WIN = 1000.0
MAX_PLY = 112        # plies in a deal: at most 48 cards and a swap answer per trick
LEGAL_STRIDE = MAX_LEGAL   # legal actions per ply (a hand, or swap / keep)
NO_HORIZON = 1 << 30
TT_BITS = 14
TT_SIZE = 1 << TT_BITS
TT_MIN_PLIES = 5
EMPTY, EXACT, LOWER, UPPER = 0, 1, 2, 3   # what a table entry's value is


class Search(NamedTuple):
    """The solver's working memory: the stack of states and per-ply bookkeeping, and the
    transposition table."""
    stack: np.ndarray       # int16, MAX_PLY states: the position at each ply
    legal: np.ndarray       # int16, LEGAL_STRIDE actions per ply, in the order tried
    count: np.ndarray       # int64 per ply: legal actions
    nxt: np.ndarray         # int64 per ply: the next action to try
    maxi: np.ndarray        # int64 per ply: 1 if the searching side moves
    key: np.ndarray         # uint64 per ply: the table key, 0 if the ply skips the table
    alpha: np.ndarray       # float64 per ply
    beta: np.ndarray        # float64 per ply
    alpha0: np.ndarray      # float64 per ply: the window the node was entered with
    beta0: np.ndarray       # float64 per ply
    best: np.ndarray        # float64 per ply: the best value so far
    best_move: np.ndarray   # int16 per ply: the action that gave it
    killer: np.ndarray      # int16 per ply: the action of the latest cut-off
    tt_key: np.ndarray      # uint64 per entry
    tt_value: np.ndarray    # float64 per entry
    tt_bound: np.ndarray    # int8 per entry: EMPTY, EXACT, LOWER or UPPER
    tt_move: np.ndarray     # int16 per entry: the best action
    nodes: np.ndarray       # int64, one entry: nodes entered so far (a measure of work)
    leaf: np.ndarray        # int64, one entry: the weights' address of a network valuing
                            # the horizon's leaves (0: none, the margin so far)


_PLY_FIELDS = (("stack", np.int16, MAX_PLY * STATE_LEN),
               ("legal", np.int16, MAX_PLY * LEGAL_STRIDE),
               ("count", np.int64, MAX_PLY), ("nxt", np.int64, MAX_PLY),
               ("maxi", np.int64, MAX_PLY), ("key", np.uint64, MAX_PLY),
               ("alpha", np.float64, MAX_PLY), ("beta", np.float64, MAX_PLY),
               ("alpha0", np.float64, MAX_PLY), ("beta0", np.float64, MAX_PLY),
               ("best", np.float64, MAX_PLY), ("best_move", np.int16, MAX_PLY),
               ("killer", np.int16, MAX_PLY),
               ("tt_key", np.uint64, TT_SIZE), ("tt_value", np.float64, TT_SIZE),
               ("tt_bound", np.int8, TT_SIZE), ("tt_move", np.int16, TT_SIZE),
               ("nodes", np.int64, 1), ("leaf", np.int64, 1))


def new_search():
    """A :class:`Search` in numpy arrays, table empty (for calls from Python)."""
    return Search(*[np.zeros(n, dtype) for _, dtype, n in _PLY_FIELDS])


@njit(cache=True, _nrt=False)
def search_bytes():
    """Bytes of scratch memory :func:`search_views` needs (jitted)."""
    return (aligned(2 * MAX_PLY * STATE_LEN) + aligned(2 * MAX_PLY * LEGAL_STRIDE)
            + 9 * aligned(8 * MAX_PLY) + 2 * aligned(2 * MAX_PLY)
            + aligned(8 * TT_SIZE) * 2 + aligned(TT_SIZE) + aligned(2 * TT_SIZE) + 16)


@njit(cache=True, _nrt=False)
def search_views(block, offset):
    """A :class:`Search` viewing ``search_bytes()`` bytes of ``block`` from ``offset``,
    table emptied (jitted)."""
    o = offset
    stack = view(block, o, MAX_PLY * STATE_LEN, np.int16)
    o += aligned(2 * MAX_PLY * STATE_LEN)
    legal = view(block, o, MAX_PLY * LEGAL_STRIDE, np.int16)
    o += aligned(2 * MAX_PLY * LEGAL_STRIDE)
    count = view(block, o, MAX_PLY, np.int64)
    nxt = view(block, o + aligned(8 * MAX_PLY), MAX_PLY, np.int64)
    maxi = view(block, o + 2 * aligned(8 * MAX_PLY), MAX_PLY, np.int64)
    key = view(block, o + 3 * aligned(8 * MAX_PLY), MAX_PLY, np.uint64)
    alpha = view(block, o + 4 * aligned(8 * MAX_PLY), MAX_PLY, np.float64)
    beta = view(block, o + 5 * aligned(8 * MAX_PLY), MAX_PLY, np.float64)
    alpha0 = view(block, o + 6 * aligned(8 * MAX_PLY), MAX_PLY, np.float64)
    beta0 = view(block, o + 7 * aligned(8 * MAX_PLY), MAX_PLY, np.float64)
    best = view(block, o + 8 * aligned(8 * MAX_PLY), MAX_PLY, np.float64)
    o += 9 * aligned(8 * MAX_PLY)
    best_move = view(block, o, MAX_PLY, np.int16)
    killer = view(block, o + aligned(2 * MAX_PLY), MAX_PLY, np.int16)
    o += 2 * aligned(2 * MAX_PLY)
    tt_key = view(block, o, TT_SIZE, np.uint64)
    tt_value = view(block, o + aligned(8 * TT_SIZE), TT_SIZE, np.float64)
    o += 2 * aligned(8 * TT_SIZE)
    tt_bound = view(block, o, TT_SIZE, np.int8)
    tt_move = view(block, o + aligned(TT_SIZE), TT_SIZE, np.int16)
    nodes = view(block, o + aligned(TT_SIZE) + aligned(2 * TT_SIZE), 1, np.int64)
    leaf = view(block, o + aligned(TT_SIZE) + aligned(2 * TT_SIZE) + 8, 1, np.int64)
    leaf[0] = 0
    s = Search(stack, legal, count, nxt, maxi, key, alpha, beta, alpha0, beta0, best,
               best_move, killer, tt_key, tt_value, tt_bound, tt_move, nodes, leaf)
    clear_table(s)
    return s


@njit(cache=True, _nrt=False)
def clear_table(search):
    """Empty the transposition table and the killer moves, zero the node count (jitted)."""
    search.nodes[0] = 0
    for i in range(TT_SIZE):
        search.tt_bound[i] = EMPTY
    for i in range(MAX_PLY):
        search.killer[i] = NO_CARD


@njit(cache=True, _nrt=False)
def play(rules, state, action, features=EVERY_FEATURE):
    """:func:`~briscasim.engine.core.step`, as a plain call: what the search strategies use.

    ``step`` is inlined into its caller at compile time, which costs seconds of compile time
    per call site; the batch kernels need that, a search spending microseconds per move does
    not (jitted). ``features`` as the engine's."""
    return step(rules, state, action, None, features)


@njit(cache=True, _nrt=False, inline="always")
def copy_state(dst, src):
    """``dst[:] = src`` for two states, without the runtime (jitted)."""
    for i in range(STATE_LEN):
        dst[i] = src[i]


@njit(cache=True, _nrt=False, inline="always")
def team_of(rules, state, seat):
    """The side ``seat`` plays for in ``state`` (jitted): its side under the rules; in
    Briscola Chiamata 1 for the caller and the called card's holder (the state's hidden
    holder: a search sees it only in a sampled world or the true deal), 0 for the others."""
    if rules[R_AUCTION] == 0:
        return rules[R_SIDE + seat]
    return 1 if (seat == state[S_CALLER]) | (seat == state[S_HOLDER]) else 0


@njit(cache=True, _nrt=False, inline="always")
def point_margin(rules, state, side):
    """``side``'s points minus the best other side's, negated under ``objective = fewest``
    (jitted); in Briscola Chiamata, of the two sides of :func:`team_of`."""
    if rules[R_AUCTION] != 0:
        caller = 0
        taken = 0
        for s in range(rules[R_PLAYERS]):
            p = state[S_POINTS + s]
            taken += p
            caller += p if team_of(rules, state, s) == 1 else 0
        return (2 * caller - taken) if side == 1 else (taken - 2 * caller)
    fewest = rules[R_OBJECTIVE] == OBJECTIVE_FEWEST
    other = -1
    for o in range(rules[R_N_SIDES]):
        if o != side:
            p = state[S_POINTS + o]
            if other < 0 or (p < other if fewest else p > other):
                other = p
    margin = state[S_POINTS + side] - other
    return -margin if fewest else margin


@njit(cache=True, _nrt=False)
def position_value(rules, state, side):
    """Value of ``state`` for ``side``: margin, plus or minus ``WIN`` once over (jitted)."""
    margin = float(point_margin(rules, state, side))
    if state[S_PHASE] != PHASE_OVER:
        return margin
    w = state[S_WINNER]
    if rules[R_AUCTION] != 0:       # the caller's seat when made, DEFENDERS when not
        return margin + WIN if (w >= 0) == (side == 1) else margin - WIN
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


@njit(cache=True, _nrt=False, inline="always")
def _word(state, i):
    """The four 16-bit entries ``state[i:i + 4]`` as one 64-bit word."""
    return (np.uint64(state[i] & 0xffff) | (np.uint64(state[i + 1] & 0xffff) << np.uint64(16))
            | (np.uint64(state[i + 2] & 0xffff) << np.uint64(32))
            | (np.uint64(state[i + 3] & 0xffff) << np.uint64(48)))


@njit(cache=True, _nrt=False, inline="always")
def _mix(h):
    """The 64-bit finaliser of MurmurHash3: every input bit reaches every output bit."""
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xff51afd7ed558ccd)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xc4ceb9fe1a85ec53)
    h ^= h >> np.uint64(33)
    return h


@njit(cache=True, _nrt=False, inline="always")
def state_key(state, side, plies_left):
    """The table key of a node: a 64-bit hash of the whole ``state`` but the order of play
    (``S_PLAYS``; FNV-1a steps over its entries packed four to a word, in four independent
    lanes, each finalised), the searching ``side`` and the plies left to the horizon, clipped
    to ``0..MAX_PLY + 1``; never 0."""
    prime = np.uint64(0x100000001b3)
    h0 = np.uint64(0xcbf29ce484222325)
    h1 = np.uint64(0x84222325cbf29ce4)
    h2 = np.uint64(0x9e3779b97f4a7c15)
    h3 = np.uint64(0x7f4a7c159e3779b9)
    i, end = 0, S_PLAYS
    for _ in range(2):      # the state but the order of play: transpositions share entries
        while i + 16 <= end:
            h0 = (h0 ^ _word(state, i)) * prime
            h1 = (h1 ^ _word(state, i + 4)) * prime
            h2 = (h2 ^ _word(state, i + 8)) * prime
            h3 = (h3 ^ _word(state, i + 12)) * prime
            i += 16
        while i < end:
            h0 = (h0 ^ np.uint64(state[i] & 0xffff)) * prime
            i += 1
        i, end = PUBLIC_LEN, STATE_LEN
    d = min(max(plies_left, 0), MAX_PLY + 1)
    h = _mix(_mix(h0 ^ np.uint64(side * 256 + d)) + _mix(h1) * np.uint64(3)
             + _mix(h2) * np.uint64(5) + _mix(h3) * np.uint64(7))
    return h if h != 0 else np.uint64(1)


@njit(cache=True, _nrt=False, inline="always")
def _to_front(legal, row, k, a):
    """Move action ``a``, if among the ``k`` actions of ``legal`` at ``row``, to the front."""
    for i in range(1, k):
        if legal[row + i] == a:
            legal[row + i] = legal[row]
            legal[row] = a
            return


@njit(cache=True, _nrt=False)
def alphabeta(rules, search, side, horizon, features=EVERY_FEATURE):
    """Paranoid alpha-beta value for ``side`` of the state in ``search.stack`` row 0
    (jitted). Iterative over the fixed-size stack; row 0 is left untouched."""
    stack, legal, count, nxt, maxi, key = (search.stack, search.legal, search.count,
                                           search.nxt, search.maxi, search.key)
    alpha, beta, best, best_move = search.alpha, search.beta, search.best, search.best_move
    tt_key, tt_value, tt_bound, tt_move = (search.tt_key, search.tt_value, search.tt_bound,
                                           search.tt_move)
    mask = np.uint64(TT_SIZE - 1)
    ply = 0
    alpha[0] = -np.inf
    beta[0] = np.inf
    value = 0.0
    entering = True
    while True:
        if entering:
            search.nodes[0] += 1
            st = stack[ply * STATE_LEN:(ply + 1) * STATE_LEN]
            if st[S_PHASE] == PHASE_OVER or (ply >= horizon and st[S_PHASE] == PHASE_PLAY
                                             and st[S_TRICK_N] == 0):
                if st[S_PHASE] == PHASE_OVER or search.leaf[0] == 0:
                    value = position_value(rules, st, side)
                else:       # the network's chance for the seat to move, in WIN's units
                    c = 2.0 * position_chance(rules, st, search.leaf[0]) - 1.0
                    value = WIN * (c if team_of(rules, st, st[S_TURN]) == side else -c)
                entering = False
                continue
            row = ply * LEGAL_STRIDE
            k = legal_actions(rules, st, legal[row:row + LEGAL_STRIDE], features)
            count[ply] = k
            key[ply] = 0
            first = search.killer[ply]
            if remaining_plies(rules, st) >= TT_MIN_PLIES:
                h = state_key(st, side, horizon - ply)
                key[ply] = h
                e = np.int64(h & mask)
                if tt_key[e] == h and tt_bound[e] != EMPTY:
                    v = tt_value[e]
                    b = tt_bound[e]
                    if (b == EXACT or (b == LOWER and v >= beta[ply])
                            or (b == UPPER and v <= alpha[ply])):
                        value = v
                        entering = False
                        continue
                    first = tt_move[e]
            if first != NO_CARD:
                _to_front(legal, row, k, first)
            maxi[ply] = 1 if team_of(rules, st, st[S_TURN]) == side else 0
            best[ply] = -np.inf if maxi[ply] else np.inf
            search.alpha0[ply] = alpha[ply]
            search.beta0[ply] = beta[ply]
            nxt[ply] = 0
        else:
            if ply == 0:
                return value
            ply -= 1
            tried = legal[ply * LEGAL_STRIDE + nxt[ply] - 1]
            if maxi[ply]:
                if value > best[ply]:
                    best[ply] = value
                    best_move[ply] = tried
                if value > alpha[ply]:
                    alpha[ply] = value
            else:
                if value < best[ply]:
                    best[ply] = value
                    best_move[ply] = tried
                if value < beta[ply]:
                    beta[ply] = value
            cut = alpha[ply] >= beta[ply]
            if cut or nxt[ply] == count[ply]:
                value = best[ply]
                if cut:
                    search.killer[ply] = tried
                h = key[ply]
                if h != 0:
                    e = np.int64(h & mask)
                    tt_key[e] = h
                    tt_value[e] = value
                    tt_move[e] = best_move[ply]
                    if value <= search.alpha0[ply]:
                        tt_bound[e] = UPPER
                    elif value >= search.beta0[ply]:
                        tt_bound[e] = LOWER
                    else:
                        tt_bound[e] = EXACT
                continue
        # descend into the next action of this ply
        child = stack[(ply + 1) * STATE_LEN:(ply + 2) * STATE_LEN]
        copy_state(child, stack[ply * STATE_LEN:(ply + 1) * STATE_LEN])
        play(rules, child, np.int64(legal[ply * LEGAL_STRIDE + nxt[ply]]), features)
        nxt[ply] += 1
        alpha[ply + 1] = alpha[ply]
        beta[ply + 1] = beta[ply]
        ply += 1
        entering = True


@njit(cache=True, _nrt=False)
def root_values(rules, state, side, horizon, exact_plies, search, actions, values,
                features=EVERY_FEATURE):
    """Search every legal action of ``state`` for ``side`` (the side to act) in the
    :class:`Search` ``search``; write the actions and their values, return how many (jitted).

    The search is exact (to the end of the deal) when at most ``exact_plies`` cards remain
    to be played, else it stops ``horizon`` plies down (at a trick boundary).
    """
    h = NO_HORIZON if remaining_plies(rules, state) <= exact_plies else horizon
    k = legal_actions(rules, state, actions, features)
    root = search.stack[:STATE_LEN]
    for i in range(k):
        copy_state(root, state)
        play(rules, root, actions[i], features)
        values[i] = alphabeta(rules, search, side, h - 1, features)
    return k


@njit(cache=True, _nrt=False)
def endgame_values(rules, public, hand, seat, signals, rng, actions, values,
                   features=EVERY_FEATURE):
    """The exact value (:func:`position_value` units, for ``seat``'s side) of each legal
    action from ``seat``'s view, when that view leaves only one world consistent with it
    (every hidden card known: 2-player play once the stock is empty). Writes ``actions`` and
    ``values`` (at least ``LEGAL_STRIDE`` long) and returns how many; returns 0 when the rest
    of the deal is not perfect information (jitted; for user strategies: takes and gives
    back its own scratch memory).

    ``rng`` only orders the placed cards within the hand (the values do not depend on it).
    """
    o_spec = aligned(2 * STATE_LEN)
    o_world = o_spec + aligned(8 * SPEC_LEN)
    o_search = o_world + aligned(2 * STATE_LEN)
    block = take(o_search + search_bytes())
    base = view(block, 0, STATE_LEN, np.int16)
    spec = view(block, o_spec, SPEC_LEN, np.int64)
    world = view(block, o_world, STATE_LEN, np.int16)
    prepare_worlds(rules, public, hand, seat, signals, base, spec)
    k = 0
    if unique_world(spec):
        sample_world(base, spec, rng, world)
        k = root_values(rules, world, team_of(rules, world, seat), N_CARD_IDS, N_CARD_IDS,
                        search_views(block, o_search), actions, values, features)
    release(block)
    return k


@njit(cache=True, _nrt=False)
def endgame_action(rules, public, hand, seat, signals, rng, features=EVERY_FEATURE):
    """The best action by :func:`endgame_values` (the first of equals), or ``NO_CARD`` when
    the rest of the deal is not perfect information from ``seat``'s view (jitted)."""
    o_values = aligned(8 * LEGAL_STRIDE)
    block = take(2 * o_values)
    actions = view(block, 0, LEGAL_STRIDE, np.int64)
    values = view(block, o_values, LEGAL_STRIDE, np.float64)
    k = endgame_values(rules, public, hand, seat, signals, rng, actions, values, features)
    best = 0
    for i in range(1, k):
        if values[i] > values[best]:
            best = i
    a = actions[best] if k > 0 else NO_CARD
    release(block)
    return a


def exact_worlds(resample):
    """The exact search over worlds drawn by ``resample`` (ismcts's resampler, of
    :func:`~.inference.draw_world`'s arguments), a constant of its code
    (:func:`~.ismcts.searches`)."""
    @njit(cache=True, _nrt=False)
    def exact_worlds(rules, seat, n_worlds, infer, observed, draws, model, rng, ws, features):
        """The action of best mean exact value (:func:`root_values` to the end of the deal) over
        ``n_worlds`` worlds drawn into ``ws.world`` by ``resample`` (ismcts's resampler,
        :func:`~.inference.draw_world`'s arguments; ``ws`` its working memory); with ``model``
        ``MODEL_GREEDY`` a world's value of an action is its outcome against greedy's replies
        (:func:`best_reply`: +1 / 0 / -1 for a win / draw / loss) times ``WIN`` plus its exact
        value (jitted)."""
        per_action = aligned(8 * LEGAL_STRIDE)
        block = take(search_bytes() + 3 * per_action)
        memory = search_views(block, 0)
        o = search_bytes()
        actions = view(block, o, LEGAL_STRIDE, np.int64)
        values = view(block, o + per_action, LEGAL_STRIDE, np.float64)
        total = view(block, o + 2 * per_action, LEGAL_STRIDE, np.float64)
        k = 0
        for w in range(n_worlds):
            resample(rules, ws, infer, observed, 1.0, draws, rng, features)
            side = team_of(rules, ws.world, seat)
            k = root_values(rules, ws.world, side, NO_HORIZON, N_CARD_IDS, memory, actions,
                            values, features)
            if model == MODEL_GREEDY:
                root = memory.stack[:STATE_LEN]
                for i in range(k):
                    copy_state(root, ws.world)
                    play(rules, root, actions[i], features)
                    reply = best_reply(rules, memory, side, ws.greedy_params, ws.move_legal, rng,
                                       features)
                    values[i] += WIN * (1.0 if reply > WIN / 2 else -1.0 if reply < -WIN / 2
                                        else 0.0)
            for i in range(k):
                total[i] = values[i] if w == 0 else total[i] + values[i]
        best = 0
        for i in range(1, k):
            if total[i] > total[best]:
                best = i
        a = actions[best]
        release(block)
        return a
    return closure_cached(exact_worlds)


@njit(cache=True, _nrt=False)
def best_reply(rules, search, side, params, legal_scratch, rng, features=EVERY_FEATURE):
    """Value (:func:`position_value`) for ``side`` of the state in ``search.stack``
    row 0 when every other side plays greedy's move and ``side`` its best (an exhaustive
    search over ``side``'s moves: greedy is deterministic). Row 0 is played on (jitted)."""
    stack, legal, count, nxt, best = (search.stack, search.legal, search.count, search.nxt,
                                      search.best)
    ply = 0
    value = 0.0
    entering = True
    while True:
        if entering:
            st = stack[ply * STATE_LEN:(ply + 1) * STATE_LEN]
            while st[S_PHASE] != PHASE_OVER and team_of(rules, st, st[S_TURN]) != side:
                play(rules, st, policy_move(rules, st, GREEDY, 0.0, params, rng,
                                            legal_scratch, features), features)
            if st[S_PHASE] == PHASE_OVER:
                value = position_value(rules, st, side)
                entering = False
                continue
            row = ply * LEGAL_STRIDE
            count[ply] = legal_actions(rules, st, legal[row:row + LEGAL_STRIDE], features)
            best[ply] = -np.inf
            nxt[ply] = 0
        else:
            if ply == 0:
                return value
            ply -= 1
            if value > best[ply]:
                best[ply] = value
            if nxt[ply] == count[ply]:
                value = best[ply]
                continue
        child = stack[(ply + 1) * STATE_LEN:(ply + 2) * STATE_LEN]
        copy_state(child, stack[ply * STATE_LEN:(ply + 1) * STATE_LEN])
        play(rules, child, np.int64(legal[ply * LEGAL_STRIDE + nxt[ply]]), features)
        nxt[ply] += 1
        ply += 1
        entering = True
