"""The alpha-beta solver against brute-force minimax on small positions; its transposition
table across searches; the endgame solve from a seat's view."""
import numpy as np
import pytest

from briscasim.engine import core
from briscasim.engine import layout as L
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.engine.rng import new_stream
from briscasim.strategies.solver import (LEGAL_STRIDE, NO_HORIZON, WIN, endgame_action,
                                         endgame_values, new_search, position_value,
                                         remaining_plies, root_values)

pytestmark = pytest.mark.slow     # the exact solver searches whole endgames


def _legal(r, state):
    """The legal actions of ``state``, as the engine works them out."""
    out = np.zeros(L.MAX_LEGAL, np.int64)
    return out[:core.legal_actions(r, state, out)].copy()


def _brute(r, state, side):
    """Paranoid minimax by full enumeration (plain Python over the engine's step)."""
    if state[L.S_PHASE] == L.PHASE_OVER:
        return position_value(r, state, side)
    out = np.zeros(4, np.int64)
    k = core.legal_actions(r, state, out)
    vals = []
    for a in out[:k]:
        child = state.copy()
        assert core.step(r, child, a) == child[L.S_TURN]
        vals.append(_brute(r, child, side))
    mine = r[L.R_SIDE + state[L.S_TURN]] == side
    return max(vals) if mine else min(vals)


def _positions(preset, plies_left, n, seed=0):
    """Random play-outs stopped with ``plies_left`` cards left to play."""
    rules = Rules.preset(preset)
    r = rules.to_array()
    rng = np.random.default_rng(seed)
    out = []
    for d in range(200):
        deal = Deal.from_seed(rules, seed, d)
        while not deal.over and remaining_plies(r, deal.state) > plies_left:
            legal = deal.legal_actions()
            deal.play(int(legal[rng.integers(len(legal))]))
        if not deal.over and len(deal.legal_actions()) > 1:
            out.append(deal.state.copy())
        if len(out) == n:
            break
    return r, out


def _solve(r, state, horizon=NO_HORIZON, exact=48, search=None):
    actions = np.zeros(LEGAL_STRIDE, np.int64)
    values = np.zeros(LEGAL_STRIDE)
    side = r[L.R_SIDE + state[L.S_TURN]]
    k = root_values(r, state, side, horizon, exact, search or new_search(), actions, values)
    return side, actions[:k], values[:k]


@pytest.mark.parametrize("preset,plies", [("brisca-2", 6), ("brisca-2", 9),
                                          ("brisca-3-remove2", 7), ("brisca-4-pairs", 8),
                                          ("brisca-reves", 6), ("brisca-2-blackhand", 8)])
def test_exact_values_match_brute_force(preset, plies):
    r, positions = _positions(preset, plies, 6)
    assert positions
    for state in positions:
        before = state.copy()
        side, actions, values = _solve(r, state)
        assert np.array_equal(state, before)   # the searched state is never modified
        for a, v in zip(actions, values):
            child = state.copy()
            core.step(r, child, a)
            assert v == pytest.approx(_brute(r, child, side))


def _brute_limited(r, state, side, ply, horizon):
    """Depth-limited minimax by enumeration: stops at the first trick boundary ``horizon``
    plies down (or the end) and scores the margin so far."""
    if state[L.S_PHASE] == L.PHASE_OVER or (ply >= horizon and state[L.S_TRICK_N] == 0
                                            and state[L.S_PHASE] == L.PHASE_PLAY):
        return position_value(r, state, side)
    out = np.zeros(4, np.int64)
    k = core.legal_actions(r, state, out)
    vals = []
    for a in out[:k]:
        child = state.copy()
        core.step(r, child, a)
        vals.append(_brute_limited(r, child, side, ply + 1, horizon))
    return max(vals) if r[L.R_SIDE + state[L.S_TURN]] == side else min(vals)


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs"])
def test_depth_limited_search_matches_enumeration(preset):
    r, positions = _positions(preset, 26, 4, seed=3)
    for state in positions:
        side, actions, values = _solve(r, state, horizon=3, exact=0)
        for a, v in zip(actions, values):
            child = state.copy()
            core.step(r, child, a)
            assert v == pytest.approx(_brute_limited(r, child, side, 1, 3))
            assert abs(v) < WIN / 2   # the deal is far from over: margins only


@pytest.mark.parametrize("preset,plies", [("brisca-2", 12), ("brisca-4-pairs", 12)])
def test_table_reused_across_positions_keeps_values_exact(preset, plies):
    """One working memory for many searches (stale table entries, other sides to act) gives
    the values of a fresh one, and the table saves nodes on a second search of a position."""
    r, positions = _positions(preset, plies, 5, seed=7)
    shared = new_search()
    for state in positions:
        fresh = new_search()
        _, _, expected = _solve(r, state, search=fresh)
        before = shared.nodes[0]
        _, _, values = _solve(r, state, search=shared)
        assert np.array_equal(values, expected)
        again = shared.nodes[0]
        _, _, values = _solve(r, state, search=shared)
        assert np.array_equal(values, expected)
        assert shared.nodes[0] - again < again - before


def test_endgame_values_from_the_seat_view():
    """A strategy's own view solves a 2-player endgame (stock empty) like the full state, and
    declines when the stock still hides cards."""
    r, positions = _positions("brisca-2", 6, 6, seed=5)
    for k, state in enumerate(positions):
        seat = int(state[L.S_TURN])
        hand = state[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3].copy()
        actions = np.zeros(LEGAL_STRIDE, np.int64)
        values = np.zeros(LEGAL_STRIDE)
        n = endgame_values(r, state[:L.PUBLIC_LEN].copy(), hand, seat, 0, new_stream(k),
                           actions, values)
        _, expected_actions, expected = _solve(r, state)
        assert sorted(zip(actions[:n], values[:n])) == sorted(zip(expected_actions, expected))
        a = endgame_action(r, state[:L.PUBLIC_LEN].copy(), hand, seat, 0, new_stream(k))
        assert values[list(actions[:n]).index(a)] == expected.max()
    r, early = _positions("brisca-2", 30, 2, seed=5)
    for state in early:
        seat = int(state[L.S_TURN])
        hand = state[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3].copy()
        assert endgame_action(r, state[:L.PUBLIC_LEN].copy(), hand, seat, 0,
                              new_stream(0)) == L.NO_CARD
