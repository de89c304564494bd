"""``briscasim presets [NAME]``."""
import json

import click

from ..rules import DESCRIPTIONS, PRESETS, Rules, _format_value
from . import HELP_OPTIONS


def _value(v) -> str:
    text = _format_value(v)
    return f'"{text}"' if " " in text else text


def _options(d: dict) -> str:
    return " ".join(f"{k}={_value(v)}" for k, v in d.items())


@click.command(context_settings=HELP_OPTIONS)
@click.argument("name", required=False, shell_complete=lambda ctx, param, incomplete: [
    n for n in PRESETS if n.startswith(incomplete)])
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def presets(name, as_json):
    """List the rule presets, each with a line on it and the options it sets; with NAME,
    every option of that preset (what each option means: docs/rules.md).

    \b
      briscasim presets
      briscasim presets chiamata-5 --json
    """
    if name is not None:
        r = Rules.preset(name)
        if as_json:
            click.echo(json.dumps({"name": name, "description": DESCRIPTIONS[name],
                                   "differences": r.differences(), "options": r.options()},
                                  indent=2))
            return
        click.echo(f"{name}: {DESCRIPTIONS[name]}")
        width = max(map(len, r.options()))
        changed = r.differences()
        for k, v in r.options().items():
            click.echo(f"  {k:{width}}  {_value(v)}" + ("  *" if k in changed else ""))
        click.echo("(* differs from the defaults)")
        return
    rules = {n: Rules.preset(n) for n in PRESETS}
    if as_json:
        click.echo(json.dumps({n: r.options() for n, r in rules.items()}, indent=2))
        return
    width = max(map(len, PRESETS))
    for n, r in rules.items():
        changed = _options(r.differences())
        click.echo(f"{n:{width}}  {DESCRIPTIONS[n]}" + (f": {changed}" if changed else ""))
    click.echo("\nOptions not shown are the defaults (the brisca-2 game; Chiamata's own for "
               "its options). Every option of one preset: briscasim presets NAME")
