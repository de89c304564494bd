"""``briscasim compare``: two players on duplicate deals, each one's score and the paired
difference."""
import json

import click

from . import HELP_OPTIONS
from .simulate_cmd import complete_strategy, rules_options


@click.command(context_settings=HELP_OPTIONS)
@click.argument("a", metavar="A", shell_complete=complete_strategy)
@click.argument("b", metavar="B", shell_complete=complete_strategy)
@rules_options
@click.option("--deals", default=1000, show_default=True, type=int,
              help="Duplicate deals (matches, under a match rule), each played in every "
                   "rotation of the seats; at most 2**32.")
@click.option("--seed", default=1, show_default=True, type=int, help="Master seed.")
@click.option("--workers", type=int, default=None, help="Threads (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def compare(a, b, preset, rule_overrides, deals, seed, workers, as_json):
    """Compare strategy A with strategy B on duplicate deals: the same cards, every deal
    played once per rotation of the seats. With sides A holds the first seat's side and B
    the others; without, A holds one seat and B every other. Prints each one's score (wins +
    draws/2; game points a deal in Briscola Chiamata) with its 95% interval, and the paired
    difference A - B with its 95% interval and p-value.

    \b
    briscasim compare expert greedy --preset brisca-2 --deals 20000 --seed 3
    briscasim compare ismcts greedy --preset brisca-4-pairs --deals 200 --json
    briscasim compare greedy random --preset briscola-2-31 --rule match=deal --seed 1
    """
    from ..analysis.compare import compare as run, format_comparison
    from ..rules import parse_override

    rule = dict(parse_override(text) for text in rule_overrides)
    c = run(a, b, preset, deals, seed, rule, workers)
    click.echo(json.dumps(c, indent=2) if as_json else format_comparison(c))
