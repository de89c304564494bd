"""``briscasim research NAME`` / ``--all``: answer questions of the research pack."""
import click

from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.argument("names", metavar="[NAME]...", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Every question of the pack.")
@click.option("--list", "list_", is_flag=True, help="List the questions and the analyses.")
@click.option("--quick", is_flag=True,
              help="Smoke run: few deals, small searches, results under runs/research-quick.")
@click.option("--workers", type=click.IntRange(min=1), help="Threads (default: every core).")
@click.option("--runs", type=click.Path(file_okay=False),
              help="Results folder (default runs/research, or runs/research-quick).")
@click.option("--reports", type=click.Path(file_okay=False),
              help="Reports folder (default reports/, or runs/research-quick/reports).")
@click.option("--specs", type=click.Path(file_okay=False),
              help="Folder of the pack's specs (default: the source tree's experiments/).")
@click.option("--fresh", is_flag=True, help="Play the runs again from scratch.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@click.option("--charts", is_flag=True,
              help="Only draw the charts again, from the CSV tables of the reports (no runs).")
def research(names, all_, list_, quick, workers, runs, reports, specs, fresh, quiet, charts):
    """Run the specs of research questions and write their reports (reports/NAME/)."""
    import sys
    import time

    from ..analysis import pack, registry
    from ..errors import UserError

    if list_:
        for q in pack.QUESTIONS.values():
            click.echo(f"{q.name:24s} {q.title}")
        click.echo("")
        for a in registry.ANALYSES.values():
            click.echo(f"analysis {a.name:24s} {a.summary}")
        return
    for name in names:
        pack.question(name)                          # every name checked before any work
    if all_ and names:
        raise UserError(f"--all answers every question; it takes no names (got "
                        f"{', '.join(names)}): give the names alone, or --all alone")
    if not all_ and not names:
        raise UserError("name research questions or pass --all; valid questions: "
                        + ", ".join(pack.QUESTIONS))
    todo = list(pack.QUESTIONS) if all_ else list(names)
    opts = pack.Options(quick=quick, fresh=fresh, workers=workers, runs=runs, reports=reports,
                        specs=specs, progress=sys.stderr.isatty() and not quiet)
    if charts:
        for name in todo:
            for png in pack.redraw(name, opts).values():
                click.echo(f"{name}: {png} (+ .svg)")
        return
    for name in todo:
        started = time.perf_counter()
        path = pack.answer(name, opts)
        click.echo(f"{name}: {path} ({time.perf_counter() - started:.0f} s)")
