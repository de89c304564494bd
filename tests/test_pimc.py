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
                                  "pimc:worlds=2,depth=2,exact_plies=4,leaf_model=auto",
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


def test_a_network_values_the_leaves_of_the_depth_limited_search():
    """With a network's weights in Search.leaf, a leaf at the horizon is worth WIN times its
    chance for the seat to move (mapped to -1..1), for that seat's side, the negation for the
    other; a finished deal keeps its exact value; without, the margin so far."""
    from briscasim.game import Deal
    from briscasim.strategies.learned import model_for
    from briscasim.strategies.network import position_chance
    from briscasim.strategies.solver import WIN, alphabeta, new_search, point_margin, team_of
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    address = model_for(rules, "auto").weights.ctypes.data
    deal = Deal.from_seed(rules, 4, 2)
    checked = 0
    while not deal.over:
        st = deal.state
        if deal.phase == "play" and st[L.S_TRICK_N] == 0:
            for side in (0, 1):
                search = new_search()
                search.stack[:L.STATE_LEN] = st
                assert alphabeta(r, search, side, 0) == point_margin(r, st, side)
                search.leaf[0] = address
                c = 2 * position_chance(r, st, address) - 1
                mine = team_of(r, st, st[L.S_TURN]) == side
                assert alphabeta(r, search, side, 0) == pytest.approx(WIN * (c if mine else -c))
            checked += 1
        deal.play(int(deal.legal_actions()[0]))
    assert checked >= 19


def test_pimc_refuses_a_leaf_model_in_briscola_chiamata():
    from briscasim.strategies.params import StrategyError
    with pytest.raises(StrategyError, match="pimc leaf_model: the network values the leaves "
                       "of trick games only"):
        Lineup.build(Rules.preset("chiamata-5"), "pimc:leaf_model=auto")
