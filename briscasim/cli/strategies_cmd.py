"""``briscasim strategies``: every play strategy and swap policy with its parameters."""
import json

import click

from . import HELP_OPTIONS

SYNTAX = ("spec: PLAY[:key=value,...][+POLICY[:key=value,...]], e.g. "
          "greedy:trump_threshold=4+hold:stock=6; a user strategy is module:function")


def _param_dict(p) -> dict:
    d = {"name": p.name, "type": p.type.__name__ if p.type is not str else "choice",
         "default": p.default, "range": p.describe_type(), "doc": p.doc}
    if p.type in (int, float):
        d["low"], d["high"] = p.low, p.high
    if p.choices:
        d["choices"] = list(p.choices)
    return d


def _def_dict(d) -> dict:
    out = {"name": d.name, "doc": d.doc, "params": [_param_dict(p) for p in d.params]}
    if d.omniscient:
        out["omniscient"] = True
    if d.python:
        out["prototype"] = True
    return out


def _echo_def(d) -> None:
    tags = []
    if d.omniscient:
        tags.append("CHEATING: reads hidden cards (upper bound)")
    if d.python:
        tags.append("pure Python prototype, slow")
    click.echo(f"{d.name}  {d.doc}" + (f"  [{'; '.join(tags)}]" if tags else ""))
    for p in d.params:
        click.echo(f"    {p.name}={p.format(p.default)}  ({p.describe_type()})  {p.doc}")


@click.command(context_settings=HELP_OPTIONS)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def strategies(as_json):
    """List the play strategies and swap policies, with parameters, types, defaults,
    ranges and docs."""
    from ..strategies.registry import REGISTRY, SWAP_POLICIES
    if as_json:
        click.echo(json.dumps({
            "syntax": SYNTAX,
            "strategies": [_def_dict(d) for d in REGISTRY.values()],
            "swap_policies": [_def_dict(d) for d in SWAP_POLICIES.values()],
        }, indent=2))
        return
    click.echo(SYNTAX)
    click.echo("\nplay strategies:")
    for d in REGISTRY.values():
        _echo_def(d)
    click.echo("\nswap policies (after '+'):")
    for d in SWAP_POLICIES.values():
        _echo_def(d)
