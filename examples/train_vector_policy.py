"""Train a small policy with the vectorised environment, in plain numpy, and measure it.

The policy is a linear softmax over features of each legal action (a "conditional logit"):
for a card, its points, whether it is a trump, whether it would take the trick now, the
points on the table it would take or give away, and so on; for a swap offer, swap or keep.
It learns by REINFORCE (the deal's outcome, +1 / 0 / -1, against a running baseline) playing
brisca-2 against the built-in strategies in :class:`briscasim.envs.VectorEnv`, whose kernel
plays the opponent's seat. Then it is measured against ``random`` and ``greedy`` on duplicate
deals: every deal is played twice, the policy in each seat, with the same cards.

    python examples/train_vector_policy.py                 # about a minute on one core
    python examples/train_vector_policy.py --steps 3000 --eval-deals 20

Score = (wins + draws / 2) / deals, with a 95% interval over the duplicate pairs.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from briscasim.engine import layout as L
from briscasim.envs import VectorEnv, fields
from briscasim.rules import Rules

FEATURES = ("points", "trump", "trump_points", "lead_points", "lead_trump", "takes",
            "takes_points", "takes_with_trump", "takes_with_points", "gives_points",
            "strength", "takes_last", "late_points", "late_trump", "swap", "keep")


class Features:
    """Per-action features of a batch of observations: an ``(N, N_ACTIONS, K)`` array."""

    def __init__(self, rules: Rules):
        r = rules.to_array()
        ids = np.arange(L.N_CARD_IDS)
        self.points = r[L.R_CARD_POINTS + ids].astype(np.float32)
        self.strength = r[L.R_CARD_STRENGTH + ids].astype(np.float32)
        self.suit = r[L.R_CARD_SUIT + ids]
        self.players = rules.players
        self.in_play = len(rules.deck_ids)

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        f = fields(obs)
        n = obs.shape[0]
        trump = f["trump"].argmax(axis=1)[:, None]                    # (N, 1)
        is_trump = (self.suit[None, :] == trump).astype(np.float32)   # (N, 48)
        trick = f["trick"].astype(np.float32)
        leading = (trick.sum(axis=1) == 0).astype(np.float32)[:, None]
        winning = f["winning"].argmax(axis=1)                         # (N,)
        w_suit = self.suit[winning][:, None]
        w_strength = self.strength[winning][:, None]
        beats = (((self.suit[None, :] == w_suit) & (self.strength[None, :] > w_strength))
                 | ((self.suit[None, :] != w_suit) & (is_trump > 0))).astype(np.float32)
        takes = beats * (1 - leading)
        on_table = (trick @ self.points)[:, None] / 11.0
        pts = self.points[None, :] / 11.0
        last = (f["place"].argmax(axis=1) == self.players - 1).astype(np.float32)[:, None]
        late = (f["to_draw"][:, 0] == 0).astype(np.float32)[:, None]  # the stock is empty
        x = np.zeros((n, L.N_ACTIONS, len(FEATURES)), np.float32)
        cards = [pts, is_trump, pts * is_trump, leading * pts,
                 leading * is_trump, takes, takes * on_table, takes * is_trump, takes * pts,
                 (1 - leading) * (1 - beats) * pts, self.strength[None, :] / 12.0,
                 takes * last, late * pts, late * is_trump]
        for k, col in enumerate(cards):
            x[:, :L.N_CARD_IDS, k] = col
        x[:, L.ACTION_SWAP, FEATURES.index("swap")] = 1
        x[:, L.ACTION_KEEP, FEATURES.index("keep")] = 1
        return x


def policy(w, x, mask, rng=None):
    """Action probabilities (and a sampled action with ``rng``, else the likeliest)."""
    logits = x @ w
    logits = np.where(mask > 0, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    if rng is None:
        return p, p.argmax(axis=1)
    u = rng.random((p.shape[0], 1))
    a = (p.cumsum(axis=1) < u).sum(axis=1)
    a = np.minimum(a, L.N_ACTIONS - 1)
    a = np.where(mask[np.arange(len(a)), a] > 0, a, p.argmax(axis=1))
    return p, a


def train(rules, features, steps, num_envs, lr, seed, opponents):
    """REINFORCE against ``opponents`` (strategy specs), the policy in both seats."""
    rng = np.random.default_rng(seed)
    w = np.zeros(len(FEATURES), np.float32)
    envs = [VectorEnv(rules, num_envs, seed=seed + 1000 * k, opponent=opp, agent_seats=[s])
            for k, (opp, s) in enumerate((o, s) for o in opponents for s in (0, 1))]
    state = [(env.reset(), np.zeros((num_envs, len(FEATURES)), np.float32)) for env in envs]
    baseline, deals = 0.0, 0
    for t in range(steps):
        grad = np.zeros_like(w)
        finished = 0
        for k, env in enumerate(envs):
            (obs, mask), acc = state[k]
            x = features(obs)
            p, a = policy(w, x, mask, rng)
            acc += x[np.arange(num_envs), a] - np.einsum("na,nak->nk", p, x)
            obs, mask, rewards, done = env.step(a)
            seat = env.agent_seats[0]
            if done.any():
                ret = rewards[done, seat]
                grad += ((ret - baseline)[:, None] * acc[done]).sum(axis=0)
                baseline += 0.01 * (ret.mean() - baseline)
                acc[done] = 0
                finished += int(done.sum())
            state[k] = ((obs, mask), acc)
        deals += finished
        if finished:
            w += lr * grad / finished
    return w, deals


def evaluate(rules, features, w, opponent, num_envs, deals_per_row, seed):
    """Duplicate deals against ``opponent``: per deal, the policy's score in seat 0 plus its
    score in seat 1, halved; returns (mean score, 95% half-width, deals, each played twice)."""
    scores = []
    for seat in (0, 1):
        env = VectorEnv(rules, num_envs, seed=seed, opponent=opponent, agent_seats=[seat])
        obs, mask = env.reset()
        got = np.full((num_envs, deals_per_row), np.nan)
        count = np.zeros(num_envs, np.int64)
        while count.min() < deals_per_row:
            a = env.random_actions() if w is None else policy(w, features(obs), mask)[1]
            obs, mask, rewards, done = env.step(a)
            for i in np.flatnonzero(done & (count < deals_per_row)):
                got[i, count[i]] = (rewards[i, seat] + 1) / 2        # win 1, draw 1/2
                count[i] += 1
        scores.append(got.ravel())
    pair = (scores[0] + scores[1]) / 2          # the same deal, both seats
    return pair.mean(), 1.96 * pair.std(ddof=1) / np.sqrt(len(pair)), len(pair)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=1500, help="training steps of every env")
    ap.add_argument("--envs", type=int, default=512, help="deals stepped together")
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--eval-deals", type=int, default=10, help="deals per row in evaluation")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = Rules.preset("brisca-2")
    features = Features(rules)
    t0 = time.perf_counter()
    w, deals = train(rules, features, args.steps, args.envs, args.lr, args.seed,
                     ["random", "greedy"])
    print(f"trained on {deals:,} deals in {time.perf_counter() - t0:.0f} s")
    print("weights: " + ", ".join(f"{n} {v:+.2f}" for n, v in zip(FEATURES, w)))
    for who, weights in (("trained policy", w), ("uniformly random play", None)):
        for opp in ("random", "greedy"):
            # a seed the training never used: other deals
            score, half, n = evaluate(rules, features, weights, opp, args.envs,
                                      args.eval_deals, seed=10 ** 9 + args.seed)
            print(f"{who} vs {opp}: score {score:.3f} +- {half:.3f} "
                  f"({n:,} deals, each played in both seats)")


if __name__ == "__main__":
    main()
