"""What a seat may know, as one flat ``int8`` array: the observation of the environments.

Every environment of :mod:`briscasim.envs` (the vectorised one, the PettingZoo one) encodes a
seat's view with :func:`encode`, which reads only the public part of the deal state
(``state[:PUBLIC_LEN]``), the seat's own hand and, when the rules give them, its partners'
signals: never another hand, the order of the face-down stock or a declined swap offer of
another seat (docs/rules.md, "What each seat may know").

The layout is declared once below as a :class:`~briscasim.engine.layout.Block`
(``OBSERVATION.table()`` prints it). The first eight fields hold one entry per card id
(``suit * 12 + face``, docs/rules.md card codes): 1 where the card is in that place as far
as the seat knows, else 0; every card in play is in exactly one of ``hand``, ``trick``,
``played``, ``face_up``, ``partner_holds``, ``opponent_holds`` and ``unseen`` (``winning``
marks one of the ``trick`` cards). The counts after them are small whole numbers (card points
reach 120), so the array stays ``int8``: scale it as a learner likes.

The *action mask* is a separate ``int8`` array of ``N_ACTIONS`` entries (1: legal), from the
engine's :func:`~briscasim.engine.core.legal_actions`: card ids 0..47, ``ACTION_SWAP`` (48)
and ``ACTION_KEEP`` (49) at a swap offer.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.core import at, hand_base, legal_actions, signals, trick_winner_index
from ..engine.layout import (KNOWN_FACE_UP, KNOWN_STOCK_TOP, KNOWN_PLAYED, KNOWN_UNSEEN, MAX_LEGAL,
                             MAX_PLAYERS, MAX_SIDES, N_ACTIONS, N_CARD_IDS, NO_CARD,
                             OBJECTIVE_FEWEST, PHASE_OVER, PHASE_SWAP, R_N_SIDES, R_OBJECTIVE,
                             R_HAND_SIZE, R_PLAYERS, R_SIDE, R_SIGNALS, S_KNOWN, S_LEADER,
                             S_PHASE, S_POINTS, S_TO_DRAW, S_TRICK, S_TRICK_N, S_TRICK_NO,
                             S_TRICKS_WON, S_TRUMP, S_TURN, S_WINNER, DRAW, Block)

OBSERVATION = Block("observation", "int8")
O_HAND = OBSERVATION.field("hand", N_CARD_IDS, "1 for each card in the seat's hand")
O_TRICK = OBSERVATION.field("trick", N_CARD_IDS, "1 for each card played to the current "
                            "trick")
O_WINNING = OBSERVATION.field("winning", N_CARD_IDS, "1 for the card winning the current "
                              "trick so far (one of the trick's cards)")
O_PLAYED = OBSERVATION.field("played", N_CARD_IDS, "1 for each card played to a finished "
                             "trick")
O_FACE_UP = OBSERVATION.field("face_up", N_CARD_IDS, "1 for the face-up card while it is on "
                              "the table, and for the top of the stock while it is shown "
                              "(stock_top_visible)")
O_PARTNER_HOLDS = OBSERVATION.field("partner_holds", N_CARD_IDS, "1 for each card publicly "
                                    "known to be in a partner's hand (a face-up card drawn, "
                                    "a card taken by a swap)")
O_OPPONENT_HOLDS = OBSERVATION.field("opponent_holds", N_CARD_IDS, "1 for each card publicly "
                                     "known to be in an opponent's hand")
O_UNSEEN = OBSERVATION.field("unseen", N_CARD_IDS, "1 for each card that may be in another "
                             "hand or the face-down stock")
O_TRUMP = OBSERVATION.field("trump", 4, "the trump suit, one-hot (oros, copas, espadas, "
                            "bastos)")
O_SEAT = OBSERVATION.field("seat", MAX_PLAYERS, "the seat, one-hot")
O_PLACE = OBSERVATION.field("place", MAX_PLAYERS, "the seat's place in the current trick, "
                            "one-hot (0: it leads, or led)")
O_SWAP_OFFER = OBSERVATION.field("swap_offer", 1, "1 when the decision is a swap offer "
                                 "(swap or keep)")
O_TRICK_NO = OBSERVATION.field("trick_no", 1, "tricks completed")
O_TO_DRAW = OBSERVATION.field("to_draw", 1, "cards still to be drawn, the face-up card "
                              "included")
O_POINTS = OBSERVATION.field("points", MAX_SIDES, "card points taken per side: the seat's "
                             "own side first, then the other sides in order after it (0 "
                             "past the last side)")
O_TRICKS_WON = OBSERVATION.field("tricks_won", MAX_SIDES, "tricks taken per side, in the "
                                 "same order")
O_SIGNALS = OBSERVATION.field("signals", 16, "its partners' signal bits (SIG_*, docs/rules.md "
                              "partner signals), 8 per partner in seat order after the seat; "
                              "all 0 without signals")
OBSERVATION_LEN = OBSERVATION.length
OBSERVATION.check(OBSERVATION_LEN)

CARD_FIELDS = ("hand", "trick", "winning", "played", "face_up", "partner_holds",
               "opponent_holds", "unseen")
"""The per-card fields, in order (48 entries each, from offset 0)."""

REWARD_OUTCOME, REWARD_MARGIN = 0, 1
REWARDS = {"outcome": REWARD_OUTCOME, "margin": REWARD_MARGIN}
"""Reward kinds: ``outcome`` is +1 for a side that wins the deal, -1 for one that loses, 0
for every side in a draw; ``margin`` is the side's card points minus the best of the other
sides' (turned round under ``objective = fewest``, so that more is better either way)."""


@njit(cache=True, _nrt=False, inline="always")
def encode(rules, state, seat, out):
    """Write what ``seat`` may know of ``state`` into ``out`` (``OBSERVATION_LEN`` int8, the
    fields ``O_*``) (jitted). Reads the public state, the seat's hand and its signals only."""
    n = rules[R_PLAYERS]
    side = rules[at(R_SIDE + seat)]
    partners = np.int64(0)      # seats as bits: the seat's partners, its opponents
    opponents = np.int64(0)
    for s in range(n):
        same = rules[at(R_SIDE + s)] == side
        partners |= np.int64(same & (s != seat)) << s
        opponents |= np.int64(not same) << s
    known = state[S_KNOWN:S_KNOWN + N_CARD_IDS]
    # one simple loop per field, so that each compiles to a few vector instructions
    for c in range(N_CARD_IDS):
        out[at(O_HAND + c)] = 0
    for c in range(N_CARD_IDS):
        out[at(O_TRICK + c)] = 0
    for c in range(N_CARD_IDS):
        out[at(O_WINNING + c)] = 0
    for c in range(N_CARD_IDS):
        out[at(O_PLAYED + c)] = known[at(c)] == KNOWN_PLAYED
    for c in range(N_CARD_IDS):
        out[at(O_FACE_UP + c)] = (known[at(c)] == KNOWN_FACE_UP) | (
            known[at(c)] == KNOWN_STOCK_TOP)
    for c in range(N_CARD_IDS):
        out[at(O_UNSEEN + c)] = known[at(c)] == KNOWN_UNSEEN
    for c in range(N_CARD_IDS):
        k = np.int64(known[at(c)]) & 63     # a seat 0..5, or a KNOWN_* past every seat
        out[at(O_PARTNER_HOLDS + c)] = (partners >> k) & 1
    for c in range(N_CARD_IDS):
        k = np.int64(known[at(c)]) & 63
        out[at(O_OPPONENT_HOLDS + c)] = (opponents >> k) & 1
    for i in range(rules[R_HAND_SIZE]):
        c = state[at(hand_base(seat) + i)]
        if c != NO_CARD:
            out[at(O_HAND + c)] = 1
            out[at(O_UNSEEN + c)] = 0
    trick_n = state[S_TRICK_N]
    for i in range(trick_n):
        c = state[at(S_TRICK + i)]
        out[at(O_TRICK + c)] = 1
        out[at(O_PLAYED + c)] = 0
    if trick_n > 0:
        out[at(O_WINNING + state[at(S_TRICK + trick_winner_index(rules, state))])] = 1
    for i in range(4):
        out[O_TRUMP + i] = state[S_TRUMP] == i
    place = seat - state[S_LEADER]
    place += n if place < 0 else 0
    for i in range(MAX_PLAYERS):
        out[O_SEAT + i] = seat == i
        out[O_PLACE + i] = place == i
    out[O_SWAP_OFFER] = state[S_PHASE] == PHASE_SWAP
    out[O_TRICK_NO] = state[S_TRICK_NO]
    out[O_TO_DRAW] = state[S_TO_DRAW]
    n_sides = rules[R_N_SIDES]
    for i in range(MAX_SIDES):
        s = side + i
        s -= n_sides if s >= n_sides else 0
        out[O_POINTS + i] = state[at(S_POINTS + s)] if i < n_sides else 0
        out[O_TRICKS_WON + i] = state[at(S_TRICKS_WON + s)] if i < n_sides else 0
    sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
    for i in range(16):
        out[O_SIGNALS + i] = (sig >> i) & 1


@njit(cache=True, _nrt=False, inline="always")
def write_mask(rules, state, legal, out):
    """Write the action mask of the seat to act into ``out`` (``N_ACTIONS`` int8; all 0 once
    the deal is over) and its legal actions into ``legal`` (``MAX_LEGAL`` int16); return how
    many there are (jitted)."""
    for a in range(N_ACTIONS):
        out[a] = 0
    k = legal_actions(rules, state, legal)
    for i in range(k):
        out[at(legal[i])] = 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def write_rewards(rules, state, kind, out):
    """Write every seat's reward for the finished deal ``state`` into ``out`` (a row of
    ``players`` float32): ``REWARD_OUTCOME`` or ``REWARD_MARGIN`` (jitted)."""
    n = rules[R_PLAYERS]
    n_sides = rules[R_N_SIDES]
    fewest = rules[R_OBJECTIVE] == OBJECTIVE_FEWEST
    winner = state[S_WINNER]
    for seat in range(n):
        side = rules[at(R_SIDE + seat)]
        if kind == REWARD_OUTCOME:
            out[seat] = 0.0 if winner == DRAW else (1.0 if winner == side else -1.0)
        else:
            own = state[at(S_POINTS + side)]
            best = -1
            for s in range(n_sides):
                if s != side:
                    p = state[at(S_POINTS + s)]
                    if best < 0 or ((p < best) if fewest else (p > best)):
                        best = p
            out[seat] = (best - own) if fewest else (own - best)


@njit(cache=True, _nrt=False)
def _observe(rules, state, seat, obs, mask, legal):
    """:func:`encode` for ``seat``, and the action mask if it is the seat to act (else all
    0), from Python."""
    encode(rules, state, seat, obs)
    if state[S_PHASE] != PHASE_OVER and state[S_TURN] == seat:
        write_mask(rules, state, legal, mask)
    else:
        for a in range(N_ACTIONS):
            mask[a] = 0


def observe(rules_vector: np.ndarray, state: np.ndarray, seat: int) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """The observation and action mask of ``seat`` in the deal ``state`` (new arrays); the
    mask is all 0 unless the seat is to act."""
    obs = np.zeros(OBSERVATION_LEN, np.int8)
    mask = np.zeros(N_ACTIONS, np.int8)
    _observe(rules_vector, state, seat, obs, mask, np.empty(MAX_LEGAL, np.int16))
    return obs, mask


def fields(obs: np.ndarray) -> dict[str, np.ndarray]:
    """An observation (or a batch of them, the fields on the last axis) cut into its named
    fields (views)."""
    return {f.name: obs[..., f.offset:f.offset + f.size] for f in OBSERVATION.fields}

