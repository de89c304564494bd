"""One cached dispatcher from a seat's strategy ids to its decision."""
from numba import njit

from ..engine.core import at, signals
from ..engine.layout import HAND_SIZE, PHASE_SWAP, PUBLIC_LEN, R_SIGNALS, S_HANDS, S_PHASE
from .api import (KIND_GREEDY, KIND_ISMCTS, KIND_OMNISCIENT, KIND_PIMC, KIND_RANDOM,
                  SWAP_BY_PLAY)
from .greedy import greedy_strategy
from .ismcts import ismcts_strategy
from .omniscient import omniscient_strategy
from .pimc import pimc_strategy
from .random import random_strategy
from .swap import swap_decision


@njit(cache=True, _nrt=False, inline="always")
def decide(kinds, params, user_fn, rules, state, seat, entry, rng):
    """The action of ``seat``'s strategy in ``state`` (jitted).

    ``entry`` is the seat's place in the lineup: ``kinds[entry, 0]`` is its play strategy
    (``KIND_*``), ``kinds[entry, 1]`` its swap policy (``SWAP_*``), ``params[entry, 0]`` and
    ``params[entry, 1]`` their parameters.
    ``user_fn`` is the user strategy (``KIND_USER``). Every strategy but the omniscient
    reference receives only the seat's view: the public state and its own hand.
    """
    hand = state[S_HANDS + seat * HAND_SIZE:S_HANDS + (seat + 1) * HAND_SIZE]
    return decide_view(kinds, params, user_fn, rules, state, state[:PUBLIC_LEN], hand, seat,
                       entry, rng)


@njit(cache=True, _nrt=False, inline="always")
def decide_view(kinds, params, user_fn, rules, state, public, hand, seat, entry, rng):
    """:func:`decide` with the seat's view already cut: ``public`` is ``state[:PUBLIC_LEN]``
    and ``hand`` the seat's slots (the batch loop makes these views once per deal, not
    once per decision) (jitted)."""
    sig = signals(rules, state, seat) if rules[R_SIGNALS] != 0 else 0
    e = at(entry)
    if state[S_PHASE] == PHASE_SWAP and kinds[e, 1] != SWAP_BY_PLAY:
        return swap_decision(kinds[e, 1], params[e, 1], rules, public, hand, seat, sig, rng)
    kind = kinds[e, 0]
    p = params[e, 0]
    if kind == KIND_RANDOM:
        return random_strategy(rules, public, hand, seat, sig, p, rng)
    if kind == KIND_GREEDY:
        return greedy_strategy(rules, public, hand, seat, sig, p, rng)
    if kind == KIND_ISMCTS:
        return ismcts_strategy(rules, public, hand, seat, sig, p, rng)
    if kind == KIND_PIMC:
        return pimc_strategy(rules, public, hand, seat, sig, p, rng)
    if kind == KIND_OMNISCIENT:
        return omniscient_strategy(rules, state, seat, p, rng)
    return user_fn(rules, public, hand, seat, sig, p, rng)
