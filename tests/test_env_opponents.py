"""Built-in strategies as opponents in the PettingZoo and OpenSpiel environments: their moves
are legal, from the seat's streams of the deal (a strategy at every seat plays the deal
``play_deal`` plays), a whole OpenSpiel game through ``evaluate_bots``, and bad specs
refused by name."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots as python_bots  # noqa: E402

from briscasim.driver import LineupPlayers, play_deal  # noqa: E402
from briscasim.envs import pettingzoo_env, register_openspiel  # noqa: E402
from briscasim.envs.openspiel import StrategyBot  # noqa: E402
from briscasim.errors import UserError  # noqa: E402
from briscasim.game import Deal  # noqa: E402
from briscasim.lineup import Lineup  # noqa: E402
from briscasim.strategies.registry import register_strategy, unregister_strategy  # noqa: E402

PRESETS = ["brisca-2", "chiamata-5"]
STRATEGIES = ["greedy", "random", "learned", "ismcts:iterations=50"]
"""Deterministic ones (greedy, the learned player) and ones that draw from their streams (random,
a search)."""


def _game(preset):
    register_openspiel()
    return pyspiel.load_game("briscasim", {"preset": preset})


@pytest.mark.slow       # compiles the dispatcher, the learned player's slot and the search
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("spec", STRATEGIES)
def test_advice_at_every_seat_plays_the_deal_play_deal_plays(preset, spec):
    """Every move advised is legal, and the strategy advising every seat plays deal
    ``deal_index`` of the seed as ``play_deal`` does, deal after deal and again after a
    seeded reset."""
    env = pettingzoo_env(preset, seed=5)
    played = []
    for seed in (5, None, None, 5):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            action = None if terminated else env.advice(spec)
            assert action is None or obs["action_mask"][action] == 1
            env.step(action)
        want = play_deal(env.rules, Lineup.build(env.rules, spec), 5, env.deal_index)
        assert env.deal.actions == want.actions
        played.append(env.deal.actions)
    assert played[0] == played[3] and played[0] != played[1]


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_a_learner_against_the_learned_player(preset):
    """A learner (uniformly random legal moves) at player_0, ``learned`` at the others: every
    move is legal and the deal ends with a reward to every seat."""
    env = pettingzoo_env(preset, seed=2)
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.reset()
        for agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            mask = obs["action_mask"]
            action = (None if terminated else env.advice("learned") if agent != "player_0"
                      else int(rng.choice(np.flatnonzero(mask))))
            assert action is None or mask[action] == 1
            env.step(action)
        assert env.deal.over and not env.agents


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_strategy_bots_play_legal_moves_from_their_seats_streams(preset):
    """A bot at every seat plays legal moves; in the ``k``-th game since it was made its
    seat decides with the seat's stream of deal ``k`` under its seed, so a game is the
    driver's deal of the cards chance dealt."""
    game = _game(preset)
    n = game.num_players()
    bots = [StrategyBot(game, p, "random", seed=9) for p in range(n)]
    rng = np.random.default_rng(1)
    for k in range(2):
        state = game.new_initial_state()
        for bot in bots:
            bot.restart_at(state)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [c for c, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(outcomes)))
                continue
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        seats = LineupPlayers(Lineup.build(game.rules, "random"), 9, k, 0, 0, n)
        assert state.deal.actions == Deal(game.rules, state.deck).play_out(seats).actions


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_evaluate_bots_plays_learned_against_uniform_random(preset):
    """OpenSpiel's evaluate_bots (C++ and Python) plays whole games, the deal included; the
    returns are a side's +1 / -1 (0 each in a draw), in Briscola Chiamata game points
    summing to the game's utility sum."""
    game = _game(preset)
    n = game.num_players()
    for seed in range(3):
        bots = [StrategyBot(game, 0, "learned", seed=seed)] + [
            pyspiel.make_uniform_random_bot(p, seed) for p in range(1, n)]
        for returns in (pyspiel.evaluate_bots(game.new_initial_state(), bots, seed),
                        python_bots.evaluate_bots(game.new_initial_state(), bots,
                                                  np.random.RandomState(seed))):
            assert len(returns) == n
            if game.rules.chiamata:
                assert sum(returns) == game.utility_sum() == 0
            else:
                assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_bad_strategies_are_refused_by_name():
    env = pettingzoo_env("brisca-2")
    game = _game("brisca-2")
    with pytest.raises(UserError, match="advice.*reset"):
        env.advice("greedy")
    env.reset()
    with pytest.raises(UserError, match="no-such-strategy"):
        env.advice("no-such-strategy")
    with pytest.raises(UserError, match="greedy: unknown parameter 'depth'"):
        env.advice("greedy:depth=3")
    with pytest.raises(UserError, match="give a strategy spec"):
        env.advice(["greedy"])
    with pytest.raises(UserError, match="no-such-strategy"):
        StrategyBot(game, 0, "no-such-strategy")
    with pytest.raises(UserError, match="players of this game are 0 to 1"):
        StrategyBot(game, 2, "greedy")
    register_strategy("lowest_proto", lambda view, params, rng: min(view.legal))
    try:
        with pytest.raises(UserError, match="'lowest_proto' is a prototype"):
            env.advice("lowest_proto")
        with pytest.raises(UserError, match="'lowest_proto' is a prototype"):
            StrategyBot(game, 0, "lowest_proto")
    finally:
        unregister_strategy("lowest_proto")


def test_a_move_is_asked_only_where_there_is_one():
    env = pettingzoo_env("brisca-2", seed=1)
    env.reset()
    while not env.deal.over:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(UserError, match="after the deal is over"):
        env.advice("greedy")
    game = _game("brisca-2")
    bot = StrategyBot(game, 1, "greedy")
    with pytest.raises(UserError, match="player 1 asked to act where the player to act is "
                                        f"{pyspiel.PlayerId.CHANCE}"):
        bot.step(game.new_initial_state())
