"""``briscasim plot DIR``."""
import click

from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.argument("results", metavar="DIR", type=click.Path(file_okay=False))
@click.option("-o", "--out", type=click.Path(file_okay=False),
              help="Chart directory (default: reports/<experiment name>).")
def plot(results, out):
    """Draw the charts of a finished run (PNG and SVG)."""
    from pathlib import Path

    from ..experiments.plots import plot_all
    from ..experiments.report import load, summarize

    res = load(results)
    out = Path(out) if out else Path("reports") / res.manifest["spec"]["name"]
    for name, png in plot_all(summarize(res), out).items():
        click.echo(f"{name}: {png} (+ .svg)")
