"""Errors a user can fix; the CLI prints them as one line and exits with status 2."""
from .cards import CardError
from .rules import RulesError


class UserError(ValueError):
    """A bad input: a file, a field or a value the user can correct."""


class IllegalAction(UserError):
    """An action that is not legal in the current state, or a bad deck order."""


def _user_errors():
    from .strategies.registry import StrategyError
    return (UserError, RulesError, CardError, StrategyError)


USER_ERRORS = _user_errors()
