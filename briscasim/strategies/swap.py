"""Swap policies: PLACEHOLDER, being implemented."""
from numba import njit

from ..engine.layout import ACTION_KEEP, ACTION_SWAP
from .api import SWAP_IMMEDIATE


@njit(cache=True, _nrt=False)
def swap_decision(kind, params, rules, public, hand, seat, signals, rng):
    return ACTION_SWAP if kind == SWAP_IMMEDIATE else ACTION_KEEP
