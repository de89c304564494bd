"""The strategy registry: names, typed parameters, and parsing of strategy specs.

A strategy spec is ``NAME`` or ``NAME:key=value,key=value`` (``greedy:trump_threshold=10``).
:func:`resolve` turns a spec into a :class:`Strategy`: the integer ids and parameter rows the
kernels dispatch on. (Minimal version: built-ins are being filled in.)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from .api import N_PARAMS, STRATEGY_SIGNATURE, SWAP_BY_PLAY, KIND_RANDOM


class StrategyError(ValueError):
    """An unknown strategy, parameter, or bad parameter value."""


@dataclass(frozen=True)
class Param:
    name: str
    type: type
    default: object
    low: float | None = None
    high: float | None = None
    doc: str = ""


@dataclass(frozen=True)
class StrategyDef:
    name: str
    kind: int
    params: tuple[Param, ...] = ()
    doc: str = ""
    omniscient: bool = False


@dataclass(frozen=True)
class Strategy:
    """A resolved strategy: what one lineup entry hands to the kernels."""
    label: str
    kinds: tuple[int, int]
    params: np.ndarray = field(compare=False)   # (2, N_PARAMS) float64
    user_fn: object = None
    omniscient: bool = False


@njit(STRATEGY_SIGNATURE, cache=True)
def no_user_strategy(rules, public, hand, seat, signals, params, rng):
    """Placeholder for the user slot when no user strategy is in the lineup."""
    return -1


REGISTRY: dict[str, StrategyDef] = {
    "random": StrategyDef("random", KIND_RANDOM, (
        Param("swap_prob", float, 0.0, 0.0, 1.0, "probability of accepting a swap offer"),),
        "uniform over the legal cards"),
}


def resolve(spec: str) -> Strategy:
    """Parse ``NAME[:key=value,...]`` into a :class:`Strategy`."""
    name, _, rest = spec.partition(":")
    if name not in REGISTRY:
        raise StrategyError(f"unknown strategy {name!r}; valid strategies: "
                            f"{', '.join(REGISTRY)}")
    d = REGISTRY[name]
    values = {p.name: p.default for p in d.params}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        match = [p for p in d.params if p.name == key]
        if not eq or not match:
            raise StrategyError(f"strategy {name}: unknown parameter {key!r}; valid: "
                                f"{', '.join(p.name for p in d.params) or 'none'}")
        values[key] = match[0].type(value)
    params = np.zeros((2, N_PARAMS))
    for i, p in enumerate(d.params):
        params[0, i] = float(values[p.name])
    return Strategy(spec, (d.kind, SWAP_BY_PLAY), params)
