"""Prototype strategies: plain Python functions, played by a Python loop. SLOW.

For trying an idea before writing it in numba. A prototype strategy is::

    def my_idea(view, params, rng):
        return min(view.legal)       # a card id or code ("Ao"), or "swap" / "keep"

- ``view``: a :class:`PrototypeView`, the seat's :class:`~briscasim.game.SeatView` (public
  state, own hand, partner signals) plus the ``rules`` and the ``legal`` actions.
- ``params``: its parameter values by name (from ``register_strategy(..., params)``).
- ``rng``: a ``numpy.random.Generator`` seeded from the seat's own random stream of the deal,
  so results are reproducible for a seed.

Register it with :func:`briscasim.strategies.registry.register_strategy` or name it as
``module:function``; :func:`briscasim.simulate.play_chunk` then plays the whole lineup
through :func:`briscasim.driver.play_prototype_chunk` instead of in the batch kernels. Expect thousands of deals per second, not millions. Jitted
entries of the lineup decide exactly as in the kernels, with the same random streams, so a
lineup without prototypes gives the kernels' records (tested).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import layout as L
from ..game import SeatView, parse_action
from .params import StrategyError


@dataclass(frozen=True)
class PrototypeView(SeatView):
    """A seat's view for a prototype strategy: :class:`SeatView` with the rules and the
    legal actions."""
    rules: object = field(default=None, repr=False)
    legal: tuple = ()

    @property
    def phase(self) -> str:
        """``"play"`` or ``"swap"`` (a swap offer: answer ``"swap"`` or ``"keep"``)."""
        return "swap" if self.public[L.S_PHASE] == L.PHASE_SWAP else "play"

    @property
    def trick(self) -> list[int]:
        """Cards of the current trick so far, in playing order."""
        return [int(c) for c in self.public[L.S_TRICK:L.S_TRICK + self.public[L.S_TRICK_N]]]


def ask(strategy, deal, seat: int, rng) -> int:
    """The prototype ``strategy``'s action for ``seat`` of ``deal``."""
    v = deal.view(seat)
    view = PrototypeView(seat, v.public, v.hand, v.signals, rules=deal.rules,
                         legal=tuple(deal.legal_actions()))
    answer = strategy.python_fn(view, dict(strategy.values), rng)
    try:
        return parse_action(answer)
    except ValueError as e:
        raise StrategyError(f"answered {answer!r}: {e}") from None
