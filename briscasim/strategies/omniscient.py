"""``omniscient``: PLACEHOLDER, being implemented. A cheating reference: sees the whole state."""
from numba import njit

from ..engine.layout import HAND_SIZE, PUBLIC_LEN, S_HANDS
from .random import random_strategy


@njit(cache=True, _nrt=False)
def omniscient_strategy(rules, state, seat, params, rng):
    hand = state[S_HANDS + seat * HAND_SIZE:S_HANDS + (seat + 1) * HAND_SIZE]
    return random_strategy(rules, state[:PUBLIC_LEN], hand, seat, 0, params, rng)
