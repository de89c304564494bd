"""``ismcts``: information-set Monte Carlo tree search from one seat's view.

SO-ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 2012), with an opponent model by default. One tree over the deciding seat's
information sets: a node is the sequence of public actions since the decision (cards played,
swap answers; every action in Brisca is public, the hidden draws are folded into the nodes).
Every iteration:

1. samples a world consistent with the seat's view (:mod:`briscasim.strategies.sampling`).
   With ``infer < 1`` it then weighs the world by the cards the other seats have played to
   the current trick: a world in which greedy, holding that seat's cards plus the card it
   played, would have played another card is kept only with probability ``infer``
   (rejection; at most 64 draws). Greedy is deterministic, so such a world is unlikely
   against greedy; ``infer > 0`` keeps it possible against other opponents. In Briscola
   Chiamata, with ``infer_auction < 1``, a world is kept only with probability
   ``infer_auction`` if greedy's bidding rule, which every seat but ``random`` bids by, on
   the hands as dealt in it would not have ended the auction as it ended (every seat's
   latest bid, the passes, the contract, the caller, the called card): a seat that bid high
   holds strong cards (:func:`auction_weight`);
2. descends the tree. At the seat's own nodes it considers only the actions legal in this
   world, expands an untried one if any, else picks the child maximising
   ``mean + c * sqrt(ln(availability) / visits)``. The other seats' moves are, with
   ``others = greedy`` (default), greedy's moves on their hands in the sampled world (with
   probability ``others_epsilon`` a random one): the tree branches on the seat's own
   decisions only and the opponents' play depends on the cards they hold. With ``others =
   tree`` (plain SO-ISMCTS) they are UCB nodes of the same tree, chosen for their side but
   blind to their hands;
3. plays the world out with the rollout policy, each seat deciding on its own view
   (``greedy``, default, or ``random``; with greedy, ``epsilon`` mixes random decisions into
   the other sides' play and ``own_epsilon`` into the seat's own side's);
4. backs up the deal's reward for every side: 1 / 0.5 / 0 for a win / draw / loss, or the
   point margin against the best other side scaled to [0, 1].

The move played is the most visited child of the root. The tree is a set of fixed-size
arrays (one node per iteration, plus one per other seat with ``others = greedy``), taken once
per decision from :mod:`briscasim.strategies.scratch`. With ``time_budget = 0`` the search is
deterministic for a seed; with a time budget it stops early when the budget is spent
(``iterations`` is then the cap), and depends on the machine's speed. Once every card is
known (2-player play, stock empty) and ``exact_endgame`` is on, the exact solver's move is
played instead of searching.

Measured on duplicate brisca-2 deals (scripts/strength.py, 1000 iterations, 600-1000 deals,
score against greedy / against random): plain SO-ISMCTS (``others=tree``) with random
play-outs about 0.55 / -, with greedy play-outs 0.62 / 0.91; the greedy opponent model with
random play-outs 0.62 / 0.95, with greedy play-outs 0.63-0.67 / 0.91, and with half the
play-out decisions random (``epsilon = 0.5``) 0.63-0.66 / 0.93-0.95 (0.634 / - on 2000
deals). A progressive bias towards greedy's move did not help, nor did a point-margin reward
(0.62), exploration 0.4 or 1.2 (0.61 / 0.63), or finishing play-outs with the exact solver
once the stock is empty (0.64, half the speed). What helped: random decisions in the
play-outs only for the other sides (``own_epsilon = 0``: 0.69 / 0.94 on 1000 deals), and the
inference on the current trick (``infer``; 0.2: 0.71 / 0.94 on 1000 deals). The defaults
(``own_epsilon = 0``, ``infer = 0.3``), 2000 deals: seed 1 0.698 [0.684, 0.712] / 0.941
[0.934, 0.948], seed 2 0.691 [0.677, 0.705] / 0.932 [0.924, 0.939]; about 670,000
iterations per second (``scripts/strength.py --speed``).
Later, on the first 1000 deals of seed 1 against greedy (defaults 0.706): ``margin_weight =
0.2`` 0.702, ``epsilon = 0.3`` 0.696, play-outs by ``expert`` (its rules and exact endgame;
slower) 0.707: no gain, none kept.
In Briscola Chiamata, ismcts (200 iterations) among four greedy players on duplicate
chiamata-5 deals (every rotation), its game points a deal with ``infer_auction = 0`` (the
default) against ``1`` (the auction ignored) on the same deals: +0.020 [-0.023, +0.062]
(400 deals, seed 11) and +0.013 [-0.020, +0.046] (600 deals, seed 12; as caller -0.04
[-0.17, +0.09], as partner +0.03 [-0.03, +0.09], as defender +0.03 [-0.01, +0.07]); with
``0.3`` -0.013 [-0.054, +0.029] (seed 11). No worse, so kept. The rejections cost time: the
400 deals of seed 11 took 110 s of CPU time with ``0`` and 33 s with ``0.3``.

Parameters (float64 slots, in the order of ``DEFINITION``): ``iterations``, ``time_budget``,
``exploration``, ``rollout``, ``reward``, ``epsilon``, ``exact_endgame``, ``others``,
``others_epsilon``, ``infer``, ``own_epsilon``, ``margin_weight``, ``infer_auction``.
"""
import math
import time
from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.core import give, hand_base, hand_of, legal_actions, signals, step
from ..engine.layout import (DRAW, KNOWN_UNSEEN, MAX_HAND, MAX_LEGAL, MAX_LEGAL_ANY,
                             MAX_PLAYERS, MAX_SIDES, NO_CARD, N_CARD_IDS,
                             OBJECTIVE_FEWEST, PHASE_AUCTION, PHASE_OVER, PHASE_PLAY,
                             PUBLIC_LEN, R_DECK, R_AUCTION, R_DECK_N, R_N_SIDES, R_OBJECTIVE,
                             R_PLAYERS, R_POINTS, R_SIDE, R_SIGNALS, R_START_STATE, S_BID,
                             S_BLACK_HAND, S_CALLED, S_CALLER, S_GAME_POINTS, S_HANDS, S_KNOWN,
                             S_LEADER, S_PASSED, S_PHASE, S_PLAYED_BY, S_POINTS, S_SEAT_BIDS,
                             S_TRICK, S_TRICK_N, S_TURN, S_WINNER, START_STATE_SLOTS,
                             STATE_LEN)
from ..engine.rng import below, new_stream, seed_stream, uniform
from . import greedy as _greedy
from .api import KIND_ISMCTS, N_PARAMS
from .bidding import contract_decision
from .greedy import greedy_strategy
from .params import Param, StrategyDef
from .random import random_strategy
from .sampling import SPEC_LEN, prepare_worlds, sample_world
from .scratch import aligned, monotonic_ns, release, take, view
from .solver import copy_state, endgame_action, play, point_margin

(P_ITERATIONS, P_TIME_BUDGET, P_EXPLORATION, P_ROLLOUT, P_REWARD, P_EPSILON,
 P_EXACT_ENDGAME, P_OTHERS, P_OTHERS_EPSILON, P_INFER, P_OWN_EPSILON,
 P_MARGIN_WEIGHT, P_INFER_AUCTION) = range(13)
ROLLOUT_RANDOM, ROLLOUT_GREEDY = 0, 1
GREEDY = np.int64(ROLLOUT_GREEDY)   # typed, not a literal: one compiled policy_move
REWARD_WIN, REWARD_MARGIN = 0, 1
OTHERS_TREE, OTHERS_GREEDY = 0, 1

DEFINITION = StrategyDef(
    "ismcts", KIND_ISMCTS, (
        Param("iterations", int, 1000, 1, 1_000_000, "search iterations per move (the cap "
              "when a time budget is set)"),
        Param("time_budget", float, 0.0, 0.0, 600.0, "seconds per move, 0 = off (results "
              "then depend on machine speed)"),
        Param("exploration", float, 0.7, 0.0, 10.0, "UCB1 exploration constant"),
        Param("rollout", str, "greedy", doc="policy of every seat in the play-outs",
              choices=("random", "greedy")),
        Param("reward", str, "win", doc="win: 1/0.5/0 for win/draw/loss; margin: point "
              "margin against the best other side, scaled to [0, 1]",
              choices=("win", "margin")),
        Param("epsilon", float, 0.5, 0.0, 1.0, "with greedy play-outs, the probability "
              "that a play-out decision is random instead"),
        Param("exact_endgame", bool, True, doc="once only one world is consistent with the "
              "view (2-player play, stock empty), play the exact solver's move"),
        Param("others", str, "greedy", doc="the other seats' moves inside the tree: tree "
              "(SO-ISMCTS: nodes chosen by UCB, blind to their hands) or greedy (greedy on "
              "their hands in the sampled world; the tree branches on the seat's own "
              "decisions only)", choices=("tree", "greedy")),
        Param("others_epsilon", float, 0.0, 0.0, 1.0, "with others=greedy, the probability "
              "that another seat's move in the tree is random instead"),
        Param("infer", float, 0.3, 0.0, 1.0, "weight of a sampled world in which greedy "
              "would not have played a card another seat played to the current trick "
              "(1 = no inference, 0 = such worlds are rejected)"),
        Param("own_epsilon", float, 0.0, 0.0, 1.0, "with greedy play-outs, the probability "
              "that a play-out decision of the seat's own side is random instead (epsilon "
              "is then that of the other sides)"),
        Param("margin_weight", float, 0.0, 0.0, 1.0, "with reward=win, the weight of the "
              "margin reward mixed into it (0 = win / draw / loss only)"),
        Param("infer_auction", float, 0.0, 0.0, 1.0, "Briscola Chiamata: weight of a sampled "
              "world in which greedy's bidding rule, on the hands as dealt in it, would not "
              "have bid and called as the auction went (1 = the auction is ignored, 0 = such "
              "worlds are rejected)"),
    ),
    "single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012)",
    test_params="iterations=30",
)

# greedy's default parameters for greedy play-outs (zeros if greedy declares none)
_GREEDY_DEF = getattr(_greedy, "DEFINITION", None)
_GREEDY_DEFAULTS = tuple(
    [p.encode(p.default) for p in (_GREEDY_DEF.params if _GREEDY_DEF else ())]
    + [0.0] * (N_PARAMS - (len(_GREEDY_DEF.params) if _GREEDY_DEF else 0)))
_RANDOM_SWAP_PROB = 0.5   # random play-outs accept a swap offer half the time

_MAX_REJECTIONS = 64      # worlds drawn at most per iteration by the inference
_MAX_PATH = 128           # actions in one deal (cards and swap answers) stay below this


@njit(cache=True, _nrt=False)
def deal_points(rules):
    """Card points of the whole deck in play (jitted)."""
    total = 0
    for i in range(rules[R_DECK_N]):
        total += rules[R_POINTS + rules[R_DECK + i] % 12]
    return total


@njit(cache=True, _nrt=False)
def side_rewards(rules, state, kind, margin_weight, total, out):
    """Reward in [0, 1] of every side for the finished deal ``state`` (jitted).

    ``kind`` ``REWARD_WIN``: 1 to the winner, 0.5 to every side tied for the best score in
    a draw, else 0; with ``margin_weight`` w > 0, ``(1 - w)`` times that plus ``w`` times the
    margin reward. ``REWARD_MARGIN``: ``0.5 + margin / (2 * total)`` with ``margin`` the
    side's points minus the best other side's (negated under ``objective = fewest``). A
    black hand gives 1 / 0 under either kind. In Briscola Chiamata (every seat a side of its
    own) a seat's reward is 1 when its game points are positive, else 0, under either kind:
    the game points already say which side made it.
    """
    n_sides = rules[R_N_SIDES]
    if rules[R_AUCTION] != 0:
        for s in range(n_sides):
            out[s] = 1.0 if state[S_GAME_POINTS + s] > 0 else 0.0
        return
    fewest = rules[R_OBJECTIVE] == OBJECTIVE_FEWEST
    w = state[S_WINNER]
    if w != DRAW:
        for s in range(n_sides):
            out[s] = 1.0 if s == w else 0.0
    else:
        best = state[S_POINTS]
        for s in range(1, n_sides):
            p = state[S_POINTS + s]
            if p < best if fewest else p > best:
                best = p
        for s in range(n_sides):
            out[s] = 0.5 if state[S_POINTS + s] == best else 0.0
    weight = 1.0 if kind == REWARD_MARGIN else margin_weight
    if weight == 0.0 or state[S_BLACK_HAND] >= 0:
        return
    for s in range(n_sides):
        margin = point_margin(rules, state, s)
        out[s] = (1.0 - weight) * out[s] + weight * (0.5 + 0.5 * margin / total)


class Workspace(NamedTuple):
    """The search's working memory besides the tree, views into one scratch block."""
    base: np.ndarray            # int16 state: the seat's view with unknown cards unplaced
    spec: np.ndarray            # int64: how to deal the unknown cards (sampling.SPEC_LEN)
    world: np.ndarray           # int16 state: the sampled world being played
    before: np.ndarray          # int16 state: a world rewound to a play (inference)
    legal: np.ndarray           # int16: legal actions at a node of the seat's own
    move_legal: np.ndarray      # int16: legal actions of a policy move (or a bid)
    rewards: np.ndarray         # float64 per side: the play-out's rewards
    rollout_params: np.ndarray  # float64: parameters of the play-out policy
    greedy_params: np.ndarray   # float64: greedy's defaults (opponent model, inference)
    path: np.ndarray            # int32: the nodes visited by an iteration


class Tree(NamedTuple):
    """The search tree: one entry per node (node 0 is the root)."""
    child: np.ndarray           # int32: first child, -1 if none
    sibling: np.ndarray         # int32: next sibling, -1 if none
    action: np.ndarray          # int8: the action leading to the node
    mover: np.ndarray           # int8: the seat that took it
    visits: np.ndarray          # int32
    avail: np.ndarray           # int32: times the action was available at its parent
    value: np.ndarray           # float64: total reward of the mover's side


@njit(cache=True, _nrt=False)
def policy_move(rules, state, policy, epsilon, params, rng, legal):
    """The move of the seat to act in ``state``, decided on its own view with ``policy``
    (``ROLLOUT_*``) and ``params``; a greedy decision is replaced by a random one with
    probability ``epsilon``. ``legal`` is scratch for the legal actions (jitted)."""
    seat = state[S_TURN]
    public = state[:PUBLIC_LEN]
    hand = hand_of(rules, state, seat)
    moves = legal[:legal_actions(rules, state, legal)]
    sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
    if policy == ROLLOUT_GREEDY and (epsilon == 0.0 or uniform(rng) >= epsilon):
        return greedy_strategy(rules, public, hand, moves, seat, sig, params, rng)
    return random_strategy(rules, public, hand, moves, seat, sig, params, rng)


@njit(cache=True, _nrt=False)
def play_out(rules, state, policy, own_epsilon, epsilon, side, params, rng, legal):
    """Play ``state`` to the end, every seat moving by :func:`policy_move`, with
    ``own_epsilon`` for the seats of ``side`` and ``epsilon`` for the others (jitted)."""
    while state[S_PHASE] != PHASE_OVER:
        eps = own_epsilon if rules[R_SIDE + state[S_TURN]] == side else epsilon
        play(rules, state, policy_move(rules, state, policy, eps, params, rng, legal))


@njit(cache=True, _nrt=False)
def world_weight(rules, world, seat, infer, greedy_params, before, rng, legal):
    """Relative likelihood of ``world`` given the cards the other seats played to the current
    trick: the product over those plays of 1 if greedy, holding that seat's cards of the world
    plus the card it played, would have played it, else ``infer`` (jitted).

    ``before`` receives each play's position: the card back in the hand, the trick cut
    before it, and the cards played from then on unseen again (a card publicly known to be in
    a hand before it was played is not told apart).
    """
    n = rules[R_PLAYERS]
    leader = world[S_LEADER]
    w = 1.0
    for p in range(world[S_TRICK_N]):
        s = leader + p
        s -= n if s >= n else 0
        if s == seat:
            continue
        copy_state(before, world)
        card = world[S_TRICK + p]
        h = hand_base(s)
        for i in range(MAX_HAND):
            if before[h + i] == NO_CARD:
                before[h + i] = card
                break
        before[S_TRICK_N] = p
        before[S_TURN] = s
        for q in range(p, world[S_TRICK_N]):
            before[S_KNOWN + world[S_TRICK + q]] = KNOWN_UNSEEN
        if policy_move(rules, before, GREEDY, 0.0, greedy_params, rng, legal) != card:
            w *= infer
    return w


@njit(cache=True, _nrt=False)
def auction_weight(rules, world, infer, deal, legal):
    """Briscola Chiamata: 1 if greedy's bidding rule (:func:`~.bidding.contract_decision`),
    bidding and calling for every seat on its hand as dealt in ``world`` (the cards it holds
    there and those it played, ``S_PLAYED_BY``), ends the auction as it ended: every seat's
    latest bid, the seats that passed, the contract, the caller and the called card; else
    ``infer`` (jitted). ``deal`` receives the auction played again, ``legal`` is scratch for
    ``MAX_LEGAL_ANY`` actions.

    Every seat but ``random`` and user strategies bids by that rule, so against such players
    a world in which the auction would have gone otherwise is impossible."""
    start = rules[R_START_STATE:R_START_STATE + START_STATE_SLOTS].view(np.int16)
    for i in range(STATE_LEN):
        deal[i] = start[i]
    for i in range(S_HANDS, S_HANDS + MAX_PLAYERS * MAX_HAND):
        deal[i] = world[i]
    for c in range(N_CARD_IDS):
        s = world[S_PLAYED_BY + c]
        if s >= 0:
            # a played card back into its hand (bids and calls do not depend on the order)
            give(deal, s, c)
    while deal[S_PHASE] >= PHASE_AUCTION:
        seat = deal[S_TURN]
        moves = legal[:legal_actions(rules, deal, legal)]
        step(rules, deal, contract_decision(rules, deal[:PUBLIC_LEN], hand_of(rules, deal, seat),
                                            moves))
    same = ((deal[S_BID] == world[S_BID]) & (deal[S_CALLER] == world[S_CALLER])
            & (deal[S_CALLED] == world[S_CALLED]) & (deal[S_PASSED] == world[S_PASSED]))
    for s in range(rules[R_PLAYERS]):
        same &= deal[S_SEAT_BIDS + s] == world[S_SEAT_BIDS + s]
    return 1.0 if same else infer


@njit(cache=True, _nrt=False, inline="always")
def _add_child(tree, node, c, a, to_move, available):
    """Make the free node ``c`` the child of ``node`` reached by ``a`` (played by
    ``to_move``), available ``available`` times so far; return ``c``."""
    tree.action[c] = a
    tree.mover[c] = to_move
    tree.visits[c] = 0
    tree.avail[c] = available
    tree.value[c] = 0.0
    tree.child[c] = -1
    tree.sibling[c] = tree.child[node]
    tree.child[node] = c
    return c


@njit(cache=True, _nrt=False, inline="always")
def _find_child(tree, node, a):
    """The child of ``node`` reached by ``a``, or -1."""
    c = tree.child[node]
    while c >= 0 and tree.action[c] != a:
        c = tree.sibling[c]
    return c


@njit(cache=True, _nrt=False)
def search(rules, public, hand, seat, sig, params, rng, ws, tree):
    """Run the search in the :class:`Workspace` ``ws`` and the :class:`Tree` ``tree`` (of
    ``len(tree.child)`` nodes at most); return ``(action, iterations run)`` (jitted)."""
    world, legal, path = ws.world, ws.legal, ws.path
    child, sibling, action, mover = tree.child, tree.sibling, tree.action, tree.mover
    visits, avail, value = tree.visits, tree.avail, tree.value
    iterations = np.int64(params[P_ITERATIONS])
    budget_ns = np.int64(params[P_TIME_BUDGET] * 1e9)
    c_explore = params[P_EXPLORATION]
    policy = np.int64(params[P_ROLLOUT])
    kind = np.int64(params[P_REWARD])
    others = params[P_OTHERS] == OTHERS_GREEDY
    others_eps = params[P_OTHERS_EPSILON]
    infer = params[P_INFER]
    own_eps = params[P_OWN_EPSILON]
    side = rules[R_SIDE + seat]
    observed = public[S_TRICK_N] if public[S_PHASE] == PHASE_PLAY else 0
    infer_auction = params[P_INFER_AUCTION] if rules[R_AUCTION] != 0 else 1.0
    weigh = (infer < 1.0 and observed > 0) or infer_auction < 1.0
    capacity = child.shape[0]
    total = deal_points(rules)
    prepare_worlds(rules, public, hand, seat, sig, ws.base, ws.spec)
    child[0] = -1
    visits[0] = 0
    n_nodes = 1
    start = monotonic_ns() if budget_ns > 0 else 0
    it = 0
    while it < iterations:
        if budget_ns > 0 and (it & 63) == 63 and monotonic_ns() - start > budget_ns:
            break
        it += 1
        sample_world(ws.base, ws.spec, rng, world)
        for _ in range(_MAX_REJECTIONS if weigh else 0):
            w = 1.0
            if infer < 1.0 and observed > 0:
                w = world_weight(rules, world, seat, infer, ws.greedy_params, ws.before, rng,
                                 ws.move_legal)
            if infer_auction < 1.0 and w > 0.0:
                w *= auction_weight(rules, world, infer_auction, ws.before, ws.move_legal)
            if w >= 1.0 or uniform(rng) < w:
                break
            sample_world(ws.base, ws.spec, rng, world)
        node = 0
        depth = 0
        while world[S_PHASE] != PHASE_OVER:
            to_move = world[S_TURN]
            if others and to_move != seat:
                # another seat moves greedily on its sampled hand: follow (or add) the child
                a = policy_move(rules, world, GREEDY, others_eps, ws.greedy_params, rng,
                                ws.move_legal)
                play(rules, world, a)
                c = _find_child(tree, node, a)
                if c < 0:
                    if n_nodes >= capacity:
                        break
                    c = _add_child(tree, node, n_nodes, a, to_move, 0)
                    n_nodes += 1
                node = c
                depth += 1
                path[depth] = node
                continue
            k = legal_actions(rules, world, legal)
            # count availability of the existing children; move untried actions to the front
            n_untried = 0
            for i in range(k):
                a = legal[i]
                c = _find_child(tree, node, a)
                if c >= 0:
                    avail[c] += 1
                else:
                    legal[i] = legal[n_untried]
                    legal[n_untried] = a
                    n_untried += 1
            if n_untried > 0:
                a = legal[0] if n_untried == 1 else legal[below(rng, n_untried)]
                play(rules, world, a)
                if n_nodes < capacity:
                    c = _add_child(tree, node, n_nodes, a, to_move, 1)
                    n_nodes += 1
                    depth += 1
                    path[depth] = c
                break
            best = -1
            best_score = -1.0
            c = child[node]
            while c >= 0:
                if _is_legal(legal, k, action[c]):
                    score = (value[c] / visits[c]
                             + c_explore * math.sqrt(math.log(avail[c]) / visits[c]))
                    if score > best_score:
                        best_score = score
                        best = c
                c = sibling[c]
            play(rules, world, np.int64(action[best]))
            node = best
            depth += 1
            path[depth] = node
        play_out(rules, world, policy, own_eps, params[P_EPSILON], side, ws.rollout_params,
                 rng, ws.move_legal)
        rewards = ws.rewards
        side_rewards(rules, world, kind, params[P_MARGIN_WEIGHT], total, rewards)
        visits[0] += 1
        for d in range(1, depth + 1):
            c = path[d]
            visits[c] += 1
            value[c] += rewards[rules[R_SIDE + mover[c]]]
    best = -1
    c = child[0]
    while c >= 0:
        if best < 0 or visits[c] > visits[best]:
            best = c
        c = sibling[c]
    return np.int64(action[best]), it


@njit(cache=True, _nrt=False, inline="always")
def _is_legal(legal, k, a):
    for i in range(k):
        if legal[i] == a:
            return True
    return False


@njit(cache=True, _nrt=False)
def run_search(rules, public, hand, seat, sig, params, rng):
    """Take the search's :class:`Workspace` and :class:`Tree` from one block of scratch
    memory, search, give the block back; return ``(action, iterations run)`` (jitted)."""
    # one node per iteration, plus with others=greedy one per other seat's new move
    per_iteration = rules[R_PLAYERS] if params[P_OTHERS] == OTHERS_GREEDY else 1
    cap = (np.int64(params[P_ITERATIONS]) + 1) * per_iteration
    o_world = aligned(2 * STATE_LEN)
    o_before = o_world + aligned(2 * STATE_LEN)
    o_spec = o_before + aligned(2 * STATE_LEN)
    o_legal = o_spec + aligned(8 * SPEC_LEN)
    o_move_legal = o_legal + aligned(8 * MAX_LEGAL)
    o_rewards = o_move_legal + aligned(2 * MAX_LEGAL_ANY)
    o_rollout = o_rewards + aligned(8 * MAX_SIDES)
    o_greedy = o_rollout + aligned(8 * N_PARAMS)
    o_path = o_greedy + aligned(8 * N_PARAMS)
    o_child = o_path + aligned(4 * _MAX_PATH)
    o_sibling = o_child + aligned(4 * cap)
    o_visits = o_sibling + aligned(4 * cap)
    o_avail = o_visits + aligned(4 * cap)
    o_value = o_avail + aligned(4 * cap)
    o_action = o_value + aligned(8 * cap)
    o_mover = o_action + aligned(cap)
    size = o_mover + aligned(cap)
    block = take(size)
    ws = Workspace(view(block, 0, STATE_LEN, np.int16),
                   view(block, o_spec, SPEC_LEN, np.int64),
                   view(block, o_world, STATE_LEN, np.int16),
                   view(block, o_before, STATE_LEN, np.int16),
                   view(block, o_legal, MAX_LEGAL, np.int16),
                   view(block, o_move_legal, MAX_LEGAL_ANY, np.int16),
                   view(block, o_rewards, MAX_SIDES, np.float64),
                   view(block, o_rollout, N_PARAMS, np.float64),
                   view(block, o_greedy, N_PARAMS, np.float64),
                   view(block, o_path, _MAX_PATH, np.int32))
    tree = Tree(view(block, o_child, cap, np.int32),
                view(block, o_sibling, cap, np.int32),
                view(block, o_action, cap, np.int8),
                view(block, o_mover, cap, np.int8),
                view(block, o_visits, cap, np.int32),
                view(block, o_avail, cap, np.int32),
                view(block, o_value, cap, np.float64))
    policy = np.int64(params[P_ROLLOUT])
    for i in range(N_PARAMS):
        ws.rollout_params[i] = _GREEDY_DEFAULTS[i] if policy == ROLLOUT_GREEDY else 0.0
        ws.greedy_params[i] = _GREEDY_DEFAULTS[i]
    if policy != ROLLOUT_GREEDY:
        ws.rollout_params[0] = _RANDOM_SWAP_PROB
    a, it = search(rules, public, hand, seat, sig, params, rng, ws, tree)
    release(block)
    return a, it


@njit(cache=True, _nrt=False)
def ismcts_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """SO-ISMCTS from the seat's view; see the module docstring (jitted)."""
    if legal.shape[0] == 1:
        return legal[0]
    if params[P_EXACT_ENDGAME] != 0:
        a = endgame_action(rules, public, hand, seat, signals, rng)
        if a != NO_CARD:
            return a
    a, _ = run_search(rules, public, hand, seat, signals, params, rng)
    return a


@njit(cache=True, _nrt=False)
def _bench(rules, states, seats, params, seed, rng):
    total = 0
    for i in range(states.shape[0]):
        seed_stream(rng, seed, i, 1)
        st = states[i]
        s = seats[i]
        sig = signals(rules, st, s) if rules[R_SIGNALS] != 0 else 0
        _, it = run_search(rules, st[:PUBLIC_LEN], hand_of(rules, st, s), s, sig, params,
                           rng)
        total += it
    return total


def decision_states(rules, n_deals=20, seed=0):
    """Every decision with a real choice in ``n_deals`` random play-outs: ``(states, seats)``
    arrays (int16 full states, int64 seats to act)."""
    from ..game import Deal
    rng = np.random.default_rng(seed)
    states, seats = [], []
    for d in range(n_deals):
        deal = Deal.from_seed(rules, seed, d)
        while not deal.over:
            legal = deal.legal_actions()
            if len(legal) > 1:
                states.append(deal.state.copy())
                seats.append(deal.turn)
            deal.play(int(legal[rng.integers(len(legal))]))
    return np.array(states, np.int16), np.array(seats, np.int64)


def measure_iterations_per_second(rules=None, n_deals=10, seed=0, **overrides):
    """Search iterations per second of ``ismcts`` on one core (for ``briscasim bench``).

    Runs a full search with the default parameters, or ``overrides`` (parameter name ->
    value, e.g. ``iterations=1000, rollout="greedy"``), at every real decision of ``n_deals``
    random play-outs of ``rules`` (default ``brisca-2``); compile time is excluded. Returns
    ``{"iterations_per_second", "ms_per_move", "moves"}``.
    """
    from ..rules import Rules
    rules = rules or Rules.preset("brisca-2")
    r = rules.to_array()
    states, seats = decision_states(rules, n_deals, seed)
    params = np.zeros(N_PARAMS)
    for i, p in enumerate(DEFINITION.params):
        value = overrides.pop(p.name, p.default)
        p.check(value, "ismcts")
        params[i] = p.encode(value)
    if overrides:
        DEFINITION.param(next(iter(overrides)), "ismcts")   # raises: unknown parameter
    rng = new_stream()
    _bench(r, states[:1], seats[:1], params, np.uint64(seed), rng)   # compile / warm up
    t0 = time.perf_counter()
    total = _bench(r, states, seats, params, np.uint64(seed), rng)
    dt = time.perf_counter() - t0
    return {"iterations_per_second": total / dt, "ms_per_move": 1000 * dt / len(seats),
            "moves": len(seats)}
