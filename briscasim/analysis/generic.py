"""``generic``: the report of any run (:mod:`briscasim.experiments.report`): every cell's
rates, scores, seats, duplicate pairs, swaps and points, with charts."""
from __future__ import annotations

from ..experiments.report import Results, load, write_report
from .document import Context
from .runs import Run, ensure

NAME = "generic"


def check(runs: list[Run]) -> None:
    ensure(len(runs) == 1, NAME, runs[0], "the generic report reads one run at a time")


def analyse(runs: list[Run], ctx: Context):
    check(runs)
    res: Results = load(runs[0].path)
    return write_report(res, ctx.out)
