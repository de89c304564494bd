"""Batch simulation from Python: lineups of strategies, chunks of deals, records.

:func:`play_chunk` is the one door to the batch kernels used by ``simulate``, the experiment
runner and the benchmarks. Records are int32 rows (``REC_*`` fields of
:mod:`briscasim.engine.layout` for single deals, ``M_*`` of :mod:`briscasim.batch` for
matches), one per (deal, rotation), in the order ``deal * n_rotations + rotation``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import batch
from .engine import layout as L
from .rules import Rules
from .strategies.api import KIND_USER, N_PARAMS
from .strategies.registry import Strategy, StrategyError, no_user_strategy, resolve


@dataclass(frozen=True)
class Lineup:
    """One strategy per seat, as the kernels take them."""
    strategies: tuple[Strategy, ...]

    @classmethod
    def build(cls, rules: Rules, specs) -> "Lineup":
        """From strategy specs: one (every seat) or one per seat."""
        specs = [specs] if isinstance(specs, str) else list(specs)
        if len(specs) == 1:
            specs = specs * rules.players
        if len(specs) != rules.players:
            raise StrategyError(f"{len(specs)} strategies given for {rules.players} seats; "
                                "give one for every seat, or one for all")
        strategies = tuple(resolve(s) if isinstance(s, str) else s for s in specs)
        users = {id(s.user_fn) for s in strategies if s.kinds[0] == KIND_USER}
        if len(users) > 1:
            raise StrategyError("a lineup may hold at most one user strategy function")
        return cls(strategies)

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.strategies]

    def arrays(self):
        """``(kinds, params, user_fn)`` for the kernels."""
        kinds = np.array([s.kinds for s in self.strategies], dtype=np.int64)
        params = np.zeros((len(self.strategies), 2, N_PARAMS))
        for i, s in enumerate(self.strategies):
            params[i] = s.params
        user = next((s.user_fn for s in self.strategies if s.kinds[0] == KIND_USER),
                    no_user_strategy)
        return kinds, params, user


def record_len(rules: Rules) -> int:
    return L.RECORD_LEN if rules.match_kind == "deal" else batch.MATCH_RECORD_LEN


def play_chunk(rules: Rules, lineup: Lineup, seed: int, first: int, count: int,
               rotations: int = 1, work=None) -> np.ndarray:
    """Play deals (or matches) ``first .. first + count - 1`` and return their records.

    With ``rotations = n`` every deal is replayed with the lineup rotated ``r = 0..n-1``
    seats (duplicate play: same cards). Results depend only on ``(rules, lineup, seed,
    deal index)``, never on how deals are split into chunks or threads. A lineup holding a
    prototype (pure-Python) strategy is played by a slow Python loop instead of the kernels.
    """
    if any(s.python_fn is not None for s in lineup.strategies):
        from .strategies.prototype import play_prototype_chunk
        return play_prototype_chunk(rules, lineup, seed, first, count, rotations)
    r = rules.to_array()
    kinds, params, user = lineup.arrays()
    out = np.empty((count * rotations, record_len(rules)), np.int32)
    w16, w64 = work if work is not None else batch.new_work()
    kernel = batch.play_deals if rules.match_kind == "deal" else batch.play_matches
    bad = kernel(r, kinds, params, user, np.uint64(seed), first, count, rotations, out,
                 w16, w64)
    if bad >= 0:
        raise StrategyError(f"a strategy in lineup {lineup.labels} chose an illegal action "
                            f"in deal {bad} (seed {seed})")
    return out
