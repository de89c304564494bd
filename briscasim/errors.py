"""Errors a user can fix; the CLI prints them as one line and exits with status 2.

:class:`UserError` is the base of every such error: the card, rules and strategy errors
(:class:`~briscasim.cards.CardError`, :class:`~briscasim.rules.RulesError`,
:class:`~briscasim.strategies.params.StrategyError`) subclass it where they are defined, so
this module imports nothing of the library.
"""


class UserError(ValueError):
    """A bad input: a file, a field or a value the user can correct."""


class ArgumentTypeError(UserError, TypeError):
    """An argument of the Python API of the wrong type (a ``TypeError`` too)."""


class IllegalAction(UserError):
    """An action that is not legal in the current state, or a bad deck order."""
