"""A learned evaluation of a deal in progress: the chance that a side wins it.

A search that samples worlds sees every card of a world. Where it would play a leaf out to
the end, one noisy sample of the deal's outcome, ``ismcts`` may instead read (or mix in) this
evaluation. It is a logistic model, with weights of its own for every number of tricks left,
over features of the full state from one side's view (:func:`state_features`): the points
taken, the trick on the table, the cards of every hand, the stock and who is to play. The
weights (:mod:`.evaluation_weights`) are fitted by ``scripts/train_evaluation.py`` to the
outcomes of the play-outs ``ismcts`` runs by default (the side evaluated greedy, the other
side greedy with half its decisions random) from positions of brisca-2 deals: the evaluation
estimates what those play-outs return on average, without their noise. ``ismcts`` reads it
in 2-player deals with a trump, no duty to follow suit and the most points winning, the game
it was fitted to; docs/strength.md has how well it fits and what it is worth in play.
"""
import math

from numba import njit

from ..engine.core import trick_so_far
from ..engine.primitives import card_points, card_strength, card_suit, hand_of
from ..engine.layout import (NO_CARD, R_DECK_N, R_PLAYERS, R_SIDE, S_DRAWN, S_FACEDOWN_TO_DRAW,
                             S_FACE_UP, S_LEADER, S_N_TRICKS, S_POINTS, S_STOCK, S_TO_DRAW,
                             S_TRICK_N, S_TRICK_NO, S_TRUMP, S_TURN)
from .evaluation_weights import WEIGHTS

FEATURE_NAMES = (
    "bias", "own points", "other points", "trick on the table", "own hand points",
    "other hand points", "own trumps", "other trumps", "own trump strength",
    "other trump strength", "stock points", "stock trumps", "own turn",
    "share of the deck to draw", "own plain aces and threes", "other plain aces and threes",
    "own points past half", "other points past half", "margin over the points left",
    "own hand points x trick on the table")
N_FEATURES = len(FEATURE_NAMES)
N_STAGES = 25          # tricks left: 0 .. 24 (48 cards between 2 players)


@njit(cache=True, _nrt=False)
def state_features(rules, state, side, total, out):
    """Write the :data:`FEATURE_NAMES` of the full ``state`` from ``side``'s view into ``out``
    (float64, ``N_FEATURES``); ``total`` is the deal's card points. Return the stage: the
    tricks left, at most ``N_STAGES - 1`` (jitted)."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    trump = state[S_TRUMP]
    n = rules[R_PLAYERS]
    scale = 1.0 / total
    own = state[S_POINTS + side]
    other = 0
    for x in range(n):
        s = rules[R_SIDE + x]
        if s != side and state[S_POINTS + s] > other:
            other = state[S_POINTS + s]
    out[0] = 1.0
    out[1] = own * scale
    out[2] = other * scale
    if state[S_TRICK_N] > 0:
        i, _, pts = trick_so_far(rules, state)
        winner = (state[S_LEADER] + i) % n
        out[3] = pts * scale if rules[R_SIDE + winner] == side else -pts * scale
    for x in range(n):
        o = 0 if rules[R_SIDE + x] == side else 1
        for c in hand_of(rules, state, x):
            if c == NO_CARD:
                continue
            p = card_points(rules, c)
            out[4 + o] += p * scale
            if card_suit(rules, c) == trump:
                out[6 + o] += 1.0 / 3.0
                out[8 + o] += (card_strength(rules, c) + 1) / 30.0
            elif p >= 10:
                out[14 + o] += 1.0 / 3.0
    # the cards left to draw: the face-down stock, then the face-up card if still on the table
    drawn = state[S_DRAWN]
    facedown = state[S_FACEDOWN_TO_DRAW]
    face_up_left = state[S_TO_DRAW] > facedown - drawn and state[S_FACE_UP] >= 0
    for i in range(drawn, facedown + (1 if face_up_left else 0)):
        c = state[S_STOCK + i] if i < facedown else state[S_FACE_UP]
        out[10] += card_points(rules, c) * scale
        out[11] += 0.1 if card_suit(rules, c) == trump else 0.0
    out[12] = 1.0 if rules[R_SIDE + state[S_TURN]] == side else -1.0
    out[13] = state[S_TO_DRAW] / rules[R_DECK_N]
    half = 0.5 * total
    out[16] = 1.0 if own > half else 0.0
    out[17] = 1.0 if other > half else 0.0
    out[18] = (own - other) / (total - own - other + 10.0)
    out[19] = out[4] * out[3]
    return min(state[S_N_TRICKS] - state[S_TRICK_NO], N_STAGES - 1)


@njit(cache=True, _nrt=False)
def win_chance(rules, state, side, total, scratch):
    """The evaluation: the chance that ``side`` wins the deal in progress ``state`` (a full
    state), draws counting half; ``scratch`` holds ``N_FEATURES`` float64 (jitted)."""
    stage = state_features(rules, state, side, total, scratch)
    z = 0.0
    for i in range(N_FEATURES):
        z += WEIGHTS[stage, i] * scratch[i]
    return 1.0 / (1.0 + math.exp(-z))

