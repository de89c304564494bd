"""The ``Rules`` value: every option of docs/rules.md, the named presets, and validation.

>>> r = Rules.preset("brisca-2", swap_timing="after_draw")
>>> r.players, r.swap_timing
(2, 'after_draw')

A ``Rules`` is immutable and always valid: every constructor path goes through
:meth:`Rules.__post_init__`, which refuses bad values and invalid combinations with a
:class:`RulesError` naming the option and the value. :meth:`Rules.to_array` gives the int64
rules vector the kernels read (layout in :mod:`briscasim.engine.layout`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from . import cards as C
from .engine import layout as L
from .errors import ArgumentTypeError, UserError
from .limits import MAX_MATCH_DEALS, MAX_MATCH_POINTS
from .suggest import valid_choices


class RulesError(UserError):
    """An invalid option, value or combination of options."""


TEAMS = ("none", "pairs", "threes")
LEFTOVERS = ("remove", "face_up", "hidden")
TIMINGS = ("before_draw", "after_draw")
OBJECTIVES = ("most", "fewest")
TIES = ("draw", "last_trick")
SIGNALS = ("none", "honest", "rais")
TRUMPS = ("turned_card", "none")
CLAIMS = ("auto",)
MATCH_KINDS = ("deal", "deals", "rounds_to_win", "points")
AUCTIONS = ("rank_then_points", "rank_only", "points_only", "subito_al_due")
ALL_PASS = ("redeal_same_dealer", "redeal_next_dealer", "reopen_61")
FIRST_LEADS = ("eldest", "caller")
CAPPOTTOS = ("points", "tricks", "off")
BID_MULTIPLIERS = ("flat", "ladder")
CHIAMATA_DEFAULTS = dict(all_pass="redeal_same_dealer", min_points=61, self_call=True,
                         first_lead="eldest", cappotto="points", bid_multiplier="flat")
"""Briscola Chiamata's options besides ``auction`` (which makes the game Chiamata), with
their defaults; unset (None) in every other game."""
CHIAMATA_OPTIONS = ("auction", *CHIAMATA_DEFAULTS)
DECKS = tuple(C.DECK_FACES)


@dataclass(frozen=True)
class Rules:
    """Rules of one game variant (docs/rules.md). Defaults are the ``brisca-2`` game."""

    players: int = 2
    deck: str = "spanish40"
    hand_size: int = 3
    teams: str = "none"
    leftover: str | None = None
    removed_cards: tuple[str, ...] | None = None
    swap_seven: bool = True
    swap_two: bool = True
    swap_timing: str = "before_draw"
    objective: str = "most"
    tie: str = "draw"
    black_hand: bool = False
    face_up_reshuffle: bool = False
    jack_over_horse: bool = False
    signals: str = "none"
    rais_seats: tuple[int, ...] = (0, 1)
    trump: str = "turned_card"
    must_follow_suit: bool = False
    open_hands: bool = False
    stock_top_visible: bool = False
    target_points: int | None = None
    claim: str = "auto"
    match: str = "deal"
    max_deals: int = 1000
    auction: str | None = None
    all_pass: str | None = None
    min_points: int | None = None
    self_call: bool | None = None
    first_lead: str | None = None
    cappotto: str | None = None
    bid_multiplier: str | None = None
    name: str = field(default="custom", compare=False)

    # ---- construction ------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides) -> "Rules":
        """The named preset of docs/rules.md, with options overridden."""
        if not isinstance(name, str):
            raise ArgumentTypeError(f"name must be a preset name such as 'brisca-2', not "
                                    f"{type(name).__name__}")
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}{valid_choices(name, PRESETS, 'presets')}")
        opts = _merge(PRESETS[name], overrides)
        label = name if not overrides else name + "+" + ",".join(
            f"{k}={_format_value(v)}" for k, v in overrides.items())
        return cls.from_options(opts, name=label)

    @classmethod
    def coerce(cls, value, argument: str = "rules") -> "Rules":
        """``value`` as a ``Rules``: a ``Rules`` itself, or a preset name. Anything else is a
        ``TypeError`` naming ``argument``; an unknown name is a :class:`RulesError`."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls.preset(value)
            except RulesError as e:
                raise RulesError(f"{argument}: {e}") from None
        raise ArgumentTypeError(f"{argument} must be a Rules value or a preset name such as "
                                f"'brisca-2', not {type(value).__name__}")

    @classmethod
    def from_options(cls, options: dict, name: str = "custom") -> "Rules":
        """Build from a mapping of option names to values (strings are parsed)."""
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise ArgumentTypeError(f"options must be a mapping of rule option names to "
                                    f"values, not {type(options).__name__}")
        unknown = [k for k in options if k not in OPTION_NAMES]
        if unknown:
            raise RulesError(f"unknown rule option {unknown[0]!r}"
                             f"{valid_choices(unknown[0], OPTION_NAMES, 'options')}")
        return cls(**{k: parse_option(k, v) for k, v in options.items()}, name=name)

    def replace(self, **overrides) -> "Rules":
        """A copy with options overridden (validated)."""
        base = self.name if self.name != "custom" else "custom"
        label = base + "+" + ",".join(f"{k}={_format_value(v)}" for k, v in overrides.items())
        opts = _merge(self.options(), overrides)
        return Rules.from_options(opts, name=label)

    def options(self) -> dict:
        """Every option as a plain dict (no name; Briscola Chiamata's only in Chiamata)."""
        d = dataclasses.asdict(self)
        d.pop("name")
        if self.auction is None:
            for k in CHIAMATA_OPTIONS:
                d.pop(k)
        if d["removed_cards"] is not None:
            d["removed_cards"] = list(d["removed_cards"])
        d["rais_seats"] = list(d["rais_seats"])
        return d

    # ---- validation --------------------------------------------------------------------
    def __post_init__(self):
        def choice(opt, value, valid):
            if value not in valid:
                raise RulesError(f"rule option {opt} = {value!r} is not valid"
                                 f"{valid_choices(value, map(str, valid), 'values')}")

        if self.auction is not None:
            self._check_chiamata(choice)
            return
        for opt in CHIAMATA_DEFAULTS:
            if getattr(self, opt) is not None:
                raise RulesError(f"rule option {opt} applies to Briscola Chiamata only "
                                 "(rule option auction set, as in preset chiamata-5)")

        if not isinstance(self.players, int) or not 2 <= self.players <= 6:
            raise RulesError(f"rule option players = {self.players!r} is not supported; "
                             "briscasim plays 2 to 6 players")
        if (not isinstance(self.hand_size, int) or isinstance(self.hand_size, bool)
                or not 1 <= self.hand_size <= L.MAX_HAND):
            raise RulesError(f"rule option hand_size = {self.hand_size!r} must be a whole "
                             f"number from 1 to {L.MAX_HAND}")
        choice("deck", self.deck, DECKS)
        choice("teams", self.teams, TEAMS)
        if self.leftover is not None:
            choice("leftover", self.leftover, LEFTOVERS)
        choice("swap_timing", self.swap_timing, TIMINGS)
        choice("objective", self.objective, OBJECTIVES)
        choice("tie", self.tie, TIES)
        choice("signals", self.signals, SIGNALS)
        choice("trump", self.trump, TRUMPS)
        choice("claim", self.claim, CLAIMS)
        for opt in _BOOL_OPTIONS:
            if opt not in CHIAMATA_OPTIONS and not isinstance(getattr(self, opt), bool):
                raise RulesError(f"rule option {opt} = {getattr(self, opt)!r} must be "
                                 "true or false")
        if self.teams == "pairs" and self.players not in (4, 6):
            raise RulesError(f"rule option teams = 'pairs' needs 4 or 6 players, "
                             f"not players = {self.players}")
        if self.teams == "threes" and self.players != 6:
            raise RulesError(f"rule option teams = 'threes' needs 6 players, "
                             f"not players = {self.players}")
        if self.signals != "none" and self.teams == "none":
            raise RulesError(f"rule option signals = {self.signals!r} needs partnerships; "
                             "set teams = 'pairs' or 'threes'")
        if self.trump == "none":
            for opt, value in (("swap_seven", self.swap_seven), ("swap_two", self.swap_two),
                               ("face_up_reshuffle", self.face_up_reshuffle),
                               ("black_hand", self.black_hand),
                               ("signals", self.signals != "none" and self.signals),
                               ("leftover", self.leftover == "face_up" and self.leftover)):
                if value:
                    raise RulesError(f"rule option {opt} = {_format_value(value)} does not "
                                     "apply to trump = 'none' (no face-up card, no trump)")
        if self.target_points is not None:
            if (not isinstance(self.target_points, int) or isinstance(self.target_points, bool)
                    or not 1 <= self.target_points <= 120):
                raise RulesError(f"rule option target_points = {self.target_points!r} must be "
                                 "a whole number from 1 to 120, or none")
            if self.objective != "most":
                raise RulesError(f"rule option target_points = {self.target_points} needs "
                                 f"objective = 'most', not objective = {self.objective!r}")
        self._check_rais()
        kind, target = _parse_match(self.match)
        if (not isinstance(self.max_deals, int) or isinstance(self.max_deals, bool)
                or not 1 <= self.max_deals <= MAX_MATCH_DEALS):
            raise RulesError(f"rule option max_deals = {self.max_deals!r} must be a whole "
                             f"number from 1 to {MAX_MATCH_DEALS:,}")
        if self.removed_cards is not None:
            if self.leftover not in (None, "remove"):
                raise RulesError(f"rule option removed_cards needs leftover = 'remove', "
                                 f"not leftover = {self.leftover!r}")
            ids = []
            for code in self.removed_cards:
                try:
                    ids.append(C.card_id(code))
                except C.CardError as e:
                    raise RulesError(f"rule option removed_cards: {e}") from None
                if ids[-1] not in C.deck_cards(self.deck):
                    raise RulesError(f"rule option removed_cards: {code!r} is not in the "
                                     f"{self.deck} deck")
            if len(set(ids)) != len(ids):
                raise RulesError(f"rule option removed_cards = {list(self.removed_cards)} "
                                 "names a card twice")
        n_cards = len(C.deck_cards(self.deck))
        rest = n_cards % self.players
        if self.leftover is None and rest and not self._remove_by_default:
            raise RulesError(
                f"{n_cards} cards of deck = {self.deck!r} do not divide among "
                f"players = {self.players}; set rule option leftover to one of "
                f"{', '.join(LEFTOVERS)}")
        if self.effective_leftover == "remove":
            in_play = n_cards - len(self.removed_ids)
            if in_play % self.players:
                raise RulesError(
                    f"rule option removed_cards = {[C.card_code(c) for c in self.removed_ids]}"
                    f" leaves {in_play} cards, which do not divide among "
                    f"players = {self.players}")
        if self.cards_in_play < self.hand_size * self.players + (self.trump != "none"):
            raise RulesError(f"too few cards in play ({self.cards_in_play}) for "
                             f"players = {self.players} with hand_size = {self.hand_size}")
        del kind, target

    def _check_rais(self) -> None:
        """``rais_seats``: one captain per side, and only under ``signals = rais``."""
        seats = self.rais_seats
        text = f"rule option rais_seats = {list(seats) if isinstance(seats, tuple) else seats!r}"
        if (not isinstance(seats, tuple)
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in seats)):
            raise RulesError(f"{text} must be a list of seats, one captain per side")
        if self.signals != "rais":
            if seats != (0, 1):
                raise RulesError(f"{text} applies only to signals = 'rais', not signals = "
                                 f"{self.signals!r}")
            return
        sides = self.sides
        if (len(seats) != len(sides) or not all(0 <= s < self.players for s in seats)
                or sorted(self.side_of[s] for s in seats) != list(range(len(sides)))):
            raise RulesError(f"{text} must name one captain per side: "
                             + ", ".join(f"one of {side}" for side in sides))

    _CHIAMATA_FIXED = dict(players=5, deck="spanish40", hand_size=8, teams="none",
                           leftover=None, removed_cards=None, swap_seven=False,
                           swap_two=False, swap_timing="before_draw", objective="most",
                           tie="draw", black_hand=False, face_up_reshuffle=False,
                           jack_over_horse=False, signals="none", trump="turned_card",
                           open_hands=False, stock_top_visible=False,
                           target_points=None, rais_seats=(0, 1))
    """The options Briscola Chiamata fixes: anything else does not apply to it."""

    def _check_chiamata(self, choice) -> None:
        """Validate (and complete with the defaults) the options of Briscola Chiamata."""
        choice("auction", self.auction, AUCTIONS)
        for opt, value in CHIAMATA_DEFAULTS.items():
            if getattr(self, opt) is None:
                object.__setattr__(self, opt, value)
        choice("all_pass", self.all_pass, ALL_PASS)
        choice("first_lead", self.first_lead, FIRST_LEADS)
        choice("cappotto", self.cappotto, CAPPOTTOS)
        choice("bid_multiplier", self.bid_multiplier, BID_MULTIPLIERS)
        for opt in ("self_call", "must_follow_suit"):
            if not isinstance(getattr(self, opt), bool):
                raise RulesError(f"rule option {opt} = {getattr(self, opt)!r} must be true or "
                                 "false")
        if (not isinstance(self.min_points, int) or isinstance(self.min_points, bool)
                or not 61 <= self.min_points <= 120):
            raise RulesError(f"rule option min_points = {self.min_points!r} must be a whole "
                             "number from 61 to 120")
        for opt, value in self._CHIAMATA_FIXED.items():
            if getattr(self, opt) != value:
                given = (f" = {getattr(self, opt)!r}" if opt in ("players", "deck", "hand_size")
                         else "")
                raise RulesError(f"rule option {opt}{given} does not apply to Briscola "
                                 f"Chiamata (rule option auction = {self.auction!r}: 5 "
                                 "players, spanish40, 8 cards each, no stock)")
        kind, _ = _parse_match(self.match)
        if kind == "rounds_to_win":
            raise RulesError(f"rule option match = {self.match!r} does not apply to Briscola "
                             "Chiamata: use 'deal', 'deals N' or 'points P' (game points)")
        if (not isinstance(self.max_deals, int) or isinstance(self.max_deals, bool)
                or not 1 <= self.max_deals <= MAX_MATCH_DEALS):
            raise RulesError(f"rule option max_deals = {self.max_deals!r} must be a whole "
                             f"number from 1 to {MAX_MATCH_DEALS:,}")

    @property
    def chiamata(self) -> bool:
        """True for Briscola Chiamata (rule option ``auction`` set)."""
        return self.auction is not None

    @property
    def _remove_by_default(self) -> bool:
        return self.players == 3 or (self.players == 5 and self.deck == "spanish48")

    # ---- derived values ----------------------------------------------------------------
    @property
    def effective_leftover(self) -> str | None:
        """``leftover`` after docs/rules.md: None when the cards divide evenly."""
        n_cards = len(C.deck_cards(self.deck))
        if self.leftover is None:
            if n_cards % self.players == 0 and self.removed_cards is None:
                return None
            return "remove"
        if self.leftover != "remove" and n_cards % self.players == 0:
            return None
        return self.leftover

    @property
    def removed_ids(self) -> list[int]:
        """Ids of the cards removed before shuffling."""
        if self.effective_leftover != "remove":
            return []
        if self.removed_cards is not None:
            return [C.card_id(c) for c in self.removed_cards]
        deck = C.deck_cards(self.deck)
        strength, _ = C.face_tables(self.jack_over_horse)
        weakest = sorted(deck, key=lambda c: (strength[c % 12], c // 12))
        return weakest[: len(deck) % self.players]

    @property
    def deck_ids(self) -> list[int]:
        """Ids of the cards that are shuffled and dealt from (removed cards excluded)."""
        removed = set(self.removed_ids)
        return [c for c in C.deck_cards(self.deck) if c not in removed]

    @property
    def undrawn(self) -> int:
        """Cards that stay undrawn, out of play (``face_up`` and ``hidden`` readings)."""
        if self.effective_leftover in ("face_up", "hidden"):
            return len(self.deck_ids) % self.players
        return 0

    @property
    def cards_in_play(self) -> int:
        return len(self.deck_ids) - self.undrawn

    @property
    def tricks(self) -> int:
        return self.cards_in_play // self.players

    @property
    def draw_rounds(self) -> int:
        """Rounds of drawing in a deal: one after each trick but the last ``hand_size``."""
        return self.tricks - self.hand_size

    @property
    def sides(self) -> list[list[int]]:
        """Seats of each side, sides numbered by their lowest seat."""
        n = self.players
        if self.teams == "none":
            return [[s] for s in range(n)]
        if self.teams == "pairs":
            half = n // 2
            return [[s, s + half] for s in range(half)]
        return [[0, 2, 4], [1, 3, 5]]

    @property
    def side_of(self) -> list[int]:
        out = [0] * self.players
        for i, seats in enumerate(self.sides):
            for s in seats:
                out[s] = i
        return out

    @property
    def match_kind(self) -> str:
        return _parse_match(self.match)[0]

    @property
    def match_target(self) -> int:
        return _parse_match(self.match)[1]

    @cached_property
    def _array(self) -> np.ndarray:
        r = np.zeros(L.RULES_LEN, dtype=np.int64)
        r[L.R_PLAYERS] = self.players
        r[L.R_HAND_SIZE] = self.hand_size
        r[L.R_N_SIDES] = len(self.sides)
        r[L.R_SIDE:L.R_SIDE + self.players] = self.side_of
        for seats in self.sides:
            r[L.R_MATES + np.asarray(seats)] = sum(1 << s for s in seats)
        deck = self.deck_ids
        r[L.R_DECK_N] = len(deck)
        r[L.R_N_IN_PLAY] = self.cards_in_play
        r[L.R_LEFTOVER] = {None: L.LEFTOVER_NONE, "remove": L.LEFTOVER_REMOVE,
                           "face_up": L.LEFTOVER_FACE_UP,
                           "hidden": L.LEFTOVER_HIDDEN}[self.effective_leftover]
        r[L.R_N_UNDRAWN] = self.undrawn
        r[L.R_SWAP_SEVEN] = self.swap_seven
        r[L.R_SWAP_TWO] = self.swap_two
        r[L.R_SWAP_TIMING] = TIMINGS.index(self.swap_timing)
        r[L.R_OBJECTIVE] = OBJECTIVES.index(self.objective)
        r[L.R_TIE] = TIES.index(self.tie)
        r[L.R_BLACK_HAND] = self.black_hand
        r[L.R_RESHUFFLE] = self.face_up_reshuffle
        r[L.R_SIGNALS] = SIGNALS.index(self.signals)
        r[L.R_RAIS:L.R_RAIS + L.MAX_SIDES] = -1
        if self.signals == "rais":
            for s in self.rais_seats:
                r[L.R_RAIS + self.side_of[s]] = s
        r[L.R_NO_TRUMP] = self.trump == "none"
        r[L.R_FOLLOW_SUIT] = self.must_follow_suit
        r[L.R_OPEN_HANDS] = self.open_hands
        r[L.R_STOCK_TOP_VISIBLE] = self.stock_top_visible
        r[L.R_TARGET_POINTS] = self.target_points or 0
        r[L.R_JACK_OVER_HORSE] = self.jack_over_horse
        r[L.R_SEVEN_FACES] = sum(1 << f for f in (C.ACE, C.THREE, C.KING, C.HORSE, C.JACK))
        faces = set(C.DECK_FACES[self.deck])
        r[L.R_TWO_FACES] = sum(1 << f for f in (C.NINE, C.EIGHT, C.SEVEN, C.SIX, C.FIVE,
                                                 C.FOUR) if f in faces)
        r[L.R_MATCH_KIND] = MATCH_KINDS.index(self.match_kind)
        r[L.R_MATCH_N] = self.match_target
        r[L.R_MAX_DEALS] = self.max_deals
        strength, points = C.face_tables(self.jack_over_horse)
        r[L.R_STRENGTH:L.R_STRENGTH + 12] = strength
        r[L.R_POINTS:L.R_POINTS + 12] = points
        r[L.R_DECK:L.R_DECK + len(deck)] = deck
        ids = np.arange(L.N_CARD_IDS)
        r[L.R_CARD_POINTS:L.R_CARD_POINTS + L.N_CARD_IDS] = np.asarray(points)[ids % 12]
        r[L.R_CARD_STRENGTH:L.R_CARD_STRENGTH + L.N_CARD_IDS] = np.asarray(strength)[ids % 12]
        r[L.R_CARD_SUIT:L.R_CARD_SUIT + L.N_CARD_IDS] = ids // 12
        r[L.R_CARD_FACE:L.R_CARD_FACE + L.N_CARD_IDS] = ids % 12
        stronger = np.asarray(strength)[None, :] > np.asarray(strength)[:, None]  # [face, f]
        face_bits = (stronger.astype(np.int64) << np.arange(12)).sum(axis=1)
        r[L.R_CARD_STRONGER:L.R_CARD_STRONGER + L.N_CARD_IDS] = (face_bits[ids % 12]
                                                                 << (12 * (ids // 12)))
        for table, empty in ((L.R_CARD_POINTS, L.EMPTY_POINTS), (L.R_CARD_STRENGTH,
                             L.EMPTY_STRENGTH), (L.R_CARD_SUIT, L.EMPTY_SUIT),
                             (L.R_CARD_FACE, L.EMPTY_FACE)):
            r[table + L.NO_CARD] = empty
        if self.chiamata:
            r[L.R_AUCTION] = AUCTIONS.index(self.auction) + 1
            r[L.R_ALL_PASS] = ALL_PASS.index(self.all_pass)
            r[L.R_MIN_POINTS] = self.min_points
            r[L.R_SELF_CALL] = self.self_call
            r[L.R_FIRST_LEAD] = FIRST_LEADS.index(self.first_lead)
            r[L.R_CAPPOTTO] = CAPPOTTOS.index(self.cappotto)
            r[L.R_BID_MULTIPLIER] = BID_MULTIPLIERS.index(self.bid_multiplier)
        r[L.R_START_STATE:L.R_START_STATE + L.START_STATE_SLOTS] = self._start_state()
        r.setflags(write=False)
        return r

    def _start_state(self) -> np.ndarray:
        """The deal state before any card is dealt (what engine.core.start_deal copies before
        dealing), packed four int16 to an int64 slot of the rules vector."""
        s = np.zeros(4 * L.START_STATE_SLOTS, np.int16)
        s[L.S_KNOWN + L.NO_CARD:L.S_KNOWN + L.N_CARD_IDS] = L.KNOWN_OUT
        s[L.S_KNOWN + np.asarray(self.deck_ids)] = L.KNOWN_UNSEEN
        s[L.S_HANDS:L.S_HANDS + L.MAX_PLAYERS * L.MAX_HAND] = L.NO_CARD
        s[L.S_TRICK:L.S_TRICK + L.MAX_PLAYERS] = L.NO_CARD
        s[L.S_PLAYS:L.S_PLAYS + L.N_CARD_IDS] = L.NO_CARD
        s[L.S_WINNER] = L.UNDECIDED
        for f in (L.S_BID, L.S_BIDDER, L.S_CALLER, L.S_CALLED, L.S_PARTNER, L.S_HOLDER,
                  L.S_LAST_WINNER, L.S_BLACK_HAND, L.S_TARGET_SEAT, L.S_SWAP7_SEAT,
                  L.S_SWAP7_TRICK, L.S_SWAP7_CARD, L.S_SWAP2_SEAT, L.S_SWAP2_TRICK,
                  L.S_SWAP2_CARD):
            s[f] = -1
        s[L.S_SEAT_BIDS:L.S_SEAT_BIDS + L.MAX_PLAYERS] = -1
        if self.chiamata:
            # every card is dealt: no stock, no face-up card, no trump before the call
            s[L.S_N_TRICKS] = self.tricks
            s[L.S_PHASE] = L.PHASE_AUCTION
            for f in (L.S_TRUMP, L.S_FACE_UP, L.S_TURNED):
                s[f] = -1
            return s.view(np.int64)
        # face-down cards after the deal and the turned card (if one is turned); the undrawn
        # ones stay at the end
        turns = self.trump != "none"
        m = len(self.deck_ids) - self.players * self.hand_size - turns
        s[L.S_N_FACEDOWN] = m
        if self.effective_leftover == "face_up":
            # the face-up card and the last (undrawn - 1) face-down cards stay undrawn
            s[L.S_FACEDOWN_TO_DRAW] = s[L.S_TO_DRAW] = m - (self.undrawn - 1)
        else:
            # hidden reading (or nothing left over): the last face-down cards stay unseen,
            # the face-up card is still drawn last
            s[L.S_FACEDOWN_TO_DRAW] = m - self.undrawn
            s[L.S_TO_DRAW] = m - self.undrawn + turns
        s[L.S_N_TRICKS] = self.cards_in_play // self.players
        s[L.S_PHASE] = L.PHASE_PLAY
        if not turns:
            s[L.S_TRUMP] = L.NO_TRUMP
            s[L.S_FACE_UP] = s[L.S_TURNED] = L.NO_CARD
        return s.view(np.int64)

    def to_array(self) -> np.ndarray:
        """The int64 rules vector the kernels take (a fresh copy)."""
        return self._array.copy()

    def describe(self) -> str:
        """One line listing every option."""
        return ", ".join(f"{k}={_format_value(v)}" for k, v in self.options().items())

    def differences(self) -> dict:
        """The options that differ from the defaults (the ``brisca-2`` game; in Briscola
        Chiamata, Chiamata's own defaults for its options)."""
        base = Rules().options()
        if self.chiamata:
            base.update(CHIAMATA_DEFAULTS)
        return {k: v for k, v in self.options().items() if k not in base or base[k] != v}


OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "name")
_BOOL_OPTIONS = ("swap_seven", "swap_two", "black_hand", "face_up_reshuffle", "jack_over_horse",
                 "must_follow_suit", "open_hands", "stock_top_visible", "self_call")
_INT_OPTIONS = {"players", "hand_size", "max_deals", "target_points", "min_points"}


def _merge(options: dict, overrides: dict) -> dict:
    """Options with overrides applied; a new ``leftover`` other than ``remove`` drops the
    removed cards it replaces."""
    out = dict(options)
    out.update(overrides)
    if ("leftover" in overrides and "removed_cards" not in overrides
            and parse_option("leftover", overrides["leftover"]) not in (None, "remove")):
        out["removed_cards"] = None
    return out


def _format_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(map(str, v))
    return str(v)


def _parse_match(match) -> tuple[str, int]:
    if not isinstance(match, str):
        raise RulesError(f"rule option match = {match!r} must be a string such as 'deal', "
                         "'deals 3', 'rounds_to_win 3' or 'points 500'")
    parts = match.split()
    if parts == ["deal"]:
        return "deal", 1
    if len(parts) != 2 or parts[0] not in MATCH_KINDS[1:] or not parts[1].isdigit():
        raise RulesError(f"rule option match = {match!r} is not valid; use 'deal', "
                         "'deals N', 'rounds_to_win K' (K in 1, 3, 5, 7) or 'points P'")
    kind, n = parts[0], int(parts[1])
    if kind == "rounds_to_win" and n not in (1, 3, 5, 7):
        raise RulesError(f"rule option match = {match!r}: rounds_to_win takes 1, 3, 5 or 7")
    if n < 1:
        raise RulesError(f"rule option match = {match!r}: the number must be at least 1")
    most = MAX_MATCH_POINTS if kind == "points" else MAX_MATCH_DEALS
    if n > most:
        raise RulesError(f"rule option match = {match!r}: the number must be at most {most:,}")
    return kind, n


def parse_option(name: str, value):
    """Parse one option value (as given in a spec or on the command line)."""
    if name not in OPTION_NAMES:
        raise RulesError(f"unknown rule option {name!r}"
                         f"{valid_choices(name, OPTION_NAMES, 'options')}")
    if name in _BOOL_OPTIONS and isinstance(value, str):
        v = value.strip().lower()
        if v in ("true", "yes", "on", "1"):
            return True
        if v in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"rule option {name} = {value!r} must be true or false")
    if (name in ("leftover", "target_points") and isinstance(value, str)
            and value.strip().lower() in ("", "none", "null")):
        return None
    if name in _INT_OPTIONS and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise RulesError(f"rule option {name} = {value!r} must be a whole number") from None
    if name in _INT_OPTIONS and isinstance(value, bool):
        raise RulesError(f"rule option {name} = {value!r} must be a whole number")
    if name == "rais_seats":
        if isinstance(value, str):
            value = value.replace(",", " ").split()
            try:
                value = [int(v) for v in value]
            except ValueError:
                raise RulesError(f"rule option rais_seats = {value!r} must be a list of "
                                 "seats") from None
        return tuple(value) if isinstance(value, (list, tuple)) else value
    if name == "removed_cards":
        if value is None:
            return None
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"rule option removed_cards = {value!r} must be a list of "
                             "card codes")
        return tuple(value)
    return value


def parse_override(text: str) -> tuple[str, object]:
    """Parse ``key=value`` (the CLI's ``--rule``)."""
    if "=" not in text:
        raise RulesError(f"rule override {text!r} must look like key=value, "
                         f"e.g. swap_timing=after_draw")
    key, value = text.split("=", 1)
    key = key.strip()
    return key, parse_option(key, value.strip())


_BRISCA = dict(swap_seven=True, swap_two=True)
_BRISCOLA = dict(swap_seven=False, swap_two=False, tie="draw")

PRESETS: dict[str, dict] = {
    "brisca-2": dict(players=2, **_BRISCA),
    "brisca-3-remove2": dict(players=3, leftover="remove", removed_cards=("2o",), **_BRISCA),
    "brisca-3-faceup": dict(players=3, leftover="face_up", **_BRISCA),
    "brisca-3-hidden": dict(players=3, leftover="hidden", **_BRISCA),
    "brisca-4": dict(players=4, **_BRISCA),
    "brisca-4-pairs": dict(players=4, teams="pairs", **_BRISCA),
    "brisca-4-pairs-signals": dict(players=4, teams="pairs", signals="honest", **_BRISCA),
    "brisca-5": dict(players=5, deck="spanish48", leftover="remove",
                     removed_cards=("2o", "2c", "2e"), **_BRISCA),
    "brisca-5-undrawn": dict(players=5, deck="spanish48", leftover="face_up", **_BRISCA),
    "brisca-6": dict(players=6, deck="spanish48", **_BRISCA),
    "brisca-6-pairs": dict(players=6, deck="spanish48", teams="pairs", **_BRISCA),
    "brisca-6-threes": dict(players=6, deck="spanish48", teams="threes", **_BRISCA),
    "brisca-2-blackhand": dict(players=2, swap_timing="after_draw", tie="last_trick",
                               black_hand=True, **_BRISCA),
    "brisca-reves": dict(players=2, objective="fewest", **_BRISCA),
    "briscola-2": dict(players=2, **_BRISCOLA),
    "briscola-3": dict(players=3, leftover="remove", removed_cards=("2o",), **_BRISCOLA),
    "briscola-4": dict(players=4, teams="pairs", **_BRISCOLA),
    "briscola-6": dict(players=6, deck="spanish36", teams="threes", **_BRISCOLA),
    "briscola-2-reshuffle": dict(players=2, face_up_reshuffle=True, **_BRISCOLA),
    "briscola-2-south": dict(players=2, jack_over_horse=True, **_BRISCOLA),
    "briscola-2-scoperta": dict(players=2, open_hands=True, stock_top_visible=True, **_BRISCOLA),
    "schembil": dict(players=6, deck="spanish36", teams="threes", signals="rais",
                     rais_seats=(0, 1), match="rounds_to_win 3", **_BRISCOLA),
    "briscola-2-31": dict(players=2, target_points=31, **_BRISCOLA),
    "briscolone-2": dict(players=2, hand_size=5, trump="none", match="points 151", **_BRISCOLA),
    "briscolone-2-follow": dict(players=2, hand_size=5, trump="none", match="points 151",
                                must_follow_suit=True, **_BRISCOLA),
}
_CHIAMATA = dict(players=5, hand_size=8, swap_seven=False, swap_two=False,
                 auction="rank_then_points", **CHIAMATA_DEFAULTS)
PRESETS.update({
    "chiamata-5": _CHIAMATA,
    "chiamata-5-pagat": {**_CHIAMATA, "bid_multiplier": "ladder", "cappotto": "tricks"},
    "chiamata-5-points": {**_CHIAMATA, "auction": "points_only"},
    "chiamata-5-subito-al-due": {**_CHIAMATA, "auction": "subito_al_due",
                                 "all_pass": "reopen_61"},
    "chiamata-5-caller-leads": {**_CHIAMATA, "first_lead": "caller"},
})

DESCRIPTIONS: dict[str, str] = {
    "brisca-2": "Brisca for two: the defaults",
    "brisca-3-remove2": "Brisca for three, the 2 of oros put aside",
    "brisca-3-faceup": "Brisca for three, the face-up card stays undrawn",
    "brisca-3-hidden": "Brisca for three, the last face-down card stays undrawn",
    "brisca-4": "Brisca for four, everyone alone",
    "brisca-4-pairs": "Brisca for two pairs",
    "brisca-4-pairs-signals": "Brisca for two pairs who may signal to each other",
    "brisca-5": "Brisca for five with the 48-card deck, three 2s put aside",
    "brisca-5-undrawn": "Brisca for five with the 48-card deck, three cards stay undrawn",
    "brisca-6": "Brisca for six with the 48-card deck, everyone alone",
    "brisca-6-pairs": "Brisca for three pairs with the 48-card deck",
    "brisca-6-threes": "Brisca for two teams of three with the 48-card deck",
    "brisca-2-blackhand": "Brisca for two with the black hand, swaps after the draw",
    "brisca-reves": "Brisca for two played for the fewest points",
    "briscola-2": "Briscola for two, no swaps",
    "briscola-3": "Briscola for three, the 2 of oros put aside",
    "briscola-4": "Briscola for two pairs",
    "briscola-6": "Briscola for two teams of three with the 36-card deck",
    "briscola-2-reshuffle": "Briscola for two, an ace or three turned face up is reshuffled",
    "briscola-2-south": "Briscola for two, the jack beats the horse",
    "briscola-2-scoperta": "Briscola for two with open hands and the stock's top card shown",
    "schembil": "Schembil: two teams of three with signals, first to three rounds",
    "briscola-2-31": "Briscola for two, the first to 31 points wins",
    "briscolone-2": "Briscolone for two: five cards, no trumps, a match to 151 points",
    "briscolone-2-follow": "Briscolone for two, following suit",
    "chiamata-5": "Briscola Chiamata for five: an auction, a called partner",
    "chiamata-5-pagat": "Briscola Chiamata scored on a ladder, cappotto by tricks",
    "chiamata-5-points": "Briscola Chiamata with an auction by points only",
    "chiamata-5-subito-al-due": "Briscola Chiamata bid by points, always calling a 2",
    "chiamata-5-caller-leads": "Briscola Chiamata, the caller leads the first trick",
}
"""One line on each preset, for ``briscasim presets``."""
