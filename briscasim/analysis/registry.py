"""The named analyses: what a spec's ``analysis = "NAME"`` asks for and what ``briscasim
report`` runs on a finished run (``generic`` when the spec names none).

Each analysis module has ``NAME``, ``check(runs)`` (UserError when the analysis
does not fit the runs: one line naming both and what would fit) and ``analyse(runs, ctx)``
(writes the report into ``ctx.out``, returns the Markdown file); those with charts have
``figures(tables)``, the charts drawn from the report's CSV tables alone (so they can be drawn
again without the runs). Modules are imported only when their analysis runs.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from ..errors import UserError
from ..suggest import valid_choices

GENERIC = "generic"


@dataclass(frozen=True)
class Analysis:
    name: str
    summary: str
    module: str
    check_attr: str = "check"
    analyse_attr: str = "analyse"
    figures_attr: str | None = "figures"

    def _mod(self):
        return importlib.import_module(self.module)

    def check(self, runs) -> None:
        getattr(self._mod(), self.check_attr)(runs)

    def analyse(self, runs, ctx):
        return getattr(self._mod(), self.analyse_attr)(runs, ctx)

    def figures(self, tables: dict) -> dict:
        """The report's charts drawn from its tables ``{CSV name: DataFrame}``."""
        return getattr(self._mod(), self.figures_attr)(tables) if self.figures_attr else {}


_P = "briscasim.analysis."
ANALYSES = {a.name: a for a in (
    Analysis(GENERIC, "every cell: win rates, scores, seats, duplicate pairs, swaps, points",
             _P + "generic", figures_attr=None),
    Analysis("swap_policy", "swap policies of entry 0 against swapping at once, paired deal "
             "by deal", _P + "swap_policy"),
    Analysis("seat_advantage", "edge of the first player (or side) with the same strategy in "
             "every seat", _P + "seat_advantage"),
    Analysis("seat_fairness", "seat fairness, spread, skill against luck and the card out of "
             "play per variant", _P + "seat_fairness"),
    Analysis("signals", "partner signals: score of the side using them, and on minus off",
             _P + "signals"),
    Analysis("round_robin", "pairings on duplicate deals with scores and Elo ratings",
             _P + "round_robin"),
    Analysis("reverse_objective", "round robin in Brisca al revés beside a usual variant: "
             "what carries over", _P + "round_robin", "check_reverse", "analyse_reverse"),
    Analysis("luck_skill", "luck or skill: trumps dealt against the pairing, variance "
             "shares, match length", _P + "luck_skill"),
    Analysis("chiamata", "Briscola Chiamata: contracts, hands, self-calls, seats, first "
             "lead, scoring, strength by role", _P + "chiamata"),
)}


def get(name: str) -> Analysis:
    """The analysis called ``name``; UserError naming the valid ones otherwise."""
    if name not in ANALYSES:
        raise UserError(f"unknown analysis {name!r}{valid_choices(name, ANALYSES, 'analyses')}")
    return ANALYSES[name]
