"""simulate(): determinism for any workers and chunking, totals that match the records."""
import numpy as np
import pytest

from briscasim import batch
from briscasim.engine import layout as L
from briscasim.errors import UserError
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk, record_len, simulate
from briscasim.stats import wilson_interval
from briscasim.strategies.dispatch import EVERY_SHAPE


def _stats(result):
    d = result.to_dict()
    return {k: d[k] for k in ("deals", "plays", "draw_rate", "black_hand_rate", "by_seat",
                              "by_strategy")}


@pytest.mark.parametrize("preset,specs,duplicate", [
    ("brisca-2", ["random"], False),
    ("brisca-4-pairs", ["random", "random:swap_prob=1", "random", "random:swap_prob=1"], True),
    ("brisca-3-faceup", ["random:swap_prob=0.5"], True),
])
def test_same_results_for_any_workers_and_chunk_size(preset, specs, duplicate):
    rules = Rules.preset(preset)
    runs = [simulate(rules, specs, 1003, 5, duplicate=duplicate, workers=w, chunk_size=c)
            for w, c in ((1, 1003), (2, 64), (2, 7), (1, 100))]
    first = _stats(runs[0])
    for r in runs[1:]:
        assert _stats(r) == first


def test_same_results_for_matches():
    rules = Rules.preset("brisca-2", match="rounds_to_win 3")
    a = simulate(rules, ["random", "random:swap_prob=1"], 300, 2, duplicate=True, workers=1,
                 chunk_size=300)
    b = simulate(rules, ["random", "random:swap_prob=1"], 300, 2, duplicate=True, workers=2,
                 chunk_size=11)
    assert _stats(a) == _stats(b)
    d = a.to_dict()
    assert d["matches"] == 300 and d["plays"] == 600
    assert d["deals"] >= 3 * 600 - 1                # at least 3 deals per match (draws aside)
    total = sum(it["win_rate"] for it in d["by_seat"]) + d["draw_rate"]
    assert total == pytest.approx(1.0)


def test_totals_match_the_records():
    rules = Rules.preset("brisca-4-pairs")
    specs = ["random", "random:swap_prob=1", "random", "random:swap_prob=1"]
    res = simulate(rules, specs, 500, 9, duplicate=True, workers=2, chunk_size=50)
    rec = play_chunk(rules, Lineup.build(rules, specs), 9, 0, 500, 4).reshape(500, 4, -1)
    winner = rec[:, :, L.REC_WINNER]
    d = res.to_dict()
    assert d["draw_rate"] == pytest.approx((winner == L.DRAW).mean())
    for s, item in enumerate(d["by_seat"]):
        side = rules.side_of[s]
        assert item["win_rate"] == pytest.approx((winner == side).mean())
        pts = rec[:, :, L.REC_POINTS + side].astype(float)
        assert item["mean_points"] == pytest.approx(pts.mean())
        assert item["sd_points"] == pytest.approx(pts.std(ddof=1))
    # entry e sits at seat (e - r) % 4 in rotation r; entries 0 and 2 are partners
    for item in d["by_strategy"]:
        e = item["entries"][0]
        wins = [(winner[:, r] == rules.side_of[(e - r) % 4]).mean() for r in range(4)]
        assert item["win_rate"] == pytest.approx(np.mean(wins))
    assert [it["strategy"] for it in d["by_strategy"]] == ["random", "random:swap_prob=1"]
    assert d["by_strategy"][0]["entries"] == [0, 2]


def test_sides_win_rates_add_up_and_ci_covers():
    rules = Rules.preset("brisca-2")
    d = simulate(rules, "random", 20000, 3, workers=2).to_dict()
    a, b = d["by_seat"]
    assert a["win_rate"] + b["win_rate"] + d["draw_rate"] == pytest.approx(1.0)
    for it in (a, b):
        lo, hi = it["win_rate_ci95"]
        assert lo < it["win_rate"] < hi
        assert (lo, hi) == pytest.approx(wilson_interval(it["win_rate"] * 20000, 20000))
    # one strategy on every seat: its pooled win rate is (1 - draws) / 2 and points 60
    s, = d["by_strategy"]
    assert s["win_rate"] == pytest.approx((1 - d["draw_rate"]) / 2)
    assert s["mean_points"] == pytest.approx(60.0)


def test_ci_coverage_over_seeds():
    # the same random strategy on both seats with duplicate play: by symmetry each rotation
    # entry wins (1 - draw) / 2; over 40 seeds the 95% CI of entry 0 should cover the pooled
    # rate nearly always (a loose check: at least 34 of 40)
    rules = Rules.preset("briscola-2")
    covered = 0
    for seed in range(40):
        d = simulate(rules, ["random", "random:swap_prob=0"], 400, seed, duplicate=True,
                     workers=1).to_dict()
        lo, hi = d["by_strategy"][0]["win_rate_ci95"]
        covered += lo <= (1 - d["draw_rate"]) / 2 <= hi
    assert covered >= 34


def test_bad_arguments_are_user_errors():
    rules = Rules.preset("brisca-2")
    with pytest.raises(UserError, match="deals"):
        simulate(rules, "random", 0, 1)
    with pytest.raises(UserError, match="workers"):
        simulate(rules, "random", 10, 1, workers=0)
    with pytest.raises(UserError, match="seed"):
        simulate(rules, "random", 10, -1)


@pytest.mark.parametrize("preset,spec", [
    ("brisca-2", "random:swap_prob=0.5"),
    ("brisca-4-pairs-signals", "random"),
    ("brisca-2-blackhand", "greedy"),
    ("brisca-6-pairs", "greedy"),
    ("brisca-reves", "greedy"),
    ("briscola-2-reshuffle", "greedy:trump_keep=3.5"),
    pytest.param("brisca-2 rounds_to_win 3", "random", marks=pytest.mark.slow),  # match kernel
])
def test_kernel_of_a_shape_plays_as_the_kernel_of_every_shape(preset, spec):
    """A kernel of the strategy kinds of a lineup of random or greedy players alone, with
    the other strategies compiled out, plays the records of the kernel of every shape."""
    name, _, match = preset.partition(" ")
    rules = Rules.preset(name, **({"match": match} if match else {}))
    lineup = Lineup.build(rules, spec)
    assert lineup.own_shape != EVERY_SHAPE
    deals, rotations = 300, rules.players
    records = []
    for shape in (lineup.own_shape, EVERY_SHAPE):
        out = np.empty((deals * rotations, record_len(rules)), np.int32)
        r, work16, work64 = batch.new_work()
        r[:] = rules.to_array()
        bad = batch.kernel(rules.match_kind, shape)(
            *lineup.arrays(), r, np.uint64(11), 5, deals, rotations, out, work16, work64)
        assert bad == -1
        records.append(out)
    assert (records[0] == records[1]).all()
