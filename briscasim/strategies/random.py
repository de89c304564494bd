"""``random``: a uniformly random legal card; swaps with probability ``swap_prob``."""
from numba import njit

from ..engine.primitives import at
from ..engine.layout import ACTION_KEEP, ACTION_SWAP
from ..engine.rng import below, uniform
from .params import INLINE, Param, StrategyDef
from .view import swap_offered

P_SWAP_PROB = 0


@njit(cache=True, _nrt=False, inline="always")
def random_strategy(rules, public, hand, legal, seat, signals, params, rng):
    """Uniform over the legal cards; accepts a swap offer with probability
    ``params[P_SWAP_PROB]`` (jitted)."""
    if swap_offered(public):
        return ACTION_SWAP if uniform(rng) < params[P_SWAP_PROB] else ACTION_KEEP
    return legal[at(below(rng, legal.shape[0]))]


DEFINITION = StrategyDef("random", 0, (
    Param("swap_prob", float, 0.0, 0.0, 1.0, "probability of accepting a swap offer"),),
    "uniform over the cards in hand", fn=random_strategy, dispatch=INLINE, bids=True)
