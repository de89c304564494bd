"""``briscasim report DIR``."""
import click


@click.command()
@click.argument("results", metavar="DIR", type=click.Path(file_okay=False))
@click.option("-o", "--out", type=click.Path(file_okay=False),
              help="Report directory (default: reports/<experiment name>).")
@click.option("--no-charts", is_flag=True, help="Tables only (faster).")
def report(results, out, no_charts):
    """Write a Markdown report with tables and charts, plus CSV tables, for a finished run."""
    from ..experiments.report import load, write_report

    path = write_report(load(results), out, charts=not no_charts)
    click.echo(f"report: {path}")
