"""Replays: any simulated deal again, bit for bit, and deals typed in from a real table.

A simulated deal is re-created from ``(rules, lineup, seed, deal index, rotation)`` with the
stream conventions of :mod:`briscasim.batch`: the cards come from
:meth:`briscasim.game.Deal.from_seed` and every decision from the same jitted
:func:`briscasim.strategies.dispatch.decide`, fed the same per-seat streams as
:func:`briscasim.batch.play_one`. The replayed :class:`~briscasim.game.Deal` records what
happened (tricks, swaps, draws), so :meth:`~briscasim.game.Deal.log` can show it.
"""
from __future__ import annotations

import json
import pathlib
import tomllib
from dataclasses import dataclass

import numpy as np

from . import batch
from . import cards as C
from .engine import core
from .engine import layout as L
from .engine.match import match_result
from .engine.rng import new_stream, seat_stream, seed_stream
from .errors import UserError
from .game import Deal, IllegalAction, action_code, seeded_deck
from .rules import Rules, RulesError
from .simulate import Lineup
from .strategies.dispatch import decide_entry


def deal_record(deal: Deal) -> np.ndarray:
    """The ``REC_*`` record of a finished deal, as the batch kernels write it."""
    out = np.zeros(L.RECORD_LEN, np.int32)
    core.write_record(deal._r, deal.state, out)
    return out


def _check_index(name: str, value, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0 \
            or (high is not None and value >= high):
        limit = f" below {high}" if high is not None else ""
        raise UserError(f"{name} = {value!r} must be a whole number from 0{limit}")
    return int(value)


def play_out(deal: Deal, lineup: Lineup, seed: int, item: int, deal_no: int, rot: int) -> Deal:
    """Play ``deal`` to its end as :func:`briscasim.batch.play_one` does: seat ``s`` plays
    lineup entry ``(s + rot) % n`` with stream ``(seed, item, seat_stream(deal_no, rot, s))``.
    """
    n = deal.rules.players
    protos = [s.label for s in lineup.strategies if getattr(s, "python_fn", None) is not None]
    if protos:
        raise UserError(f"replay plays jitted strategies only; {protos[0]} is a prototype "
                        "(Python) strategy")
    arrays = lineup.arrays()
    rngs = [new_stream() for _ in range(n)]
    for s in range(n):
        seed_stream(rngs[s], np.uint64(seed), item, seat_stream(deal_no, rot, s))
    while not deal.over:
        seat = deal.turn
        a = decide_entry(arrays, deal._r, deal.state, seat, (seat + rot) % n,
                         rngs[seat])
        try:
            deal.play(int(a))
        except IllegalAction as e:
            raise IllegalAction(f"strategy {lineup.labels[(seat + rot) % n]} at seat {seat}: "
                                f"{e}") from None
    return deal


def replay_deal(rules: Rules, specs, seed: int, deal: int, rotation: int = 0) -> Deal:
    """Deal ``deal`` of a simulation under ``seed`` (rotation ``rotation`` of ``--duplicate``),
    played again action for action."""
    if rules.match_kind != "deal":
        raise UserError(f"rules {rules.name} play matches ({rules.match}); replay the match "
                        "with replay_match")
    lineup = specs if isinstance(specs, Lineup) else Lineup.build(rules, specs)
    seed = _check_index("seed", seed, 2 ** 64)
    deal = _check_index("deal", deal)
    rotation = _check_index("rotation", rotation, rules.players)
    return play_out(Deal.from_seed(rules, seed, deal), lineup, seed, deal, 0, rotation)


@dataclass
class MatchReplay:
    """The deals of one simulated match and its ``M_*`` record."""
    deals: list[Deal]
    record: np.ndarray

    @property
    def winner(self) -> int | None:
        w = int(self.record[batch.M_WINNER])
        return None if w == L.DRAW else w


def replay_match(rules: Rules, specs, seed: int, match: int, rotation: int = 0) -> MatchReplay:
    """Match ``match`` of a simulation under a match rule, deal by deal, as the match kernel
    (:func:`briscasim.batch.matches_kernel`) plays it: in deal ``j`` the deal has passed ``j``
    times, so engine seat ``s`` is player ``(s + j) % n``."""
    if rules.match_kind == "deal":
        raise UserError(f"rules {rules.name} play single deals; replay with replay_deal")
    lineup = specs if isinstance(specs, Lineup) else Lineup.build(rules, specs)
    seed = _check_index("seed", seed, 2 ** 64)
    match = _check_index("deal", match)
    rotation = _check_index("rotation", rotation, rules.players)
    r = rules.to_array()
    n, n_sides = rules.players, len(rules.sides)
    won = np.zeros(L.MAX_SIDES, np.int64)
    points = np.zeros(L.MAX_SIDES, np.int64)
    deals, black, result = [], 0, L.UNDECIDED
    while result == L.UNDECIDED:
        j = len(deals)
        d = play_out(Deal(rules, seeded_deck(r, seed, match, j).tolist()), lineup, seed, match,
                     j, (j + rotation) % n)
        deals.append(d)
        for s in range(n_sides):
            points[rules.side_of[(s + j) % n]] += d.state[L.S_POINTS + s]
        w = int(d.state[L.S_WINNER])
        if w != L.DRAW:
            won[rules.side_of[(w + j) % n]] += 1
        black += d.state[L.S_BLACK_HAND] >= 0
        result = int(match_result(r, len(deals), won, points))
    rec = np.zeros(batch.MATCH_RECORD_LEN, np.int32)
    rec[batch.M_WINNER] = result
    rec[batch.M_DEALS] = len(deals)
    rec[batch.M_BLACK_HANDS] = black
    rec[batch.M_DEALS_WON:batch.M_DEALS_WON + L.MAX_SIDES] = won
    rec[batch.M_POINTS:batch.M_POINTS + L.MAX_SIDES] = points
    return MatchReplay(deals, rec)


# ---- deals typed in by a user -------------------------------------------------------------
def replay_typed(rules: Rules, deck, actions=(), where: str = "") -> Deal:
    """A deal from an explicit deck order (top first) and the actions played, each checked.

    ``deck`` and ``actions`` are sequences or space/comma separated strings of card codes;
    an action may also be ``swap`` or ``keep`` at a swap offer. The actions may stop before
    the end of the deal. ``where`` prefixes error messages (a file name).
    """
    pre = f"{where}: " if where else ""
    deal = Deal(rules, C.parse_cards(deck, where=f"{pre}deck"))
    if isinstance(actions, str):
        actions = actions.replace(",", " ").split()
    for i, a in enumerate(actions, 1):
        try:
            deal.play(a)
        except IllegalAction as e:
            raise IllegalAction(f"{pre}action {i} ({a!r}): {e}") from None
    return deal


FILE_KEYS = frozenset({"deck", "actions", "preset", "rules", "options",       # read
                       "hands", "turned", "trump", "tricks", "swaps", "draws", "outcome",
                       "seed", "deal_index", "rotation", "strategies"})  # written by --json
"""Keys of a deal file: those read, and the others ``replay --json`` writes."""


def load_deal_file(path, preset: str | None = None, overrides: dict | None = None) -> Deal:
    """A typed-in deal from a JSON or TOML file.

    Keys: ``deck`` (required) and ``actions``, both a list or a string of codes; the rules
    as ``options`` (every option, as ``briscasim replay --json`` writes them) or ``preset``
    with an optional ``rules`` table of overrides. Without either, ``preset`` and
    ``overrides`` (the command line's) are used. The other keys that ``replay --json`` writes
    (tricks, draws ...) are ignored, so its output can be read back; any other key (a
    misspelt one) is refused.
    """
    p = pathlib.Path(path)
    try:
        text = p.read_bytes().decode()
    except OSError as e:
        raise UserError(f"{path}: cannot read the file ({e.strerror})") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a text file (a deal file is JSON or TOML)") from None
    try:
        data = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise UserError(f"{path}: not valid {'TOML' if p.suffix.lower() == '.toml' else 'JSON'}"
                        f" ({e})") from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected an object with a 'deck' key")
    unknown = sorted(set(data) - FILE_KEYS)
    if unknown:
        raise UserError(f"{path}: unknown key {unknown[0]!r}; valid keys: "
                        f"{', '.join(sorted(FILE_KEYS))}")
    if "deck" not in data:
        raise UserError(f"{path}: missing key 'deck' (the deck order, top first)")
    for key in ("deck", "actions"):
        v = data.get(key, [])
        if not (isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str)
                                                                   for x in v))):
            raise UserError(f"{path}: key {key!r} must be a string or a list of card codes")
    try:
        if isinstance(data.get("options"), dict):
            rules = Rules.from_options(data["options"],
                                       name=str(data.get("rules", "custom")))
        elif "preset" in data:
            extra = data.get("rules", {})
            if not isinstance(extra, dict):
                raise UserError(f"{path}: key 'rules' must be a table of rule options")
            rules = Rules.preset(str(data["preset"]), **extra)
        else:
            rules = Rules.preset(preset or "brisca-2", **(overrides or {}))
    except RulesError as e:
        raise RulesError(f"{path}: {e}") from None
    return replay_typed(rules, data["deck"], data.get("actions", []), where=str(path))


def state_line(deal: Deal) -> str:
    """Where an unfinished deal stands: who acts and what is legal."""
    if deal.over:
        return ""
    return (f"to act: seat {deal.turn} ({deal.phase}); legal: "
            f"{' '.join(action_code(a) for a in deal.legal_actions())}")
