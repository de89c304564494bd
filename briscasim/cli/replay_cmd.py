"""``briscasim replay``: a simulated deal again, bit for bit, or a deal typed in by hand."""
from __future__ import annotations

import json

import click

from ..errors import UserError
from ..limits import MAX_INDEX
from . import HELP_OPTIONS
from .simulate_cmd import complete_strategy, rules_from_options, rules_options


def _outcome_line(rules, replay) -> str:
    from .. import batch

    rec = replay.record
    sides = range(len(rules.sides))
    won = ", ".join(f"side {s}: {rec[batch.M_DEALS_WON + s]}" for s in sides)
    pts = ", ".join(f"side {s}: {rec[batch.M_POINTS + s]}" for s in sides)
    res = "draw" if replay.winner is None else f"side {replay.winner} wins"
    return (f"match result: {res} after {rec[batch.M_DEALS]} deals (deals won {won}; "
            f"points {pts})")


@click.command(context_settings=HELP_OPTIONS)
@rules_options
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[:key=value,...]",
              shell_complete=complete_strategy,
              help="Strategies as given to `briscasim simulate` (default: random).")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed.")
@click.option("--deal", "deal_index", type=int, default=0, show_default=True,
              help="Index of the deal (the match, under a match rule) in the simulation.")
@click.option("--rotation", type=int, default=0, show_default=True,
              help="Rotation of the strategies (simulations with --duplicate).")
@click.option("--deck", default=None, metavar="CODES",
              help="Replay a typed-in deal: the deck order, top first (e.g. \"Ao 3c ...\").")
@click.option("--actions", default=None, metavar="CODES",
              help="With --deck: the actions played, in order (cards, swap, keep; in "
                   "Briscola Chiamata pass, bid:R, bid:75, call:Ro).")
@click.option("--file", "deal_file", type=click.Path(dir_okay=False), default=None,
              help="Replay a typed-in deal from a JSON or TOML file (keys deck, actions, "
                   "preset/rules or options).")
@click.option("--json", "as_json", is_flag=True, help="Print the deal as JSON.")
def replay(preset, rule_overrides, strategies, seed, deal_index, rotation, deck, actions,
           deal_file, as_json):
    """Show a deal: hands, face-up card, tricks, swaps, draws, points and result.

    \b
    A simulated deal, bit for bit:
      briscasim replay --preset brisca-2 --strategy random --seed 1 --deal 123
    A deal from a real table:
      briscasim replay --preset brisca-2 --deck "Ao 3c ..." --actions "Ao 7c swap ..."
      briscasim replay --file deal.toml
    """
    from .. import replay as R

    for name, value, most in (("--seed", seed, 2 ** 64 - 1), ("--deal", deal_index, MAX_INDEX),
                              ("--rotation", rotation, MAX_INDEX)):
        if value > most:                      # the engine's integers; below 0: its checks
            raise UserError(f"{name} {value} is too large: at most {most}")
    typed = deck is not None or deal_file is not None
    if deck is not None and deal_file is not None:
        raise UserError("give the deal either with --deck or with --file, not both")
    if actions is not None and deck is None:
        raise UserError("--actions needs --deck (the deck order the actions were played from)")
    if typed and strategies:
        raise UserError("--strategy replays a simulated deal; a typed-in deal (--deck/--file) "
                        "takes its actions from --actions or the file")
    if deal_file is not None:
        from ..rules import parse_override
        overrides = dict(parse_override(t) for t in rule_overrides)
        deal = R.load_deal_file(deal_file, preset, overrides)
    else:
        rules = rules_from_options(preset, rule_overrides)
        if typed:
            deal = R.replay_typed(rules, deck, actions or "")
        elif rules.match_kind != "deal":
            m = R.replay_match(rules, list(strategies) or ["random"], seed, deal_index,
                               rotation)
            if as_json:
                click.echo(json.dumps({
                    "seed": seed, "match": deal_index, "rotation": rotation,
                    "deals": [d.to_dict() for d in m.deals],
                    "winner": m.winner, "record": m.record.tolist()}, indent=2))
                return
            n = rules.players
            for j, d in enumerate(m.deals):
                click.echo(f"== match {deal_index}, deal {j} (seat s is player (s + {d.shift}) "
                           f"% {n})")
                click.echo(d.log())
                click.echo("")
            click.echo(_outcome_line(rules, m))
            return
        else:
            from ..simulate import Lineup
            lineup = Lineup.build(rules, list(strategies) or ["random"])
            deal = R.replay_deal(rules, lineup, seed, deal_index, rotation)
            n = rules.players
            seats = [lineup.labels[(s + rotation) % n] for s in range(n)]
            if as_json:
                d = deal.to_dict()
                d.update(seed=seed, deal_index=deal_index, rotation=rotation, strategies=seats)
                click.echo(json.dumps(d, indent=2))
                return
            click.echo(f"deal {deal_index} of seed {seed}, rotation {rotation}: "
                       + ", ".join(f"seat {s} {x}" for s, x in enumerate(seats)))
    if as_json:
        click.echo(json.dumps(deal.to_dict(), indent=2))
        return
    click.echo(deal.log())
    line = R.state_line(deal)
    if line:
        click.echo(line)
