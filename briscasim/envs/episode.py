"""The rules an environment plays: one deal is one episode."""
from __future__ import annotations

from ..errors import UserError
from ..rules import Rules


def deal_rules(rules: Rules | str, options: dict) -> Rules:
    """``rules`` (a preset name or a :class:`~briscasim.rules.Rules` value) with ``options``
    overriding, as the rules of one deal: a preset that plays a match (schembil,
    briscolone-2, ...) is played deal by deal, each deal an episode; a ``match`` option
    other than ``"deal"`` given in ``options`` is refused."""
    if "match" in options and options["match"] != "deal":
        raise UserError(f"the environments play single deals; rule option match = "
                        f"{options['match']!r} is not supported")
    rules = Rules.coerce(rules)
    if options:
        rules = rules.replace(**options)
    return rules if rules.match_kind == "deal" else rules.replace(match="deal")
