"""ismcts: legal and deterministic play in every kind of game, rewards, the inference on
sampled worlds, time budget, and convergence to the exact solver's choice in small
endgames."""
import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.engine.rng import new_stream
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies import ismcts as M
from briscasim.strategies.api import N_PARAMS
from briscasim.strategies.bidding import contract_decision
from briscasim.strategies.greedy import greedy_strategy
from briscasim.strategies.solver import WIN
from test_solver import _legal, _positions, _solve

pytestmark = pytest.mark.slow     # ISMCTS plays whole deals with many iterations a move


def _params(iterations, **kw):
    p = np.zeros(N_PARAMS)
    p[M.P_ITERATIONS] = iterations
    p[M.P_EXPLORATION] = 0.7
    p[M.P_TIME_BUDGET] = kw.get("time_budget", 0.0)
    p[M.P_ROLLOUT] = kw.get("rollout", M.ROLLOUT_RANDOM)
    p[M.P_REWARD] = kw.get("reward", M.REWARD_WIN)
    p[M.P_EXACT_ENDGAME] = kw.get("exact_endgame", 0)
    p[M.P_OTHERS] = kw.get("others", M.OTHERS_TREE)
    p[M.P_INFER] = kw.get("infer", 1.0)
    return p


@pytest.mark.parametrize("preset,spec", [
    ("brisca-2", "ismcts:iterations=25"),
    ("brisca-2", "ismcts:iterations=25,others=tree,rollout=random"),
    ("brisca-3-hidden", "ismcts:iterations=25,others_epsilon=0.2,epsilon=0.1"),
    ("brisca-4-pairs-signals", "ismcts:iterations=25,reward=margin"),
    ("brisca-4-pairs-signals", "ismcts:iterations=25,others=tree"),
    ("brisca-4-pairs-signals", "ismcts:iterations=25,infer=0,own_epsilon=0.3"),
    ("brisca-5-undrawn", "ismcts:iterations=25"),
    ("brisca-6-threes", "ismcts:iterations=25"),
    ("brisca-2-blackhand", "ismcts:iterations=25"),
    ("brisca-reves", "ismcts:iterations=25,reward=margin"),
    ("chiamata-5", "ismcts:iterations=25,infer_auction=0"),
])
def test_legal_and_deterministic(preset, spec):
    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, [spec, "random"] * (rules.players // 2)
                          + ["random"] * (rules.players % 2))
    a = play_chunk(rules, lineup, 5, 0, 3, rotations=rules.players)   # raises if illegal
    b = play_chunk(rules, lineup, 5, 0, 3, rotations=rules.players)
    assert np.array_equal(a, b)


def test_side_rewards():
    rules = Rules.preset("brisca-4-pairs")
    r = rules.to_array()
    out = np.zeros(8)
    rng = np.random.default_rng(1)
    for d in range(20):
        deal = Deal.from_seed(rules, 2, d)
        while not deal.over:
            legal = deal.legal_actions()
            deal.play(int(legal[rng.integers(len(legal))]))
        p = deal.state[L.S_POINTS:L.S_POINTS + 2].astype(int)
        M.side_rewards(r, deal.state, M.REWARD_WIN, 0.0, 120, out)
        w = deal.state[L.S_WINNER]
        expect = [0.5, 0.5] if w == L.DRAW else [float(w == 0), float(w == 1)]
        assert list(out[:2]) == expect
        M.side_rewards(r, deal.state, M.REWARD_MARGIN, 0.0, 120, out)
        assert out[0] == pytest.approx(0.5 + (p[0] - p[1]) / 240)
        assert out[0] + out[1] == pytest.approx(1.0)
        M.side_rewards(r, deal.state, M.REWARD_WIN, 0.25, 120, out)
        assert out[0] == pytest.approx(0.75 * expect[0] + 0.25 * (0.5 + (p[0] - p[1]) / 240))
    assert M.deal_points(r) == 120


def test_world_weight_follows_greedy():
    """A world keeps weight 1 when greedy, holding the leader's cards, would have led the
    card it led, and ``infer`` when not."""
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    gp = np.array(M._GREEDY_DEFAULTS)
    rng = new_stream(1)
    before = np.zeros(L.STATE_LEN, np.int16)
    seen = {True: 0, False: 0}
    for d in range(20):
        deal = Deal.from_seed(rules, 3, d)
        while not deal.over:
            legal = deal.legal_actions()
            if deal.state[L.S_PHASE] == L.PHASE_PLAY and deal.state[L.S_TRICK_N] == 0 \
                    and len(legal) > 1:
                leader = deal.turn
                v = deal.view(leader)
                g = greedy_strategy(r, v.public, v.hand, np.array(legal, np.int16), leader, 0,
                                    gp, rng)
                a = int(legal[(d + deal.state[L.S_TRICK_NO]) % len(legal)])
                deal.play(a)
                w = M.world_weight(r, deal.state, deal.turn, 0.25, gp, before, rng,
                                   np.zeros(L.MAX_LEGAL, np.int16))
                assert w == (1.0 if a == g else 0.25)
                seen[a == g] += 1
            else:
                deal.play(int(legal[0]))
    assert seen[True] > 0 and seen[False] > 0


def test_auction_weight_rejects_a_world_inconsistent_with_the_bids():
    """Briscola Chiamata: the world as dealt, auctioned by greedy's bidding rule, keeps weight
    1 at any point of the play; the same world with the caller's hand swapped for another
    seat's (who passed, or bid less) weighs ``infer``."""
    rules = Rules.preset("chiamata-5")
    deal_state = np.zeros(L.STATE_LEN, np.int16)
    legal = np.zeros(L.MAX_LEGAL_ANY, np.int16)
    played = 0
    for d in range(12):
        deal = Deal.from_seed(rules, 3, d)
        while deal.state[L.S_PHASE] >= L.PHASE_AUCTION:
            v = deal.view(deal.turn)
            deal.play(int(contract_decision(deal._r, v.public, v.hand,
                                            np.array(deal.legal_actions(), np.int16))))
        if deal.over:
            continue    # everybody passed
        for _ in range(d % 17):
            deal.play(int(deal.legal_actions()[-1]))
        world = deal.state.copy()
        assert M.auction_weight(deal._r, world, 0.25, deal_state, legal) == 1.0
        caller = world[L.S_CALLER]
        a = L.S_HANDS + caller * L.MAX_HAND
        b = L.S_HANDS + (caller + 1) % rules.players * L.MAX_HAND
        world[a:a + L.MAX_HAND], world[b:b + L.MAX_HAND] = (deal.state[b:b + L.MAX_HAND],
                                                            deal.state[a:a + L.MAX_HAND])
        assert M.auction_weight(deal._r, world, 0.25, deal_state, legal) == 0.25
        played += 1
    assert played >= 8


def test_time_budget_stops_the_search():
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    deal = Deal.from_seed(rules, 1)
    v = deal.view(0)
    rng = new_stream(3)
    a, it = M.run_search(r, v.public, v.hand, 0, 0, _params(10_000_000, time_budget=0.02),
                         rng)
    assert a in deal.legal_actions()
    assert 0 < it < 10_000_000


@pytest.mark.parametrize("exact_endgame", [0, 1])
def test_endgame_choice_matches_the_solver(exact_endgame):
    """The search converges to a move as good as the solver's (win / draw / loss); with
    ``exact_endgame`` it plays the solver's move itself."""
    r, positions = _positions("brisca-2", 6, 12, seed=4)
    for k, state in enumerate(positions):
        seat = int(state[L.S_TURN])
        hand = state[L.S_HANDS + L.MAX_HAND * seat:L.S_HANDS + L.MAX_HAND * seat + 3].copy()
        rng = new_stream(k)
        a = M.ismcts_strategy(r, state[:L.PUBLIC_LEN].copy(), hand, _legal(r, state), seat, 0,
                              _params(3000 if not exact_endgame else 1,
                                      exact_endgame=exact_endgame), rng)
        _, actions, values = _solve(r, state)
        outcome = np.floor((values + WIN / 2) / WIN)   # +1 win, 0 draw, -1 loss
        assert outcome[list(actions).index(a)] == outcome.max()
        if exact_endgame:
            assert values[list(actions).index(a)] == values.max()
