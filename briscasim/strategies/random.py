"""``random``: a uniformly random legal card; swaps with probability ``swap_prob``."""
from numba import njit

from ..engine.core import at
from ..engine.layout import ACTION_KEEP, ACTION_SWAP, HAND_SIZE, NO_CARD, PHASE_SWAP, S_PHASE
from ..engine.rng import below, uniform

P_SWAP_PROB = 0


@njit(cache=True, _nrt=False, inline="always")
def random_strategy(rules, public, hand, seat, signals, params, rng):
    """Uniform over the cards in hand; accepts a swap offer with probability
    ``params[P_SWAP_PROB]`` (jitted)."""
    if public[S_PHASE] == PHASE_SWAP:
        return ACTION_SWAP if uniform(rng) < params[P_SWAP_PROB] else ACTION_KEEP
    k = 0
    for i in range(HAND_SIZE):
        k += hand[i] != NO_CARD
    j = below(rng, k)
    if k == HAND_SIZE:
        return hand[at(j)]  # a full hand (most turns): no search, no unpredictable branch
    for i in range(HAND_SIZE):
        if hand[i] != NO_CARD:
            if j == 0:
                return hand[i]
            j -= 1
    return NO_CARD
