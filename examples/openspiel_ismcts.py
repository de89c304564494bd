"""OpenSpiel's ISMCTS bot against briscasim's strategies, on duplicate deals.

The game is briscasim's OpenSpiel game (``briscasim.envs.register_openspiel``); OpenSpiel's
own ISMCTS bot (``open_spiel.python.algorithms.ismcts``, random rollouts) plays one seat and
a briscasim strategy the other, through the same :class:`~briscasim.driver.LineupPlayers`
that replays use. Every deal is played twice with the same cards, the seats swapped; the
bot's score is (wins + draws/2) / deals, with a 95% interval over the deal pairs.

    pip install -e '.[rl]'
    python examples/openspiel_ismcts.py --pairs 100 --simulations 100 --opponent greedy
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from briscasim.driver import LineupPlayers
from briscasim.envs import register_openspiel
from briscasim.game import seeded_deck
from briscasim.simulate import Lineup


def play_pair(game, bot, lineup, seed: int, item: int, rng) -> float:
    """The bot's mean score over deal ``item`` played twice, from seat 0 then seat 1."""
    rules = game.rules
    deck = seeded_deck(rules.to_array(), seed, item).tolist()
    scores = []
    for bot_seat in (0, 1):
        # the strategy plays lineup entry 1 - bot_seat, with the seat streams of a replay
        players = LineupPlayers(lineup, seed, item, 0, bot_seat, 2)
        state = game.new_initial_state()
        for card in deck:
            state.apply_action(card)
        while not state.is_terminal():
            if state.current_player() == bot_seat:
                action = bot.step(state)
            else:
                action = players(state.deal)
            state.apply_action(int(action))
        scores.append((state.returns()[bot_seat] + 1) / 2)
    return sum(scores) / 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="brisca-2", help="a two-player preset")
    ap.add_argument("--opponent", action="append",
                    help="briscasim strategies (repeatable; default: random greedy ismcts)")
    ap.add_argument("--pairs", type=int, default=100, help="duplicate deal pairs")
    ap.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations a move")
    ap.add_argument("--uct-c", type=float, default=2.0, help="ISMCTS exploration constant")
    ap.add_argument("--seed", type=int, default=1, help="seed of the deals")
    args = ap.parse_args()

    register_openspiel()
    game = pyspiel.load_game("briscasim", {"preset": args.preset})
    if game.num_players() != 2:
        raise SystemExit(f"--preset {args.preset}: give a two-player preset")
    for opponent in args.opponent or ["random", "greedy", "ismcts"]:
        rng = np.random.RandomState(args.seed)
        resample = np.random.default_rng(args.seed)
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), args.uct_c, args.simulations,
            random_state=rng)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(
            player, None, resample))
        # the lineup is seated as in a replay: entry 0 is the bot's (never asked)
        lineup = Lineup.build(game.rules, ["random", opponent])
        t0 = time.perf_counter()
        x = np.array([play_pair(game, bot, lineup, args.seed, i, rng)
                      for i in range(args.pairs)])
        half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
        print(f"OpenSpiel ISMCTS ({args.simulations} simulations, uct_c {args.uct_c}, random "
              f"rollouts) vs {opponent}, {args.preset}, {args.pairs} deal pairs (seed "
              f"{args.seed}): score {x.mean():.3f} [{x.mean() - half:.3f}, "
              f"{x.mean() + half:.3f}]  ({time.perf_counter() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
