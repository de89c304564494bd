"""Scenario tests of the options of docs/rules.md that the named forms brought to every trick
game, each from an explicit deck order or seeded play: ``hand_size``.
"""
import random

import pytest

from briscasim.engine import layout as L
from briscasim.game import Deal
from briscasim.rules import Rules, RulesError

from deckbuild import random_policy

# ---- hand_size (every trick game) ----------------------------------------------------------

@pytest.mark.parametrize("preset, size", [("brisca-2", 5), ("brisca-4-pairs", 4),
                                          ("briscola-6", 1), ("brisca-3-hidden", 8)])
def test_hand_size_deals_that_many_cards_and_keeps_the_hands_full(preset, size):
    r = Rules.preset(preset, hand_size=size)
    assert r.draw_rounds == r.tricks - size
    deal = Deal.from_seed(r, 4)
    assert [len(h) for h in deal.initial_hands] == [size] * r.players
    while not deal.over:
        if deal.phase == "play" and not deal.current_trick:
            assert {len(deal.hand(s)) for s in range(r.players)} == {
                min(size, r.tricks - len(deal.tricks))}
        deal.play(min(deal.legal_actions()))
    assert len(deal.draws) == r.draw_rounds * r.players
    assert len(deal.tricks) == r.tricks


def test_hand_size_refused_out_of_range_or_too_large_for_the_deck():
    for bad in (0, 9, "x"):
        with pytest.raises(RulesError, match="hand_size"):
            Rules.preset("brisca-2", hand_size=bad)
    with pytest.raises(RulesError, match="hand_size = 8"):
        Rules.preset("brisca-6", hand_size=8)          # 48 cards, 6 x 8 + the face-up card


@pytest.mark.parametrize("timing, first, last", [("before_draw", 1, 14), ("after_draw", 1, 14)])
def test_swap_windows_count_the_draw_rounds_that_remain(timing, first, last):
    # brisca-2 with five cards: 15 draw rounds; the swap is open after tricks 1 to 14
    r = Rules.preset("brisca-2", hand_size=5, swap_timing=timing)
    assert r.draw_rounds == 15
    offers = set()
    for i in range(150):
        deal = Deal.from_seed(r, 9, i)
        policy = random_policy(random.Random(i), swap_prob=0.0)
        while not deal.over:
            if deal.phase == "swap":
                offers.add(len(deal.tricks))
                assert deal.state[L.S_TO_DRAW] >= (2 if timing == "before_draw" else 1) * 2
            deal.play(policy(deal))
    assert min(offers) == first and max(offers) == last
