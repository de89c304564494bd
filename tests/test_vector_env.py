"""The vectorised environment: the deals it plays are the seeded deals of the step API, its
observations are what the seat may know, and opponents play as the batch kernels do."""
import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.envs import OBSERVATION, OBSERVATION_LEN, VectorEnv, fields, observe
from briscasim.observation import PLACE_FIELDS
from briscasim.errors import IllegalAction, UserError
from briscasim.driver import play_deal
from briscasim.engine.rng import new_stream
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.simulate import Lineup
from briscasim.strategies.dispatch import decide_entry


def play_rows(env, deals_per_row, choose):
    """Step ``env`` until every row has finished ``deals_per_row`` deals; per row, the list
    of (deal index, [(seat, obs, mask, action)], rewards) of its finished deals."""
    obs, mask = env.reset()
    out = [[] for _ in range(env.num_envs)]
    current = [[] for _ in range(env.num_envs)]
    while min(len(r) for r in out) < deals_per_row:
        actions = choose(env)
        index = env.deal_index.copy()
        for i in range(env.num_envs):
            current[i].append((int(env.seat[i]), obs[i].copy(), mask[i].copy(),
                               int(actions[i])))
        obs, mask, rewards, done = env.step(actions)
        for i in np.flatnonzero(done):
            out[i].append((int(index[i]), current[i], rewards[i].copy()))
            current[i] = []
    return out


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs-signals", "brisca-3-hidden"])
def test_rows_play_the_seeded_deals_and_observe_the_seat_view(preset):
    rules = Rules.preset(preset)
    env = VectorEnv(preset, num_envs=3, seed=11)
    rows = play_rows(env, 2, lambda e: e.random_actions().copy())
    for i, row in enumerate(rows):
        assert [d[0] for d in row[:2]] == [i, i + 3]        # deal i + k * num_envs
        for index, steps, rewards in row:
            deal = Deal.from_seed(rules, 11, index)
            for seat, obs, mask, action in steps:
                assert seat == deal.turn
                want_obs, want_mask = observe(rules.to_array(), deal.state, seat)
                np.testing.assert_array_equal(obs, want_obs)
                np.testing.assert_array_equal(mask, want_mask)
                assert sorted(np.flatnonzero(mask)) == sorted(deal.legal_actions())
                deal.play(action)
            assert deal.over
            winner = deal.outcome.winner
            for s in range(rules.players):
                side = rules.side_of[s]
                want = 0.0 if winner is None else (1.0 if winner == side else -1.0)
                assert rewards[s] == want


def test_reproducible_from_the_seed():
    a = VectorEnv("brisca-2", num_envs=5, seed=3)
    b = VectorEnv("brisca-2", num_envs=5, seed=3)
    for env in (a, b):
        env.reset()
    for _ in range(100):
        oa = a.step(a.random_actions())
        ob = b.step(b.random_actions())
        for x, y in zip(oa, ob):
            np.testing.assert_array_equal(x, y)
    # another seed deals other cards
    assert not np.array_equal(VectorEnv("brisca-2", 5, seed=4).reset()[0],
                              VectorEnv("brisca-2", 5, seed=3).reset()[0])


def test_card_fields_place_every_card_in_play_once():
    env = VectorEnv("brisca-4-pairs", num_envs=8, seed=5)
    obs, _ = env.reset()
    rules = Rules.preset("brisca-4-pairs")
    for _ in range(25):
        f = fields(obs.astype(np.int64))
        places = sum(f[name] for name in PLACE_FIELDS)
        in_play = np.zeros(L.N_CARD_IDS, np.int64)
        in_play[rules.deck_ids] = 1
        assert (places == in_play).all()
        assert (f["winning"] <= f["trick"]).all()
        assert (f["hand"].sum(axis=1) <= 3).all()
        assert (f["seat"].argmax(axis=1) == env.seat).all()
        obs, *_ = env.step(env.random_actions())
    assert OBSERVATION.length == OBSERVATION_LEN
    assert "`unseen`" in OBSERVATION.table()


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs", "brisca-3-remove2",
                                    "chiamata-5"])
def test_the_trick_fields_name_its_winner_its_points_and_the_cards_that_take_it(preset):
    """With cards on the table, ``winner`` is the seat of the best card so far (counted from
    the seat), ``trick_points`` their points and ``takes`` the hand's cards that beat it: a
    higher card of its suit, or a trump over any other suit (docs/rules.md, tricks)."""
    rules = Rules.preset(preset)
    r = rules.to_array()
    points = r[L.R_CARD_POINTS:L.R_CARD_POINTS + L.N_CARD_IDS]
    strength = r[L.R_CARD_STRENGTH:L.R_CARD_STRENGTH + L.N_CARD_IDS]
    n, seen = rules.players, 0
    rng = np.random.default_rng(1)      # random bids: a Chiamata deal of passes is thrown in
    for index in range(10):
        deal = Deal.from_seed(rules, 4, index)
        while not deal.over:
            seat, trick = deal.turn, deal.current_trick
            f, _ = observe(r, deal.state, seat)
            f = fields(f)
            if trick:
                trump = deal.trump

                def beats(card, best):
                    same = card // 12 == best // 12
                    return (same and strength[card] > strength[best]) or (
                        not same and card // 12 == trump)

                best = 0
                for i in range(1, len(trick)):
                    best = i if beats(trick[i], trick[best]) else best
                winner = (seat - len(trick) + best) % n
                assert list(np.flatnonzero(f["winner"])) == [(winner - seat) % n]
                assert f["trick_points"][0] == points[trick].sum()
                assert set(np.flatnonzero(f["takes"])) == {
                    c for c in deal.hand(seat) if beats(c, trick[best])}
                seen += 1
            else:
                assert not f["winner"].any() and not f["takes"].any()
                assert f["trick_points"][0] == 0
            deal.play(rng.choice(deal.legal_actions()))
    assert seen > 100


@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs-signals", "brisca-6-threes"])
def test_observation_ignores_what_the_seat_cannot_know(preset):
    """Exchanging cards between other seats' hands and the face-down stock (keeping the
    hidden cards a partner's signals describe) leaves a seat's observation unchanged."""
    rules = Rules.preset(preset)
    r = rules.to_array()
    rng = np.random.default_rng(0)
    for index in range(20):
        deal = Deal.from_seed(rules, 2, index)
        for _ in range(int(rng.integers(0, 10))):
            deal.play(deal.legal_actions()[0])
        seat = deal.turn
        base, _ = observe(r, deal.state, seat)
        side = rules.side_of[seat]
        others = [s for s in range(rules.players) if rules.side_of[s] != side]
        state = deal.state.copy()
        slots = [L.S_HANDS + s * L.MAX_HAND + j for s in others for j in range(3)
                 if state[L.S_HANDS + s * L.MAX_HAND + j] != L.NO_CARD
                 and state[L.S_KNOWN + state[L.S_HANDS + s * L.MAX_HAND + j]] == L.KNOWN_UNSEEN]
        drawn, facedown = state[L.S_DRAWN], state[L.S_N_FACEDOWN]
        slots += [L.S_STOCK + k for k in range(drawn, facedown)]
        cards = state[slots].copy()
        rng.shuffle(cards)
        state[slots] = cards
        state[L.S_SWAP7_DECLINED] += 1
        changed, _ = observe(r, state, seat)
        np.testing.assert_array_equal(base, changed)


@pytest.mark.slow     # compiles the environment kernel with each opponent
@pytest.mark.parametrize("opponent", ["greedy", "random"])
def test_opponents_play_as_the_batch_kernels(opponent):
    """The agent at seat 0 plays greedy decisions; the deal ends as play_deal plays the
    lineup (greedy, opponent): the same cards, the same opponent streams."""
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    env = VectorEnv(rules, num_envs=4, seed=9, opponent=opponent, reward="margin")
    greedy = Lineup.build(rules, "greedy").arrays()
    seen = {}

    def choose(env):
        states = env.states()
        assert (env.seat == 0).all()
        return np.array([decide_entry(greedy, r, states[i], 0, 0, new_stream())
                         for i in range(env.num_envs)])

    for row in play_rows(env, 2, choose):
        for index, steps, rewards in row:
            seen[index] = rewards
    lineup = Lineup.build(rules, ["greedy", opponent])
    for index, rewards in seen.items():
        deal = play_deal(rules, lineup, 9, index)
        p0, p1 = deal.points
        assert rewards[0] == p0 - p1 and rewards[1] == p1 - p0


@pytest.mark.slow     # compiles the environment kernel with an opponent
def test_chiamata_against_greedy_opponents_rewards_game_points():
    env = VectorEnv("chiamata-5", num_envs=8, seed=2, opponent="greedy")
    obs, mask = env.reset()
    totals = []
    for _ in range(400):
        assert (env.seat == 0).all() and (mask.sum(axis=1) > 0).all()
        obs, mask, rewards, done = env.step(env.random_actions())
        for i in np.flatnonzero(done):
            assert rewards[i].sum() == 0.0          # game points are zero-sum
            totals.append(rewards[i].copy())
    assert len(totals) >= 8 and any(t.any() for t in totals)


@pytest.mark.slow     # compiles the environment kernel with an opponent
def test_agent_seats_and_duplicate_deals():
    env = VectorEnv("brisca-2", num_envs=6, seed=1, opponent="greedy", agent_seats=[1])
    env.reset()
    for _ in range(60):
        assert (env.seat == 1).all()
        env.step(env.random_actions())


def test_illegal_action_names_the_row_and_moves_nothing():
    env = VectorEnv("brisca-2", num_envs=3, seed=0)
    obs, mask = env.reset()
    actions = env.random_actions().copy()
    bad = next(a for a in range(48) if mask[1, a] == 0)
    actions[1] = bad
    before = env.states()
    with pytest.raises(IllegalAction, match="row 1"):
        env.step(actions)
    np.testing.assert_array_equal(before, env.states())
    with pytest.raises(UserError):
        env.step(actions[:2])
    with pytest.raises(UserError):
        VectorEnv("brisca-2", 2, opponent="greedy", agent_seats=[0, 1])
    with pytest.raises(UserError):
        VectorEnv("brisca-2", 2, reward="points")


@pytest.mark.parametrize("options,message", [
    ({"reward": ["outcome"]}, r"reward = \['outcome'\]: choose one of outcome, margin"),
    ({"opponent": "random", "agent_seats": 1}, r"agent_seats = 1: give a list of seats from 0 "
                                               r"to 1"),
    ({"opponent": "random", "agent_seats": [True]}, r"agent_seats = \[True\]"),
    ({"opponent": "random", "agent_seats": "0"}, r"agent_seats = '0'"),
    ({"opponent": 5}, r"opponent = 5: give a strategy spec")])
def test_arguments_of_the_wrong_kind_are_named(options, message):
    with pytest.raises(UserError, match=message):
        VectorEnv("brisca-2", 2, **options)


def test_an_action_past_the_int64_range_is_refused_as_given():
    env = VectorEnv("brisca-2", num_envs=2, seed=0)
    env.reset()
    before = env.states()
    with pytest.raises(IllegalAction, match=f"row 1 .*: {2 ** 63} is not an action id"):
        env.step(np.array([env.random_actions()[0], 2 ** 63], np.uint64))
    np.testing.assert_array_equal(before, env.states())


@pytest.mark.slow     # compiles the advice kernel for greedy and expert
@pytest.mark.parametrize("preset", ["brisca-2", "chiamata-5"])
def test_advice_is_the_strategy_move_from_the_seat_view(preset):
    """advice(spec) gives, in the rows asked, the move the strategy makes in the row's deal
    for the seat to act (greedy is deterministic: the very move of decide_entry), always a
    legal one; the rows not asked read -1."""
    rules = Rules.preset(preset)
    r = rules.to_array()
    env = VectorEnv(rules, num_envs=5, seed=4)
    obs, mask = env.reset()
    greedy = Lineup.build(rules, "greedy").arrays()
    asked = np.array([True, False, True, True, False])
    for _ in range(40):
        states = env.states()
        want = [decide_entry(greedy, r, states[i], int(env.seat[i]), int(env.seat[i]),
                             new_stream()) for i in range(env.num_envs)]
        got = env.advice("greedy", asked)
        assert list(got[asked]) == [w for w, a in zip(want, asked) if a]
        assert (got[~asked] == -1).all()
        expert = env.advice("expert").copy()
        assert (mask[np.arange(env.num_envs), expert] == 1).all()
        obs, mask, _, _ = env.step(expert)


def test_advice_names_its_mistakes():
    env = VectorEnv("brisca-2", num_envs=2, seed=0)
    with pytest.raises(UserError, match="reset"):
        env.advice("greedy")
    env.reset()
    with pytest.raises(UserError, match="rows must be 2 booleans"):
        env.advice("greedy", [True])
    with pytest.raises(UserError):
        env.advice("no-such-strategy")
