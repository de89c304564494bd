"""``briscasim compile``: every kernel a lineup of built-in strategies may need, ahead of need."""
import sys

import click

from . import HELP_OPTIONS


@click.command("compile", context_settings=HELP_OPTIONS)
def compile_kernels():
    """Compile every kernel a lineup of built-in strategies may need, on any preset (a few
    minutes of one core, once: the cache keeps them). Afterwards simulate, run, research,
    play, replay, analyze and the environments (VectorEnv, PettingZoo, OpenSpiel) start
    without compiling; without it, a run compiles what it needs the first time it needs
    it."""
    from .. import cache_dir
    from ..jit import quiet_notices

    with quiet_notices():       # this command shows its own progress, imports included
        from ..kernels import compile_all, work
        total = len(work())
        _compile(compile_all, total)
    click.echo(f"{total} kernels ready, cached in {cache_dir()}")


def _compile(compile_all, total):
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=total, unit=" kernel", file=sys.stderr, dynamic_ncols=True,
                   bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}]")

        def show(what):
            if bar.n or bar.desc:
                bar.update(1)
            bar.set_description_str(what)
    else:
        bar = None
        step = [0]

        def show(what):
            step[0] += 1
            click.echo(f"[{step[0]}/{total}] {what}", err=True)

    try:
        done = compile_all(show)
    finally:
        if bar is not None:
            bar.update(total - bar.n)
            bar.close()
    click.echo(f"{done['seconds']:.0f} s ({done['cpu_seconds']:.0f} s of CPU)", err=True)
