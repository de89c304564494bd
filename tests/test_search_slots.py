"""The search slot without rule features: a classic preset's run takes it, and it decides as
the slot of every feature. In a file of its own, so that its compile runs on another worker
than test_ismcts.py's."""
import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.jit import function_slot
from briscasim.rules import Rules
from briscasim.simulate import Lineup, needed_features, play_chunk
from briscasim.strategies import dispatch

pytestmark = pytest.mark.slow     # compiles the search slot without rule features


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs"])
def test_search_without_rule_features_plays_the_same(preset):
    """A run of a classic preset needs no rule features: its search slot compiles without
    their code (dispatch.search_features) and decides exactly as the slot of every feature."""
    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, ["ismcts:iterations=40", "greedy", "pimc:worlds=3,depth=2",
                                  "omniscient:depth=2"][:rules.players])
    every = play_chunk(rules, lineup, 7, 0, 2, rotations=rules.players)
    # a run takes the slot without features once it is compiled (or cached)
    function_slot(dispatch.search_decider(0), dispatch.SEARCH_SIGNATURE)
    assert dispatch.search_features(L.F_PLAYS) == 0
    none = play_chunk(rules, lineup, 7, 0, 2, rotations=rules.players, features=L.F_PLAYS)
    assert needed_features(rules, lineup) == L.F_PLAYS
    assert np.array_equal(every, none)
