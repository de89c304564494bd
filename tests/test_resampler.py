"""ismcts with a resampler of one's own (the hook of :mod:`briscasim.strategies.inference`)."""
import numpy as np
import pytest
from numba import njit

from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies.inference import draw_world
from briscasim.strategies.ismcts import DEFINITION, with_resampler
from briscasim.strategies.registry import register_strategy, unregister_strategy
from briscasim.strategies.sampling import sample_world

pytestmark = pytest.mark.slow     # compiles the search for each resampler

RULES = Rules.preset("brisca-2")


@njit(cache=True, _nrt=False)
def uniform_worlds(rules, ws, infer, observed, infer_auction, draws, rng, features):
    """Every world consistent with the seat's view equally likely: no inference."""
    sample_world(ws.base, ws.spec, rng, ws.world)


def _records(spec, resample=None):
    if resample is not None:
        register_strategy("resampled", with_resampler(resample), DEFINITION.params)
    try:
        lineup = Lineup.build(RULES, [spec, "greedy"])
        return play_chunk(RULES, lineup, 3, 0, 12, 2)
    finally:
        if resample is not None:
            unregister_strategy("resampled")


def test_the_inference_through_the_hook_plays_as_ismcts():
    np.testing.assert_array_equal(_records("resampled:iterations=30", draw_world),
                                  _records("ismcts:iterations=30"))


def test_a_resampler_of_ones_own_is_the_one_searched_with():
    ours = _records("resampled:iterations=30", uniform_worlds)
    assert not np.array_equal(ours, _records("ismcts:iterations=30"))
