"""Swap policies: immediate, never, and hold with each trigger; where the last chance falls
under each swap timing; what holding costs (swap_summary)."""
import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies.swap import last_chance, swap_summary
from test_greedy import choice, crafted


def offer(preset="brisca-2", seven=True, **overrides):
    """A deal at seat 0's first swap offer: the 7 of trumps for the face-up Ao, or the 2 of
    trumps for the face-up 5o."""
    hand, turned = (["7o", "Ac", "2b"], "Ao") if seven else (["2o", "Ac", "3b"], "5o")
    deal = crafted(preset, [hand, ["4c", "5e", "6e"]], turned, **overrides)
    deal.play("Ac")
    deal.play("4c")
    assert deal.phase == "swap"
    return deal


def with_state(deal, **fields):
    """``deal`` with some public fields of its state changed (a later moment of the deal)."""
    for k, v in fields.items():
        deal.state[getattr(L, k)] = v
    return deal


def test_immediate_and_never():
    assert choice(offer(), "random+immediate") == "swap"
    assert choice(offer(), "greedy+never") == "keep"
    assert choice(offer(seven=False), "greedy+never") == "keep"


def test_hold_waits_for_the_stock():
    d = offer()
    to_draw = int(d.state[L.S_TO_DRAW])
    assert choice(d, "greedy+hold") == "keep"          # far from the last chance
    assert choice(d, f"greedy+hold:stock={to_draw}") == "swap"
    assert choice(d, f"greedy+hold:stock={to_draw - 1}") == "keep"


@pytest.mark.parametrize("timing, n, last", [("before_draw", 2, 4), ("after_draw", 2, 2),
                                             ("before_draw", 4, 8), ("after_draw", 4, 4)])
def test_last_chance_follows_the_swap_window(timing, n, last):
    preset = "brisca-2" if n == 2 else "brisca-4"
    rules = Rules.preset(preset, swap_timing=timing).to_array()
    public = np.zeros(L.PUBLIC_LEN, np.int16)
    public[L.S_TO_DRAW] = last
    assert last_chance(rules, public)
    public[L.S_TO_DRAW] = last + n
    assert not last_chance(rules, public)


def test_hold_swaps_at_the_last_chance_only():
    d = with_state(offer(), S_TO_DRAW=4)
    assert choice(d, "greedy+hold") == "swap"
    assert choice(d, "greedy+hold:last_chance=false") == "keep"


@pytest.mark.parametrize("preset, trick", [("brisca-2", 16), ("brisca-2-blackhand", 16)])
def test_holding_swaps_happen_at_the_last_swapping_trick(preset, trick):
    """docs/rules.md: in 2-player Brisca the last swap comes after trick 16 (before_draw) or
    when leading trick 17 (after_draw, recorded as trick 16, the trick just won)."""
    rules = Rules.preset(preset)
    out = play_chunk(rules, Lineup.build(rules, ["greedy+hold", "greedy+never"]), 4, 0, 400)
    swapped = out[:, L.REC_SWAP7_SEAT] == 0
    assert swapped.any()
    assert (out[swapped, L.REC_SWAP7_TRICK] == trick).all()
    assert (out[:, L.REC_SWAP7_SEAT] != 1).all()


def test_hold_until_the_high_trumps_are_gone():
    spec = "greedy+hold:last_chance=false,trumps_gone=true"
    d = offer()       # the face-up card is the A; the 3 of trumps is unseen
    assert choice(d, spec) == "keep"
    d = offer()
    d.state[L.S_KNOWN + 1] = L.KNOWN_PLAYED      # the 3o (card id 1) is played
    assert choice(d, spec) == "swap"


def test_hold_partner_signals_count_as_gone():
    spec = "greedy+hold:last_chance=false,trumps_gone=true"
    hands = [["7o", "Ac", "2b"], ["4c", "5e", "6e"], ["3o", "5c", "6c"], ["4e", "5b", "6b"]]
    for preset, expected in (("brisca-4-pairs-signals", "swap"), ("brisca-4-pairs", "keep")):
        deal = crafted(preset, hands, "Ao")
        for card in ("Ac", "4c", "5c", "4e"):
            deal.play(card)
        assert deal.phase == "swap" and deal.turn == 0
        assert choice(deal, spec) == expected


def test_two_swaps_are_made_at_once_unless_held():
    d = offer(seven=False)
    assert choice(d, "greedy+hold") == "swap"
    assert choice(d, "greedy+hold:hold_two=true") == "keep"


def test_swap_summary_measures_the_risk_of_holding():
    rules = Rules.preset("brisca-2")
    n = 3000
    hold = play_chunk(rules, Lineup.build(rules, ["greedy+hold", "greedy"]), 8, 0, n, 2)
    now = play_chunk(rules, Lineup.build(rules, ["greedy+immediate", "greedy"]), 8, 0, n, 2)
    h = swap_summary(hold, 2, 2, 0)
    i = swap_summary(now, 2, 2, 0)
    assert h["deals"] == 2 * n
    assert i["held_and_missed"] == 0
    assert 0 < h["held_and_missed"] and h["swapped"] < i["swapped"]
    assert h["mean_swap_trick"] == 16 and i["mean_swap_trick"] < 8
    assert 0 <= h["win_rate_missed"] <= 1 and 0 <= h["win_rate_swapped"] <= 1
