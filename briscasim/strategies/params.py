"""Typed strategy parameters and strategy definitions (plain Python, no numba).

Every strategy module defines its :class:`StrategyDef` here-style (``DEFINITION = StrategyDef(
...)``) and :mod:`briscasim.strategies.registry` collects them. A parameter value travels to
the kernels as one float64 slot of the strategy's parameter row, in the order the parameters
are declared: integers and booleans as numbers, a choice as the index of the chosen name.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError
from ..suggest import did_you_mean
from .api import N_PARAMS

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


class StrategyError(UserError):
    """An unknown strategy, parameter, or bad parameter value."""


@dataclass(frozen=True)
class Param:
    """One parameter of a strategy or swap policy.

    ``type`` is ``int``, ``float``, ``bool`` or ``str``; a ``str`` parameter takes one of
    ``choices`` (its slot holds the index of the name). ``low`` and ``high`` bound numbers
    (inclusive, ``None`` for no bound).
    """
    name: str
    type: type
    default: object
    low: float | None = None
    high: float | None = None
    doc: str = ""
    choices: tuple[str, ...] = ()

    def parse(self, text: str, owner: str):
        """The value of ``text`` for this parameter; StrategyError naming it if bad."""
        bad = f"{owner}: parameter {self.name}={text!r}"
        t = text.strip()
        if self.type is bool:
            if t.lower() in _TRUE:
                return True
            if t.lower() in _FALSE:
                return False
            raise StrategyError(f"{bad} is not a boolean; expected {self.describe_type()}")
        if self.type is str:
            if t not in self.choices:
                raise StrategyError(f"{bad} is not a valid choice; expected one of "
                                    f"{', '.join(self.choices)}")
            return t
        try:
            value = self.type(t)
        except ValueError:
            raise StrategyError(f"{bad} is not {'an integer' if self.type is int else 'a number'}"
                                f"; expected {self.describe_type()}") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise StrategyError(f"{bad} is not a finite number; expected {self.describe_type()}")
        self.check(value, owner)
        return value

    def check(self, value, owner: str) -> None:
        """Refuse a value out of range (StrategyError naming the parameter)."""
        if self.type in (int, float) and ((self.low is not None and value < self.low) or
                                          (self.high is not None and value > self.high)):
            raise StrategyError(f"{owner}: parameter {self.name}={self.format(value)} is out of "
                                f"range; expected {self.describe_type()}")

    def encode(self, value) -> float:
        """The float64 slot value of ``value``."""
        if self.type is str:
            return float(self.choices.index(value))
        return float(value)

    def format(self, value) -> str:
        """``value`` as it is written in a spec (parses back to the same value)."""
        if self.type is bool:
            return "true" if value else "false"
        if self.type is float:
            return repr(float(value)).removesuffix(".0") if float(value).is_integer() \
                else repr(float(value))
        return str(value)

    def describe_type(self) -> str:
        """``int in 0..120``, ``float >= 0``, ``bool``, ``one of a|b``."""
        if self.type is bool:
            return "bool (true/false)"
        if self.type is str:
            return "one of " + "|".join(self.choices)
        name = self.type.__name__
        if self.low is not None and self.high is not None:
            return f"{name} in {self.format(self.low)}..{self.format(self.high)}"
        if self.low is not None:
            return f"{name} >= {self.format(self.low)}"
        if self.high is not None:
            return f"{name} <= {self.format(self.high)}"
        return name


@dataclass(frozen=True)
class StrategyDef:
    """A play strategy (``kind`` = ``KIND_*``) or a swap policy (``kind`` = ``SWAP_*``).

    ``test_params`` is a spec fragment (``"iterations=20"``) the conformance tests use to
    keep search strategies cheap. ``fn`` is the jitted function of a registered user strategy,
    or the Python callable of a prototype strategy (``python=True``). ``complete(values,
    given)``, if set, fills in values that depend on others once a spec is parsed (``given``:
    the names the spec sets).
    """
    name: str
    kind: int
    params: tuple[Param, ...] = ()
    doc: str = ""
    omniscient: bool = False
    test_params: str = ""
    fn: object = None
    python: bool = False
    complete: object = None

    def __post_init__(self):
        if len(self.params) > N_PARAMS:
            raise StrategyError(f"strategy {self.name}: {len(self.params)} parameters, at most "
                                f"{N_PARAMS}")

    def param(self, key: str, owner: str) -> Param:
        for p in self.params:
            if p.name == key:
                return p
        valid = ", ".join(f"{p.name} ({p.describe_type()})" for p in self.params) or "none"
        close = did_you_mean(key, (p.name for p in self.params))
        raise StrategyError(f"{owner}: unknown parameter {key!r}{close}; valid: {valid}")
