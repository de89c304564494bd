"""``briscasim report DIR``."""
import click

from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.argument("results", metavar="DIR", type=click.Path(file_okay=False))
@click.option("-o", "--out", type=click.Path(file_okay=False),
              help="Report directory (default: reports/<experiment name>).")
@click.option("--analysis", metavar="NAME",
              help="Named analysis to run (default: the one the spec names, else generic; "
                   "briscasim research --list).")
@click.option("--no-charts", is_flag=True, help="Tables only (faster; generic analysis).")
def report(results, out, analysis, no_charts):
    """Write a Markdown report with tables and charts, plus CSV tables, for a finished run."""
    from pathlib import Path

    from ..analysis import registry
    from ..analysis.document import Context
    from ..analysis.runs import Run

    run = Run.open(results)
    name = analysis or run.analysis or registry.GENERIC
    chosen = registry.get(name)
    out = Path(out) if out else Path("reports") / run.name
    if name == registry.GENERIC:
        from ..experiments.report import load, write_report
        path = write_report(load(results), out, charts=not no_charts)
    else:
        chosen.check([run])
        path = chosen.analyse([run], Context(out=out,
                                             regenerate=f"briscasim report {results}"))
    click.echo(f"report: {path}")
