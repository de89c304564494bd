"""The PettingZoo AEC environment: PettingZoo's own API test for every preset, its API, seed
and render tests over seeds for one preset of each kind, the AEC contract at the edges
(before reset, after the deal, the actions it takes), the global state, and deals,
observations and rewards as the engine plays them."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from briscasim.envs import observe, pettingzoo_env  # noqa: E402
from briscasim.errors import IllegalAction, UserError  # noqa: E402
from briscasim.game import Deal  # noqa: E402
from briscasim.rules import PRESETS, Rules  # noqa: E402


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pettingzoo_api_test(preset):
    api_test(pettingzoo_env(preset), num_cycles=200)   # a match preset deal by deal


def test_pettingzoo_seed_test():
    seed_test(lambda: pettingzoo_env("brisca-4-pairs-signals"), num_cycles=50)


KINDS = ["brisca-2", "brisca-4-pairs", "brisca-3-faceup", "chiamata-5"]
"""One preset of each kind: two players, partners, a face-up card left over, an auction."""


@pytest.mark.parametrize("preset", KINDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pettingzoo_api_seed_and_render_tests_over_seeds(preset, seed):
    env = pettingzoo_env(preset, seed=seed)
    env.action_space("player_0").seed(seed)       # the agents' actions, sampled
    api_test(env, num_cycles=60)
    seed_test(lambda: pettingzoo_env(preset, seed=seed), num_cycles=20)
    render_test(lambda render_mode=None: pettingzoo_env(preset, seed=seed,
                                                       render_mode=render_mode))


@pytest.mark.parametrize("preset", KINDS)
def test_the_global_state_is_every_seats_observation(preset):
    env = pettingzoo_env(preset, seed=4)
    env.reset()
    n = env.rules.players
    for agent in env.agent_iter():
        state = env.state()
        assert env.state_space.contains(state)
        views = [env.observe(a)["observation"] for a in env.possible_agents]
        np.testing.assert_array_equal(state, np.concatenate(views))
        hands = state.reshape(n, -1)[:, :48]
        assert all(sorted(np.flatnonzero(hands[s])) == sorted(env.deal.hand(s))
                   for s in range(n))
        obs, _, terminated, _, _ = env.last()
        env.step(None if terminated else
                 int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.state_space.contains(env.state())


def test_calls_before_reset_are_refused_with_what_to_do():
    env = pettingzoo_env("brisca-2")
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.state, env.last,
                 env.agent_iter):
        with pytest.raises(UserError, match=r"needs a deal: call env.reset\(\) first"):
            call()
    env.reset()
    env.close()
    with pytest.raises(UserError, match="call env.reset"):
        env.step(0)


def test_after_the_deal_a_terminated_agent_steps_only_with_none():
    env = pettingzoo_env("brisca-2", seed=2)
    env.reset()
    while not env.deal.over:
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert all(env.terminations.values())
    first = env.agent_selection
    with pytest.raises(IllegalAction, match=f"{first} is terminated.*step\\(None\\)"):
        env.step(0)
    assert env.agent_selection == first and first in env.agents   # nothing changed
    env.step(None)
    assert first not in env.agents and len(env.agents) == 1
    env.step(None)
    assert env.agents == []
    for action in (None, 0):
        with pytest.raises(UserError, match=r"every agent has been removed: call "
                                            r"env.reset\(\)"):
            env.step(action)
    env.reset()
    assert len(env.agents) == 2 and env.deal_index == 1


@pytest.mark.parametrize("action", [1.5, 1.0, True, False, np.bool_(True), "Ao", None,
                                    np.array([3]), np.float32(2)])
def test_only_whole_number_actions_are_taken(action):
    env = pettingzoo_env("brisca-2", seed=1)
    env.reset()
    before = list(env.deal.actions)
    with pytest.raises(IllegalAction, match="an action is a whole number"):
        env.step(action)
    assert env.deal.actions == before


def test_python_and_numpy_integers_are_actions():
    for kind in (int, np.int8, np.int16, np.int32, np.int64, np.uint8):
        env = pettingzoo_env("brisca-2", seed=1)
        env.reset()
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(kind(legal[0]))
        assert env.deal.actions == [int(legal[0])]


def test_unknown_agents_are_named():
    env = pettingzoo_env("brisca-2")
    env.reset()
    for call in (env.observe, env.action_space, env.observation_space):
        with pytest.raises(UserError, match=r"agent 'player_2' is not one of this "
                                            r"environment's agents \(player_0 \.\. player_1\)"):
            call("player_2")


def play(env, choose):
    """Play one deal of ``env`` (reset already): the actions, and each agent's final
    reward from last()."""
    actions, final = [], {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        a = choose(obs)
        actions.append(a)
        env.step(a)
    return actions, final


@pytest.mark.parametrize("preset,reward", [("brisca-2", "outcome"),
                                           ("brisca-6-threes", "outcome"),
                                           ("brisca-reves", "margin")])
def test_deals_observations_and_rewards_follow_the_engine(preset, reward):
    rules = Rules.preset(preset)
    env = pettingzoo_env(preset, seed=5, reward=reward)
    rng = np.random.default_rng(1)
    for k in range(3):
        env.reset(seed=5) if k == 0 else env.reset()
        assert env.deal_index == k
        deal = Deal.from_seed(rules, 5, k)

        def choose(obs):
            seat = deal.turn
            want_obs, want_mask = observe(rules.to_array(), deal.state, seat)
            np.testing.assert_array_equal(obs["observation"], want_obs)
            np.testing.assert_array_equal(obs["action_mask"], want_mask)
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            deal.play(a)
            return a

        actions, final = play(env, choose)
        assert deal.over and len(final) == rules.players
        points, winner = deal.points, deal.outcome.winner
        for s in range(rules.players):
            side = rules.side_of[s]
            if reward == "outcome":
                want = 0.0 if winner is None else (1.0 if winner == side else -1.0)
            else:        # fewest points wins: the margin is the best other side's minus ours
                want = min(p for i, p in enumerate(points) if i != side) - points[side]
            assert final[f"player_{s}"] == want


def test_a_seat_not_to_act_sees_no_legal_action_and_no_other_hand():
    env = pettingzoo_env("brisca-2", seed=3)
    env.reset()
    other = [a for a in env.agents if a != env.agent_selection][0]
    obs = env.observe(other)
    assert obs["action_mask"].sum() == 0
    seat = int(other.split("_")[1])
    hand = np.flatnonzero(obs["observation"][:48])
    assert sorted(hand) == sorted(env.deal.hand(seat))


def test_bad_input():
    env = pettingzoo_env("brisca-2")
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(UserError):
        pettingzoo_env("brisca-2", reward="points")
    with pytest.raises(UserError, match=r"reward = \['margin'\]: choose one of"):
        pettingzoo_env("brisca-2", reward=["margin"])
    with pytest.raises(ValueError, match="players"):
        pettingzoo_env("brisca-2", players=7)
