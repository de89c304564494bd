"""``briscasim report DIR``: the report of a run, by default beside it in ``DIR/report/``.

A report folder holds a marker (:data:`MARKER`) naming the run it was written from (its
folder, the spec's digest and when the run was created), so that writing a report never
replaces the report of another run, or files that are no report, unless told ``--force``.
"""
import json
from pathlib import Path

import click

from ..errors import UserError
from . import HELP_OPTIONS

MARKER = ".briscasim-report.json"
"""The file in a report folder that names the run the report belongs to."""


def _identity(run) -> dict:
    return {"run": str(Path(run.path).resolve()), "name": run.name,
            "digest": run.manifest.get("digest"), "created": run.manifest.get("created")}


def _same_run(owner, run) -> bool:
    """True if the marker ``owner`` names ``run``: its folder, or (a run moved since) the
    same spec created at the same time."""
    if not isinstance(owner, dict):
        return False
    mine = _identity(run)
    if owner.get("run") == mine["run"]:
        return True
    moved = not Path(str(owner.get("run"))).exists()
    return moved and all(owner.get(k) == mine[k] for k in ("digest", "created"))


def check_out(out: Path, run, force: bool) -> None:
    """Refuse to write the report of ``run`` into ``out`` if ``out`` holds the report of
    another run, or other files, unless ``force``."""
    if force or not out.exists() or not any(out.iterdir()):
        return
    try:
        owner = json.loads((out / MARKER).read_text())
    except (OSError, ValueError):
        raise UserError(f"{out}: holds files that are not a briscasim report; pass --force "
                        "to write the report there anyway, or choose another -o DIR") from None
    if not _same_run(owner, run):
        other = owner.get("run", "?") if isinstance(owner, dict) else "?"
        raise UserError(f"{out}: holds the report of another run ({other}); pass --force to "
                        "replace it, or choose another -o DIR")


def mark(out: Path, run) -> None:
    """Mark ``out`` as holding the report of ``run``."""
    (out / MARKER).write_text(json.dumps(_identity(run), indent=2) + "\n")


@click.command(context_settings=HELP_OPTIONS)
@click.argument("results", metavar="DIR", type=click.Path(file_okay=False))
@click.option("-o", "--out", type=click.Path(file_okay=False),
              help="Report directory (default: DIR/report, beside the run's results).")
@click.option("--force", is_flag=True,
              help="Write into the report directory even if it holds another run's report.")
@click.option("--analysis", metavar="NAME",
              help="Named analysis to run (default: the one the spec names, else generic; "
                   "briscasim research --list).")
@click.option("--no-charts", is_flag=True, help="Tables only (faster; generic analysis).")
def report(results, out, force, analysis, no_charts):
    """Write a Markdown report with tables and charts, plus CSV tables, for a finished run
    (by default into DIR/report/; another run's report is never replaced without --force)."""
    from ..analysis import registry
    from ..analysis.document import Context
    from ..analysis.runs import Run

    run = Run.open(results)
    name = analysis or run.analysis or registry.GENERIC
    chosen = registry.get(name)
    out = Path(out) if out else Path(results) / "report"
    check_out(out, run, force)
    if name == registry.GENERIC:
        from ..experiments.report import load, write_report
        path = write_report(load(results), out, charts=not no_charts)
    else:
        chosen.check([run])
        path = chosen.analyse([run], Context(out=out,
                                             regenerate=f"briscasim report {results}"))
    mark(out, run)
    click.echo(f"report: {path}")
