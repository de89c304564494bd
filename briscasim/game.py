"""The Python step API: one deal at a time, over the same jitted kernels as batch play.

>>> from briscasim import Rules, Deal
>>> deal = Deal.from_seed(Rules.preset("brisca-2"), seed=1)
>>> deal.legal_codes()            # doctest: +SKIP
['Ao', '7c', '4e']
>>> deal.play("Ao")               # doctest: +SKIP

A :class:`Deal` records what happens (tricks, swaps, draws) so that :meth:`Deal.log` can show
it; :meth:`Deal.view` gives what one seat may know (RULES.md section 8).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import cards as C
from .engine import core
from .engine import layout as L
from .engine.rng import item_key, new_stream
from .rules import Rules


class IllegalAction(ValueError):
    """An action that is not legal in the current state, or a bad deck order."""


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

    def to_dict(self):
        return {"winner": self.winner, "black_hand": self.black_hand,
                "points": list(self.points), "out_of_play_points": self.out_of_play_points}


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


def seeded_deck(r: np.ndarray, seed: int, item: int, deal_no: int = 0) -> np.ndarray:
    """The cards, in play order, of deal ``deal_no`` of item ``item`` (a deal, or a match)
    under ``seed``, as the batch kernels deal them; ``r`` is the rules vector."""
    deck = np.zeros(L.N_CARD_IDS, np.int16)
    key = np.uint64(item_key(np.uint64(seed), item))   # a Python int would be typed int64
    core.shuffled_deck(r, deck, np.zeros(L.N_CARD_IDS, np.int16), new_stream(), key,
                       deal_no)
    return deck[:r[L.R_DECK_N]]


class Deal:
    """One deal under ``rules``, stepped one action at a time."""

    def __init__(self, rules: Rules, deck):
        """Start a deal from ``deck``: card ids (or codes) top first, every card in play
        once (removed cards excluded)."""
        self.rules = rules
        self._r = rules.to_array()
        ids = [C.card_id(c) if isinstance(c, str) else int(c) for c in deck]
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
                parts.append("not in this game " + " ".join(C.card_code(c) for c in extra))
            raise IllegalAction(f"deck order: {'; '.join(parts)} (a deck order lists each of "
                                f"the {len(expected)} cards in play once)")
        self.deck = tuple(ids)
        self.state = np.zeros(L.STATE_LEN, np.int16)
        core.start_deal(self._r, self.state, np.array(ids, np.int16))
        self.initial_hands = tuple(self.hand(s) for s in range(rules.players))
        self.turned = int(self.state[L.S_TURNED])
        self.tricks: list[Trick] = []
        self.swaps: list[Swap] = []
        self.draws: list[Draw] = []
        self.actions: list[int] = []
        self._trick_cards: list[int] = []

    @classmethod
    def from_seed(cls, rules: Rules, seed: int, deal_index: int = 0) -> "Deal":
        """The deal that batch simulation plays as deal ``deal_index`` under ``seed``."""
        return cls(rules, seeded_deck(rules.to_array(), seed, deal_index).tolist())

    # ---- state ------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return ("play", "swap", "over")[int(self.state[L.S_PHASE])]

    @property
    def over(self) -> bool:
        return self.state[L.S_PHASE] == L.PHASE_OVER

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
    def current_trick(self) -> list[int]:
        return list(self._trick_cards)

    def hand(self, seat: int) -> list[int]:
        base = L.S_HANDS + seat * L.HAND_SIZE
        return [int(c) for c in self.state[base:base + L.HAND_SIZE] if c != L.NO_CARD]

    @property
    def points(self) -> tuple[int, ...]:
        n = len(self.rules.sides)
        return tuple(int(p) for p in self.state[L.S_POINTS:L.S_POINTS + n])

    @property
    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        w = int(self.state[L.S_WINNER])
        b = int(self.state[L.S_BLACK_HAND])
        return Outcome(None if w == L.DRAW else w, None if b < 0 else b, self.points,
                       int(core.out_of_play_points(self._r, self.state)))

    # ---- actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        out = np.zeros(L.N_ACTIONS, np.int64)
        k = core.legal_actions(self._r, self.state, out)
        return out[:k].tolist()

    def legal_codes(self) -> list[str]:
        return [action_code(a) for a in self.legal_actions()]

    def play(self, action) -> None:
        """Apply an action: a card id or code, or ``"swap"`` / ``"keep"`` at a swap offer."""
        a = parse_action(action)
        if a not in self.legal_actions():
            if self.over:
                raise IllegalAction(f"the deal is over; {action_code(a)} cannot be played")
            raise IllegalAction(
                f"{action_code(a)} is not legal for seat {self.turn} now ({self.phase} "
                f"phase); legal: {' '.join(self.legal_codes())}")
        before = self.state.copy()
        if core.step(self._r, self.state, a) < 0:  # pragma: no cover - checked above
            raise IllegalAction(f"{action_code(a)} refused by the engine")
        self.actions.append(a)
        self._record(before, a)

    def _record(self, before, a):
        s, n = self.state, self.rules.players
        if before[L.S_PHASE] == L.PHASE_PLAY:
            self._trick_cards.append(a)
            if s[L.S_TRICK_NO] > before[L.S_TRICK_NO]:
                leader = int(before[L.S_LEADER])
                winner = int(s[L.S_LAST_WINNER])
                pts = sum(core.card_points(self._r, c) for c in self._trick_cards)
                self.tricks.append(Trick(int(s[L.S_TRICK_NO]), leader,
                                         tuple(self._trick_cards), winner, int(pts)))
                self._trick_cards = []
        n_swaps = len(self.swaps)
        for seat_f, taken_f in ((L.S_SWAP7_SEAT, L.S_SWAP7_CARD), (L.S_SWAP2_SEAT, L.S_SWAP2_CARD)):
            if s[seat_f] >= 0 and before[seat_f] < 0:
                seat = int(s[seat_f])
                self.swaps.append(Swap(int(s[L.S_TRICK_NO]), seat, int(s[L.S_FACE_UP]),
                                       int(s[taken_f])))
        drawn = int(before[L.S_TO_DRAW] - s[L.S_TO_DRAW])
        swapped = {w.seat: w.taken for w in self.swaps[n_swaps:]}
        leader = int(s[L.S_LEADER])
        for i in range(drawn):
            q = (leader + i) % n
            new = set(_hand(s, q)) - set(_hand(before, q)) - {swapped.get(q)}
            card = new.pop()
            self.draws.append(Draw(int(s[L.S_TRICK_NO]), q, card,
                                   bool(s[L.S_KNOWN + card] == q)))

    # ---- views and logs ---------------------------------------------------------------
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now (copies)."""
        base = L.S_HANDS + seat * L.HAND_SIZE
        sig = int(core.signals(self._r, self.state, seat)) if self._r[L.R_SIGNALS] else 0
        return SeatView(seat, self.state[:L.PUBLIC_LEN].copy(),
                        self.state[base:base + L.HAND_SIZE].copy(), sig)

    def to_dict(self) -> dict:
        """The whole deal as plain data (for ``--json``)."""
        out = self.outcome
        return {
            "rules": self.rules.name, "options": self.rules.options(),
            "deck": [C.card_code(c) for c in self.deck],
            "hands": [[C.card_code(c) for c in h] for h in self.initial_hands],
            "turned": C.card_code(self.turned), "trump": C.SUIT_NAMES[self.trump],
            "actions": [action_code(a) for a in self.actions],
            "tricks": [t.to_dict() for t in self.tricks],
            "swaps": [w.to_dict() for w in self.swaps],
            "draws": [d.to_dict() for d in self.draws],
            "outcome": out.to_dict() if out else None,
        }

    def log(self) -> str:
        """A readable account of the deal so far."""
        r = self.rules
        lines = [f"rules: {r.name} ({r.players} players, {r.deck})",
                 f"face-up card: {C.card_code(self.turned)} (trump {C.SUIT_NAMES[self.trump]})"]
        for s, h in enumerate(self.initial_hands):
            lines.append(f"seat {s} (side {r.side_of[s]}) hand: {' '.join(map(C.card_code, h))}")
        swaps = {w.after_trick: w for w in self.swaps}
        draws: dict[int, list[Draw]] = {}
        for d in self.draws:
            draws.setdefault(d.after_trick, []).append(d)
        for t in self.tricks:
            cards = " ".join(f"{(t.leader + i) % r.players}:{C.card_code(c)}"
                             for i, c in enumerate(t.cards))
            lines.append(f"trick {t.number:2d}: {cards}  -> seat {t.winner} takes "
                         f"{t.points} points")
            events = []
            w = swaps.get(t.number)
            if w:
                events.append(f"          seat {w.seat} swaps {C.card_code(w.given)} for the "
                              f"face-up {C.card_code(w.taken)}")
            if t.number in draws:
                events.append("          draws: " + " ".join(
                    f"{d.seat}:{C.card_code(d.card)}{'*' if d.face_up else ''}"
                    for d in draws[t.number]))
            if r.swap_timing == "after_draw":
                events.reverse()
            lines.extend(events)
        if self._trick_cards:
            lines.append("current trick: " + " ".join(map(C.card_code, self._trick_cards)))
        out = self.outcome
        if out:
            pts = ", ".join(f"side {i}: {p}" for i, p in enumerate(out.points))
            if out.black_hand is not None:
                lines.append(f"black hand: seat {out.black_hand} wins for side {out.winner}"
                             f" ({pts})")
            else:
                res = "draw" if out.winner is None else f"side {out.winner} wins"
                lines.append(f"result: {res} ({pts}; out of play: "
                             f"{out.out_of_play_points})")
        return "\n".join(lines)


def _hand(state, seat):
    base = L.S_HANDS + seat * L.HAND_SIZE
    return [int(c) for c in state[base:base + L.HAND_SIZE] if c != L.NO_CARD]


def action_code(a: int) -> str:
    if a == L.ACTION_SWAP:
        return "swap"
    if a == L.ACTION_KEEP:
        return "keep"
    return C.card_code(a)


def parse_action(action) -> int:
    if isinstance(action, (int, np.integer)):
        if not 0 <= action < L.N_ACTIONS:
            raise IllegalAction(f"action {int(action)} is neither a card id (0..47) nor "
                                f"swap ({L.ACTION_SWAP}) / keep ({L.ACTION_KEEP})")
        return int(action)
    text = str(action).strip()
    if text.lower() == "swap":
        return L.ACTION_SWAP
    if text.lower() in ("keep", "pass", "no-swap"):
        return L.ACTION_KEEP
    try:
        return C.card_id(text)
    except C.CardError as e:
        raise IllegalAction(f"action {text!r}: {e} (or 'swap' / 'keep' at a swap offer)") \
            from None
