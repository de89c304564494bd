"""Option types shared by the commands."""
from __future__ import annotations

import math

import click

from ..errors import UserError


class Finite(click.types.FloatParamType):
    """A finite number, above ``above`` when given: ``nan``, ``inf`` and a number too small
    are refused with one line (:class:`UserError`)."""

    name = "number"

    def __init__(self, above: float | None = None):
        self.above = above

    def convert(self, value, param, ctx):
        x = super().convert(value, param, ctx)
        opt = param.opts[0] if param is not None and param.opts else "the value"
        if not math.isfinite(x):
            raise UserError(f"{opt} = {value}: not a finite number")
        if self.above is not None and x <= self.above:
            raise UserError(f"{opt} = {value}: give a number above {self.above:g}")
        return x


SECONDS = Finite(above=0)
"""A time in seconds: a finite number above 0."""
