"""A lineup: one resolved strategy per seat, and what a batch kernel needs to play it.

:class:`Lineup` hands the kernels their strategy arrays and function slots
(:mod:`briscasim.strategies.dispatch`); :func:`needed_features` says which rule features a
kernel must hold to play a lineup under given rules. Everything that plays a lineup (the batch
kernels through :mod:`briscasim.simulate`, the driver, the environments) takes one.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from .arguments import shown
from .engine import layout as L
from .errors import ArgumentTypeError
from .rules import Rules
from .strategies.api import KIND_USER, N_PARAMS
from .strategies.dispatch import (HAS_SEARCH, HAS_SLOT, entry_functions, kernel_shape,
                                  lineup_shape, search_function)
from .strategies.greedy import DEFINITION as GREEDY, OBJ_FEWEST, P_OBJECTIVE
from .strategies.registry import Strategy, StrategyError, resolve


def _spec_list(specs) -> list:
    """``specs`` as a list of strategy specs and strategies, else :class:`ArgumentTypeError`."""
    accepts = ("a strategy spec such as 'greedy', a list of them (one per seat), or a "
               "Lineup")
    if isinstance(specs, (str, Strategy)):
        return [specs]
    if isinstance(specs, (bytes, Mapping)) or not isinstance(specs, Iterable):
        raise ArgumentTypeError(f"specs must be {accepts}, not {type(specs).__name__}")
    specs = list(specs)
    for s in specs:
        if not isinstance(s, (str, Strategy)):
            raise ArgumentTypeError(f"specs: {shown(s)} is not a strategy; give {accepts}")
    return specs


@dataclass(frozen=True)
class Lineup:
    """One strategy per seat, as the kernels take them."""
    strategies: tuple[Strategy, ...]

    @classmethod
    def build(cls, rules: Rules, specs) -> "Lineup":
        """From strategy specs (or resolved strategies): one (every seat) or one per seat,
        each bound to ``rules`` by its definition's ``bind`` if it has one."""
        specs = _spec_list(specs)
        if len(specs) == 1:
            specs = specs * rules.players
        if len(specs) != rules.players:
            raise StrategyError(f"{len(specs)} strategies given for {rules.players} seats; "
                                "give one for every seat, or one for all")
        strategies = [resolve(s) if isinstance(s, str) else s for s in specs]
        return cls(tuple(s.bind(rules, s) if s.bind else s for s in strategies))

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.strategies]

    @property
    def has_user_strategy(self) -> bool:
        return any(s.kinds[0] == KIND_USER for s in self.strategies)

    def arrays(self, features: int = L.EVERY_FEATURE):
        """``(kinds, params, entry_fns, search_fn)`` for the kernels of rules of ``features``
        (the function slots of :mod:`briscasim.strategies.dispatch`; a strategy played
        through a slot compiles here on first use)."""
        kinds = np.array([s.kinds for s in self.strategies], dtype=np.int64)
        params = np.zeros((len(self.strategies), 2, N_PARAMS))
        for i, s in enumerate(self.strategies):
            params[i] = s.params
        return (kinds, params, entry_functions(self.strategies),
                search_function(kinds, features))

    @property
    def shape(self) -> int:
        """The shape of the batch kernel that plays this lineup
        (:func:`~briscasim.strategies.dispatch.kernel_shape`)."""
        return kernel_shape([s.kinds for s in self.strategies])

    @property
    def own_shape(self) -> int:
        """The strategy kinds this lineup holds (``HAS_*`` bits,
        :func:`~briscasim.strategies.dispatch.lineup_shape`): a kernel of any shape that
        holds them plays it."""
        return lineup_shape([s.kinds for s in self.strategies])


def needed_features(rules: Rules, lineup: Lineup) -> int:
    """The rule features (``F_*`` of :mod:`briscasim.engine.layout`) whose code a batch kernel
    needs to play ``rules`` with ``lineup``: the tests of the engine's guards, on the rules
    vector, greedy told to play for the fewest points, and the order of play for the
    strategies that may read it (searches, and those played through a function slot)."""
    r = rules.to_array()
    f = 0
    f |= L.F_AUCTION if r[L.R_AUCTION] != 0 else 0
    f |= L.F_FOLLOW_SUIT if r[L.R_FOLLOW_SUIT] != 0 else 0
    f |= L.F_TARGET if r[L.R_TARGET_POINTS] != 0 else 0
    f |= L.F_SHOWN if (r[L.R_OPEN_HANDS] | r[L.R_STOCK_TOP_VISIBLE]) != 0 else 0
    f |= L.F_BLACK_HAND if r[L.R_BLACK_HAND] != 0 else 0
    f |= L.F_RAIS if r[L.R_SIGNALS] == L.SIGNALS_RAIS else 0
    f |= L.F_LARGE_HAND if r[L.R_HAND_SIZE] > 3 else 0
    f |= L.F_SIGNALS if r[L.R_SIGNALS] != 0 else 0
    fewest = r[L.R_OBJECTIVE] == L.OBJECTIVE_FEWEST or any(
        s.kinds[0] == GREEDY.kind and s.params[0, P_OBJECTIVE] == OBJ_FEWEST
        for s in lineup.strategies)
    plays = lineup.own_shape & (HAS_SEARCH | HAS_SLOT) != 0
    return f | (L.F_FEWEST if fewest else 0) | (L.F_PLAYS if plays else 0)
