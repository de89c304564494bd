"""``briscasim plot DIR``."""
import click

from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.argument("results", metavar="DIR", type=click.Path(file_okay=False))
@click.option("-o", "--out", type=click.Path(file_okay=False),
              help="Chart directory (default: DIR/report, beside the run's results).")
@click.option("--force", is_flag=True,
              help="Write into the chart directory even if it holds another run's report.")
def plot(results, out, force):
    """Draw the charts of a finished run (PNG and SVG)."""
    from pathlib import Path

    from ..analysis.runs import Run
    from ..experiments.plots import plot_all
    from ..experiments.report import load, summarize
    from .report_cmd import check_out, mark

    run = Run.open(results)
    out = Path(out) if out else Path(results) / "report"
    check_out(out, run, force)
    for name, png in plot_all(summarize(load(results)), out).items():
        click.echo(f"{name}: {png} (+ .svg)")
    mark(out, run)
