"""``briscasim presets``."""
import json

import click

from ..rules import PRESETS, Rules
from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def presets(as_json):
    """List the rule presets with every option (what each option means: docs/rules.md)."""
    rules = {name: Rules.preset(name) for name in PRESETS}
    if as_json:
        click.echo(json.dumps({n: r.options() for n, r in rules.items()}, indent=2))
        return
    for name, r in rules.items():
        click.echo(f"{name}")
        click.echo(f"    {r.describe()}")
