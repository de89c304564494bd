"""``ismcts``: PLACEHOLDER, being implemented (plays like random for now)."""
from numba import njit

from .random import random_strategy


@njit(cache=True, _nrt=False)
def ismcts_strategy(rules, public, hand, seat, signals, params, rng):
    return random_strategy(rules, public, hand, seat, signals, params, rng)
