"""A lineup playing a deal move by move through :class:`~briscasim.game.Deal`.

Batch play runs in the jitted kernels (:mod:`briscasim.batch`); everything else that plays a
lineup (replays of simulated deals, lineups holding prototype strategies, the search for the
deal behind a strategy's error) plays here, with the kernels' conventions: the deal's cards
come from :func:`~briscasim.game.seeded_deck`, seat ``s`` plays lineup entry
``(s + shift) % n`` and decides with stream ``(seed, item, seat_stream(deal_no, shift, s))``.
Jitted strategies decide through the same dispatcher as the kernels
(:func:`~briscasim.strategies.dispatch.decide_entry`), so a replay is the batch deal bit for
bit.
"""
from __future__ import annotations

import shlex

import numpy as np

from .engine import core
from .engine import layout as L
from .engine.match import (TALLY_BLACK_HAND, TALLY_SAME_DEALER, TALLY_THROWN_IN, match_result,
                           seating, tally_deal)
from .engine.rng import new_stream, seat_stream, seed_stream
from .game import Deal, IllegalAction, seeded_deck
from .rules import PRESETS, Rules, _format_value
from .strategies.api import SWAP_BY_PLAY
from .strategies.dispatch import decide_entry
from .strategies.params import StrategyError
from .strategies.prototype import ask


class LineupPlayers:
    """Decides for every seat of one deal with a lineup's strategies (callable on a
    :class:`Deal`): seat ``s`` plays entry ``(s + shift) % n``; the entries of ``people``
    are played by the callable given for each instead (someone at a terminal)."""

    def __init__(self, lineup, seed: int, item: int, deal_no: int, shift: int, n: int,
                 people=None):
        self.lineup, self.shift, self.n = lineup, shift, n
        self.people = people or {}
        self.arrays = lineup.arrays()
        self.rngs = [new_stream() for _ in range(n)]
        self.py_rngs = {}
        for s in range(n):
            seed_stream(self.rngs[s], np.uint64(seed), item, seat_stream(deal_no, shift, s))
            if self.strategy(s).python_fn is not None:
                # a prototype's numpy generator is seeded from the seat's own stream
                self.py_rngs[s] = np.random.default_rng(int(self.rngs[s][0]))

    def entry(self, seat: int) -> int:
        return (seat + self.shift) % self.n

    def strategy(self, seat: int):
        return self.lineup.strategies[self.entry(seat)]

    def __call__(self, deal: Deal) -> int:
        seat = deal.turn
        entry = self.entry(seat)
        if entry in self.people:
            return self.people[entry](deal)
        strategy = self.lineup.strategies[entry]
        try:
            if strategy.python_fn is None or (deal.phase == "swap"
                                              and strategy.kinds[1] != SWAP_BY_PLAY):
                return decide_entry(self.arrays, deal._r, deal.state, seat, entry,
                                    self.rngs[seat])
            return ask(strategy, deal, seat, self.py_rngs[seat])
        except StrategyError:
            raise
        except Exception as e:      # the user's code raised
            raise StrategyError(f"raised {type(e).__name__}: {e}") from e


def play_deal(rules: Rules, lineup, seed: int, item: int, deal_no: int = 0,
              rotation: int = 0, people=None) -> Deal:
    """Deal ``deal_no`` of item ``item`` (a deal, or a match) under ``seed``, played to its
    end by ``lineup`` as the batch kernels play it; ``rotation`` is the lineup's shift (for
    a match, :func:`~briscasim.engine.match.seating`); ``people`` as for
    :class:`LineupPlayers`. An illegal action raises :class:`IllegalAction` naming the
    seat, the decision and the command that replays it."""
    deal = Deal(rules, seeded_deck(rules.to_array(), seed, item, deal_no).tolist())
    players = LineupPlayers(lineup, seed, item, deal_no, rotation, rules.players, people)
    try:
        return deal.play_out(players)
    except (IllegalAction, StrategyError) as e:
        seat = deal.turn
        where = (f"strategy {players.strategy(seat).label} at seat {seat}, decision "
                 f"{len(deal.actions) + 1} of "
                 + (f"deal {item}" if rules.match_kind == "deal" else
                    f"deal {deal_no + 1} of match {item}")
                 + f" (seed {seed}" + (f", rotation {rotation}" if rotation else "") + ")")
        how = ("" if rules.match_kind != "deal" else
               f"; reproduce it with: {replay_command(rules, lineup, seed, item, rotation)}")
        raise type(e)(f"{where}: {e}{how}") from None


def play_prototype_chunk(rules, lineup, seed: int, first: int, count: int,
                         rotations: int = 1) -> np.ndarray:
    """Like :func:`briscasim.simulate.play_chunk` (single deals only), for lineups holding
    prototype strategies: every deal is played through the driver
    (:func:`play_deal`), with the batch kernels' decks and seat streams."""
    if rules.match_kind != "deal":
        raise StrategyError("prototype (pure-Python) strategies play single deals only; "
                            f"rules {rules.name} ask for matches")
    r = rules.to_array()
    out = np.empty((count * rotations, L.RECORD_LEN), np.int32)
    for i in range(count):
        for rot in range(rotations):
            deal = play_deal(rules, lineup, seed, first + i, 0, rot)
            core.write_record(r, deal.state, out[i * rotations + rot])
    return out


def find_failure(rules: Rules, lineup, seed: int, first: int, count: int,
                 rotations: int) -> BaseException | None:
    """Play deals ``first .. first + count - 1`` (single deals) through the driver until one
    fails; the error, with the deal, seat and replay command, or None."""
    for i in range(first, first + count):
        for rot in range(rotations):
            try:
                play_deal(rules, lineup, seed, i, 0, rot)
            except (IllegalAction, StrategyError) as e:
                return StrategyError(str(e))
    return None


def replay_command(rules: Rules, lineup, seed: int, deal: int, rotation: int = 0) -> str:
    """The ``briscasim replay`` command that plays this deal again."""
    words = ["briscasim", "replay", *rules_arguments(rules)]
    for label in lineup.labels:
        words += ["--strategy", label]
    words += ["--seed", str(seed), "--deal", str(deal)]
    if rotation:
        words += ["--rotation", str(rotation)]
    return " ".join(shlex.quote(w) for w in words)


def rules_arguments(rules: Rules) -> list[str]:
    """``--preset`` and ``--rule`` arguments that give ``rules``."""
    base = rules.name.split("+")[0]
    base = base if base in PRESETS else "brisca-2"
    preset = Rules.preset(base).options()
    words = ["--preset", base]
    for key, value in rules.options().items():
        if value != preset[key]:
            words += ["--rule", f"{key}={_format_value(value)}"]
    return words


def match_deals(rules: Rules, lineup, seed: int, match: int, rotation: int = 0,
                people=None):
    """The deals of match ``match`` played as the match kernel plays them (``people`` as
    for :class:`LineupPlayers`), and its tallies: ``(deals, deals_won, points,
    black_hands, result)`` (players' sides). Each deal's ``shift`` is the times the deal
    had passed on before it (engine seat ``s`` is player ``(s + shift) % n``)."""
    r = rules.to_array()
    n = rules.players
    won = np.zeros(L.MAX_SIDES, np.int64)
    points = np.zeros(L.MAX_SIDES, np.int64)
    deals, black, counted, shift, result = [], 0, 0, 0, L.UNDECIDED
    while result == L.UNDECIDED:
        j = len(deals)
        deal = play_deal(rules, lineup, seed, match, j, seating(shift, rotation, n), people)
        deal.shift = shift
        deals.append(deal)
        tally = int(tally_deal(r, deal.state, shift, won, points))
        black += bool(tally & TALLY_BLACK_HAND)
        counted += not tally & TALLY_THROWN_IN
        shift += not tally & TALLY_SAME_DEALER
        result = int(match_result(r, counted, len(deals), won, points))
    return deals, won, points, black, result
