"""The closest valid name to a mistyped one, for error messages."""
from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name, valid: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the valid name closest to ``name``, or ``""`` if none is
    close."""
    close = difflib.get_close_matches(str(name), list(valid), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def valid_choices(name, valid: Iterable[str], plural: str) -> str:
    """What follows "unknown ... 'name'" in an error: the closest valid name, if one is close,
    then every valid one (``; valid presets: a, b``)."""
    valid = list(valid)
    return f"{did_you_mean(name, valid)}; valid {plural}: {', '.join(valid)}"
