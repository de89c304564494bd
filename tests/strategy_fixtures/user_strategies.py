"""A user's own strategy module, as the registry tests import it (``user_strategies:...``)."""
import numpy as np
from numba import njit

from briscasim.engine.layout import ACTION_KEEP, ACTION_SWAP
from briscasim.strategies import view as V
from briscasim.strategies.api import STRATEGY_SIGNATURE
from briscasim.strategies.params import Param

STRATEGY_PARAMS = {"first_card": (Param("swap", bool, True, doc="accept swap offers"),)}


@njit(STRATEGY_SIGNATURE, cache=True)
def first_card(rules, public, hand, legal, seat, signals, params, rng):
    """Plays the first legal card; swaps when ``swap`` is set."""
    if V.swap_offered(public):
        return ACTION_SWAP if params[0] != 0 else ACTION_KEEP
    return legal[0]


@njit(STRATEGY_SIGNATURE, cache=True)
def nth_card(rules, public, hand, legal, seat, signals, params, rng):
    """Plays legal action ``params[0]`` (modulo their number)."""
    return legal[np.int64(params[0]) % legal.shape[0]]


@njit
def lazy_last_card(rules, public, hand, legal, seat, signals, params, rng):
    """Lazily jitted: compiles for the strategy signature when named."""
    if V.swap_offered(public):
        return np.int64(ACTION_KEEP)
    return legal[len(legal) - 1]


@njit("int64(int16[::1])")
def wrong_signature(hand):
    return hand[0]


@njit
def returns_int16(rules, public, hand, legal, seat, signals, params, rng):
    return hand[0]


def python_lowest(view, params, rng):
    """A prototype: the lowest card id, or keep."""
    return "keep" if view.phase == "swap" else min(view.legal)


NOT_A_FUNCTION = 3


@njit(STRATEGY_SIGNATURE, cache=True)
def illegal_in_trick_5(rules, public, hand, legal, seat, signals, params, rng):
    """Plays its first legal card, but in the fifth trick a card it does not hold."""
    if V.swap_offered(public):
        return np.int64(ACTION_KEEP)
    if V.trick_no(public) == 4:
        for c in range(48):
            if V.played(public, c):
                return np.int64(c)
    return legal[0]


@njit(STRATEGY_SIGNATURE, cache=True)
def raises_in_trick_3(rules, public, hand, legal, seat, signals, params, rng):
    """Plays its first legal card, but raises in the third trick."""
    if V.trick_no(public) == 2:
        raise ValueError("no idea what to play")
    return legal[0]
