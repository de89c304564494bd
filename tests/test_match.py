"""Matches (docs/rules.md): match_result on crafted tallies, and batch matches
replayed deal by deal with the step API to check the dealer rotation and the records."""
import numpy as np
import pytest

from briscasim import batch
from briscasim.engine import layout as L
from briscasim.engine.match import match_result
from briscasim.engine.rng import STREAMS_PER_DEAL, new_stream, seed_stream, shuffle
from briscasim.engine.core import default_deck
from briscasim.game import Deal
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies.random import random_strategy

U = L.UNDECIDED
D = L.DRAW


def result(match, deals_played, won, points, **options):
    r = Rules(**{"players": 2, "match": match, **options}).to_array()
    won = np.array(list(won) + [0] * (6 - len(won)), np.int64)
    points = np.array(list(points) + [0] * (6 - len(points)), np.int64)
    return match_result(r, deals_played, deals_played, won, points)


@pytest.mark.parametrize("match, played, won, points, options, want", [
    ("deal", 1, [1, 0], [70, 50], {}, 0),
    ("deal", 1, [0, 0], [60, 60], {}, D),
    ("deals 3", 2, [2, 0], [0, 0], {}, U),            # N deals are always played
    ("deals 3", 3, [2, 1], [0, 0], {}, 0),
    ("deals 3", 3, [1, 1], [0, 0], {}, D),            # one deal drawn: equal deals won
    ("deals 4", 2, [1, 1], [0, 0], dict(max_deals=2), D),
    ("rounds_to_win 3", 4, [2, 2], [0, 0], {}, U),
    ("rounds_to_win 3", 5, [2, 3], [0, 0], {}, 1),
    ("rounds_to_win 1", 1, [1, 0], [0, 0], {}, 0),
    ("rounds_to_win 7", 3, [2, 1], [0, 0], dict(max_deals=3), 0),
    ("rounds_to_win 7", 2, [1, 1], [0, 0], dict(max_deals=2), D),
    ("points 120", 1, [1, 0], [100, 20], {}, U),
    ("points 120", 2, [1, 1], [125, 115], {}, 0),
    ("points 120", 2, [1, 1], [125, 130], {}, 1),     # both reach it: the higher total
    ("points 120", 2, [1, 1], [130, 130], {}, U),     # equal top totals keep playing
    ("points 120", 2, [1, 1], [130, 130], dict(max_deals=2), D),
    # nobody reached P at the cap: docs/rules.md does not say; the engine calls it a draw
    ("points 500", 2, [1, 1], [130, 110], dict(max_deals=2), D),
    ("points 120", 2, [0, 1], [125, 115], dict(objective="fewest"), 1),  # lowest wins
    ("points 120", 2, [1, 1], [120, 120], dict(objective="fewest"), U),
])
def test_match_result(match, played, won, points, options, want):
    assert result(match, played, won, points, **options) == want


def test_match_result_with_three_sides():
    assert result("points 200", 5, [2, 2, 1], [210, 205, 185], players=3) == 0
    assert result("points 200", 5, [2, 2, 1], [210, 215, 185], players=3) == 1
    assert result("deals 5", 5, [2, 2, 1], [0, 0, 0], players=3) == D
    assert result("deals 5", 5, [1, 2, 1], [0, 0, 0], players=3) == 1
    assert result("rounds_to_win 3", 7, [2, 2, 2], [0, 0, 0], players=3) == U


# ---- batch matches replayed ------------------------------------------------------------------

def replay_match(rules, seed, item, swap_prob):
    """Replay match ``item`` of the batch with the step API: deal ``j`` takes its cards from
    stream ``(seed, item, 64 j)``; player ``(e + j) % n`` sits at engine seat ``e`` (the deal
    passes one seat each deal) and draws its random choices from the stream of that seat.
    Yields per deal the player sides' points and the deal's winning player side."""
    n = rules.players
    r = rules.to_array()
    side = rules.side_of
    params = np.zeros(16)
    params[0] = swap_prob
    for j in range(rules.max_deals):
        deck = np.zeros(48, np.int16)
        rng = new_stream()
        seed_stream(rng, np.uint64(seed), item, STREAMS_PER_DEAL * j)
        default_deck(r, deck)
        shuffle(rng, deck, r[L.R_DECK_N], np.zeros(48, np.int16))
        deal = Deal(rules, deck[: r[L.R_DECK_N]].tolist())
        rngs = [new_stream() for _ in range(n)]
        for e in range(n):
            seed_stream(rngs[e], np.uint64(seed), item,
                        STREAMS_PER_DEAL * j + 1 + 6 * (j % n) + e)
        while not deal.over:
            e = deal.turn
            hand = deal.state[L.S_HANDS + L.MAX_HAND * e:L.S_HANDS + L.MAX_HAND * e + 3]
            legal = np.array(deal.legal_actions(), np.int16)
            deal.play(int(random_strategy(r, deal.state[:L.PUBLIC_LEN], hand, legal, e, 0,
                                          params, rngs[e])))
        points = [0] * len(rules.sides)
        for t in deal.tricks:
            points[side[(t.winner + j) % n]] += t.points
        out = deal.outcome
        if out.black_hand is not None:
            winner = side[(out.black_hand + j) % n]
        elif out.winner is None:
            winner = None
        else:
            seat = side.index(out.winner)       # an engine seat of the winning side
            winner = side[(seat + j) % n]
        yield points, winner


def decide_match(rules, deals):
    """docs/rules.md read directly over the replayed deals: (winner, deals played)."""
    kind, target = rules.match_kind, rules.match_target
    k = len(rules.sides)
    won, points = [0] * k, [0] * k
    for j, (pts, winner) in enumerate(deals, start=1):
        points = [a + b for a, b in zip(points, pts)]
        if winner is not None:
            won[winner] += 1
        capped = j == rules.max_deals
        if kind == "rounds_to_win" and max(won) >= target:
            return won.index(max(won)), j, won, points
        if kind == "points" and max(points) >= target:
            best = min(points) if rules.objective == "fewest" else max(points)
            if points.count(best) == 1:
                return points.index(best), j, won, points
        if (kind == "deals" and j == target) or capped:
            if kind == "points":
                return None, j, won, points
            top = max(won)
            return (won.index(top) if won.count(top) == 1 else None), j, won, points
    raise AssertionError("match not decided within max_deals")


@pytest.mark.parametrize("preset, match, options", [
    ("brisca-3-remove2", "deals 3", {}),
    ("brisca-2", "rounds_to_win 3", {}),
    ("brisca-4-pairs", "rounds_to_win 3", {}),
    ("brisca-2", "points 120", {}),
    ("brisca-reves", "points 120", {}),
    ("brisca-6-threes", "points 250", {}),
    ("brisca-2-blackhand", "rounds_to_win 5", {}),
    ("brisca-2", "rounds_to_win 7", dict(max_deals=4)),
    ("brisca-2", "deals 2", {}),
])
def test_batch_matches_follow_the_rules_and_pass_the_deal(preset, match, options):
    rules = Rules.preset(preset, match=match, **options)
    seed, first, count, swap_prob = 5, 3, 6, 0.5
    lineup = Lineup.build(rules, f"random:swap_prob={swap_prob}")
    recs = play_chunk(rules, lineup, seed, first, count)
    k = len(rules.sides)
    for i in range(count):
        deals = replay_match(rules, seed, first + i, swap_prob)
        winner, played, won, points = decide_match(rules, deals)
        rec = recs[i]
        assert rec[batch.M_DEALS] == played
        assert list(rec[batch.M_DEALS_WON:batch.M_DEALS_WON + k]) == won
        assert list(rec[batch.M_POINTS:batch.M_POINTS + k]) == points
        assert rec[batch.M_WINNER] == (L.DRAW if winner is None else winner)
        if match == "deals 3" or match == "deals 2":
            assert played == rules.match_target
        if options.get("max_deals"):
            assert played <= options["max_deals"]


def test_black_hands_are_counted_in_match_records():
    rules = Rules.preset("brisca-2-blackhand", match="rounds_to_win 7", max_deals=30)
    recs = play_chunk(rules, Lineup.build(rules, "random"), 1, 0, 40)
    assert recs[:, batch.M_BLACK_HANDS].sum() > 0          # about 1 deal in 100 here
    assert (recs[:, batch.M_BLACK_HANDS] <= recs[:, batch.M_DEALS]).all()
