"""A user's own strategy module, as the registry tests import it (``user_strategies:...``)."""
import numpy as np
from numba import njit

from briscasim.engine.layout import (ACTION_KEEP, ACTION_SWAP, HAND_SIZE, NO_CARD, PHASE_SWAP,
                                     S_PHASE)
from briscasim.strategies.api import STRATEGY_SIGNATURE
from briscasim.strategies.params import Param

STRATEGY_PARAMS = {"first_card": (Param("swap", bool, True, doc="accept swap offers"),)}


@njit(STRATEGY_SIGNATURE, cache=True)
def first_card(rules, public, hand, seat, signals, params, rng):
    """Plays the first card of its hand; swaps when ``swap`` is set."""
    if public[S_PHASE] == PHASE_SWAP:
        return ACTION_SWAP if params[0] != 0 else ACTION_KEEP
    for i in range(HAND_SIZE):
        if hand[i] != NO_CARD:
            return np.int64(hand[i])
    return np.int64(NO_CARD)


@njit
def lazy_last_card(rules, public, hand, seat, signals, params, rng):
    """Lazily jitted: compiles for the strategy signature when named."""
    if public[S_PHASE] == PHASE_SWAP:
        return np.int64(ACTION_KEEP)
    for i in range(HAND_SIZE - 1, -1, -1):
        if hand[i] != NO_CARD:
            return np.int64(hand[i])
    return np.int64(NO_CARD)


@njit("int64(int16[::1])")
def wrong_signature(hand):
    return hand[0]


@njit
def returns_int16(rules, public, hand, seat, signals, params, rng):
    return hand[0]


def python_lowest(view, params, rng):
    """A prototype: the lowest card id, or keep."""
    return "keep" if view.phase == "swap" else min(view.legal)


NOT_A_FUNCTION = 3
