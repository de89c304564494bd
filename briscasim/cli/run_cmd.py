"""``briscasim run SPEC``."""
import sys

import click

from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.argument("spec_file", metavar="SPEC", type=click.Path(dir_okay=False))
@click.option("-o", "--out", type=click.Path(file_okay=False),
              help="Results directory (default: runs/<spec name>).")
@click.option("--workers", type=click.IntRange(1), help="Parallel workers (default: all cores).")
@click.option("--resume", is_flag=True,
              help="Complete an interrupted run in --out, or check a finished one: chunk files "
                   "missing or damaged (checksums) are played again.")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Threads here, or a Dask distributed cluster.")
@click.option("--scheduler", metavar="ADDRESS",
              help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (docs/cluster.md).")
@click.option("--quiet", is_flag=True,
              help="No progress bar (there is none anyway when stderr is not a terminal).")
def run(spec_file, out, workers, resume, executor, scheduler, quiet):
    """Run an experiment spec; per-deal results go to Parquet files in the results directory.

    A run stopped at any moment keeps its finished chunks; --resume completes it with exactly
    the results of an uninterrupted run. The results directory is a Parquet dataset
    partitioned by cell (docs/specs.md).
    """
    from ..experiments.runner import run as run_spec
    from ..experiments.spec import load_spec

    spec = load_spec(spec_file)
    path = run_spec(spec, out, workers=workers, resume=resume, executor=executor,
                    scheduler=scheduler, progress=not quiet and sys.stderr.isatty())
    click.echo(f"results in {path}; next: briscasim report {path}")
