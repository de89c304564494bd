"""pimc and the omniscient reference: legal, deterministic, exact in the 2-player endgame,
and the omniscient reference plays the solver's choice on the true deal."""
import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.engine.rng import new_stream
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies import omniscient as O
from briscasim.strategies import pimc as P
from briscasim.strategies.api import N_PARAMS
from briscasim.strategies.registry import REGISTRY
from test_solver import _legal, _positions, _solve

pytestmark = pytest.mark.slow     # PIMC plays whole deals, solving a sample of worlds a move


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-3-faceup", "brisca-4-pairs-signals",
                                    "brisca-6-pairs", "briscola-2-reshuffle"])
@pytest.mark.parametrize("spec", ["pimc:worlds=3,depth=2,exact_plies=5",
                                  "pimc:worlds=3,depth=1,exact_plies=4,choose=vote",
                                  "omniscient:depth=2,exact_plies=5"])
def test_legal_and_deterministic(preset, spec):
    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, [spec, "random"] * (rules.players // 2)
                          + ["random"] * (rules.players % 2))
    a = play_chunk(rules, lineup, 9, 0, 2, rotations=rules.players)
    b = play_chunk(rules, lineup, 9, 0, 2, rotations=rules.players)
    assert np.array_equal(a, b)


def _best(r, state, horizon, exact):
    _, actions, values = _solve(r, state, horizon, exact)
    return {int(a) for a, v in zip(actions, values) if v == values.max()}


def test_two_player_endgame_is_solved_exactly():
    r, positions = _positions("brisca-2", 6, 10, seed=8)
    params = np.zeros(N_PARAMS)
    params[P.P_WORLDS] = 7
    params[P.P_DEPTH] = 1
    params[P.P_EXACT_PLIES] = 0   # even so: one consistent world, solved to the end
    for k, state in enumerate(positions):
        seat = int(state[L.S_TURN])
        hand = state[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3].copy()
        a = P.pimc_strategy(r, state[:L.PUBLIC_LEN].copy(), hand, _legal(r, state), seat, 0,
                            params, new_stream(k))
        assert a in _best(r, state, 1 << 30, 48)


def test_omniscient_plays_the_solver_choice_on_the_true_deal():
    r, positions = _positions("brisca-2", 24, 6, seed=2)
    params = np.zeros(N_PARAMS)
    params[O.P_DEPTH] = 4
    params[O.P_EXACT_PLIES] = 8
    for k, state in enumerate(positions):
        a = O.omniscient_strategy(r, state.copy(), _legal(r, state), int(state[L.S_TURN]), 0,
                                  params, new_stream(k))
        assert a in _best(r, state, 4, 8)


def test_omniscient_is_labelled_as_cheating():
    d = REGISTRY["omniscient"]
    assert d.omniscient and "cheating" in d.doc
    assert "CHEATING" in O.omniscient_strategy.__doc__
