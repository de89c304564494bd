"""The closest valid names to a mistyped one, for error messages."""
from __future__ import annotations

import difflib
from collections.abc import Iterable

_SHOWN = 3          # names suggested at most
_MIN_PART = 3       # characters a name needs before it is read as the start or a part of one


def close_names(name, valid: Iterable[str]) -> list[str]:
    """The valid names ``name`` most likely meant: those it starts (``brisca-3`` for
    ``brisca-3-remove2``...) or else is a part of (``scoperta``), up to three, in their
    order; else the one most similar in spelling, if any is close; else none."""
    valid = list(valid)
    text = str(name).lower()
    if len(text) >= _MIN_PART:
        matches = ([v for v in valid if v.lower().startswith(text)]
                   or [v for v in valid if text in v.lower()])
        if matches:
            return matches[:_SHOWN]
    return difflib.get_close_matches(str(name), valid, n=1, cutoff=0.6)


def did_you_mean(name, valid: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` (or ``'x', 'y' or 'z'``) for the valid names closest to
    ``name`` (:func:`close_names`), or ``""`` if none is close."""
    close = [repr(v) for v in close_names(name, valid)]
    if not close:
        return ""
    listed = close[0] if len(close) == 1 else f"{', '.join(close[:-1])} or {close[-1]}"
    return f" (did you mean {listed}?)"


def valid_choices(name, valid: Iterable[str], plural: str) -> str:
    """What follows "unknown ... 'name'" in an error: the closest valid names, if any is
    close, then every valid one (``; valid presets: a, b``)."""
    valid = list(valid)
    return f"{did_you_mean(name, valid)}; valid {plural}: {', '.join(valid)}"
