"""The learned evaluation: a won deal is all but sure, its chances follow the play-outs it
stands for, the training script writes weights the evaluation reads, and ismcts reads it
only in the game it was fitted to."""
import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.engine.rng import new_stream
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies.evaluation import N_FEATURES, N_STAGES, win_chance
from briscasim.strategies.evaluation_weights import WEIGHTS
from briscasim.strategies.ismcts import _GREEDY_DEFAULTS, deal_points
import repo_scripts

pytestmark = pytest.mark.slow      # compiles the training script's kernel


def _chance(rules, state, side):
    r = rules.to_array()
    return win_chance(r, state, side, deal_points(r), np.zeros(N_FEATURES))


def test_a_side_past_half_the_points_is_all_but_sure_to_win():
    rules = Rules.preset("brisca-2")
    seen = 0
    for d in range(20):
        deal = Deal.from_seed(rules, 3, d)
        while not deal.over:
            points = deal.state[L.S_POINTS:L.S_POINTS + 2]
            if points.max() > 60:
                side = int(points.argmax())
                assert _chance(rules, deal.state, side) > 0.9
                assert _chance(rules, deal.state, 1 - side) < 0.1
                seen += 1
                break
            deal.play(int(deal.legal_actions()[0]))
    assert seen > 5


def test_the_chances_follow_the_play_outs():
    """On positions the weights were not fitted on, the evaluation is closer to the mean of
    16 play-outs than a constant is, at every stage with enough positions."""
    script = repo_scripts.load("train_evaluation")
    rules = Rules.preset("brisca-2")
    r = rules.to_array()
    starts = np.array([Deal.from_seed(rules, 77, d).state for d in range(300)], np.int16)
    X = np.zeros((300 * 30, N_FEATURES))
    y = np.zeros(len(X))
    stages = np.zeros(len(X), np.int64)
    n = script.positions(r, starts, np.uint64(77), 0.5, 0.3, 0.5, 16,
                         np.array(_GREEDY_DEFAULTS), X, y, stages, new_stream())
    X, y, stages = X[:n], y[:n], stages[:n]
    z = np.einsum("ij,ij->i", X, WEIGHTS[stages])
    p = 1.0 / (1.0 + np.exp(-z))
    assert np.mean((p - y) ** 2) < 0.5 * np.mean((y.mean() - y) ** 2)
    for s in range(1, 20):
        at = stages == s
        assert np.mean((p[at] - y[at]) ** 2) < np.mean((y[at].mean() - y[at]) ** 2)


def test_training_writes_weights_the_evaluation_reads(tmp_path):
    out = tmp_path / "weights.py"
    repo_scripts.load("train_evaluation").main(["--deals", "400", "--out", str(out)])
    module = repo_scripts.load(out, "weights")
    assert module.WEIGHTS.shape == (N_STAGES, N_FEATURES)
    assert np.isfinite(module.WEIGHTS).all()
    assert np.abs(module.WEIGHTS[1:21]).sum(axis=1).min() > 0     # every stage fitted


@pytest.mark.parametrize("preset", ["briscolone-2", "briscola-2-31", "brisca-reves",
                                    "brisca-4-pairs"])
def test_the_search_reads_the_evaluation_only_in_the_game_it_was_fitted_to(preset):
    """Outside 2-player deals with a trump, no duty to follow suit and the most points
    winning, ismcts plays as with play-outs alone."""
    rules = Rules.preset(preset, match="deal")
    n = rules.players

    def records(weight):
        lineup = Lineup.build(rules, [f"ismcts:iterations=30,evaluation={weight}"] + [
            "greedy"] * (n - 1))
        return play_chunk(rules, lineup, 3, 0, 2, rotations=n)

    assert np.array_equal(records(0), records(1))


def test_the_evaluation_changes_the_search_in_brisca_2():
    rules = Rules.preset("brisca-2")

    def records(weight):
        lineup = Lineup.build(rules, [f"ismcts:iterations=30,evaluation={weight}", "greedy"])
        return play_chunk(rules, lineup, 3, 0, 6, rotations=2)

    assert not np.array_equal(records(0), records(1))
