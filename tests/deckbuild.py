"""Test helpers: explicit deck orders from wanted hands, and simple ways to play a deal on.

A deck order lists the cards in play top first: dealt one at a time from seat 0, then the
card turned face up, then the face-down stock from the top (docs/rules.md). The
helpers here state only what a scenario needs (hands, face-up card, the top and the bottom
of the stock) and fill in the rest.
"""
from __future__ import annotations

import random

from briscasim import cards as C
from briscasim.engine import layout as L
from briscasim.game import Deal
from briscasim.rules import Rules


def ids(codes) -> list[int]:
    """Card ids of codes given as a list or a space-separated string."""
    return C.parse_cards(codes)


def code_list(cards) -> list[str]:
    return [C.card_code(c) for c in cards]


def deck_order(rules: Rules, hands=(), face_up=None, stock=(), bottom=()) -> list[str]:
    """A deck order (codes, top first) giving each seat ``hands[seat]`` (missing cards are
    filled in), turning ``face_up`` and starting the stock with ``stock`` and ending it with
    ``bottom`` (the last face-down cards, just above the face-up card).

    With ``trump = none`` no card is turned (``face_up`` stays None).
    Filling cards are the weakest non-trump cards first, so that they start no swap or black
    hand by accident; the rest of the stock follows ``stock`` in that same order.
    """
    n = rules.players
    in_play = set(rules.deck_ids)
    hands = [ids(h or []) for h in hands] + [[] for _ in range(n - len(hands))]
    named = [c for h in hands for c in h] + ids(stock) + ids(bottom)
    if face_up is not None:
        named.append(C.card_id(face_up))
    assert len(set(named)) == len(named), f"a card is named twice: {code_list(named)}"
    assert set(named) <= in_play, f"not in play: {code_list(set(named) - in_play)}"
    strength, points = C.face_tables(rules.jack_over_horse)
    rest = [c for c in rules.deck_ids if c not in named]
    turned = C.card_id(face_up) if face_up is not None else None
    trump = turned // 12 if turned is not None else -1
    rest.sort(key=lambda c: (c // 12 == trump, points[c % 12], strength[c % 12], c))
    for h in hands:
        assert len(h) <= rules.hand_size
        while len(h) < rules.hand_size:
            h.append(rest.pop(0))
    if rules.chiamata:      # every card is dealt: no face-up card, no stock
        return code_list([hands[s][r] for r in range(rules.hand_size) for s in range(n)])
    order = [hands[s][r] for r in range(rules.hand_size) for s in range(n)]
    if rules.trump != "none":         # without trump no card is turned
        order.append(turned if turned is not None else rest.pop(0))
    order += ids(stock) + rest + ids(bottom)
    return code_list(order)


def new_deal(rules: Rules, **where) -> Deal:
    """A deal from :func:`deck_order` (same keywords)."""
    return Deal(rules, deck_order(rules, **where))


def play_trick(deal: Deal, *codes) -> None:
    """Play one card per seat, in playing order, from the seat to act."""
    for c in codes:
        deal.play(c)


def lowest_card(deal: Deal) -> int:
    """A fixed policy: the lowest card id in hand; keep at every swap offer."""
    legal = deal.legal_actions()
    if deal.phase == "swap":
        return L.ACTION_KEEP
    return min(legal)


def play_out(deal: Deal, policy=lowest_card) -> Deal:
    """Play ``deal`` to its end with ``policy(deal) -> action``."""
    while not deal.over:
        deal.play(policy(deal))
    return deal


def random_policy(rng: random.Random, swap_prob: float = 0.5):
    """A policy drawing uniformly among the legal cards, swapping with ``swap_prob``."""
    def policy(deal):
        if deal.phase == "swap":
            return L.ACTION_SWAP if rng.random() < swap_prob else L.ACTION_KEEP
        return rng.choice(deal.legal_actions())
    return policy


def deck_points(rules: Rules) -> int:
    """Card points of every card shuffled (removed cards excluded)."""
    _, points = C.face_tables(rules.jack_over_horse)
    return int(sum(points[c % 12] for c in rules.deck_ids))


def draw_rounds(rules: Rules) -> int:
    """Draw rounds in a deal: cards drawn (in play minus the first hands) over players."""
    return (rules.cards_in_play - rules.hand_size * rules.players) // rules.players


def can_swap(rules: Rules, hand, face_up: int) -> bool:
    """docs/rules.md, read directly: the hand holds the trump 7 and the face-up card is
    A 3 R C S, or it holds the trump 2 and the face-up card is a non-counting card other
    than the 2."""
    trump = face_up // 12
    face = C.FACES[face_up % 12]
    if rules.swap_seven and trump * 12 + C.SEVEN in hand and face in "A3RCS":
        return True
    non_counting = "4567" + ("89" if rules.deck == "spanish48" else "")
    return bool(rules.swap_two and trump * 12 + C.TWO in hand and face in non_counting)


def rais_reading(deal, seat) -> int:
    """docs/rules.md (Schembil) read directly: what the captain ``seat`` learns now."""
    r = deal.rules
    n, side = r.players, r.side_of[seat]
    if r.rais_seats[side] != seat or not deal.tricks:
        return 0
    strength, points = C.face_tables(r.jack_over_horse)
    trump = deal.trump
    trick = deal.current_trick
    leader = int(deal.state[L.S_LEADER])

    def key(c):            # who takes the trick: the highest trump, else the highest of the led
        return (c // 12 == trump, c // 12 == trick[0] // 12, strength[c % 12])
    best = max(trick, key=key) if trick else None
    out, shift = 0, 0
    partners = [(seat + i) % n for i in range(1, n) if r.side_of[(seat + i) % n] == side]
    for p in partners:
        open_trick = bool(trick) and (p - leader) % n >= len(trick)
        b = L.SIG_VALID | (L.RAIS_WINNER_KNOWN if open_trick else 0)
        for c in deal.hand(p):
            face = C.FACES[c % 12]
            if c // 12 == trump:
                b |= L.RAIS_LOW_TRUMP if face in "2456" else 0
                b |= L.RAIS_DRESSED_TRUMP if face in "RCS" else 0
            else:
                b |= L.RAIS_WORTHLESS if points[c % 12] == 0 else 0
                b |= L.RAIS_CARICO if face in "A3" else 0
                if open_trick and key(c) > key(best):
                    b |= L.RAIS_WINNER
        out |= b << shift
        shift += 8
    if deal.state[L.S_TO_DRAW] == 0:
        for c in deal.hand(partners[0]):
            out |= 1 << (L.RAIS_HAND_SHIFT + c)
    return out
