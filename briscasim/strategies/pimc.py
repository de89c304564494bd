"""``pimc``: perfect-information Monte Carlo with an exact endgame.

For each of ``worlds`` worlds sampled uniformly from those consistent with the seat's view
(:mod:`briscasim.strategies.sampling`), every legal action is searched with the alpha-beta
solver of :mod:`briscasim.strategies.solver` as if all cards were known: exactly to the end of
the deal when at most ``exact_plies`` cards remain to be played, else ``depth`` plies deep
(completed to the trick's end) with the margin taken so far as evaluation. The action is
chosen by ``average`` (highest mean value over the worlds) or ``vote`` (most worlds in which
it is best; ties by mean value).

In 2-player play once the stock is empty every card is known to both players: only one world
is consistent with the view, and it is solved exactly once.

With ``leaf_model`` (a trained network, :mod:`~.learned`'s models; trick games only) the
depth-limited search values its leaves by the network instead of the margin so far
(:mod:`~.solver`'s ``Search.leaf``).

Parameters (float64 slots, in order): ``worlds`` (1..10000, default 40), ``depth`` (plies of
the depth-limited search, default 6), ``exact_plies`` (default 10), ``choose``
(``average`` | ``vote``), ``leaf_model`` (its slot holds the weights' address, written by
:func:`bind`; ``none`` by default).
"""
import numpy as np
from numba import njit

from ..engine.layout import EVERY_FEATURE
from .learned import ModelParam, bind_leaf_model
from .params import SEARCH, Param, StrategyDef
from .worlds import sampled_move

P_WORLDS, P_DEPTH, P_EXACT_PLIES, P_CHOOSE, P_LEAF_MODEL = 0, 1, 2, 3, 4


@njit(cache=True, _nrt=False)
def pimc_strategy(rules, public, hand, legal, seat, signals, params, rng,
                  features=EVERY_FEATURE):
    """PIMC from the seat's view; see the module docstring (jitted)."""
    if legal.shape[0] == 1:
        return legal[0]
    return sampled_move(rules, public, hand, seat, signals, np.int64(params[P_WORLDS]),
                        np.int64(params[P_DEPTH]), np.int64(params[P_EXACT_PLIES]),
                        np.int64(params[P_CHOOSE]), np.int64(params[P_LEAF_MODEL]), rng,
                        features)


def bind(rules, strategy):
    """``strategy`` with the weights' address of its ``leaf_model`` for ``rules`` in its
    parameter row (:func:`~.learned.bind_leaf_model`)."""
    return bind_leaf_model(rules, strategy, P_LEAF_MODEL)


DEFINITION = StrategyDef(
    "pimc", 3, (
        Param("worlds", int, 40, 1, 10_000, "worlds sampled per move"),
        Param("depth", int, 6, 1, 100, "plies of the depth-limited search (then to the end "
              "of the trick)"),
        Param("exact_plies", int, 10, 0, 48, "search to the end of the deal when at most "
              "this many cards remain to be played"),
        Param("choose", str, "average", doc="average: best mean value over the worlds; "
              "vote: best in the most worlds", choices=("average", "vote")),
        ModelParam("leaf_model", str, "none", doc="a network valuing the depth-limited "
                   "search's leaves (trick games): a shipped model, a model file's path or "
                   "auto (the preset's own); none: the margin so far"),
    ),
    "perfect-information Monte Carlo: alpha-beta on sampled worlds, exact endgame",
    test_params="worlds=4,depth=2,exact_plies=6",
    fn=pimc_strategy, dispatch=SEARCH, bind=bind,
)
