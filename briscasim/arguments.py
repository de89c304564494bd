"""Checks of the Python API's arguments: a wrong type raises :class:`ArgumentTypeError` (a
``TypeError``), a bad value :class:`UserError` (a ``ValueError``), each naming the argument
and what it accepts."""
from __future__ import annotations

import math

import numpy as np

from .errors import ArgumentTypeError, UserError


def shown(value) -> str:
    """``value`` as an error message shows it (a long repr cut short)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def whole(name: str, value, low: int = 0, high: int | None = None) -> int:
    """``value`` as a whole number from ``low`` to ``high - 1`` (no bound when ``high`` is
    None)."""
    accepts = (f"a whole number of at least {low}" if high is None
               else f"a whole number from {low} below {high}")
    if type(value) is not int:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ArgumentTypeError(f"{name} = {shown(value)} must be {accepts}, not "
                                    f"{type(value).__name__}")
        value = int(value)
    if value < low or (high is not None and value >= high):
        raise UserError(f"{name} = {value!r} must be {accepts}")
    return value


def finite(name: str, value, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite float from ``low`` to ``high`` (either bound may be None)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                     np.floating)):
        raise ArgumentTypeError(f"{name} = {shown(value)} must be a number, not "
                                f"{type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise UserError(f"{name} = {value} must be a finite number")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"from {low:g} to {high:g}" if low is not None and high is not None
                  else f"at least {low:g}" if low is not None else f"at most {high:g}")
        raise UserError(f"{name} = {value:g} must be {bounds}")
    return value


def flag(name: str, value) -> bool:
    """``value`` as a bool (``True``, ``False`` or a numpy bool)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentTypeError(f"{name} = {shown(value)} must be True or False, not "
                                f"{type(value).__name__}")
    return bool(value)

