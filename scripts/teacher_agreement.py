"""How often a learned model plays its teacher's move, and the teacher its own, trick by trick.

    python scripts/teacher_agreement.py [--preset brisca-2] [--model auto] [--teacher ismcts]
                                        [--envs 128] [--deals 512] [--seed 5] [--json]

The model plays itself on ``deals`` deals of the vectorised environment (``envs`` at a
time), a uniformly random legal move in 5% of its decisions as in training. At every
decision with more than one legal action the teacher is asked twice, on two streams, from
the same seat's view. Printed per trick: the decisions, the share where the model's move
(the network alone, ``learned.NETWORK_ALONE``) is the teacher's first answer, and the share
where the teacher's two answers agree. Where the teacher disagrees with itself as often as the
model with it, its moves are near ties to it, and imitating its single answers cannot teach
more.
"""
from __future__ import annotations

import argparse
import json

import numpy as np

from briscasim.envs.vector import VectorEnv
from briscasim.observation import O_TRICK_NO
from briscasim.rules import Rules
from briscasim.strategies.learned import NETWORK_ALONE


def agreement(preset: str, model: str, teacher: str, envs: int, deals: int,
              seed: int) -> list[dict]:
    rules = Rules.preset(preset)
    env = VectorEnv(rules, envs, seed=seed)
    me = f"learned:model={model},{NETWORK_ALONE}"
    coin = np.random.default_rng(seed)
    rows = []        # trick, model == teacher, teacher == teacher
    obs, mask = env.reset()
    finished = 0
    while finished < deals:
        ask = mask.sum(axis=1) > 1
        mine = env.advice(me).copy()
        first = env.advice(teacher, ask).copy()
        second = env.advice(teacher, ask).copy()
        rows += zip(obs[ask, O_TRICK_NO], mine[ask] == first[ask], first[ask] == second[ask])
        act = np.where(coin.random(envs) < 0.05, env.random_actions(), mine)
        obs, mask, _, done = env.step(act)
        finished += int(done.sum())
    table = np.array(rows, np.int64)
    return [{"trick": int(t) + 1, "decisions": int((s := table[:, 0] == t).sum()),
             "model_teacher": round(float(table[s, 1].mean()), 3),
             "teacher_teacher": round(float(table[s, 2].mean()), 3)}
            for t in np.unique(table[:, 0])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="brisca-2")
    ap.add_argument("--model", default="auto")
    ap.add_argument("--teacher", default="ismcts")
    ap.add_argument("--envs", type=int, default=128)
    ap.add_argument("--deals", type=int, default=512)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = agreement(a.preset, a.model, a.teacher, a.envs, a.deals, a.seed)
    if a.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'trick':>5} {'decisions':>9} {'model = teacher':>15} {'teacher = teacher':>17}")
    for r in rows:
        print(f"{r['trick']:>5} {r['decisions']:>9} {r['model_teacher']:>15.3f} "
              f"{r['teacher_teacher']:>17.3f}")


if __name__ == "__main__":
    main()
