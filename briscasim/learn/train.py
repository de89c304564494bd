"""Training of the ``learned`` network on the vectorised environment, by Deep Monte Carlo or
by imitation of a search (``teacher``).

Every iteration plays one deal in each row of four groups of :class:`~briscasim.envs.
VectorEnv` (``TrainConfig.envs`` rows each): the network against itself (every seat
learns), against its own past checkpoints (a pool of the last ``pool`` ones), against
``greedy`` and against ``expert`` (the network's seats turn round the table from one
iteration to the next). It acts greedily on its action values, with a uniformly random legal
action in a share ``epsilon`` of its decisions. Each decision it took is then a sample: the
observation, the action, and the deal's result for the seat as the target of that action's
value (and of the position's value): Deep Monte Carlo (as in DouZero), regression of action
values on the final results of the deals, with no bootstrapping. The result is the outcome
(+1, 0, -1) plus the card-point margin over 120; in Briscola Chiamata half the game points.
The samples are fitted with Adam in minibatches, ``passes`` passes.

With a ``teacher`` (a strategy spec, ``"ismcts"``...) the method is imitation, DAgger-style
(expert iteration with a fixed expert): at every decision the network would take, the teacher
is asked, from the same seat's view, what it plays (:meth:`~briscasim.envs.VectorEnv.advice`);
that action is the sample's target, and the action heads are fitted as logits to it (cross
entropy over the legal actions), the position's value to the deal's result as before. The
teacher's move is played in a share ``teacher_plays`` of the decisions, the network's (with
its exploration) in the others, so the positions learned from are those the network reaches.
A search's labels are worth far more than a deal's single result: on brisca-2 the network
learns in minutes what Deep Monte Carlo did not reach in an hour
(:doc:`docs/learned.md <learned>` has the figures).

What an iteration does depends only on the seed, the iteration's number and the weights it
starts from (the deals, the exploration and the minibatches are drawn from streams keyed by
them), so a training stopped and resumed from its checkpoint gives the same weights as one
run straight through, and the same seed and thread count give the same model. Every
``eval_every`` iterations the model is written, scored against greedy and expert on
duplicate deals (through the numba ``learned`` strategy, as any run plays it, but without
its exact endgame: the network alone, which is what training changes), a row per
opponent is added to the learning curve (``curve.csv``, ``curve.png`` and ``.svg``), and the
checkpoint is written (temporary file, fsync, rename: a kill -9 leaves the last one whole).
"""
from __future__ import annotations

import csv
import io
import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..analysis.compare import duplicate_scores
from ..engine.layout import N_ACTIONS
from ..envs.vector import VectorEnv
from ..experiments import style
from ..files import write_atomic
from ..jit import compile_seconds
from ..observation import OBSERVATION, OBSERVATION_LEN
from ..errors import UserError
from ..rules import Rules
from ..stats import mean_ci
from ..strategies.learned import NETWORK_ALONE, load_model, save_model
from ..strategies.network import HIDDEN1, HIDDEN2, WEIGHTS_LEN, forward_batch, layout

COUNT_SCALE = {"trick_no": 1 / 8, "to_draw": 1 / 16, "trick_points": 1 / 32, "points": 1 / 32,
               "tricks_won": 1 / 8, "seat_bids": 1 / 32, "contract": 1 / 32, "target": 1 / 32}
"""The count fields' input scale while training (folded into the first layer's weights when
the model is exported)."""


def input_scale() -> np.ndarray:
    scale = np.ones(OBSERVATION_LEN, np.float32)
    for f in OBSERVATION.fields:
        if f.name in COUNT_SCALE:
            scale[f.offset:f.offset + f.size] = COUNT_SCALE[f.name]
    return scale


@dataclass
class TrainConfig:
    """A training's settings (all but ``minutes`` decide the weights)."""
    preset: str = "brisca-2"
    seed: int = 0
    envs: int = 128              # rows of each group
    learning_rate: float = 1e-3
    batch: int = 512
    epsilon: float = 0.05
    eval_every: int = 20         # iterations between model, curve and checkpoint
    eval_deals: int = 2000       # duplicate deals per opponent in the curve
    pool: int = 5                # past checkpoints kept as opponents
    opponents: tuple = ("greedy", "expert")
    threads: int = 1
    teacher: str = ""            # a strategy spec: imitation of it; empty: Deep Monte Carlo
    teacher_plays: float = 0.5   # share of decisions the teacher's move is played in
    passes: int = 1              # passes over each iteration's samples


@dataclass
class TrainResult:
    model: Path
    iterations: int
    samples: int
    minutes: float
    curve: list = field(default_factory=list)
    losses: list = field(default_factory=list)   # each minibatch's of this run


def _stream(*key) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([int(k) for k in key]))


def _env_seed(*key) -> int:
    return int(np.random.SeedSequence([int(k) for k in key]).generate_state(1, np.uint64)[0])


# ---- the network in JAX --------------------------------------------------------------

def init_params(seed: int):
    import jax
    import jax.numpy as jnp
    k = jax.random.split(jax.random.PRNGKey(seed), 4)
    return {"w1": jax.random.normal(k[0], (OBSERVATION_LEN, HIDDEN1)) * math.sqrt(2 / 50),
            "b1": jnp.zeros(HIDDEN1),
            "w2": jax.random.normal(k[1], (HIDDEN1, HIDDEN2)) * math.sqrt(2 / HIDDEN1),
            "b2": jnp.zeros(HIDDEN2),
            "wq": jax.random.normal(k[2], (HIDDEN2, N_ACTIONS)) * 0.05,
            "bq": jnp.zeros(N_ACTIONS),
            "wv": jax.random.normal(k[3], (HIDDEN2,)) * 0.05,
            "bv": jnp.zeros(())}


def apply(params, x):
    """Action values ``(B, N_ACTIONS)`` and position values ``(B,)`` of scaled observations
    ``x`` (the numba network's forward pass, in JAX)."""
    import jax.numpy as jnp
    h = jnp.maximum(x @ params["w1"] + params["b1"], 0.0)
    h = jnp.maximum(h @ params["w2"] + params["b2"], 0.0)
    return h @ params["wq"] + params["bq"], h @ params["wv"] + params["bv"]


def export(params) -> np.ndarray:
    """The flat float32 weights the numba network reads (:func:`~briscasim.strategies.
    network.layout`), the input scale folded into the first layer."""
    p = {k: np.asarray(v, np.float32) for k, v in params.items()}
    blocks = {"w1": p["w1"] * input_scale()[:, None], "b1": p["b1"], "w2": p["w2"].T,
              "b2": p["b2"], "wq": p["wq"].T, "bq": p["bq"], "wv": p["wv"],
              "bv": p["bv"].reshape(1)}
    flat = np.zeros(WEIGHTS_LEN, np.float32)
    for name, (offset, size) in layout().items():
        flat[offset:offset + size] = np.ascontiguousarray(blocks[name]).ravel()
    return flat


def _loss(params, x, a, m, y):
    """Deep Monte Carlo: the value of the action taken and of the position, regressed on the
    deal's result."""
    import jax.numpy as jnp
    q, v = apply(params, x)
    qa = jnp.take_along_axis(q, a[:, None], axis=1)[:, 0]
    return jnp.mean((qa - y) ** 2) + 0.5 * jnp.mean((v - y) ** 2)


def _imitation_loss(params, x, a, m, y):
    """Imitation: cross entropy of the action heads as logits over the legal actions ``m``
    against the teacher's action ``a``, and the position's value regressed on the result."""
    import jax
    import jax.numpy as jnp
    q, v = apply(params, x)
    logp = jax.nn.log_softmax(jnp.where(m > 0, q, -1e9))
    ce = -jnp.mean(jnp.take_along_axis(logp, a[:, None], axis=1)[:, 0])
    return ce + 0.5 * jnp.mean((v - y) ** 2)


# ---- playing: one deal per row --------------------------------------------------------

class _Acting:
    """Greedy-with-exploration action choice from flat weights, through the numba network."""

    def __init__(self, envs: int):
        self.q = np.zeros((envs, N_ACTIONS), np.float32)
        self.v = np.zeros(envs, np.float32)

    def values(self, weights, obs):
        forward_batch(weights, obs, self.q, self.v)
        return self.q

    @staticmethod
    def best(q, mask):
        return np.where(mask != 0, q, -np.inf).argmax(axis=1)


def _play_group(rules, cfg, it, g, weights, acting, opponent=None, agent_seats=None,
                past=None):
    """Play one deal in every row of group ``g``; return the samples ``(obs, action, legal
    mask, target)`` of the network's decisions (of ``agent_seats`` when another player holds
    the others: ``opponent`` in the kernel, or the ``past`` weights acting for them); with a
    teacher, the action is the teacher's."""
    n = cfg.envs
    reward = "outcome" if rules.chiamata else "margin"
    kwargs = {} if opponent is None else {"opponent": opponent, "agent_seats": agent_seats}
    env = VectorEnv(rules, n, seed=_env_seed(cfg.seed, it, g), reward=reward, **kwargs)
    obs, mask = env.reset()
    coin = _stream(cfg.seed, it, g, 1)
    teacher_coin = _stream(cfg.seed, it, g, 2)
    finished = np.zeros(n, bool)
    result = np.zeros((n, rules.players), np.float32)
    mine = np.zeros(rules.players, bool)
    mine[list(agent_seats) if agent_seats is not None else slice(None)] = True
    kept_obs, kept_act, kept_mask, kept_row, kept_seat = [], [], [], [], []
    while not finished.all():
        q = acting.values(weights, obs).copy()
        if past is not None:
            q_past = acting.values(past, obs)
            theirs = ~mine[env.seat]
            q[theirs] = q_past[theirs]
        act = _Acting.best(q, mask)
        explore = coin.random(n) < cfg.epsilon
        random_act = env.random_actions()
        act = np.where(explore, random_act, act)
        keep = ~finished & mine[env.seat] & (mask.sum(axis=1) > 1)
        label = act
        if cfg.teacher:
            label = env.advice(cfg.teacher, keep).copy()
            act = np.where(keep & (teacher_coin.random(n) < cfg.teacher_plays), label, act)
        kept_obs.append(obs[keep].copy())
        kept_act.append(label[keep])
        kept_mask.append(mask[keep].copy())
        kept_row.append(np.flatnonzero(keep))
        kept_seat.append(env.seat[keep].copy())
        obs, mask, rewards, done = env.step(act)
        new = done & ~finished
        result[new] = rewards[new]
        finished |= done
    rows, seats = np.concatenate(kept_row), np.concatenate(kept_seat)
    r = result[rows, seats]
    target = r / 2 if rules.chiamata else np.sign(r) + r / 120
    return (np.concatenate(kept_obs), np.concatenate(kept_act), np.concatenate(kept_mask),
            target.astype(np.float32))


def _agent_seats(rules, it: int) -> tuple[int, ...]:
    """The network's seats at iteration ``it`` against another player: one side's seats in
    turn (one seat without sides, or in Briscola Chiamata)."""
    n = rules.players
    side = rules.side_of
    if rules.chiamata or len(set(side)) == n:
        return (it % n,)
    s = it % (max(side) + 1)
    return tuple(i for i in range(n) if side[i] == s)


# ---- evaluation -----------------------------------------------------------------------

def duplicate_score(rules, a: str, b: str, deals: int, seed: int) -> tuple[float, float, float]:
    """A's mean score against B over ``deals`` duplicate deals, with its 95% interval
    (:func:`briscasim.analysis.compare.duplicate_scores`: A holds the first seat's side, B
    the others; in Briscola Chiamata A one seat, scored in game points)."""
    s = mean_ci(duplicate_scores(rules, a, b, deals, seed)[0])
    return s.mean, s.lo, s.hi


# ---- the checkpoint -------------------------------------------------------------------

def _save_checkpoint(path: Path, cfg, it, samples, minutes, params, opt_state, pool):
    import jax
    leaves = jax.tree_util.tree_leaves((params, opt_state))
    arrays = {f"leaf{i}": np.asarray(x) for i, x in enumerate(leaves)}
    state = {"config": asdict(cfg), "iteration": it, "samples": samples, "minutes": minutes,
             "pool": pool}
    write_atomic(path, lambda f: np.savez(f, state=np.array(json.dumps(state)), **arrays))


def _load_checkpoint(path: Path, params, opt_state):
    import jax
    with np.load(path, allow_pickle=False) as z:
        state = json.loads(str(z["state"]))
        leaves = [z[f"leaf{i}"] for i in range(len(z.files) - 1)]
    treedef = jax.tree_util.tree_structure((params, opt_state))
    if treedef.num_leaves != len(leaves):
        raise UserError(f"checkpoint {path} does not hold this network's weights")
    params, opt_state = jax.tree_util.tree_unflatten(
        treedef, [jax.numpy.asarray(x) for x in leaves])
    return state, params, opt_state


# ---- the learning curve ---------------------------------------------------------------

CURVE_FIELDS = ("iteration", "samples", "minutes", "opponent", "deals", "score", "lo", "hi")


def _write_curve(out: Path, rows: list[dict], preset: str) -> None:
    def write_csv(f):
        text = io.StringIO()
        w = csv.DictWriter(text, CURVE_FIELDS)
        w.writeheader()
        w.writerows(rows)
        f.write(text.getvalue().encode())
    write_atomic(out / "curve.csv", write_csv)
    _plot_curve(out, rows, preset)


def _plot_curve(out: Path, rows: list[dict], preset: str) -> None:
    """``curve.png`` and ``curve.svg``: the score against each opponent with its 95% interval,
    against the decisions trained on and against the minutes of training."""
    with style.style():
        fig, axes = style.figure(1, 2, sharey=True)
        for i, opponent in enumerate(sorted({r["opponent"] for r in rows})):
            rs = [r for r in rows if r["opponent"] == opponent]
            colour = style.series(i)["color"]
            for ax, key, unit in zip(axes[0], ("samples", "minutes"), (1e6, 1)):
                x = np.array([r[key] for r in rs], float) / unit
                ax.fill_between(x, [r["lo"] for r in rs], [r["hi"] for r in rs],
                                color=colour, alpha=0.2, linewidth=0,
                                label=f"95% interval against {opponent}")
                ax.plot(x, [r["score"] for r in rs], color=colour, label=f"against {opponent}")
        axes[0, 0].set_xlabel("decisions trained on (millions)")
        axes[0, 1].set_xlabel("minutes of training")
        axes[0, 0].set_ylabel("game points a deal" if Rules.preset(preset).chiamata
                              else "score (wins + draws / 2)")
        style.title(fig, f"How strong does the learned player of {preset} grow as it "
                         "trains? Its score on duplicate deals")
        style.legend(fig)
        style.save(fig, out / "curve")


# ---- the loop -------------------------------------------------------------------------

def train(preset: str = "brisca-2", out="model", minutes: float | None = None,
          iterations: int | None = None, seed: int = 0, resume: bool = False,
          progress: bool = True, **settings) -> TrainResult:
    """Train the network for ``preset`` into the folder ``out`` for ``minutes`` of wall time
    (compiling the engine left out) or up to ``iterations`` iterations (whichever comes
    first; at least one of them), from the checkpoint there with ``resume``. ``settings`` are :class:`TrainConfig`'s. Writes
    ``model.npz`` (the model, for ``learned:model=out/model.npz``), ``curve.csv``,
    ``curve.png`` and ``.svg``, ``checkpoint.npz`` and the past checkpoints' models in
    ``pool/``."""
    try:
        import jax
        import optax
    except ImportError:
        raise UserError("training needs the learn extra: pip install 'briscasim[learn]'"
                        ) from None
    if minutes is None and iterations is None:
        raise UserError("give minutes or iterations (how long to train)")
    if minutes is not None and not (minutes > 0 and math.isfinite(minutes)):
        raise UserError(f"minutes = {minutes!r}: give a positive number")
    rules = Rules.preset(preset)
    cfg = TrainConfig(preset=preset, seed=seed, **settings)
    if not (0.0 <= cfg.teacher_plays <= 1.0):
        raise UserError(f"teacher_plays = {cfg.teacher_plays!r}: give a share from 0 to 1")
    if cfg.passes < 1:
        raise UserError(f"passes = {cfg.passes!r} must be at least 1")
    if cfg.teacher:
        from ..lineup import Lineup
        Lineup.build(rules, cfg.teacher)        # a spec that cannot play is refused here
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "pool").mkdir(exist_ok=True)
    opt = optax.adam(cfg.learning_rate)
    params = init_params(seed)
    opt_state = opt.init(params)
    ckpt = out / "checkpoint.npz"
    it, samples, spent, pool, curve = 0, 0, 0.0, [], []
    if resume and ckpt.exists():
        state, params, opt_state = _load_checkpoint(ckpt, params, opt_state)
        # settings added since the checkpoint was written held their defaults
        trained = {**json.loads(json.dumps(asdict(TrainConfig()))), **state["config"]}
        if trained != json.loads(json.dumps(asdict(cfg))):
            raise UserError(f"{ckpt} was trained with other settings ({state['config']}); "
                            "resume with the same ones, or train into another folder")
        it, samples, spent, pool = (state["iteration"], state["samples"], state["minutes"],
                                    state["pool"])
        with open(out / "curve.csv", newline="") as f:
            curve = [_typed(r) for r in csv.DictReader(f)]
    elif ckpt.exists():
        raise UserError(f"{out} holds a training already: add --resume to go on with it, "
                        "or train into another folder")

    loss_fn = _imitation_loss if cfg.teacher else _loss

    @jax.jit
    def update(params, opt_state, x, a, m, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, a, m, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    scale = input_scale()
    acting = _Acting(cfg.envs)
    start, compiling = time.monotonic(), compile_seconds()

    def trained() -> float:
        """Minutes of training in this run, compiling the engine left out."""
        return (time.monotonic() - start - (compile_seconds() - compiling)) / 60

    stop_it = None if iterations is None else iterations
    bar = _bar(progress, preset, stop_it, it)
    losses = []
    while True:
        elapsed = spent + trained()
        if (stop_it is not None and it >= stop_it) or (minutes is not None and
                                                        elapsed >= minutes):
            break
        weights = export(params)
        groups = [dict()]
        if pool:
            past = load_model(out / "pool" / pool[_stream(cfg.seed, it, 9).integers(
                len(pool))]).weights
            groups.append(dict(past=past, agent_seats=_agent_seats(rules, it)))
        groups += [dict(opponent=o, agent_seats=_agent_seats(rules, it + k))
                   for k, o in enumerate(cfg.opponents)]
        batches = [_play_group(rules, cfg, it, g, weights, acting, **kw)
                   for g, kw in enumerate(groups)]
        x = np.concatenate([b[0] for b in batches]).astype(np.float32) * scale
        a = np.concatenate([b[1] for b in batches]).astype(np.int32)
        m = np.concatenate([b[2] for b in batches])
        y = np.concatenate([b[3] for b in batches])
        for p in range(cfg.passes):
            order = _stream(cfg.seed, it, 7, *([p] if p else [])).permutation(len(y))
            for i in range(0, len(y) - cfg.batch + 1, cfg.batch):
                idx = order[i:i + cfg.batch]
                params, opt_state, loss = update(params, opt_state, x[idx], a[idx], m[idx],
                                                 y[idx])
                losses.append(float(loss))
        samples += len(y)
        it += 1
        bar.update(1)
        if it % cfg.eval_every == 0:
            elapsed = spent + trained()
            name = f"iteration-{it:06d}.npz"
            model_path = out / "pool" / name
            _save(model_path, params, cfg, rules, it, samples, elapsed)
            rows = []
            for o in cfg.opponents:
                me = f"learned:model={model_path},{NETWORK_ALONE}"
                s, lo, hi = duplicate_score(rules, me, o, cfg.eval_deals,
                                            seed=_env_seed(cfg.seed, 1 << 30))
                rows.append(dict(iteration=it, samples=samples, minutes=round(elapsed, 2),
                                 opponent=o, deals=cfg.eval_deals, score=round(s, 4),
                                 lo=round(lo, 4), hi=round(hi, 4)))
            curve += rows
            pool = (pool + [name])[-cfg.pool:]
            for old in (out / "pool").glob("iteration-*.npz"):
                if old.name not in pool:
                    old.unlink()
            _save(out / "model.npz", params, cfg, rules, it, samples, elapsed)
            _write_curve(out, curve, preset)
            _save_checkpoint(ckpt, cfg, it, samples, elapsed, params, opt_state, pool)
            bar.set_postfix_str("  ".join(f"{r['opponent']} {r['score']:.3f}" for r in rows)
                                + f"  loss {np.mean(losses[-50:]):.3f}")
    bar.close()
    minutes_spent = spent + trained()
    return TrainResult(out / "model.npz", it, samples, minutes_spent, curve, losses)


def _save(path, params, cfg, rules, it, samples, minutes):
    save_model(path, export(params), {
        "preset": cfg.preset, "players": rules.players, "auction": bool(rules.chiamata),
        "method": f"imitation of {cfg.teacher}" if cfg.teacher else "deep Monte Carlo",
        "iterations": it, "samples": samples,
        "minutes": round(minutes, 2), "seed": cfg.seed})


def _typed(row: dict) -> dict:
    return {k: (v if k == "opponent" else (int(v) if k in ("iteration", "samples", "deals")
                                           else float(v))) for k, v in row.items()}


def _bar(progress, preset, total, initial):
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, desc=f"train {preset}", unit="it",
                disable=not progress, dynamic_ncols=True)
