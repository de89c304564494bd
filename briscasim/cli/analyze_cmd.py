"""``briscasim analyze``: every legal action of a position with its expected score and margin."""
from __future__ import annotations

import json

import click

from ..errors import UserError
from . import HELP_OPTIONS
from .options import SECONDS
from .simulate_cmd import format_table, rules_from_options, rules_options


@click.command(context_settings=HELP_OPTIONS)
@rules_options
@click.option("--file", "deal_file", type=click.Path(dir_okay=False), default=None,
              help="A deal from a JSON or TOML file, as `briscasim replay --file` reads it.")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[:key=value,...]",
              help="A simulated deal: the strategies, as given to `briscasim simulate` "
                   "(default: random).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="A simulated deal: the master seed.")
@click.option("--deal", "deal_index", type=int, default=0, show_default=True,
              help="A simulated deal: its index.")
@click.option("--rotation", type=int, default=0, show_default=True,
              help="A simulated deal: the rotation of the strategies (--duplicate).")
@click.option("--at", "at", type=int, default=None,
              help="The position after this many actions of the deal (0: before the first).")
@click.option("--seat", type=int, default=None,
              help="A typed-in position: the seat to act.")
@click.option("--hand", default=None, metavar="CODES",
              help="A typed-in position: the seat's hand now (e.g. \"Ao 3c 5e\").")
@click.option("--face-up", "face_up", default=None, metavar="CODE",
              help="A typed-in position: the card turned face up at the deal.")
@click.option("--played", default="", metavar="ITEMS",
              help="A typed-in position: the actions so far in order, each SEAT:CARD or "
                   "SEAT:swap (e.g. \"0:4c 1:2b 0:swap 0:5e\"); the seat may be left out.")
@click.option("--iterations", type=int, default=1000, show_default=True,
              help="Worlds sampled (each action is played out in every world).")
@click.option("--seconds", type=SECONDS, default=None,
              help="Stop sampling after this many seconds (at least one batch is played).")
@click.option("--sample-seed", type=int, default=0, show_default=True,
              help="Seed of the sampled worlds.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def analyze(preset, rule_overrides, deal_file, strategies, seed, deal_index, rotation, at,
            seat, hand, face_up, played, iterations, seconds, sample_seed, as_json):
    """Every legal action of a position with its expected score (wins + draws/2) and point
    margin, each with a 95% interval, for the seat to act.

    \b
    Worlds consistent with what the seat knows are sampled; each action is played in each
    world and the deal played out by greedy. Where the rest of the deal is perfect
    information (two players, the stock empty) the value is exact (alpha-beta).
    \b
      briscasim analyze --file deal.toml --at 12
      briscasim analyze --preset brisca-2 --strategy greedy --seed 1 --deal 7 --at 30
      briscasim analyze --preset brisca-2 --seat 1 --hand "Ao 3c 5e" --face-up 4o \\
          --played "0:Rb 1:2b 0:7c"
    """
    from .. import replay as R
    from ..position import analyze as run, deal_at, typed_position

    typed = [name for name, v in (("--seat", seat), ("--hand", hand), ("--face-up", face_up),
                                  ("--played", played or None)) if v is not None]
    if typed:
        if deal_file is not None or strategies or at is not None:
            raise UserError(f"{typed[0]} types a position in; it takes no --file, --strategy "
                            "or --at")
        missing = [name for name in ("--seat", "--hand", "--face-up") if name not in typed]
        if missing:
            raise UserError(f"a typed-in position needs {', '.join(missing)} too")
    elif at is None:
        raise UserError("give --at (the position after that many actions of the deal), or "
                        "type a position in with --seat, --hand, --face-up and --played")
    if iterations < 1:
        raise UserError(f"--iterations = {iterations}: give at least 1")
    if deal_file is not None and strategies:
        raise UserError("--strategy analyzes a simulated deal; a deal from --file takes its "
                        "actions from the file")
    if deal_file is not None:
        from ..rules import parse_override
        overrides = dict(parse_override(t) for t in rule_overrides)
        position = deal_at(R.load_deal_file(deal_file, preset, overrides), at)
    else:
        rules = rules_from_options(preset, rule_overrides)
        if rules.match_kind != "deal":
            raise UserError("analyze takes a single deal; rules with a match option play "
                            "matches")
        if typed:
            position = typed_position(rules, seat, hand, face_up, played)
        else:
            position = deal_at(R.replay_deal(rules, list(strategies) or ["random"], seed,
                                             deal_index, rotation), at)
    result = run(position, iterations, seconds, sample_seed)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    p = result.position
    table = (f"auction {' '.join(p['auction']) or '-'}; called {p['called'] or '-'} (trump "
             f"{p['trump']}); points " + ", ".join(f"seat {i}: {x}"
                                                   for i, x in enumerate(p["points"]))
             if "auction" in p else
             f"face-up {p['face_up']} (trump {p['trump']}); points "
             + ", ".join(f"side {i}: {x}" for i, x in enumerate(p["points"])))
    click.echo(f"{p['rules']}, after {p['at']} actions: seat {p['seat']} to act "
               f"({p['phase']}); hand {' '.join(p['hand'])}; trick {' '.join(p['trick']) or '-'}"
               f"; {table}")
    click.echo(format_analysis(result))


def format_analysis(result, top: int | None = None, also=(), more: str = "") -> str:
    """The values of an analysis as a table, best first, under a line saying how they were
    found and above the actions tied with the best and what the columns mean; with ``top``,
    only the best ``top`` actions and those of ``also``, then how many are left out and
    ``more`` (how to see them)."""
    from ..game import action_code
    exact = all(a.exact for a in result.actions)
    how = ("exact (alpha-beta, perfect information from here)" if exact else
           f"{result.worlds} sampled worlds, played out by greedy")
    ranked = result.ranked
    shown = [a for i, a in enumerate(ranked) if top is None or i < top or a.action in also]
    rows = []
    for a in shown:
        d = a.to_dict()
        ci = ("" if exact else f"[{a.score_ci95[0]:.3f}, {a.score_ci95[1]:.3f}]")
        mci = ("" if exact else f"[{a.margin_ci95[0]:+.1f}, {a.margin_ci95[1]:+.1f}]")
        rows.append([d["action"], f"{a.score:.3f}", ci, f"{a.margin:+.1f}", mci])
    lines = [f"values: {how}",
             format_table(["action", "score", "95% interval", "margin", "95% interval"], rows)]
    if len(shown) < len(ranked):
        lines.append(f"... and {len(ranked) - len(shown)} more{more}")
    if len(result.tied) > 1:
        codes = [action_code(a) for a in result.tied]
        lines.append(("equal: " if exact else "tied: ")
                     + (", ".join(codes) if len(codes) <= 6 else
                        f"{', '.join(codes[:6])} and {len(codes) - 6} more")
                     + ("" if exact else " (none of them is below the best by a paired 95% "
                        "interval; more worlds may separate them)"))
    chiamata = "auction" in result.position
    lines.append("score: expected result (win 1, draw 1/2, loss 0"
                 + ("; a win is positive game points" if chiamata else "")
                 + "); margin, a difference: "
                 + ("card points of your side beyond what it needs" if chiamata else
                    "your side's points minus the best other side's"))
    return "\n".join(lines)
