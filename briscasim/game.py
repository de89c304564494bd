"""The Python step API, and the one driver of every deal played move by move.

>>> from briscasim import Rules, Deal
>>> deal = Deal.from_seed(Rules.preset("brisca-2"), seed=1)
>>> deal.legal_codes()            # doctest: +SKIP
['Ao', '7c', '4e']
>>> deal.play("Ao")               # doctest: +SKIP

A :class:`Deal` steps the same jitted engine as batch play (:func:`briscasim.engine.core.step`)
and keeps the events the engine reports (cards dealt and turned, cards played, tricks won,
draws, swaps, declined offers, black hands, the end of the deal): :attr:`Deal.events`, the
tricks, swaps and draws, :meth:`Deal.log` and :meth:`Deal.to_dict` are read from them.
:meth:`Deal.view` gives what one seat may know (docs/rules.md, "What each seat may know").
Replays, prototype strategies and interactive play all play through :meth:`Deal.play` (with
:meth:`Deal.play_out` for a whole lineup).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, NamedTuple

import numpy as np
from numba import njit, types
from numba.np.unsafe.ndarray import to_fixed_tuple

from . import cards as C
from .arguments import shown, whole
from .engine import core
from .engine import layout as L
from .engine.rng import STREAM_LEN, item_key, new_stream
from .errors import ArgumentTypeError, IllegalAction, UserError
from .jit import entry_point
from .rules import Rules


@dataclass(frozen=True)
class Trick:
    number: int          # 1-based
    leader: int
    cards: tuple[int, ...]   # in playing order
    winner: int
    points: int

    def to_dict(self):
        return {"number": self.number, "leader": self.leader,
                "cards": [C.card_code(c) for c in self.cards], "winner": self.winner,
                "points": self.points}


@dataclass(frozen=True)
class Swap:
    after_trick: int     # the trick the seat had just won
    seat: int
    given: int           # the trump 7 or 2 put face up
    taken: int           # the face-up card taken into hand

    def to_dict(self):
        return {"after_trick": self.after_trick, "seat": self.seat,
                "given": C.card_code(self.given), "taken": C.card_code(self.taken)}


@dataclass(frozen=True)
class Draw:
    after_trick: int
    seat: int
    card: int
    face_up: bool        # the face-up card (seen by everyone)

    def to_dict(self):
        return {"after_trick": self.after_trick, "seat": self.seat,
                "card": C.card_code(self.card), "face_up": self.face_up}


@dataclass(frozen=True)
class Outcome:
    winner: int | None   # winning side, None for a draw
    black_hand: int | None   # seat that won by a black hand
    points: tuple[int, ...]  # per side
    out_of_play_points: int
    target_seat: int | None = None   # seat whose captured points reached target_points

    def to_dict(self):
        out = {"winner": self.winner, "black_hand": self.black_hand,
               "points": list(self.points), "out_of_play_points": self.out_of_play_points}
        if self.target_seat is not None:       # only deals that ended on target_points
            out["target_seat"] = self.target_seat
        return out


@dataclass(frozen=True)
class Contract:
    """Briscola Chiamata: the auction's result and the deal's score (``None`` fields while
    unknown; a deal thrown in has no caller)."""
    bid: str | None          # the winning bid's action code
    target: int | None       # card points the caller's side needs
    caller: int | None
    called: int | None       # the called card
    partner: int | None      # the called card's holder (the caller when alone)
    side_points: int | None  # card points of the caller's side
    success: bool | None
    multiplier: int          # ladder times cappotto; 0 when thrown in
    game_points: tuple[int, ...]

    def to_dict(self):
        return {"bid": self.bid, "target": self.target, "caller": self.caller,
                "called": None if self.called is None else C.card_code(self.called),
                "partner": self.partner, "side_points": self.side_points,
                "success": self.success, "multiplier": self.multiplier,
                "game_points": list(self.game_points)}


@dataclass(frozen=True)
class SeatView:
    """What one seat may know: the public state, its own hand, its partners' signals."""
    seat: int
    public: np.ndarray = field(repr=False)
    hand: np.ndarray = field(repr=False)
    signals: int

    @property
    def hand_cards(self) -> list[int]:
        return [int(c) for c in self.hand if c != L.NO_CARD]

    @property
    def known(self) -> dict[int, int]:
        """Public knowledge of every card of the deck (``KNOWN_*`` or a seat number)."""
        k = self.public[L.S_KNOWN:L.S_KNOWN + L.N_CARD_IDS]
        return {c: int(k[c]) for c in range(L.N_CARD_IDS) if k[c] != L.KNOWN_OUT}

    def visible_cards(self) -> set[int]:
        """Cards whose place this seat knows: its hand, cards played, the face-up card, and
        cards publicly known to be in a hand."""
        k = self.public[L.S_KNOWN:L.S_KNOWN + L.N_CARD_IDS]
        seen = {c for c in range(L.N_CARD_IDS) if k[c] not in (L.KNOWN_UNSEEN, L.KNOWN_OUT)}
        return seen | set(self.hand_cards)


class Event(NamedTuple):
    """One thing that happened in a deal, as the engine reports it (``EVENT_*`` of
    :mod:`briscasim.engine.layout` for the meaning of ``seat``, ``a`` and ``b``)."""
    kind: str
    seat: int
    a: int
    b: int

    def to_dict(self) -> dict:
        """The event as plain data, cards and bids as codes."""
        out = {"event": self.kind, "seat": self.seat}
        for name, value, kind in zip(_EVENT_FIELDS[self.kind], (self.a, self.b),
                                     _EVENT_CARDS[self.kind]):
            out[name] = (C.card_code(value) if kind is True else
                         action_code(L.ACTION_BID + value) if kind == "bid" else value)
        return out


EVENT_NAMES = ("dealt", "turned", "play", "trick", "draw", "swap", "decline", "black_hand",
               "over", "target", "bid", "pass", "reopen", "call")
_EVENT_FIELDS = {"dealt": ("card",), "turned": ("card", "trump"), "play": ("card", "place"),
                 "trick": ("points", "trick"), "draw": ("card", "face_up"),
                 "swap": ("given", "taken"), "decline": ("card",), "black_hand": (),
                 "over": ("points_0", "points_1"), "target": ("points", "trick"),
                 "bid": ("bid", "target"), "pass": (), "reopen": ("reopens",),
                 "call": ("card", "trump")}
_EVENT_CARDS = {"dealt": (True,), "turned": (True, False), "play": (True, False),
                "trick": (False, False), "draw": (True, False), "swap": (True, True),
                "decline": (True,), "black_hand": (), "over": (False, False),
                "target": (False, False), "bid": ("bid", False), "pass": (), "reopen": (False,),
                "call": (True, False)}
"""Per event field: True a card (written as its code), "bid" a bid level, else a number."""


def seeded_deck(r: np.ndarray, seed: int, item: int, deal_no: int = 0) -> np.ndarray:
    """The cards, in play order, of deal ``deal_no`` of item ``item`` (a deal, or a match)
    under ``seed``, as the batch kernels deal them; ``r`` is the rules vector."""
    deck = np.zeros(L.N_CARD_IDS, np.int16)
    key = np.uint64(item_key(np.uint64(seed), item))   # a Python int would be typed int64
    core.shuffled_deck(r, deck, np.zeros(L.N_CARD_IDS, np.int16), new_stream(), key,
                       deal_no)
    return deck[:r[L.R_DECK_N]]


# ---- the jitted side of the driver -----------------------------------------------------------
# A deal's arrays live in one int64 buffer (its rules vector, state, events, deck, and scratch
# for the legal actions and the shuffle), so that a move costs one call with one array; the legal
# actions come back as the returned tuple (their count, then the actions), which Python slices.
_STATE_AT = L.RULES_LEN
_EVENTS_AT = _STATE_AT + (L.STATE_LEN + 3) // 4
_LEGAL_AT = _EVENTS_AT + L.MAX_EVENTS * L.EVENT_LEN // 4
_DECK_AT = _LEGAL_AT + 1 + L.MAX_LEGAL_ANY
_SHUFFLE_AT = _DECK_AT + L.N_CARD_IDS // 4
_BUFFER_LEN = _SHUFFLE_AT + L.N_CARD_IDS // 4 + STREAM_LEN
_REPLY_LEN = 1 + L.MAX_LEGAL
"""The reply tuple holds up to ``MAX_LEGAL`` actions; more (Briscola Chiamata's auction and
call) are read from the buffer (:func:`_reply_actions`)."""


@njit(cache=True, _nrt=False, inline="always")
def _parts(buffer):
    """The rules vector, state, events, legal-action scratch and deck of a deal's buffer."""
    return (buffer[:_STATE_AT], buffer[_STATE_AT:_EVENTS_AT].view(np.int16)[:L.STATE_LEN],
            buffer[_EVENTS_AT:_LEGAL_AT].view(np.int16).reshape((L.MAX_EVENTS, L.EVENT_LEN)),
            buffer[_LEGAL_AT:_DECK_AT], buffer[_DECK_AT:_SHUFFLE_AT].view(np.int16))


@njit(cache=True, _nrt=False)
def _start(buffer, seed, item, shuffle):
    """Start the deal of the buffer's deck (shuffled first, as deal ``item`` under ``seed``,
    if ``shuffle``), reporting events; the reply: the count of legal actions, then the
    actions (``_REPLY_LEN`` entries, a tuple that Python boxes without a lookup)."""
    rules, state, events, legal, deck = _parts(buffer)
    if shuffle:
        partners = buffer[_SHUFFLE_AT:_BUFFER_LEN - STREAM_LEN].view(np.int16)
        rng = buffer[_BUFFER_LEN - STREAM_LEN:].view(np.uint64)
        core.shuffled_deck(rules, deck, partners, rng, item_key(seed, item), 0)
    events[0, 0] = 0
    core.start_deal(rules, state, deck, events)
    legal[0] = core.legal_actions(rules, state, legal[1:])
    return to_fixed_tuple(legal, _REPLY_LEN)


@njit(cache=True, _nrt=False)
def _advance(buffer, action):
    """Apply ``action`` to the buffer's state, reporting events; the legal actions of the next
    decision (a reply as :func:`_start`'s), or a count of -1 if ``action`` is not legal
    (nothing changes)."""
    rules, state, events, legal, _ = _parts(buffer)
    if core.step(rules, state, action, events) < 0:
        legal[0] = -1
    else:
        legal[0] = core.legal_actions(rules, state, legal[1:])
    return to_fixed_tuple(legal, _REPLY_LEN)


_REPLY = types.UniTuple(types.int64, _REPLY_LEN)
_START_SIGNATURE = _REPLY(types.int64[::1], types.uint64, types.int64, types.boolean)
_ADVANCE_SIGNATURE = _REPLY(types.int64[::1], types.int64)
_START = _ADVANCE = None
"""The entry points (:func:`briscasim.jit.entry_point`) of :func:`_start` and
:func:`_advance`, looked up when the first deal starts."""


def _started(buffer, seed: int, item: int, shuffle: bool) -> tuple[int, ...]:
    """The legal actions after :func:`_start`, called through its entry point (looked up,
    with :func:`_advance`'s, once)."""
    global _START, _ADVANCE
    if _START is None:
        _ADVANCE = entry_point(_advance, _ADVANCE_SIGNATURE)
        _START = entry_point(_start, _START_SIGNATURE)
    return _reply_actions(buffer, _START(buffer, seed, item, shuffle))


def _reply_actions(buffer, reply) -> tuple[int, ...]:
    """The legal actions of a reply of :func:`_start` or :func:`_advance`."""
    n = reply[0]
    if n <= L.MAX_LEGAL:
        return reply[1:1 + n]
    return tuple(buffer[_LEGAL_AT + 1:_LEGAL_AT + 1 + n].tolist())


class Deal:
    """One deal under ``rules``, stepped one action at a time: the one move-by-move driver
    of the engine."""

    def __init__(self, rules: Rules, deck):
        """Start a deal from ``deck``: card ids (or codes) top first, every card in play
        once (removed cards excluded)."""
        rules = Rules.coerce(rules)
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise ArgumentTypeError(f"deck must be a sequence of card ids or codes, not "
                                    f"{type(deck).__name__}")
        ids = [_deck_card(c) for c in deck]
        expected = set(rules.deck_ids)
        missing = expected - set(ids)
        extra = [c for c in ids if c not in expected]
        repeated = sorted({c for c in ids if ids.count(c) > 1})
        if missing or extra or repeated:
            parts = []
            if missing:
                parts.append("missing " + " ".join(C.card_code(c) for c in sorted(missing)))
            if repeated:
                parts.append("repeated " + " ".join(C.card_code(c) for c in repeated))
            if extra:
                parts.append("not in this game " + " ".join(_code(c) for c in extra))
            raise IllegalAction(f"deck order: {'; '.join(parts)} (a deck order lists each of "
                                f"the {len(expected)} cards in play once)")
        self._setup(rules)
        self._deck[:len(ids)] = ids
        self._legal = _started(self._buffer, 0, 0, False)

    @classmethod
    def from_seed(cls, rules: Rules, seed: int, deal_index: int = 0) -> "Deal":
        """The deal that batch simulation plays as deal ``deal_index`` under ``seed``."""
        rules = Rules.coerce(rules)
        seed = check_count("seed", seed, 2 ** 64)
        deal_index = check_count("deal_index", deal_index, 2 ** 63)
        deal = cls.__new__(cls)
        deal._setup(rules)
        deal._legal = _started(deal._buffer, seed, deal_index, True)
        return deal

    def copy(self) -> "Deal":
        """An independent copy of the deal as it stands."""
        new = Deal.__new__(Deal)
        new.rules, new._buffer = self.rules, self._buffer.copy()
        new.actions, new._read, new._legal = list(self.actions), self._read, self._legal
        new.shift = self.shift
        return new

    __copy__ = copy

    def __deepcopy__(self, memo) -> "Deal":
        return self.copy()

    def _setup(self, rules: Rules) -> None:
        self.rules = rules
        self._buffer = buffer = np.empty(_BUFFER_LEN, np.int64)
        buffer[:_STATE_AT] = rules._array
        self.actions: list[int] = []
        self._read = (-1, None)
        self.shift = 0      # in a match, the times the deal had passed on before this deal

    # views of the buffer, made when first asked for (a deal played through play() alone
    # never needs them)
    @cached_property
    def _r(self) -> np.ndarray:
        return self._buffer[:_STATE_AT]

    @cached_property
    def state(self) -> np.ndarray:
        """The engine's deal state (``S_*`` fields of :mod:`briscasim.engine.layout`), a view:
        read it, never write it."""
        return self._buffer[_STATE_AT:_EVENTS_AT].view(np.int16)[:L.STATE_LEN]

    @cached_property
    def _events(self) -> np.ndarray:
        return self._buffer[_EVENTS_AT:_LEGAL_AT].view(np.int16).reshape(L.MAX_EVENTS,
                                                                         L.EVENT_LEN)

    @cached_property
    def _deck(self) -> np.ndarray:
        return self._buffer[_DECK_AT:_SHUFFLE_AT].view(np.int16)

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards in play order, top first."""
        return tuple(self._deck[:self._r[L.R_DECK_N]].tolist())

    # ---- state ------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.state[L.S_PHASE])]

    @property
    def over(self) -> bool:
        return not self._legal

    @property
    def turn(self) -> int:
        """The seat to act."""
        return int(self.state[L.S_TURN])

    @property
    def trump(self) -> int:
        return int(self.state[L.S_TRUMP])

    @property
    def face_up(self) -> int:
        return int(self.state[L.S_FACE_UP])

    @property
    def turned(self) -> int:
        """The card first turned face up."""
        return int(self.state[L.S_TURNED])

    @property
    def current_trick(self) -> list[int]:
        return [int(c) for c in self.state[L.S_TRICK:L.S_TRICK + self.state[L.S_TRICK_N]]]

    def hand(self, seat: int) -> list[int]:
        return [int(c) for c in self._hand_slots(self._seat(seat)) if c != L.NO_CARD]

    def _hand_slots(self, seat: int) -> np.ndarray:
        """The seat's first ``hand_size`` hand slots (a view; ``NO_CARD`` when empty)."""
        base = L.S_HANDS + seat * L.MAX_HAND
        return self.state[base:base + self.rules.hand_size]

    @property
    def initial_hands(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's hand as dealt."""
        hands = [[] for _ in range(self.rules.players)]
        for e in self.events:
            if e.kind == "dealt":
                hands[e.seat].append(e.a)
        return tuple(tuple(h) for h in hands)

    @property
    def points(self) -> tuple[int, ...]:
        n = len(self.rules.sides)
        return tuple(int(p) for p in self.state[L.S_POINTS:L.S_POINTS + n])

    @property
    def auction(self) -> list[tuple[int, str]]:
        """Briscola Chiamata: ``(seat, action code)`` of every bid, pass and answer to the
        reopen question so far, in order."""
        out = []
        for e in self.events:
            if e.kind == "bid":
                out.append((e.seat, action_code(L.ACTION_BID + e.a)))
            elif e.kind == "pass" or (e.kind == "reopen" and not e.a):
                out.append((e.seat, "pass"))
        return out

    @property
    def contract(self) -> Contract | None:
        """Briscola Chiamata: the contract and score once the deal is over (else None)."""
        if not self.rules.chiamata or not self.over:
            return None
        rec = np.zeros(L.CHIAMATA_RECORD_LEN, np.int32)
        core.write_record(self._r, self.state, rec)
        gp = tuple(int(g) for g in rec[L.REC_GAME_POINTS:L.REC_GAME_POINTS + self.rules.players])
        if rec[L.REC_CALLER] < 0:
            return Contract(None, None, None, None, None, None, None, 0, gp)
        return Contract(action_code(L.ACTION_BID + int(rec[L.REC_CONTRACT])),
                        int(rec[L.REC_TARGET]), int(rec[L.REC_CALLER]),
                        int(rec[L.REC_CALLED]), int(rec[L.REC_PARTNER]),
                        int(rec[L.REC_SIDE_POINTS]), bool(rec[L.REC_SUCCESS]),
                        int(rec[L.REC_MULTIPLIER]), gp)

    @property
    def called(self) -> int | None:
        """Briscola Chiamata: the called card, once called."""
        c = int(self.state[L.S_CALLED])
        return None if c < 0 else c

    @property
    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        w = int(self.state[L.S_WINNER])
        b = int(self.state[L.S_BLACK_HAND])
        t = int(self.state[L.S_TARGET_SEAT])
        return Outcome(None if w in (L.DRAW, L.DEFENDERS) else w, None if b < 0 else b,
                       self.points, int(core.out_of_play_points(self._r, self.state)),
                       None if t < 0 else t)

    # ---- actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act (card ids, ``ACTION_SWAP`` / ``ACTION_KEEP``
        at a swap offer), as the engine works them out; empty once the deal is over."""
        return [*self._legal]

    def legal_codes(self) -> list[str]:
        return [action_code(a) for a in self._legal]

    def play(self, action) -> None:
        """Apply an action: a card id or code, ``"swap"`` / ``"keep"`` at a swap offer, or
        in Briscola Chiamata a bid, ``"pass"`` or a call (docs/rules.md, action codes)."""
        if type(action) is not int:
            action = parse_action(action, self._legal)
        if action not in self._legal:
            raise self._illegal(action)
        reply = _ADVANCE(self._buffer, action)     # set by the deal's start
        self._legal = reply[1:1 + reply[0]] if reply[0] <= L.MAX_LEGAL else _reply_actions(
            self._buffer, reply)
        self.actions.append(action)

    def play_out(self, decide: Callable[["Deal"], object]) -> "Deal":
        """Play to the end of the deal, asking ``decide(deal)`` for every action (an illegal
        answer raises :class:`IllegalAction`, leaving the deal where it was)."""
        if not callable(decide):
            raise ArgumentTypeError(f"decide must be a function of the deal that returns an "
                                    f"action, not {type(decide).__name__}")
        while self._legal:
            self.play(decide(self))
        return self

    def _illegal(self, a: int) -> IllegalAction:
        if self.over:
            return IllegalAction(f"the deal is over; {_code(a)} cannot be played")
        return IllegalAction(f"{_code(a)} is not legal for seat {self.turn} now ({self.phase} "
                             f"phase); legal: {' '.join(self.legal_codes())}")

    def _seat(self, seat) -> int:
        n = self.rules.players
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
            raise ArgumentTypeError(f"seat {shown(seat)}: a seat is a whole number, 0 to "
                                    f"{n - 1} in {self.rules.name}")
        if not 0 <= seat < n:
            raise UserError(f"seat {seat!r}: seats are numbered 0 to {n - 1} in "
                            f"{self.rules.name}")
        return int(seat)

    # ---- what happened ------------------------------------------------------------------
    @property
    def events(self) -> list[Event]:
        """Everything the engine reported so far, in order."""
        n = int(self._events[0, 0])
        if self._read[0] != n:
            rows = self._events[1:n + 1].tolist()
            self._read = (n, [Event(EVENT_NAMES[k], s, a, b) for k, s, a, b in rows])
        return list(self._read[1])

    @property
    def tricks(self) -> list[Trick]:
        out, cards, leader = [], [], 0
        for e in self.events:
            if e.kind == "play":
                leader = e.seat if not cards else leader
                cards.append(e.a)
            elif e.kind == "trick":
                out.append(Trick(e.b, leader, tuple(cards), e.seat, e.a))
                cards = []
        return out

    @property
    def swaps(self) -> list[Swap]:
        return [Swap(after, e.seat, e.a, e.b) for after, e in self._after_tricks("swap")]

    @property
    def draws(self) -> list[Draw]:
        return [Draw(after, e.seat, e.a, bool(e.b)) for after, e in self._after_tricks("draw")]

    def _after_tricks(self, kind: str):
        """``(tricks completed before it, event)`` for every event of ``kind``."""
        done = 0
        for e in self.events:
            done += e.kind == "trick"
            if e.kind == kind:
                yield done, e

    # ---- views and logs ---------------------------------------------------------------
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now (copies)."""
        seat = self._seat(seat)
        sig = int(core.signals(self._r, self.state, seat)) if self._r[L.R_SIGNALS] else 0
        return SeatView(seat, self.state[:L.PUBLIC_LEN].copy(), self._hand_slots(seat).copy(),
                        sig)

    def to_dict(self) -> dict:
        """The whole deal as plain data (for ``--json``)."""
        out = self.outcome
        if self.rules.chiamata:
            contract = self.contract
            return {
                "rules": self.rules.name, "options": self.rules.options(),
                "deck": [C.card_code(c) for c in self.deck],
                "hands": [[C.card_code(c) for c in h] for h in self.initial_hands],
                "auction": [{"seat": s, "action": a} for s, a in self.auction],
                "called": None if self.called is None else C.card_code(self.called),
                "trump": None if self.trump < 0 else C.SUIT_NAMES[self.trump],
                "actions": [action_code(a) for a in self.actions],
                "tricks": [t.to_dict() for t in self.tricks],
                "events": [e.to_dict() for e in self.events],
                "outcome": out.to_dict() if out else None,
                "contract": contract.to_dict() if contract else None,
            }
        return {
            "rules": self.rules.name, "options": self.rules.options(),
            "deck": [C.card_code(c) for c in self.deck],
            "hands": [[C.card_code(c) for c in h] for h in self.initial_hands],
            "turned": C.card_code(self.turned) if self.turned != L.NO_CARD else None, "trump": C.suit_name(self.trump),
            "actions": [action_code(a) for a in self.actions],
            "tricks": [t.to_dict() for t in self.tricks],
            "swaps": [w.to_dict() for w in self.swaps],
            "draws": [d.to_dict() for d in self.draws],
            "events": [e.to_dict() for e in self.events],
            "outcome": out.to_dict() if out else None,
        }

    def log(self) -> str:
        """A readable account of the deal so far, from its events."""
        r = self.rules
        lines = [f"rules: {r.name} ({r.players} players, {r.deck})"]
        if r.chiamata:
            for s, h in enumerate(self.initial_hands):
                lines.append(f"seat {s} hand: {' '.join(map(C.card_code, h))}")
            lines.append("auction: " + " ".join(f"{s}:{a}" for s, a in self.auction))
            if self.called is not None:
                lines.append(f"seat {int(self.state[L.S_CALLER])} calls "
                             f"{C.card_code(self.called)} (trump {C.suit_name(self.trump)})")
        else:
            lines.append(f"face-up card: {C.card_code(self.turned)} (trump "
                         f"{C.suit_name(self.trump)})" if self.turned != L.NO_CARD
                         else "no face-up card, no trump")
            for s, h in enumerate(self.initial_hands):
                lines.append(f"seat {s} (side {r.side_of[s]}) hand: "
                             f"{' '.join(map(C.card_code, h))}")
        trick, draws = [], []

        def flush_draws():
            if draws:
                lines.append("          draws: " + " ".join(draws))
                draws.clear()

        for e in self.events:
            if e.kind == "play":
                flush_draws()
                trick.append(f"{e.seat}:{C.card_code(e.a)}")
            elif e.kind == "trick":
                lines.append(f"trick {e.b:2d}: {' '.join(trick)}  -> seat {e.seat} takes "
                             f"{e.a} points")
                trick = []
            elif e.kind == "swap":
                flush_draws()
                lines.append(f"          seat {e.seat} swaps {C.card_code(e.a)} for the "
                             f"face-up {C.card_code(e.b)}")
            elif e.kind == "draw":
                draws.append(f"{e.seat}:{C.card_code(e.a)}{'*' if e.b else ''}")
        flush_draws()
        if trick:
            lines.append("current trick: " + " ".join(c.split(":")[1] for c in trick))
        out = self.outcome
        if out and r.chiamata:
            k = self.contract
            if k.caller is None:
                lines.append("thrown in: everybody passed")
            else:
                alone = " alone" if k.partner == k.caller else f" with seat {k.partner}"
                lines.append(f"result: seat {k.caller}{alone}, {k.bid} (target {k.target}): "
                             f"{k.side_points} card points, "
                             f"{'made' if k.success else 'failed'}; game points "
                             f"{' '.join(map(str, k.game_points))}")
        elif out:
            pts = ", ".join(f"side {i}: {p}" for i, p in enumerate(out.points))
            if out.black_hand is not None:
                lines.append(f"black hand: seat {out.black_hand} wins for side {out.winner}"
                             f" ({pts})")
            elif out.target_seat is not None:
                lines.append(f"seat {out.target_seat} reaches {r.target_points} points and "
                             f"wins for side {out.winner} ({pts})")
            else:
                res = "draw" if out.winner is None else f"side {out.winner} wins"
                lines.append(f"result: {res} ({pts}; out of play: "
                             f"{out.out_of_play_points})")
        return "\n".join(lines)


def check_count(name: str, value, high: int) -> int:
    """``value`` as a whole number from 0 to ``high - 1`` (:func:`briscasim.arguments.whole`)."""
    return whole(name, value, 0, high)


def _deck_card(c) -> int:
    if isinstance(c, str):
        try:
            return C.card_id(c)
        except C.CardError as e:
            raise C.CardError(f"deck order: {e}") from None
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
        raise IllegalAction(f"deck order: {shown(c)} is neither a card id nor a card code")
    if not 0 <= c < C.N_CARD_IDS:
        raise IllegalAction(f"deck order: {int(c)} is not a card id (0 to {C.N_CARD_IDS - 1})")
    return int(c)


def _code(a: int) -> str:
    return action_code(a) if 0 <= a < L.N_ACTIONS else str(a)


PHASE_NAMES = ("play", "swap", "over", "auction", "reopen", "call")
"""The names of the engine's phases (``PHASE_*``), by number."""
_RANK_BIDS = tuple(C.FACES[f] for f in L.BID_FACES)


def action_code(a: int) -> str:
    """The text code of an action: a card code, ``swap`` / ``keep``, and in Briscola
    Chiamata ``pass``, ``bid:A`` .. ``bid:4`` (rank bids), ``bid:61`` .. ``bid:120`` (point
    contracts; in a rank auction the two at those points) and ``call:Ro`` (a call)."""
    if a == L.ACTION_SWAP:
        return "swap"
    if a == L.ACTION_KEEP:
        return "keep"
    if a == L.ACTION_PASS:
        return "pass"
    if L.ACTION_BID <= a < L.ACTION_CALL:
        level = a - L.ACTION_BID
        return "bid:" + (_RANK_BIDS[level] if level < L.N_RANK_BIDS
                         else str(level - L.N_RANK_BIDS + L.FIRST_POINT_BID))
    if a >= L.ACTION_CALL:
        return "call:" + C.card_code(a - L.ACTION_CALL)
    return C.card_code(a)


def parse_action(action, legal=()) -> int:
    """An action from an action id or code (:func:`action_code`); ``pass`` is the auction's
    pass when ``legal`` holds a Chiamata action (a bid, a pass or a call), else ``keep``
    (declining a swap)."""
    if isinstance(action, (bool, np.bool_)):
        raise IllegalAction(f"action {action!r} is neither a card nor swap / keep")
    if isinstance(action, (int, np.integer)):
        if not 0 <= action < L.N_ACTIONS:
            raise IllegalAction(f"action {int(action)} is not an action id (0..47 cards, "
                                f"{L.ACTION_SWAP} swap, {L.ACTION_KEEP} keep, "
                                f"{L.ACTION_PASS}..{L.N_ACTIONS - 1} pass, bids and calls)")
        return int(action)
    text = str(action).strip()
    low = text.lower()
    if low == "swap":
        return L.ACTION_SWAP
    if low == "pass" and any(a >= L.ACTION_PASS for a in legal):
        return L.ACTION_PASS       # in the Chiamata auction (and not legal at its call)
    if low in ("keep", "pass", "no-swap"):
        return L.ACTION_KEEP
    kind, colon, what = text.partition(":")
    if colon and kind.lower() == "bid":
        what = what.strip().upper()
        if what in _RANK_BIDS:
            return L.ACTION_BID + _RANK_BIDS.index(what)
        if what.isdigit() and L.FIRST_POINT_BID <= int(what) <= 120:
            return L.ACTION_BID + L.N_RANK_BIDS + int(what) - L.FIRST_POINT_BID
        raise IllegalAction(f"action {text!r}: a bid is bid:A, bid:3, bid:R, bid:C, bid:S, "
                            "bid:7, bid:6, bid:5, bid:4 or bid:61 .. bid:120")
    if colon and kind.lower() == "call":
        try:
            return L.ACTION_CALL + C.card_id(what.strip())
        except C.CardError as e:
            raise IllegalAction(f"action {text!r}: {e}") from None
    try:
        return C.card_id(text)
    except C.CardError as e:
        raise IllegalAction(f"action {text!r}: {e} (or 'swap' / 'keep' at a swap offer; "
                            "'pass', 'bid:..' or 'call:..' in Briscola Chiamata)") from None
