"""Replays: any simulated deal again, bit for bit, and deals typed in from a real table.

A simulated deal is re-created from ``(rules, lineup, seed, deal index, rotation)`` by the
driver (:func:`briscasim.driver.play_deal`), with the batch kernels' cards, dispatcher and
random streams. The replayed :class:`~briscasim.game.Deal` keeps the engine's events, so
:meth:`~briscasim.game.Deal.log` can show what happened.
"""
from __future__ import annotations

import json
import pathlib
import tomllib
from dataclasses import dataclass

import numpy as np

from . import batch
from . import cards as C
from .driver import match_deals, play_deal
from .engine import core
from .engine import layout as L
from .errors import UserError
from .game import Deal, IllegalAction, action_code, check_count
from .lineup import Lineup
from .rules import Rules, RulesError
from .suggest import valid_choices


def deal_record(deal: Deal) -> np.ndarray:
    """The ``REC_*`` record of a finished deal, as the batch kernels write it."""
    out = np.zeros(L.CHIAMATA_RECORD_LEN if deal.rules.chiamata else L.RECORD_LEN, np.int32)
    core.write_record(deal._r, deal.state, out)
    return out


def replay_deal(rules: Rules, specs, seed: int, deal: int, rotation: int = 0) -> Deal:
    """Deal ``deal`` of a simulation under ``seed`` (rotation ``rotation`` of ``--duplicate``),
    played again action for action."""
    if rules.match_kind != "deal":
        raise UserError(f"rules {rules.name} play matches ({rules.match}); replay the match "
                        "with replay_match")
    lineup = specs if isinstance(specs, Lineup) else Lineup.build(rules, specs)
    seed = check_count("seed", seed, 2 ** 64)
    deal = check_count("deal", deal, 2 ** 63)
    rotation = check_count("rotation", rotation, rules.players)
    return play_deal(rules, lineup, seed, deal, 0, rotation)


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
    seed = check_count("seed", seed, 2 ** 64)
    match = check_count("deal", match, 2 ** 63)
    rotation = check_count("rotation", rotation, rules.players)
    deals, won, points, black, result = match_deals(rules, lineup, seed, match, rotation)
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
    an action may also be ``swap`` or ``keep`` at a swap offer, and in Briscola Chiamata
    ``pass``, a bid (``bid:R``, ``bid:75``) or a call (``call:Ro``). The actions may stop before
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
                       "hands", "turned", "trump", "tricks", "swaps", "draws", "events",
                       "outcome", "auction", "called", "contract",
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
        raise UserError(f"{path}: unknown key {unknown[0]!r}"
                        f"{valid_choices(unknown[0], sorted(FILE_KEYS), 'keys')}")
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
