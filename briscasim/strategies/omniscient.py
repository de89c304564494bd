"""``omniscient (cheating reference)``: searches the TRUE deal, every hidden card included.

A cheating upper bound, not a strategy a player could use: it is handed the whole state
(every hand and the order of the stock) and searches it with the alpha-beta solver of
:mod:`briscasim.strategies.solver` (exact when at most ``exact_plies`` cards remain,
``depth`` plies deep before that). Results against it say how much hidden information costs.

Parameters (float64 slots, in order): ``depth`` (default 8), ``exact_plies`` (default 12).
"""
import numpy as np
from numba import njit

from ..engine.layout import EVERY_FEATURE
from .params import SEARCH, Param, StrategyDef
from .worlds import CHOOSE_AVERAGE, search_worlds, worlds_bytes, worlds_views
from .scratch import release, take
from .solver import copy_state

P_DEPTH, P_EXACT_PLIES = 0, 1


@njit(cache=True, _nrt=False)
def omniscient_strategy(rules, state, legal, seat, sig, params, rng, features=EVERY_FEATURE):
    """The solver's action in the true ``state`` (CHEATING: reads every hidden card; the
    partners' signals ``sig`` add nothing to it; jitted)."""
    if legal.shape[0] == 1:
        return legal[0]
    block = take(worlds_bytes())
    memory = worlds_views(block)
    copy_state(memory.base, state)      # the true state, searched as it is (not sampled)
    a = search_worlds(rules, memory, seat, 1, False, np.int64(params[P_DEPTH]),
                      np.int64(params[P_EXACT_PLIES]), CHOOSE_AVERAGE, rng, features)
    release(block)
    return a


DEFINITION = StrategyDef(
    "omniscient", 4, (
        Param("depth", int, 8, 1, 100, "plies of the depth-limited search (then to the end "
              "of the trick)"),
        Param("exact_plies", int, 12, 0, 48, "search to the end of the deal when at most "
              "this many cards remain to be played"),
    ),
    "omniscient (cheating reference): alpha-beta on the true deal, sees every hidden card",
    omniscient=True,
    test_params="depth=2,exact_plies=6",
    fn=omniscient_strategy, dispatch=SEARCH,
)
