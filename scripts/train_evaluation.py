"""Fit the learned evaluation of ``ismcts`` (:mod:`briscasim.strategies.evaluation`).

Positions come from deals of a preset played by greedy with some random decisions
(``--path-epsilon``); from each position kept, ``--rollouts`` play-outs are run as ``ismcts``
runs them (the side evaluated greedy, the other side greedy with ``--epsilon`` of its
decisions random) and the mean outcome (win 1, draw 1/2) is the target. A logistic model is
fitted for every number of tricks left (Newton's method, a small ridge), its fit reported
against held-out positions, and the weights written to
``briscasim/strategies/evaluation_weights.py``.

    python scripts/train_evaluation.py                    # brisca-2, the shipped weights
    python scripts/train_evaluation.py --deals 2000 --out /tmp/w.py   # a quick look
"""
from __future__ import annotations

import argparse
import textwrap
import time
from pathlib import Path

import numpy as np
from numba import njit

from briscasim.engine.layout import (EVERY_FEATURE, MAX_LEGAL_ANY, MAX_SIDES, PHASE_OVER, S_PHASE,
                                    STATE_LEN)
from briscasim.engine.rng import below, new_stream, seed_stream, uniform
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.strategies.evaluation import N_FEATURES, N_STAGES, state_features
from briscasim.strategies.inference import GREEDY, policy_move
from briscasim.strategies.ismcts import (_GREEDY_DEFAULTS, REWARD_WIN, deal_points, play_out,
                                         side_rewards)
from briscasim.strategies.solver import copy_state, play

NO_NETWORK = np.int64(0)    # play-outs by greedy: no network's weights
OUT = (Path(__file__).resolve().parent.parent / "briscasim" / "strategies"
       / "evaluation_weights.py")
STREAM = 7          # the random stream of each deal that its positions and play-outs use


@njit(cache=True)
def positions(rules, starts, seed, keep, path_epsilon, epsilon, rollouts, params, X, y,
              stages, rng):
    """Play every start state out with greedy (``path_epsilon`` of the decisions random),
    keep each position before a decision with probability ``keep`` and write its features
    from a random side's view, its stage and its mean play-out outcome; return the count."""
    legal = np.zeros(MAX_LEGAL_ANY, np.int16)
    state = np.zeros(STATE_LEN, np.int16)
    world = np.zeros(STATE_LEN, np.int16)
    rewards = np.zeros(MAX_SIDES)
    total = deal_points(rules)
    n = 0
    for d in range(starts.shape[0]):
        seed_stream(rng, seed, d, STREAM)
        copy_state(state, starts[d])
        while state[S_PHASE] != PHASE_OVER and n < X.shape[0]:
            if uniform(rng) < keep:
                side = below(rng, 2)
                stages[n] = state_features(rules, state, side, total, X[n])
                acc = 0.0
                for _ in range(rollouts):
                    copy_state(world, state)
                    play_out(rules, world, GREEDY, 0.0, epsilon, side, params, rng, legal,
                             EVERY_FEATURE, NO_NETWORK)
                    side_rewards(rules, world, REWARD_WIN, 0.0, total, rewards)
                    acc += rewards[side]
                y[n] = acc / rollouts
                n += 1
            play(rules, state, policy_move(rules, state, GREEDY, path_epsilon, params, rng,
                                           legal, EVERY_FEATURE))
    return n


def fit_logistic(X, y, ridge=1e-3, steps=25):
    """Weights of the logistic model of ``y`` (in [0, 1]) on ``X`` by Newton's method."""
    w = np.zeros(X.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-X @ w))
        g = X.T @ (p - y) + ridge * w
        h = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(X.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def argv_line(args) -> str:
    """The command that writes these weights."""
    return ("python scripts/train_evaluation.py " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if k != "out"))


def weights_module(weights, command: str) -> str:
    """The source of a weights module: ``WEIGHTS``, a row per stage."""
    rows = []
    for s, row in enumerate(weights):
        numbers = textwrap.fill(", ".join(f"{v:.6g}" for v in row), 91,
                                initial_indent="     ", subsequent_indent="     ")
        rows.append(f"    # tricks left: {s}\n    [{numbers[5:]}],")
    return ('"""Weights of :mod:`briscasim.strategies.evaluation`: a row per stage (tricks '
            'left), a column\nper feature (``FEATURE_NAMES``). Written by\n\n'
            + textwrap.fill(command, 92, initial_indent="    ", subsequent_indent="        ",
                            break_on_hyphens=False).replace("\n", " \\\n")
            + '\n\n(do not edit)."""\nimport numpy as np\n\nWEIGHTS = np.array([\n'
            + "\n".join(rows) + "\n])\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="brisca-2")
    ap.add_argument("--deals", type=int, default=60000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--keep", type=float, default=0.5)
    ap.add_argument("--rollouts", type=int, default=4)
    ap.add_argument("--path-epsilon", type=float, default=0.3)
    ap.add_argument("--epsilon", type=float, default=0.5)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rules = Rules.preset(args.preset)
    r = rules.to_array()
    t0 = time.perf_counter()
    starts = np.array([Deal.from_seed(rules, args.seed, d).state for d in range(args.deals)],
                      np.int16)
    cap = int(args.deals * 50 * args.keep) + 100
    X = np.zeros((cap, N_FEATURES))
    y = np.zeros(cap)
    stages = np.zeros(cap, np.int64)
    params = np.array(_GREEDY_DEFAULTS, np.float64)
    n = positions(r, starts, np.uint64(args.seed), args.keep, args.path_epsilon, args.epsilon,
                  args.rollouts, params, X, y, stages, new_stream())
    X, y, stages = X[:n], y[:n], stages[:n]
    print(f"{n} positions in {time.perf_counter() - t0:.1f} s")
    held = np.arange(n) % 5 == 0
    weights = np.zeros((N_STAGES, N_FEATURES))
    for s in range(N_STAGES):
        fit = (stages == s) & ~held
        if fit.sum() < 50:
            continue
        weights[s] = fit_logistic(X[fit], y[fit])
        test = (stages == s) & held
        p = 1.0 / (1.0 + np.exp(-X[test] @ weights[s]))
        base = y[fit].mean()
        print(f"stage {s:2d}: {fit.sum():7d} positions, mean squared error "
              f"{np.mean((p - y[test]) ** 2):.4f} (constant {np.mean((base - y[test]) ** 2):.4f})")
    fitted = np.flatnonzero(np.abs(weights).sum(axis=1) > 0)
    for s in range(N_STAGES):       # a stage without positions takes the nearest fitted one
        weights[s] = weights[fitted[np.abs(fitted - s).argmin()]]
    args.out.write_text(weights_module(weights, argv_line(args)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
