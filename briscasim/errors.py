"""Errors a user can fix; the CLI prints them as one line and exits with status 2."""
from .cards import CardError
from .rules import RulesError


class UserError(ValueError):
    """A bad input: a file, a field or a value the user can correct."""


def _user_errors():
    from .game import IllegalAction
    from .strategies.registry import StrategyError
    return (UserError, RulesError, CardError, IllegalAction, StrategyError)


USER_ERRORS = _user_errors()
