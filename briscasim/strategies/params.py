"""Typed strategy parameters and strategy definitions (plain Python, no numba).

Every strategy module defines its :class:`StrategyDef` (``DEFINITION = StrategyDef(...)``):
its name, kind, parameters, jitted function and how the kernels reach it;
:mod:`briscasim.strategies.registry` collects them and :mod:`briscasim.strategies.dispatch`
builds the kernels' dispatcher from them. A parameter value travels to the kernels as one
float64 slot of the strategy's parameter row, in the order the parameters are declared:
integers and booleans as numbers, a choice as the index of the chosen name.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError
from ..suggest import did_you_mean
from .api import N_PARAMS

# How the batch kernels reach a strategy's function (StrategyDef.dispatch)
INLINE = "inline"                    # compiled into the kernels
ENTRY = "entry"                      # through its lineup entry's function slot
INLINE_OR_ENTRY = "inline_or_entry"  # compiled into the kernels of lineups without an entry
#                                      slot strategy, else through its entry's slot
SEARCH = "search"                    # through the lineup's search slot
DISPATCHES = (INLINE, ENTRY, INLINE_OR_ENTRY, SEARCH)

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
    """A play strategy or a swap policy (``kind`` = ``SWAP_*``).

    ``kind`` is the id the kernels dispatch on: a built-in's own (unique among the
    built-ins), ``KIND_USER`` for a user strategy. ``fn`` is the strategy's jitted function
    (of :data:`~briscasim.strategies.api.STRATEGY_SIGNATURE`; for a ``SEARCH`` strategy it
    takes the rule features last, and an ``omniscient`` one the whole state in place of the
    public state and hand), or the Python callable of a prototype strategy (``python=True``).
    ``dispatch`` says how the batch kernels reach it (``INLINE``, ``ENTRY``,
    ``INLINE_OR_ENTRY``, ``SEARCH``; :mod:`briscasim.strategies.dispatch`); ``features``: an
    ``INLINE`` function takes the kernel's rule features (``F_*``) last; ``bids``: it answers
    Briscola Chiamata's auction and call itself (else the rule-based bidder of
    :mod:`briscasim.strategies.bidding` does); ``deterministic``: it never draws from its
    random stream (read for the strategies compiled into the kernels). ``bind(rules,
    strategy)``, if set, gives the resolved strategy a lineup built for ``rules`` plays: what
    it needs from outside the kernels (a model's weights, say) placed in its parameter row.

    ``test_params`` is a spec fragment (``"iterations=20"``) the conformance tests use to
    keep search strategies cheap. ``complete(values, given)``, if set, fills in values that
    depend on others once a spec is parsed (``given``: the names the spec sets).
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
    dispatch: str = ENTRY
    features: bool = False
    bids: bool = False
    deterministic: bool = False
    bind: object = None

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
