"""``briscasim simulate``: many deals between strategies, with win rates and points.

Also home of the options shared by the commands that take rules and strategies
(:func:`rules_options`, :func:`rules_from_options`, :func:`format_table`).
"""
from __future__ import annotations

import json
import math
import sys

import click

from ..rules import Rules, parse_override
from . import HELP_OPTIONS


def complete_preset(ctx, param, incomplete):
    """Shell completion of ``--preset``: the preset names."""
    from ..rules import PRESETS
    return [name for name in PRESETS if name.startswith(incomplete)]


def complete_rule(ctx, param, incomplete):
    """Shell completion of ``--rule``: the option names, then ``=``."""
    from ..rules import OPTION_NAMES
    return [f"{name}=" for name in OPTION_NAMES if name.startswith(incomplete)]


def complete_strategy(ctx, param, incomplete):
    """Shell completion of ``--strategy``: the play strategies, then after ``+`` the swap
    policies."""
    from ..strategies.registry import REGISTRY, SWAP_POLICIES
    play, plus, policy = incomplete.partition("+")
    if plus:
        return [f"{play}+{name}" for name in SWAP_POLICIES if name.startswith(policy)]
    return [name for name in REGISTRY if name.startswith(incomplete)]


def rules_options(f):
    """``--preset`` and repeatable ``--rule key=value``."""
    f = click.option("--rule", "rule_overrides", multiple=True, metavar="KEY=VALUE",
                     shell_complete=complete_rule,
                     help="Override a rule option, e.g. swap_timing=after_draw (repeatable).")(f)
    return click.option("--preset", default="brisca-2", show_default=True,
                        shell_complete=complete_preset,
                        help="Rule preset (see `briscasim presets`).")(f)


def rules_from_options(preset: str, rule_overrides) -> Rules:
    """The rules of ``--preset`` with every ``--rule`` applied (validated)."""
    overrides = dict(parse_override(text) for text in rule_overrides)
    return Rules.preset(preset, **overrides)


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """Columns aligned: the first left, the others right."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = []
    for row in [header, *rows]:
        cells = [str(x).ljust(w) if i == 0 else str(x).rjust(w)
                 for i, (x, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.2f}%"


def _ci(lo_hi) -> str:
    lo, hi = lo_hi
    return f"[{100 * lo:.2f}, {100 * hi:.2f}]"


def _extra_column(d: dict):
    """The column beside the points that applies to these rules, as ``(key, heading,
    format)``, or None: deals won in a match, how often a seat was the caller in Briscola
    Chiamata, black hands under the black-hand rule."""
    options = d["options"]
    if d["match"] != "deal":
        return "mean_deals_won", "deals won", lambda x: f"{x:.2f}"
    if options.get("auction") is not None:
        return "caller_rate", "caller", _pct
    if options["black_hand"]:
        return "black_hand_rate", "black hand", _pct
    return None


def _p_value(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.2g}"


def _paired_lines(p: dict) -> list[str]:
    """Duplicate play: the paired difference of the first two strategies."""
    lo, hi = p["score_diff_ci95"]
    plo, phi = p["points_diff_ci95"]
    return [f"{p['a']} - {p['b']}, paired on the same {p['deals']:,} deals (95% interval):",
            f"  score (win 1, draw 1/2) {p['score_diff']:+.3f} [{lo:+.3f}, {hi:+.3f}], "
            f"{_p_value(p['score_p_value'])}",
            f"  points {p['points_diff']:+.2f} [{plo:+.2f}, {phi:+.2f}], "
            f"{_p_value(p['points_p_value'])}"]


def format_result(d: dict) -> str:
    """The human-readable report of a ``SimulationResult.to_dict()``."""
    match = d["match"] != "deal"
    chiamata = d["options"].get("auction") is not None
    what = f"{d['matches']:,} matches ({d['deals']:,} deals)" if match else f"{d['deals']:,} deals"
    dup = f" x {d['rotations']} rotations (duplicate)" if d["duplicate"] else ""
    facts = [f"{'thrown-in' if chiamata else 'draw'} rate {_pct(d['draw_rate'])} "
             f"{_ci(d['draw_rate_ci95'])}"]
    if d["options"].get("black_hand"):
        facts.append(f"black hands {_pct(d['black_hand_rate'])} of deals")
    if match:
        facts.append(f"{d['mean_deals_per_match']:.2f} deals per match")
    lines = [
        f"rules {d['rules']}",
        f"{what}{dup}, seed {d['seed']}, {d['workers']} "
        f"{'worker' if d['workers'] == 1 else 'workers'}: {d['seconds']:.2f} s, "
        f"{d['deals_per_second']:,.0f} deals/s",
        ", ".join(facts),
        "",
    ]
    extra = _extra_column(d)
    points = "game pts" if chiamata and not match else "pts"
    head = ["win rate", "95% CI", f"mean {points}", f"sd {points}"]
    if extra:
        head.append(extra[1])

    def cells(item):
        row = [_pct(item["win_rate"]), _ci(item["win_rate_ci95"]),
               f"{item['mean_points']:.2f}", f"{item['sd_points']:.2f}"]
        return row + ([extra[2](item[extra[0]])] if extra else [])

    rows = [[str(it["seat"]), str(it["side"]), it["strategy"] or "(rotating)", *cells(it)]
            for it in d["by_seat"]]
    lines.append(format_table(["seat", "side", "strategy", *head], rows))
    lines.append("")
    rows = [[it["strategy"], ",".join(map(str, it["entries"])), *cells(it)]
            for it in d["by_strategy"]]
    lines.append(format_table(["strategy", "entries", *head], rows))
    if match:
        lines.append(f"(win rate: matches won; points: {'game' if chiamata else 'card'} "
                     "points summed over the match)")
    elif chiamata:
        lines.append("(win rate: deals with positive game points; caller: deals the seat won "
                     "the auction)")
    if "paired" in d:
        lines += ["", *_paired_lines(d["paired"])]
    return "\n".join(lines)


@click.command(context_settings=HELP_OPTIONS)
@rules_options
@click.option("--strategy", "strategies", multiple=True, default=("random",), show_default=True,
              metavar="NAME[:key=value,...]", shell_complete=complete_strategy,
              help="Strategy for every seat (given once) or for each seat in order "
                   "(given once per seat).")
@click.option("--deals", default=100_000, show_default=True, type=int,
              help="Deals to play (matches, under a match rule); at most 2**32.")
@click.option("--seed", default=1, show_default=True, type=int, help="Master seed.")
@click.option("--duplicate", is_flag=True,
              help="Play every deal once per rotation of the strategies over the seats.")
@click.option("--workers", type=int, default=None,
              help="Threads (default: every core the process may use).")
@click.option("--chunk-size", type=int, default=None, hidden=True,
              help="Deals per chunk (results do not depend on it).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate(preset, rule_overrides, strategies, deals, seed, duplicate, workers, chunk_size,
             as_json):
    """Play many deals between strategies; print win rates (95% CI), draws and points.

    \b
    briscasim simulate --preset brisca-2 --strategy random --deals 1000000 --seed 1
    briscasim simulate --strategy greedy --strategy random --duplicate --json
    """
    rules = rules_from_options(preset, rule_overrides)
    from ..simulate import Lineup, simulate as run

    lineup = Lineup.build(rules, list(strategies))
    result = run(rules, lineup, deals, seed, duplicate=duplicate, workers=workers,
                 chunk_size=chunk_size, progress=not as_json and sys.stderr.isatty())
    d = result.to_dict()
    sys.stderr.flush()                  # notices (compiling ...) before the result, piped too
    click.echo(json.dumps(d, indent=2) if as_json else format_result(d))
