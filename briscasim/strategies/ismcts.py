"""``ismcts``: information-set Monte Carlo tree search from one seat's view.

SO-ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
TCIAIG 2012), with an opponent model by default. One tree over the deciding seat's
information sets: a node is the sequence of public actions since the decision (cards played,
swap answers; every action in Brisca is public, the hidden draws are folded into the nodes).
Every iteration:

1. samples a world consistent with the seat's view (:mod:`briscasim.strategies.sampling`)
   and, with ``infer < 1`` (or ``infer_auction < 1`` in Briscola Chiamata), weighs it by
   what the other sides' plays (and the auction) say of their hands, greedy being their
   model (:mod:`briscasim.strategies.inference`; a resampler of one's own replaces it,
   :func:`with_resampler`). With the inference on, the ``worlds`` worlds a move uses are
   drawn and weighed once, before the first iteration, and the iterations take them in
   turn (:func:`~.sampling.keep_world`), each time with the unknown stock in a new order
   (:func:`~.sampling.redraw_stock`; the inference reads the hands, and every order of the
   stock is as likely given them): the rejections are paid once per world, not once per
   iteration;
2. descends the tree. At the seat's own nodes it considers only the actions legal in this
   world, expands an untried one if any, else picks the child maximising
   ``mean + c * sqrt(ln(availability) / visits)``; with ``leaf_model`` and ``prior`` w > 0,
   the root's children maximise ``mean + w * p * sqrt(availability) / (1 + visits)`` instead
   (PUCT, as AlphaZero's), ``p`` the softmax of the network's action values over the
   seat's legal actions (:func:`root_priors`). The other seats' moves are, with
   ``others = greedy`` (default), greedy's moves on their hands in the sampled world (with
   probability ``others_epsilon`` a random one): the tree branches on the seat's own
   decisions only and the opponents' play depends on the cards they hold. With ``others =
   tree`` (plain SO-ISMCTS) they are UCB nodes of the same tree, chosen for their side but
   blind to their hands;
3. plays the world out with the rollout policy, each seat deciding on its own view
   (``greedy``, default, ``random``, ``network``: the ``leaf_model``'s network, or
   ``own_network``: the network for the seat's side, greedy for the others; but for random,
   ``epsilon`` mixes random decisions into the other sides' play and ``own_epsilon`` into
   the seat's own side's);
4. backs up the deal's reward for every side: 1 / 0.5 / 0 for a win / draw / loss, or the
   point margin against the best other side scaled to [0, 1]. With two players, ``reward =
   win``, the most points winning (no race to a target), a trump, no duty to follow suit
   and ``evaluation`` w > 0, the seat's side gets ``w`` times the learned evaluation of the
   leaf (:func:`~.evaluation.win_chance`, read before the play-out) plus ``1 - w`` times
   the play-out's reward, and the other side the rest; ``w = 1`` plays no play-out. The
   evaluation estimates what the default play-outs return on average, so mixing it in cuts
   the noise of a single play-out. With ``leaf_model`` (a trained network,
   :mod:`~.learned`'s models; not in Briscola Chiamata) the network values the leaf in its
   place, in every trick game and under either reward: the value it gives the position for
   the seat to move (:func:`~.network.position_chance`) read as that seat's chance of
   winning, which its side gets and every other side the rest, ``leaf_weight`` times that
   plus ``1 - leaf_weight`` times the play-out's reward (``leaf_weight = 1``: no play-out;
   ``0``: the network values no leaf, and ``evaluation`` applies as without it).

The move played is the most visited child of the root. With two players, once at most
``exact_stock`` cards are left to draw, the tree search gives way to a determinized exact
search: ``exact_worlds`` worlds drawn as in step 1, every legal move solved to the end of the
deal in each (:func:`~.solver.exact_worlds`), the move of best mean value played. With
``exact_model = greedy`` (default) the other side in it is greedy, as in the tree: a move's
value in a world is its outcome (+1 / 0 / -1) against greedy's replies, the seat playing
its best reply (:func:`~.solver.best_reply`: greedy is deterministic, so an exhaustive
search over the seat's own moves), times ``WIN``, plus its minimax value, so that among
moves of the same outcome one that wins against every reply goes first. The exact endgame
below then plays the move so chosen in the one world left.

The tree is a set of fixed-size arrays (one node per iteration, plus one per other seat with
``others = greedy``), taken once per decision from :mod:`briscasim.strategies.scratch`.
With ``time_budget = 0`` the search is deterministic for a seed; with a time budget it stops
when the budget is spent or after ``iterations`` (the cap: ``MAX_ITERATIONS`` unless the
spec sets it too), and depends on the machine's speed. Once every card is known (2-player
play, stock empty) and ``exact_endgame`` is on, the exact move (under ``exact_model``) is
played instead of searching.

How strong it is, how the defaults came about and every candidate tried and dropped, with
the figures: docs/strength.md. The cheating reference :mod:`~briscasim.strategies.peek` runs
this search in worlds that hold true hands (``P_PEEK``, after the parameters below), to
measure what the hidden hands are worth to it.

Parameters (float64 slots, in the order of ``DEFINITION``): ``iterations``, ``time_budget``,
``exploration``, ``rollout``, ``reward``, ``epsilon``, ``exact_endgame``, ``others``,
``others_epsilon``, ``infer``, ``own_epsilon``, ``margin_weight``, ``history``,
``exact_stock``, ``exact_worlds``, ``infer_auction``, ``worlds``, ``draws``,
``exact_model``, ``evaluation``, ``leaf_model`` (its slot holds the weights' address,
written by :func:`bind`), ``leaf_weight``, ``prior``.
"""
import math
from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.core import legal_actions
from ..engine.layout import (DRAW, EVERY_FEATURE, F_AUCTION, MAX_LEGAL, MAX_LEGAL_ANY, MAX_PLAYERS,
                             MAX_SIDES, NO_CARD, N_ACTIONS, N_CARD_IDS, OBJECTIVE_FEWEST,
                             PHASE_OVER, PHASE_PLAY, R_AUCTION, R_DECK, R_DECK_N, R_FOLLOW_SUIT,
                             R_NO_TRUMP, R_N_SIDES, R_OBJECTIVE, R_PLAYERS, R_POINTS, R_SIDE,
                             R_TARGET_POINTS, STATE_LEN, S_BLACK_HAND, S_GAME_POINTS, S_PHASE,
                             S_POINTS, S_TO_DRAW, S_TURN, S_WINNER)
from ..engine.primitives import at
from ..engine.rng import below, uniform
from ..jit import closure_cached
from ..observation import OBSERVATION_LEN, encode_view
from . import greedy as _greedy
from .api import N_PARAMS
from .evaluation import N_FEATURES, win_chance
from .learned import ModelParam, bind_leaf_model, network_move
from .network import (HIDDEN1, HIDDEN2, WEIGHTS_LEN, action_value, hidden,
                      position_chance)
from .inference import (CARRIED, GREEDY, INFO_LEN, MAX_OBS, MAX_SINCE, OBS_LEN, RANDOM,
                        ROLLOUT_GREEDY, ROLLOUT_NETWORK, ROLLOUT_OWN_NETWORK,
                        draw_world, policy_move, prepare_inference)
from .params import SEARCH, Param, StrategyDef, StrategyError
from .sampling import (REVEAL_OTHERS, REVEAL_PARTNERS, SPEC_LEN, first_stock_slot, keep_world,
                       prepare_worlds, redraw_stock, restore_world, reveal, unique_world)
from .scratch import aligned, monotonic_ns, release, stack, take, view
from .solver import MODEL_GREEDY, MODEL_MINIMAX, endgame_action, exact_worlds, play, point_margin

(P_ITERATIONS, P_TIME_BUDGET, P_EXPLORATION, P_ROLLOUT, P_REWARD, P_EPSILON,
 P_EXACT_ENDGAME, P_OTHERS, P_OTHERS_EPSILON, P_INFER, P_OWN_EPSILON,
 P_MARGIN_WEIGHT, P_HISTORY, P_EXACT_STOCK, P_EXACT_WORLDS, P_INFER_AUCTION,
 P_WORLDS, P_DRAWS, P_EXACT_MODEL, P_EVALUATION, P_LEAF_MODEL, P_LEAF_WEIGHT,
 P_PRIOR) = range(23)
P_PEEK = 23     # the cheating reference peek's hands (sampling.REVEAL_* bits); 0 in ismcts
P_PEEK_STOCK = 24   # peek: told the hands once at most this many cards are left to draw
REWARD_WIN, REWARD_MARGIN = 0, 1
OTHERS_TREE, OTHERS_GREEDY = 0, 1

MAX_ITERATIONS = 1_000_000


def _budget_cap(values, given):
    """A time budget set without an iteration count searches until the budget is spent."""
    if values["time_budget"] > 0 and "iterations" not in given:
        values["iterations"] = MAX_ITERATIONS


# greedy's default parameters for greedy play-outs (zeros if greedy declares none)
_GREEDY_DEF = getattr(_greedy, "DEFINITION", None)
_GREEDY_DEFAULTS = tuple(
    [p.encode(p.default) for p in (_GREEDY_DEF.params if _GREEDY_DEF else ())]
    + [0.0] * (N_PARAMS - (len(_GREEDY_DEF.params) if _GREEDY_DEF else 0)))
_RANDOM_SWAP_PROB = 0.5   # random play-outs accept a swap offer half the time

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
    legal: np.ndarray           # int16: legal actions at a node of the seat's own
    move_legal: np.ndarray      # int16: legal actions of a policy move (or a bid)
    rewards: np.ndarray         # float64 per side: the play-out's rewards
    rollout_params: np.ndarray  # float64: parameters of the play-out policy
    greedy_params: np.ndarray   # float64: greedy's defaults (opponent model, inference)
    path: np.ndarray            # int32: the nodes visited by an iteration
    obs: np.ndarray             # int64: the plays the inference reads (O_* fields each)
    obs_state: np.ndarray       # int16: a state rewound to each of them (STATE_LEN each)
    infer_info: np.ndarray      # int64: I_* (how many plays, the first trick, draw rounds)
    since: np.ndarray           # int64: per seat, its plays from the first trick read on
    arrival: np.ndarray         # int16: per seat, when each card it held since came
    auction: np.ndarray         # int16 state: a world's auction played again
    worlds: np.ndarray          # int8: the worlds drawn once per move (N_CARD_IDS each)
    scores: np.ndarray          # float64: the evaluation's features (N_FEATURES)
    prior: np.ndarray           # float64: the network's policy at the root (N_ACTIONS)


def numpy_workspace() -> Workspace:
    """A :class:`Workspace` of numpy arrays (no kept worlds), greedy's parameters set, for
    tools and tests that call the search's parts (the search takes its own from scratch
    memory, :func:`searches`)."""
    z = np.zeros
    ws = Workspace(z(STATE_LEN, np.int16), z(SPEC_LEN, np.int64), z(STATE_LEN, np.int16),
                   z(MAX_LEGAL, np.int16), z(MAX_LEGAL_ANY, np.int16), z(MAX_SIDES),
                   z(N_PARAMS), z(N_PARAMS), z(_MAX_PATH, np.int32),
                   z(MAX_OBS * OBS_LEN, np.int64), z(MAX_OBS * STATE_LEN, np.int16),
                   z(INFO_LEN, np.int64), z(MAX_PLAYERS * MAX_SINCE * 2, np.int64),
                   z(MAX_PLAYERS * CARRIED, np.int16), z(STATE_LEN, np.int16), z(0, np.int8),
                   z(N_FEATURES), z(N_ACTIONS))
    ws.greedy_params[:] = _GREEDY_DEFAULTS
    return ws


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
def play_out(rules, state, policy, own_epsilon, epsilon, side, params, rng, legal, features,
             address):
    """Play ``state`` to the end, every seat moving by :func:`policy_move` or by the
    network at ``address`` (:func:`~.learned.network_move`: every seat with
    ``ROLLOUT_NETWORK``, the seats of ``side`` with ``ROLLOUT_OWN_NETWORK``, the others then
    greedy), a random move replacing a decision with probability ``own_epsilon`` for the
    seats of ``side`` and ``epsilon`` for the others (jitted)."""
    while state[S_PHASE] != PHASE_OVER:
        own = rules[R_SIDE + state[S_TURN]] == side
        eps = own_epsilon if own else epsilon
        if policy == ROLLOUT_NETWORK or (policy == ROLLOUT_OWN_NETWORK and own):
            if eps == 0.0 or uniform(rng) >= eps:
                a = network_move(rules, state, address, legal, features)
            else:
                a = policy_move(rules, state, RANDOM, 0.0, params, rng, legal, features)
        else:
            a = policy_move(rules, state, GREEDY if policy == ROLLOUT_OWN_NETWORK else policy,
                            eps, params, rng, legal, features)
        play(rules, state, a, features)


@njit(cache=True, _nrt=False)
def root_priors(rules, public, hand, seat, sig, address, legal, k, out):
    """The network's policy at the root: the softmax of the values the network at
    ``address`` gives the seat's ``k`` legal actions ``legal[:k]`` from its view (the
    strategy's arguments), written into ``out`` at their action ids (jitted)."""
    w = view(address, 0, WEIGHTS_LEN, np.float32)
    obs = stack(OBSERVATION_LEN, np.int8)
    a1 = stack(HIDDEN1, np.float32)
    a2 = stack(HIDDEN2, np.float32)
    encode_view(rules, public, hand, seat, sig, obs)
    hidden(w, obs, a1, a2)
    top = -np.inf
    for i in range(k):
        out[at(legal[i])] = action_value(w, a2, legal[i])
        top = max(top, out[at(legal[i])])
    total = 0.0
    for i in range(k):
        out[at(legal[i])] = math.exp(out[at(legal[i])] - top)
        total += out[at(legal[i])]
    for i in range(k):
        out[at(legal[i])] /= total


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


@njit(cache=True, _nrt=False, inline="always")
def _kept_worlds(params, iterations):
    """Worlds drawn once per move (``worlds``, at most one per iteration)."""
    return min(np.int64(params[P_WORLDS]), iterations)


@njit(cache=True, _nrt=False, inline="always")
def _is_legal(legal, k, a):
    for i in range(k):
        if legal[i] == a:
            return True
    return False


def searches(resample) -> "Searches":
    """The search's jitted functions drawing its worlds with ``resample`` (a jitted function
    of :func:`~.inference.draw_world`'s arguments that writes a world consistent with the
    seat's view into ``ws.world``), made once per resampler: the resampler is a constant of
    the code it is called from, never a value passed down, so that numba caches the search
    as it caches every kernel."""
    if resample in _SEARCHES:
        return _SEARCHES[resample]
    exact = exact_worlds(resample)

    @njit(cache=True, _nrt=False)
    def search(rules, public, hand, seat, sig, params, rng, ws, tree, features, truth):
        """Run the search in the :class:`Workspace` ``ws`` and the :class:`Tree` ``tree`` (of
        ``len(tree.child)`` nodes at most), drawing its worlds with ``resample``
        (:func:`~.inference.draw_world`'s arguments); return ``(action, iterations run)``.
        ``truth`` is read only by the cheating reference ``peek`` (``params[P_PEEK]`` > 0): the
        full state, whose hands it places in every world once at most ``params[P_PEEK_STOCK]``
        cards are left to draw (jitted)."""
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
        draws = np.int64(params[P_DRAWS])
        own_eps = params[P_OWN_EPSILON]
        side = rules[R_SIDE + seat]
        # the auction is read only where the search holds its code (every feature)
        infer_auction = (params[P_INFER_AUCTION] if features & F_AUCTION and rules[R_AUCTION] != 0
                         else 1.0)
        capacity = child.shape[0]
        total = deal_points(rules)
        lam = params[P_EVALUATION]
        # the network at the leaves (leaf_model bound, leaf_weight > 0: bind refuses Briscola
        # Chiamata, whose sides form during the deal) takes the place of the evaluation below
        address = np.int64(params[P_LEAF_MODEL])
        leaf_weight = params[P_LEAF_WEIGHT]
        network = address != 0
        leaf_net = network & (leaf_weight > 0.0)   # leaf_weight = 0: the evaluation, if any
        prior = params[P_PRIOR] if network else 0.0
        # the evaluation is the chance of winning a 2-player deal on the most points, fitted to
        # deals with a trump and no duty to follow suit
        evaluate = ((lam > 0.0) & (kind == REWARD_WIN) & (rules[R_PLAYERS] == 2)
                    & (rules[R_AUCTION] == 0) & (rules[R_TARGET_POINTS] == 0)
                    & (rules[R_OBJECTIVE] != OBJECTIVE_FEWEST) & (rules[R_NO_TRUMP] == 0)
                    & (rules[R_FOLLOW_SUIT] == 0))
        peek = np.int64(params[P_PEEK]) if public[S_TO_DRAW] <= params[P_PEEK_STOCK] else 0
        prepare_worlds(rules, public, hand, seat, 0 if peek & REVEAL_PARTNERS else sig, ws.base,
                       ws.spec)
        if peek != 0:
            reveal(rules, truth, seat, peek, ws.base, ws.spec)
        observed = 0
        if infer < 1.0 and peek & REVEAL_OTHERS == 0:
            observed = prepare_inference(rules, public, seat, np.int64(params[P_HISTORY]), ws)
        model = np.int64(params[P_EXACT_MODEL])
        if (model == MODEL_GREEDY and params[P_EXACT_ENDGAME] != 0 and rules[R_PLAYERS] == 2
                and unique_world(ws.spec)):
            return exact(rules, seat, 1, 1.0, 0, 1, model, rng, ws, features), 0
        if (rules[R_PLAYERS] == 2 and public[S_PHASE] == PHASE_PLAY
                and public[S_TO_DRAW] <= params[P_EXACT_STOCK]):
            return exact(rules, seat, max(np.int64(params[P_EXACT_WORLDS]), 1), infer,
                                observed, draws, model, rng, ws, features), 0
        n_worlds = _kept_worlds(params, iterations) if observed > 0 or infer_auction < 1.0 else 0
        for j in range(n_worlds):
            resample(rules, ws, infer, observed, infer_auction, draws, rng, features)
            keep_world(ws.spec, world, ws.worlds[j * N_CARD_IDS:(j + 1) * N_CARD_IDS])
        stock = first_stock_slot(ws.spec)
        child[0] = -1
        visits[0] = 0
        n_nodes = 1
        start = monotonic_ns() if budget_ns > 0 else 0
        it = 0
        while it < iterations:
            if budget_ns > 0 and (it & 63) == 63 and monotonic_ns() - start > budget_ns:
                break
            if n_worlds > 0:
                j = it % n_worlds
                restore_world(ws.base, ws.spec, ws.worlds[j * N_CARD_IDS:(j + 1) * N_CARD_IDS],
                              world)
                redraw_stock(ws.spec, stock, rng, world)
            else:
                resample(rules, ws, infer, observed, infer_auction, draws, rng, features)
            it += 1
            node = 0
            depth = 0
            while world[S_PHASE] != PHASE_OVER:
                to_move = world[S_TURN]
                if others and to_move != seat:
                    # another seat moves greedily on its sampled hand: follow (or add) the child
                    a = policy_move(rules, world, GREEDY, others_eps, ws.greedy_params, rng,
                                    ws.move_legal, features)
                    play(rules, world, a, features)
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
                k = legal_actions(rules, world, legal, features)
                if node == 0 and prior > 0.0 and it == 1:
                    # the root's legal actions are the same in every world
                    root_priors(rules, public, hand, seat, sig, address, legal, k, ws.prior)
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
                    play(rules, world, a, features)
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
                        if node == 0 and prior > 0.0:
                            score = (value[c] / visits[c] + prior * ws.prior[at(action[c])]
                                     * math.sqrt(avail[c]) / (1.0 + visits[c]))
                        else:
                            score = (value[c] / visits[c]
                                     + c_explore * math.sqrt(math.log(avail[c]) / visits[c]))
                        if score > best_score:
                            best_score = score
                            best = c
                    c = sibling[c]
                play(rules, world, np.int64(action[best]), features)
                node = best
                depth += 1
                path[depth] = node
            rewards = ws.rewards
            weight = 0.0
            if world[S_PHASE] != PHASE_OVER:
                weight = leaf_weight if leaf_net else lam if evaluate else 0.0
            chance = 0.0
            mover_side = side       # the side whose chance of winning ``chance`` is
            if weight > 0.0 and leaf_net:
                chance = position_chance(rules, world, address)
                mover_side = rules[R_SIDE + world[S_TURN]]
            elif weight > 0.0:
                chance = win_chance(rules, world, side, total, ws.scores)
            if weight < 1.0:
                play_out(rules, world, policy, own_eps, params[P_EPSILON], side,
                         ws.rollout_params, rng, ws.move_legal, features, address)
                side_rewards(rules, world, kind, params[P_MARGIN_WEIGHT], total, rewards)
            if weight > 0.0 and leaf_net:
                # the side to move at the leaf gets the network's chance, every other the rest
                for s in range(rules[R_N_SIDES]):
                    share = chance if s == mover_side else 1.0 - chance
                    rewards[s] = (share if weight >= 1.0
                                  else weight * share + (1.0 - weight) * rewards[s])
            elif weight > 0.0:
                if weight < 1.0:
                    chance = weight * chance + (1.0 - weight) * rewards[side]
                for s in range(rules[R_N_SIDES]):
                    rewards[s] = chance if s == side else 1.0 - chance
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

    @njit(cache=True, _nrt=False)
    def run_search(rules, public, hand, seat, sig, params, rng, features, truth):
        """Take the search's :class:`Workspace` and :class:`Tree` from one block of scratch
        memory, search (``truth`` as :func:`search`'s), give the block back;
        return ``(action, iterations run)`` (jitted)."""
        # one node per iteration, plus with others=greedy one per other seat's new move
        per_iteration = rules[R_PLAYERS] if params[P_OTHERS] == OTHERS_GREEDY else 1
        cap = (np.int64(params[P_ITERATIONS]) + 1) * per_iteration
        o_world = aligned(2 * STATE_LEN)
        o_spec = o_world + aligned(2 * STATE_LEN)
        o_legal = o_spec + aligned(8 * SPEC_LEN)
        o_move_legal = o_legal + aligned(8 * MAX_LEGAL)
        o_rewards = o_move_legal + aligned(2 * MAX_LEGAL_ANY)
        o_rollout = o_rewards + aligned(8 * MAX_SIDES)
        o_greedy = o_rollout + aligned(8 * N_PARAMS)
        o_path = o_greedy + aligned(8 * N_PARAMS)
        o_obs = o_path + aligned(4 * _MAX_PATH)
        o_obs_state = o_obs + aligned(8 * MAX_OBS * OBS_LEN)
        o_info = o_obs_state + aligned(2 * MAX_OBS * STATE_LEN)
        o_since = o_info + aligned(8 * INFO_LEN)
        o_arrival = o_since + aligned(8 * MAX_PLAYERS * MAX_SINCE * 2)
        o_auction = o_arrival + aligned(2 * MAX_PLAYERS * CARRIED)
        kept = N_CARD_IDS * _kept_worlds(params, np.int64(params[P_ITERATIONS]))
        o_worlds = o_auction + aligned(2 * STATE_LEN)
        o_scores = o_worlds + aligned(kept)
        o_prior = o_scores + aligned(8 * N_FEATURES)
        o_child = o_prior + aligned(8 * N_ACTIONS)
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
                       view(block, o_legal, MAX_LEGAL, np.int16),
                       view(block, o_move_legal, MAX_LEGAL_ANY, np.int16),
                       view(block, o_rewards, MAX_SIDES, np.float64),
                       view(block, o_rollout, N_PARAMS, np.float64),
                       view(block, o_greedy, N_PARAMS, np.float64),
                       view(block, o_path, _MAX_PATH, np.int32),
                       view(block, o_obs, MAX_OBS * OBS_LEN, np.int64),
                       view(block, o_obs_state, MAX_OBS * STATE_LEN, np.int16),
                       view(block, o_info, INFO_LEN, np.int64),
                       view(block, o_since, MAX_PLAYERS * MAX_SINCE * 2, np.int64),
                       view(block, o_arrival, MAX_PLAYERS * CARRIED, np.int16),
                       view(block, o_auction, STATE_LEN, np.int16),
                       view(block, o_worlds, kept, np.int8),
                       view(block, o_scores, N_FEATURES, np.float64),
                       view(block, o_prior, N_ACTIONS, np.float64))
        tree = Tree(view(block, o_child, cap, np.int32),
                    view(block, o_sibling, cap, np.int32),
                    view(block, o_action, cap, np.int8),
                    view(block, o_mover, cap, np.int8),
                    view(block, o_visits, cap, np.int32),
                    view(block, o_avail, cap, np.int32),
                    view(block, o_value, cap, np.float64))
        policy = np.int64(params[P_ROLLOUT])
        greedy_outs = (policy == ROLLOUT_GREEDY) | (policy == ROLLOUT_OWN_NETWORK)
        for i in range(N_PARAMS):
            ws.rollout_params[i] = _GREEDY_DEFAULTS[i] if greedy_outs else 0.0
            ws.greedy_params[i] = _GREEDY_DEFAULTS[i]
        if not greedy_outs:
            ws.rollout_params[0] = _RANDOM_SWAP_PROB
        a, it = search(rules, public, hand, seat, sig, params, rng, ws, tree, features, truth)
        release(block)
        return a, it


    @njit(cache=True, _nrt=False)
    def decide(rules, public, hand, legal, seat, signals, params, rng, features, truth):
        """The move of the search (``truth`` as :func:`search`'s; jitted)."""
        if legal.shape[0] == 1:
            return legal[0]
        if params[P_EXACT_ENDGAME] != 0 and params[P_EXACT_MODEL] == MODEL_MINIMAX:
            a = endgame_action(rules, public, hand, seat, signals, rng, features)
            if a != NO_CARD:
                return a
        a, _ = run_search(rules, public, hand, seat, signals, params, rng, features, truth)
        return a

    closure_cached(search)
    return _SEARCHES.setdefault(resample, Searches(closure_cached(decide),
                                                   closure_cached(run_search)))


class Searches(NamedTuple):
    """The search drawing its worlds with one resampler (:func:`searches`)."""
    decide: object       # decide(rules, public, hand, legal, seat, signals, params, rng, features, truth)
    run_search: object   # run_search(rules, public, hand, seat, sig, params, rng, features, truth)


_SEARCHES: dict = {}
DRAWN = searches(draw_world)
"""The search with the inference's resampler (:func:`~.inference.draw_world`)."""
decide, run_search = DRAWN


@njit(cache=True, _nrt=False)
def ismcts_strategy(rules, public, hand, legal, seat, signals, params, rng,
                    features=EVERY_FEATURE):
    """SO-ISMCTS from the seat's view; see the module docstring; ``features`` as
    :mod:`~briscasim.strategies.solver`'s (jitted)."""
    return decide(rules, public, hand, legal, seat, signals, params, rng, features, public)


def with_resampler(resample):
    """ismcts drawing its worlds with ``resample`` instead of the inference's
    :func:`~.inference.draw_world` (the hook, as OpenSpiel's ISMCTS takes a resampler): a
    jitted function of the same arguments, ``(rules, ws, infer, observed, infer_auction,
    draws, rng, features)``, that writes a world consistent with the seat's view into
    ``ws.world`` (:mod:`~.inference`, module docstring). Returns the search as a strategy
    function (:data:`~.api.STRATEGY_SIGNATURE`), for instance
    ``register_strategy("my-ismcts", with_resampler(fn), DEFINITION.params)``."""
    decide_drawn = searches(resample).decide

    @njit(cache=True, _nrt=False)
    def ismcts_resampled(rules, public, hand, legal, seat, signals, params, rng):
        return decide_drawn(rules, public, hand, legal, seat, signals, params, rng,
                            EVERY_FEATURE, public)
    return closure_cached(ismcts_resampled)


def bind(rules, strategy):
    """``strategy`` (ismcts or peek) with the weights' address of its ``leaf_model`` for
    ``rules`` in its parameter row (:func:`~.learned.bind_leaf_model`); without a model,
    network play-outs and priors are refused with one line."""
    if strategy.values.get("leaf_model", "none") == "none":
        owner = f"{strategy.label.partition(':')[0]} leaf_model"
        if strategy.values.get("rollout") in ("network", "own_network"):
            raise StrategyError(f"{owner}: rollout={strategy.values['rollout']} plays the "
                                "play-outs with a network: give leaf_model=M (auto: the "
                                "preset's own)")
        if strategy.values.get("prior", 0.0) > 0.0:
            raise StrategyError(f"{owner}: prior={strategy.values['prior']:g} weighs the "
                                "root's moves by a network's policy: give leaf_model=M "
                                "(auto: the preset's own)")
    return bind_leaf_model(rules, strategy, P_LEAF_MODEL)


DEFINITION = StrategyDef(
    "ismcts", 2, (
        Param("iterations", int, 1000, 1, MAX_ITERATIONS, "search iterations per move (with "
              f"a time budget, the cap: {MAX_ITERATIONS} unless given)"),
        Param("time_budget", float, 0.0, 0.0, 600.0, "seconds per move, 0 = off (results "
              "then depend on machine speed)"),
        Param("exploration", float, 1.0, 0.0, 10.0, "UCB1 exploration constant"),
        Param("rollout", str, "greedy", doc="policy of every seat in the play-outs; "
              "network: the leaf_model's network (each seat's legal action of highest "
              "value, from its view), epsilon and own_epsilon mixing in random moves; "
              "own_network: the network for the seat's own side, greedy for the others",
              choices=("random", "greedy", "network", "own_network")),
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
        Param("infer", float, 0.05, 0.0, 1.0, "weight of a sampled world in which greedy "
              "would not have played a card another side played (to the current trick, or "
              "to the tricks history reads), per such card (1 = no inference, 0 = such "
              "worlds are rejected)"),
        Param("own_epsilon", float, 0.0, 0.0, 1.0, "with greedy play-outs, the probability "
              "that a play-out decision of the seat's own side is random instead (epsilon "
              "is then that of the other sides)"),
        Param("margin_weight", float, 0.0, 0.0, 1.0, "with reward=win, the weight of the "
              "margin reward mixed into it (0 = win / draw / loss only)"),
        Param("history", int, 2, 0, 24, "with infer < 1, the completed tricks before the "
              "current one whose plays by the other sides the inference also reads (0 = the "
              "current trick only)"),
        Param("exact_stock", int, 4, -1, 48, "2 players: once at most this many cards are "
              "left to draw, solve sampled worlds exactly instead of searching the tree "
              "(determinized exact search; -1 = never)"),
        Param("exact_worlds", int, 40, 1, 10_000, "worlds solved per move under "
              "exact_stock"),
        Param("infer_auction", float, 0.0, 0.0, 1.0, "Briscola Chiamata: weight of a sampled "
              "world in which greedy's bidding rule, on the hands as dealt in it, would not "
              "have bid and called as the auction went (1 = the auction is ignored, 0 = such "
              "worlds are rejected)"),
        Param("worlds", int, 100, 0, 100_000, "with the inference on (infer < 1 or "
              "infer_auction < 1), worlds drawn and weighed once per move, which the "
              "iterations then take in turn (0 = a world drawn and weighed every iteration)"),
        Param("draws", int, 64, 1, 100_000, "with the inference on, worlds drawn at most "
              "(rejection) for each world the search uses"),
        Param("exact_model", str, "greedy", doc="the other side in the exact searches "
              "(exact_endgame, exact_stock): minimax (a perfect player) or greedy (greedy's "
              "moves, to which the seat plays its best reply; a move that wins against every "
              "reply goes first among equal outcomes)", choices=("minimax", "greedy")),
        Param("evaluation", float, 0.5, 0.0, 1.0, "2 players, reward=win, the most points "
              "winning, a trump, no duty to follow suit: weight of the learned evaluation "
              "(briscasim.strategies.evaluation) in a leaf's reward, the play-out giving the "
              "rest (0 = play-outs only, 1 = no play-out)"),
        ModelParam("leaf_model", str, "none", doc="a network valuing the leaves (trick "
                   "games) and playing the play-outs with rollout=network: a shipped model "
                   "(briscasim/models), a model file's path or auto (the preset's own, as "
                   "learned's model); none = off. With leaf_weight > 0 it takes the place of "
                   "evaluation"),
        Param("leaf_weight", float, 0.5, 0.0, 1.0, "with leaf_model, the weight of the "
              "network's chance of winning in a leaf's reward, the play-out giving the rest "
              "(1 = no play-out; 0 = the network values no leaf, evaluation applies)"),
        Param("prior", float, 0.0, 0.0, 100.0, "with leaf_model, the weight w of the "
              "network's policy at the root: a root action's score is its mean plus w * p * "
              "sqrt(availability) / (1 + visits), p the softmax of the network's values of "
              "the legal actions (PUCT), in place of UCB1's exploration; 0 = off"),
    ),
    "single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012)",
    test_params="iterations=30",
    complete=_budget_cap,
    fn=ismcts_strategy, dispatch=SEARCH, bind=bind,
)
