"""Cards: integer ids, text codes and the rank tables of docs/rules.md.

A card id is ``suit * 12 + face``. Suits are ``o c e b`` (0..3). Faces are listed strongest
first in the default ordering: ``A 3 R C S 9 8 7 6 5 4 2`` (0..11). The 40-card deck has no
8 or 9, the 36-card deck has no 8, 9 or 2. Every kernel works on these ids; text codes such as
``"Ao"`` or ``"7c"`` are for people (logs, replays, errors, the Python API).
"""
from __future__ import annotations

import numpy as np

from .errors import UserError

SUITS = "oceb"
SUIT_NAMES = ("oros", "copas", "espadas", "bastos")
FACES = "A3RCS9876542"
N_FACES = 12
N_CARD_IDS = 48

# Face indexes, named.
ACE, THREE, KING, HORSE, JACK, NINE, EIGHT, SEVEN, SIX, FIVE, FOUR, TWO = range(12)

_DEFAULT_POINTS = {ACE: 11, THREE: 10, KING: 4, HORSE: 3, JACK: 2}

DECK_FACES = {
    "spanish40": (ACE, THREE, KING, HORSE, JACK, SEVEN, SIX, FIVE, FOUR, TWO),
    "spanish48": tuple(range(12)),
    "spanish36": (ACE, THREE, KING, HORSE, JACK, SEVEN, SIX, FIVE, FOUR),
}


class CardError(UserError):
    """An unknown card code."""


def card_id(code: str) -> int:
    """Return the id of a card code such as ``"Ao"`` or ``"7c"``."""
    if not isinstance(code, str) or len(code) != 2 or code[0] not in FACES or code[1] not in SUITS:
        raise CardError(
            f"unknown card code {code!r}: a code is a rank ({' '.join(FACES)}) "
            f"followed by a suit ({' '.join(SUITS)}), e.g. 'Ao', '7c', 'Rb'"
        )
    return SUITS.index(code[1]) * N_FACES + FACES.index(code[0])


def card_code(card: int) -> str:
    """Return the text code of a card id (``-1`` gives ``"--"``)."""
    if card < 0:
        return "--"
    return FACES[card % N_FACES] + SUITS[card // N_FACES]


def suit_name(suit: int) -> str:
    """The name of a trump suit; ``"none"`` for a deal without trump (``trump = none``)."""
    return SUIT_NAMES[suit] if 0 <= suit < len(SUIT_NAMES) else "none"


FACE_NAMES = ("ace", "three", "king", "horse", "jack", "nine", "eight", "seven", "six",
              "five", "four", "two")


def card_name(card: int) -> str:
    """The card in words, e.g. ``"ace of oros"`` for ``Ao``."""
    return f"{FACE_NAMES[card % N_FACES]} of {SUIT_NAMES[card // N_FACES]}"


def suit_of(card: int) -> int:
    return card // N_FACES


def face_of(card: int) -> int:
    return card % N_FACES


def deck_cards(deck: str) -> list[int]:
    """Card ids of a named deck, in id order (suits o c e b, strongest face first)."""
    faces = DECK_FACES[deck]
    return [s * N_FACES + f for s in range(4) for f in faces]


def face_tables(jack_over_horse: bool) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(strength, points)`` per face; a higher strength wins a trick.

    With ``jack_over_horse`` (southern-Italian ordering) the jack ranks above the horse and
    scores 3, the horse 2.
    """
    order = list(range(N_FACES))
    points = dict(_DEFAULT_POINTS)
    if jack_over_horse:
        order[HORSE], order[JACK] = order[JACK], order[HORSE]
        points[HORSE], points[JACK] = 2, 3
    strength = np.array([N_FACES - order[f] for f in range(N_FACES)], dtype=np.int64)
    pts = np.array([points.get(f, 0) for f in range(N_FACES)], dtype=np.int64)
    return strength, pts


def parse_cards(codes, where: str = "cards") -> list[int]:
    """Parse a sequence (or a space/comma separated string) of card codes."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    out = []
    for c in codes:
        try:
            out.append(card_id(c))
        except CardError as e:
            raise CardError(f"{where}: {e}") from None
    return out
