"""``briscasim train``."""
import math
import os

import click

from ..errors import UserError
from . import HELP_OPTIONS
from .options import Finite


@click.command(context_settings=HELP_OPTIONS)
@click.option("--preset", default="brisca-2", show_default=True, help="Rule preset to learn.")
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="The model's folder: model.npz, curve.csv, curve.png and .svg, "
              "checkpoint.npz.")
@click.option("--minutes", type=Finite(above=0), default=None,
              help="Wall time to train for, compiling the engine left out (stops after the "
              "iteration it ends in).")
@click.option("--iterations", type=int, default=None,
              help="Iterations to reach (counted from the start of the training).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the weights, deals and exploration.")
@click.option("--resume", is_flag=True, help="Go on from the folder's last checkpoint.")
@click.option("--threads", type=int, default=1, show_default=True,
              help="Threads of the training library (the weights depend on them).")
@click.option("--envs", type=int, default=128, show_default=True,
              help="Deals played at once in each group of an iteration.")
@click.option("--eval-every", type=int, default=20, show_default=True,
              help="Iterations between checkpoints and points of the learning curve.")
@click.option("--eval-deals", type=int, default=2000, show_default=True,
              help="Duplicate deals against each of greedy and expert at each point.")
@click.option("--teacher", default="", metavar="SPEC",
              help="Imitate this strategy (ismcts, expert...): its move at every decision "
              "is the target. Without it, Deep Monte Carlo.")
@click.option("--teacher-plays", type=Finite(), default=0.5, show_default=True,
              help="With --teacher, the share of decisions its move is played in.")
@click.option("--passes", type=int, default=1, show_default=True,
              help="Passes over each iteration's samples.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def train(preset, out, minutes, iterations, seed, resume, threads, envs, eval_every,
          eval_deals, teacher, teacher_plays, passes, quiet):
    """Train the learned player's network for a preset, playing against itself, its past
    checkpoints, greedy and expert: by imitation of a search (--teacher) or by Deep Monte
    Carlo (needs the learn extra)."""
    if minutes is not None and not (math.isfinite(minutes) and minutes > 0):
        raise UserError(f"--minutes = {minutes}: give a positive number")
    for name, v in (("--iterations", iterations), ("--threads", threads), ("--envs", envs),
                    ("--eval-every", eval_every), ("--eval-deals", eval_deals),
                    ("--passes", passes)):
        if v is not None and v < 1:
            raise UserError(f"{name} = {v} must be at least 1")
    if seed < 0:
        raise UserError(f"--seed = {seed} must be at least 0")
    if minutes is None and iterations is None:
        raise UserError("give --minutes or --iterations (how long to train)")
    # the training library reads its thread count when it is first imported
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_"
                               f"eigen={'true' if threads > 1 else 'false'} intra_op_"
                               f"parallelism_threads={threads}").strip()
    from ..rules import Rules
    Rules.preset(preset)
    from ..learn import train as run
    r = run(preset, out, minutes=minutes, iterations=iterations, seed=seed, resume=resume,
            progress=not quiet, threads=threads, envs=envs, eval_every=eval_every,
            eval_deals=eval_deals, teacher=teacher, teacher_plays=teacher_plays,
            passes=passes)
    last = {row["opponent"]: row for row in r.curve[-2:]}
    scores = ", ".join(f"{o} {row['score']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]"
                       for o, row in last.items())
    click.echo(f"{r.model}: {r.iterations} iterations, {r.samples:,} decisions, "
               f"{r.minutes:.1f} minutes" + (f"; against {scores}" if scores else ""))
