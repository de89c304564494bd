"""A built-in strategy deciding for seats of an environment's deal: :class:`Adviser`."""
from __future__ import annotations

from ..driver import LineupPlayers
from ..errors import UserError
from ..game import Deal
from ..lineup import Lineup
from ..rules import Rules
from ..strategies.registry import Strategy


def jitted_lineup(rules: Rules, spec, role: str = "strategy") -> Lineup:
    """The lineup of the strategy ``spec`` (a spec or a resolved
    :class:`~briscasim.strategies.registry.Strategy`) at every seat, for an environment's
    kernels; a value that is not a spec, an unknown spec (StrategyError) and a prototype
    (pure-Python) strategy are refused with one line naming the ``role`` it was given for."""
    if not isinstance(spec, (str, Strategy)):
        raise UserError(f"{role} = {spec!r}: give a strategy spec, such as 'greedy' or "
                        "'learned'")
    lineup = Lineup.build(rules, spec)
    if any(s.python_fn is not None for s in lineup.strategies):
        raise UserError(f"{role} {spec!r} is a prototype (pure-Python) strategy; the "
                        "environments play jitted ones")
    return lineup


class Adviser:
    """The moves of the jitted strategy ``spec`` (``"greedy"``, ``"learned"``,
    ``"ismcts:iterations=200"``...) for the seat to act in deals of ``rules``, from that
    seat's view alone (but for the cheating references omniscient and peek), through the
    kernels' dispatcher (:class:`~briscasim.driver.LineupPlayers`). After
    ``start(seed, item)`` seat ``s`` decides with the stream that
    :func:`~briscasim.driver.play_deal` gives it in deal ``item`` under ``seed``
    (``(seed, item, seat_stream(0, 0, s))``): the strategy playing every seat of that deal
    plays it as ``play_deal(rules, Lineup.build(rules, spec), seed, item)`` does."""

    def __init__(self, rules: Rules, spec):
        self.spec, self.rules = spec, rules
        self.lineup = jitted_lineup(rules, spec)
        self.start(0, 0)

    def start(self, seed: int, item: int) -> None:
        """Point every seat's stream at its stream of deal ``item`` under ``seed``."""
        self._seats = LineupPlayers(self.lineup, seed, item, 0, 0, self.rules.players)

    def action(self, deal: Deal) -> int:
        """The strategy's action for ``deal.turn`` (drawn from that seat's stream)."""
        if deal.over:
            raise UserError(f"strategy {self.spec!r} asked for a move after the deal is over")
        return self._seats(deal)
