"""``briscasim``: the command-line entry point.

Each subcommand lives in its own module of this package and is listed in ``COMMANDS``;
modules are imported only when their command runs, so ``briscasim --help`` stays fast.
Errors that users can fix (:class:`~briscasim.errors.UserError`, the base of the rules, card,
strategy and spec errors) and errors of the file system (``OSError``: a read-only or full
disk, a path under a file) print one line and exit with status 2, without a traceback. ``-h``
and ``--help`` show every command's help.
"""
from __future__ import annotations

import importlib
import sys

import click

from ..errors import UserError
from . import HELP_OPTIONS

# command name -> (module, attribute, one-line help)
COMMANDS = {
    "presets": ("briscasim.cli.presets_cmd", "presets", "List the rule presets and their options."),
    "strategies": ("briscasim.cli.strategies_cmd", "strategies", "List strategies, swap policies, parameters."),
    "validate": ("briscasim.cli.validate_cmd", "validate", "Check an experiment spec; list its cells."),
    "run": ("briscasim.cli.run_cmd", "run", "Run an experiment spec (resumable, local or Dask)."),
    "report": ("briscasim.cli.report_cmd", "report", "Tables, tests and charts of a finished run."),
    "plot": ("briscasim.cli.plot_cmd", "plot", "Charts of a finished run (PNG and SVG)."),
    "research": ("briscasim.cli.research_cmd", "research", "Answer questions of the research pack."),
    "simulate": ("briscasim.cli.simulate_cmd", "simulate", "Play many deals between strategies."),
    "compare": ("briscasim.cli.compare_cmd", "compare", "Two players on duplicate deals, paired."),
    "replay": ("briscasim.cli.replay_cmd", "replay", "Show a simulated or typed-in deal again."),
    "bench": ("briscasim.cli.bench_cmd", "bench", "Measure the engine's speed and memory."),
    "compile": ("briscasim.cli.compile_cmd", "compile_kernels",
                "Compile every built-in lineup's kernels ahead of need (once)."),
    "analyze": ("briscasim.cli.analyze_cmd", "analyze", "Value every legal action of a position."),
    "play": ("briscasim.cli.play_cmd", "play", "Play a deal or a match in the terminal."),
    "train": ("briscasim.cli.train_cmd", "train", "Train the learned player (the learn extra)."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, COMMANDS[name][2]) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings=HELP_OPTIONS)
@click.version_option(package_name="briscasim")
def cli():
    """briscasim: simulate Brisca and Briscola deals and study strategies."""


def main(argv=None):
    """Run the CLI, turning user errors into one clear line and exit status 2."""
    try:
        cli.main(args=argv, standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except UserError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    except OSError as e:        # a read-only or full disk, a path under a file ...
        where = f"{e.filename}: " if e.filename else ""
        click.echo(f"error: {where}{e.strerror or e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
