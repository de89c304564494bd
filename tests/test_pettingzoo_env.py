"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every preset, and
deals, observations and rewards as the engine plays them."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from briscasim.envs import observe, pettingzoo_env  # noqa: E402
from briscasim.errors import IllegalAction, UserError  # noqa: E402
from briscasim.game import Deal  # noqa: E402
from briscasim.rules import PRESETS, Rules  # noqa: E402


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pettingzoo_api_test(preset):
    api_test(pettingzoo_env(preset), num_cycles=200)   # a match preset deal by deal


def test_pettingzoo_seed_test():
    seed_test(lambda: pettingzoo_env("brisca-4-pairs-signals"), num_cycles=50)


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
    with pytest.raises(ValueError, match="players"):
        pettingzoo_env("brisca-2", players=7)
