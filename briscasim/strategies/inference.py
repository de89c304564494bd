"""The inference of hidden hands: worlds weighed by what the other seats have done.

A world drawn uniformly from a seat's view (:mod:`briscasim.strategies.sampling`) ignores
what the other seats' plays say about their hands. :func:`draw_world`, the resampler of
:mod:`briscasim.strategies.ismcts`, samples a world and, with ``infer < 1``, weighs it by the
cards the other sides have played (a partner's plays are not read: a partner need not play
as greedy) to the current trick and, with ``history`` > 0, to as many completed tricks
before it (:func:`prepare_inference` lists them once per decision). For each such play it
rebuilds what the seat held then in this world (its hand now and the cards it has played
since, less the cards that came in the draws since: which ones did is drawn at random among
the orders that fit, :func:`_sample_arrivals`) and the public state then (the order of
play, ``S_PLAYS``, is public), and asks greedy what it would have played
(:func:`world_weight`). A world in which greedy would have played another card, whatever
the order of its hand, is kept only with probability ``infer`` per such play (rejection; at
most ``draws`` draws), so a world is kept with its likelihood averaged over the orders of
the draws. Greedy is deterministic, so such a world is unlikely against greedy; ``infer >
0`` keeps it possible against other opponents. Plays from before a swap, and past tricks
under rules where greedy reads more than the trick, the cards known and its hand (an
auction, a target, signals, cards shown), are not read. In Briscola Chiamata, with
``infer_auction < 1``, a world is kept only with probability ``infer_auction`` if greedy's
bidding rule, which every seat but ``random`` bids by, on the hands as dealt in it would not
have ended the auction as it ended: a seat that bid high holds strong cards
(:func:`auction_weight`).

The resampler is a hook: :func:`briscasim.strategies.ismcts.with_resampler` plays the search
with another jitted function of :func:`draw_world`'s arguments in its place (as OpenSpiel's
ISMCTS takes a resampler). Every function here reads and writes the search's working memory
``ws`` (:class:`briscasim.strategies.ismcts.Workspace`): the view's base state and spec
(``ws.base``, ``ws.spec``), the world drawn (``ws.world``), the plays read (``ws.obs``,
``ws.obs_state``, ``ws.infer_info``, ``ws.since``, ``ws.arrival``), greedy's parameters
(``ws.greedy_params``) and scratch (``ws.move_legal``, ``ws.auction``).
"""
import numpy as np
from numba import njit

from ..engine.core import legal_actions, legal_view, signals, step
from ..engine.layout import (EVERY_FEATURE, KNOWN_FACE_UP, KNOWN_UNSEEN, MAX_HAND,
                             MAX_PLAYERS, NO_CARD, N_CARD_IDS, PHASE_AUCTION, PHASE_PLAY,
                             PLAY_SEAT, PUBLIC_LEN, R_AUCTION, R_OPEN_HANDS, R_PLAYERS, R_SIDE,
                             R_SIGNALS, R_START_STATE, R_STOCK_TOP_VISIBLE, R_TARGET_POINTS,
                             START_STATE_SLOTS, STATE_LEN, S_BID, S_CALLED, S_CALLER,
                             S_FACE_UP, S_HANDS, S_KNOWN, S_LEADER, S_PASSED, S_PHASE, S_PLAYS,
                             S_SEAT_BIDS, S_SWAP2_CARD, S_SWAP2_SEAT, S_SWAP2_TRICK,
                             S_SWAP7_CARD, S_SWAP7_SEAT, S_SWAP7_TRICK, S_TO_DRAW, S_TRICK,
                             S_TRICK_N, S_TRICK_NO, S_TURN)
from ..engine.primitives import give, hand_base, hand_of
from ..engine.rng import below, uniform
from .bidding import contract_decision
from .greedy import greedy_strategy
from .random import random_strategy
from .sampling import sample_world

ROLLOUT_RANDOM, ROLLOUT_GREEDY, ROLLOUT_NETWORK, ROLLOUT_OWN_NETWORK = 0, 1, 2, 3
GREEDY = np.int64(ROLLOUT_GREEDY)   # typed, not a literal: one compiled policy_move
RANDOM = np.int64(ROLLOUT_RANDOM)
MAX_OBS = 32             # plays the inference reads at most (the latest first)
MAX_SINCE = 25           # a seat's plays from the first trick read on (history <= 24)
# the fields of an observed play (Workspace.obs, OBS_LEN int64 each)
O_SEAT, O_CARD, O_TRICK = 0, 1, 2
OBS_LEN = 3
# Workspace.infer_info: observed plays, the first trick read, draw rounds so far, and per
# seat the number of its plays from the first trick read on
I_N_OBS, I_FIRST, I_ROUNDS, I_N_SINCE = 0, 1, 2, 3
INFO_LEN = 3 + MAX_PLAYERS
CARRIED = MAX_HAND + MAX_SINCE   # per seat: its hand slots, then those plays


@njit(cache=True, _nrt=False)
def policy_move(rules, state, policy, epsilon, params, rng, legal, features):
    """The move of the seat to act in ``state``, decided on its own view with ``policy``
    (``ROLLOUT_*``) and ``params``; a greedy decision is replaced by a random one with
    probability ``epsilon``. ``legal`` is scratch for the legal actions (the hand itself
    when all of it may be played, :func:`~briscasim.engine.core.legal_view`) (jitted)."""
    seat = state[S_TURN]
    public = state[:PUBLIC_LEN]
    hand = hand_of(rules, state, seat)
    moves = legal_view(rules, state, seat, hand, legal, features)
    sig = signals(rules, state, seat, features) if rules[R_SIGNALS] != 0 else 0
    if policy == ROLLOUT_GREEDY and (epsilon == 0.0 or uniform(rng) >= epsilon):
        return greedy_strategy(rules, public, hand, moves, seat, sig, params, rng, features)
    return random_strategy(rules, public, hand, moves, seat, sig, params, rng)


@njit(cache=True, _nrt=False, inline="always")
def _history_readable(rules):
    """True if greedy's decisions in past tricks can be replayed from the order of play: it
    then reads only the trick, the cards known, the cards left to draw and its hand (no
    auction, race to a target, partner signals or cards shown)."""
    return (rules[R_AUCTION] == 0) & (rules[R_TARGET_POINTS] == 0) & (
        rules[R_SIGNALS] == 0) & (rules[R_OPEN_HANDS] == 0) & (rules[R_STOCK_TOP_VISIBLE] == 0)


@njit(cache=True, _nrt=False)
def prepare_inference(rules, public, seat, history, ws):
    """List the other sides' plays the inference reads, the latest first (at most
    ``MAX_OBS``): those of the current trick and, with ``history`` > 0, of as many completed
    tricks before it (none from before a swap, nor when :func:`_history_readable` fails).
    For each, a state is set up whose public part is rewound to just before it (the trick cut
    there, the cards played since unseen again, the face-up card back on the table if it was
    drawn since, the cards left to draw) and whose hidden part is ``ws.base``'s (the hand of
    the seat that played goes in per world). Writes ``ws.obs``, ``ws.obs_state``,
    ``ws.infer_info`` and, per
    seat, its plays from the first trick read on (card and trick) into ``ws.since``; returns
    the number of plays listed (jitted)."""
    n = rules[R_PLAYERS]
    trick_no = public[S_TRICK_NO]
    current = public[S_TRICK_N] if public[S_PHASE] == PHASE_PLAY else 0
    start = rules[R_START_STATE:R_START_STATE + START_STATE_SLOTS].view(np.int16)
    rounds = (start[S_TO_DRAW] - public[S_TO_DRAW]) // n   # after tricks 0 .. rounds - 1
    first = trick_no
    if history > 0 and _history_readable(rules):
        first = max(trick_no - history, public[S_SWAP7_TRICK], public[S_SWAP2_TRICK], 0)
        for t in range(trick_no - 1, first - 1, -1):
            if public[S_PLAYS + t * n + n - 1] == NO_CARD:   # not logged (a built position)
                first = t + 1
                break
    face_up = public[S_FACE_UP]
    info = ws.infer_info
    info[I_FIRST] = first
    info[I_ROUNDS] = rounds
    for x in range(n):
        info[I_N_SINCE + x] = 0
    k = 0
    for i in range(trick_no * n + current - 1, first * n - 1, -1):
        t = i // n
        p = i - t * n
        x, card = _play(public, i, trick_no, n)
        if rules[R_SIDE + x] == rules[R_SIDE + seat]:
            continue        # partners are not read: they need not play as greedy
        j = x * MAX_SINCE * 2 + info[I_N_SINCE + x] * 2
        ws.since[j] = card
        ws.since[j + 1] = t
        info[I_N_SINCE + x] += 1
        if k == MAX_OBS:
            continue
        pub = ws.obs_state[k * STATE_LEN:(k + 1) * STATE_LEN]
        for j in range(PUBLIC_LEN):
            pub[j] = public[j]
        for j in range(PUBLIC_LEN, STATE_LEN):
            pub[j] = ws.base[j]
        pub[S_PHASE] = PHASE_PLAY
        pub[S_TRICK_NO] = t
        pub[S_TRICK_N] = p
        pub[S_TURN] = x
        pub[S_TO_DRAW] = start[S_TO_DRAW] - n * min(t, rounds)
        pub[S_LEADER] = _play(public, t * n, trick_no, n)[0]
        for j in range(MAX_PLAYERS):
            pub[S_TRICK + j] = _play(public, t * n + j, trick_no, n)[1] if j < p else NO_CARD
        for j in range(i, trick_no * n + current):
            # played since: unseen then, unless known to be in its player's hand (a card
            # taken by a swap, the face-up card once drawn)
            y, d = _play(public, j, trick_no, n)
            pub[S_KNOWN + d] = y if _taken(public, d) | (d == face_up) else KNOWN_UNSEEN
        if face_up >= 0 and t < rounds and public[S_KNOWN + face_up] != KNOWN_FACE_UP:
            pub[S_KNOWN + face_up] = KNOWN_FACE_UP    # drawn in the last round, after t
        o = k * OBS_LEN
        ws.obs[o + O_SEAT] = x
        ws.obs[o + O_CARD] = card
        ws.obs[o + O_TRICK] = t
        k += 1
    info[I_N_OBS] = k
    return k


@njit(cache=True, _nrt=False, inline="always")
def _taken(public, card):
    """True if ``card`` was taken from the table by a swap."""
    return ((card == public[S_SWAP7_CARD]) & (public[S_SWAP7_SEAT] >= 0)) | (
        (card == public[S_SWAP2_CARD]) & (public[S_SWAP2_SEAT] >= 0))


@njit(cache=True, _nrt=False, inline="always")
def _play(public, i, trick_no, n):
    """``(seat, card)`` of the ``i``-th card played in the deal: from the current trick once
    ``i`` reaches it (always there, even in a position built without the order of play),
    else from ``S_PLAYS``."""
    if i >= trick_no * n:
        j = i - trick_no * n
        return np.int64((public[S_LEADER] + j) % n), np.int64(public[S_TRICK + j])
    e = np.int64(public[S_PLAYS + i])
    return e // PLAY_SEAT, e % PLAY_SEAT


@njit(cache=True, _nrt=False)
def _sample_arrivals(world, x, n_since, since, first, rounds, arrival, rng):
    """When each card seat ``x`` has held from trick ``first`` on came into its hand: its hand
    slots in ``world`` (``arrival[:MAX_HAND]``), then its ``n_since`` plays since (``since``:
    card, trick). -1: held at trick ``first``; ``r``: drawn in the round after trick ``r``, one
    card a round from ``first`` to ``rounds - 1``, each before the trick it was played to
    (jitted).

    Every order of the draws that fits is equally likely; the rounds are filled from the last
    one back, each with a card drawn uniformly from those that fit, which draws the orders
    uniformly (the cards that fit a round fit every earlier one). Public cards are placed:
    the face-up card came in the last round, a card taken by a swap (before ``first``) before.
    """
    h = hand_base(x)
    face_up = world[S_FACE_UP]
    for i in range(MAX_HAND + n_since):
        arrival[i] = -1
    for r in range(rounds - 1, first - 1, -1):
        m = 0
        forced = -1
        for i in range(MAX_HAND + n_since):
            c, last = _carried(world, h, since, i)
            if c == NO_CARD or arrival[i] != -1 or last <= r:
                continue
            if c == face_up and r == rounds - 1:
                forced = i
            if not _taken(world, c):    # a card taken by a swap came before
                m += 1
        if forced < 0:
            if m == 0:
                return                                 # no card fits: not this world
            j = below(rng, m)
            for i in range(MAX_HAND + n_since):
                c, last = _carried(world, h, since, i)
                if c == NO_CARD or arrival[i] != -1 or last <= r or _taken(world, c):
                    continue
                if j == 0:
                    forced = i
                    break
                j -= 1
        arrival[forced] = r


@njit(cache=True, _nrt=False, inline="always")
def _carried(world, h, since, i):
    """``(card, trick it was played to)`` of entry ``i`` of :func:`_sample_arrivals`'s list:
    a hand slot (never played yet: a trick past every other) or a play since."""
    if i < MAX_HAND:
        return np.int64(world[h + i]), np.int64(1 << 20)
    j = (i - MAX_HAND) * 2
    return since[j], since[j + 1]


@njit(cache=True, _nrt=False)
def world_weight(rules, world, infer, u, ws, rng, features=EVERY_FEATURE):
    """Relative likelihood of ``world`` given the plays :func:`prepare_inference` listed: the
    product over them of 1 if greedy, holding what its seat held then in this world, would
    have played that card with some order of its hand, else ``infer``; the product stops
    once it is at most ``u`` (jitted). Greedy plays the first of equally good cards, so the
    card is put first in the hand: greedy plays it then exactly when some order would.

    What the seat held at a play of an earlier trick: of its hand in the world and the cards
    it has played since, those it already held. Which ones came in the draws since is drawn
    by :func:`_sample_arrivals` (once per world and seat), so that a world is accepted with
    its likelihood averaged over the orders of the draws.
    """
    obs, info, arrival = ws.obs, ws.infer_info, ws.arrival
    trick_no = world[S_TRICK_NO]
    sampled = 0
    w = 1.0
    for k in range(info[I_N_OBS]):
        o = k * OBS_LEN
        x = obs[o + O_SEAT]
        t = obs[o + O_TRICK]
        n_since = info[I_N_SINCE + x]
        since = ws.since[x * MAX_SINCE * 2:(x + 1) * MAX_SINCE * 2]
        carried = arrival[x * CARRIED:(x + 1) * CARRIED]
        if t < trick_no and (sampled >> x) & 1 == 0:
            _sample_arrivals(world, x, n_since, since, info[I_FIRST], info[I_ROUNDS],
                             carried, rng)
            sampled |= 1 << x
        before = ws.obs_state[k * STATE_LEN:(k + 1) * STATE_LEN]
        if rules[R_SIGNALS] != 0:       # the partners' hands give the signals
            for j in range(S_HANDS, S_HANDS + MAX_PLAYERS * MAX_HAND):
                before[j] = world[j]
        h = hand_base(x)
        j = 0
        for i in range(MAX_HAND + n_since):
            c, last = _carried(world, h, since, i)
            if c != NO_CARD and last >= t and (t == trick_no or carried[i] < t) and (
                    j < MAX_HAND):
                before[h + j] = c
                j += 1
        for i in range(j, MAX_HAND):
            before[h + i] = NO_CARD
        card = obs[o + O_CARD]
        for i in range(1, j):
            if before[h + i] == card:
                before[h + i] = before[h]
                before[h] = card
        a = policy_move(rules, before, GREEDY, 0.0, ws.greedy_params, rng, ws.move_legal,
                        features)
        if a != card:
            w *= infer
            if w <= u:
                break
    return w


@njit(cache=True, _nrt=False)
def draw_world(rules, ws, infer, observed, infer_auction, draws, rng, features=EVERY_FEATURE):
    """Sample ``ws.world`` from the view prepared in ``ws``; with ``observed`` plays listed by
    :func:`prepare_inference`, or with ``infer_auction < 1``, accept it with its
    :func:`world_weight` times its :func:`auction_weight` (at most ``draws``
    draws) (jitted)."""
    sample_world(ws.base, ws.spec, rng, ws.world)
    if observed > 0 or infer_auction < 1.0:
        for _ in range(draws):
            u = uniform(rng)
            w = 1.0
            if observed > 0:
                w = world_weight(rules, ws.world, infer, u, ws, rng, features)
            if infer_auction < 1.0 and w > u:
                w *= auction_weight(rules, ws.world, infer_auction, ws.auction, ws.move_legal,
                                    features)
            if w > u:
                break
            sample_world(ws.base, ws.spec, rng, ws.world)


@njit(cache=True, _nrt=False)
def auction_weight(rules, world, infer, deal, legal, features=EVERY_FEATURE):
    """Briscola Chiamata: 1 if greedy's bidding rule (:func:`~.bidding.contract_decision`),
    bidding and calling for every seat on its hand as dealt in ``world`` (the cards it holds
    there and those it played, ``S_PLAYS``), ends the auction as it ended: every seat's
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
    for i in range(N_CARD_IDS):
        e = world[S_PLAYS + i]
        if e == NO_CARD:
            break
        # a played card back into its hand (bids and calls do not depend on the order)
        give(deal, e // PLAY_SEAT, e % PLAY_SEAT)
    while deal[S_PHASE] >= PHASE_AUCTION:
        seat = deal[S_TURN]
        moves = legal[:legal_actions(rules, deal, legal, features)]
        bid = contract_decision(rules, deal[:PUBLIC_LEN], hand_of(rules, deal, seat), moves)
        step(rules, deal, bid, None, features)
    same = ((deal[S_BID] == world[S_BID]) & (deal[S_CALLER] == world[S_CALLER])
            & (deal[S_CALLED] == world[S_CALLED]) & (deal[S_PASSED] == world[S_PASSED]))
    for s in range(rules[R_PLAYERS]):
        same &= deal[S_SEAT_BIDS + s] == world[S_SEAT_BIDS + s]
    return 1.0 if same else infer
