"""``briscasim compare``: two players on duplicate deals, each one's score with its interval
and the paired difference, as text and as JSON."""
import json

import numpy as np
import pytest

from briscasim.analysis.compare import compare, duplicate_scores
from briscasim.rules import Rules
from briscasim.simulate import simulate
from command_line import run


def test_the_json_gives_both_scores_and_the_paired_difference(capsys):
    code, out, err = run(capsys, "compare", "greedy", "random", "--preset", "brisca-2",
                         "--deals", 2000, "--seed", 1, "--workers", 2, "--json")
    assert code == 0, err
    c = json.loads(out)
    assert (c["preset"], c["deals"], c["rotations"], c["seed"]) == ("brisca-2", 2000, 2, 1)
    a, b, d = c["a"], c["b"], c["difference"]
    assert (a["strategy"], b["strategy"]) == ("greedy", "random")
    # two sides: a deal's two scores add up to one, the difference is twice A's lead over 1/2
    assert a["mean"] + b["mean"] == pytest.approx(1)
    assert d["mean"] == pytest.approx(a["mean"] - b["mean"])
    assert a["ci95"][0] < a["mean"] < a["ci95"][1] and 0.8 < a["mean"] < 0.95
    assert d["ci95"][0] < d["mean"] < d["ci95"][1] and d["p"] < 1e-6
    plays = c["plays"]
    assert sum(plays.values()) == 2 * 2000
    assert (plays["won"] + plays["drawn"] / 2) / 4000 == pytest.approx(a["mean"])


def test_the_scores_are_those_simulate_counts_on_the_same_deals():
    rules = Rules.preset("briscola-2")                   # a tie is a draw
    a, b = duplicate_scores(rules, "greedy", "random", 3000, seed=4, workers=2)
    d = simulate(rules, ["greedy", "random"], 3000, 4, duplicate=True, workers=1).to_dict()
    greedy = next(s for s in d["by_strategy"] if s["strategy"] == "greedy")
    assert d["draw_rate"] > 0
    assert a.mean() == pytest.approx(greedy["win_rate"] + d["draw_rate"] / 2)
    assert np.allclose(a + b, 1)             # two sides: a draw gives each of them 1/2


def test_results_do_not_depend_on_the_threads():
    rules = Rules.preset("brisca-4-pairs")
    one = duplicate_scores(rules, "expert", "greedy", 4100, seed=2, workers=1)
    two = duplicate_scores(rules, "expert", "greedy", 4100, seed=2, workers=2)
    assert all(np.array_equal(x, y) for x, y in zip(one, two)) and len(one[0]) == 4100


def test_a_player_alone_against_two_has_a_fair_share_of_a_third():
    c = compare("greedy", "greedy", "brisca-3-remove2", deals=3000, seed=5, workers=2)
    assert c["rotations"] == 3
    assert c["a"]["ci95"][0] < 1 / 3 < c["a"]["ci95"][1]
    # greedy is deterministic: in every rotation each seat plays the same game, and A takes
    # each seat once, so on every deal it scores what the two B seats score on average
    assert c["difference"]["mean"] == 0 and c["difference"]["ci95"] == [0, 0]


def test_briscola_chiamata_counts_game_points_that_sum_to_zero():
    c = compare("expert", "greedy", "chiamata-5", deals=400, seed=3, workers=2)
    assert c["measure"] == "game points a deal" and c["rotations"] == 5
    assert c["b"]["mean"] == pytest.approx(-c["a"]["mean"] / 4)


def test_the_text_names_both_players_and_the_difference(capsys):
    code, out, err = run(capsys, "compare", "greedy", "random", "--deals", 500,
                         "--rule", "swap_timing=after_draw")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("brisca-2 swap_timing=after_draw: 500 duplicate deals x 2")
    assert lines[2].startswith("A greedy") and lines[3].startswith("B random")
    assert "A - B" in lines[4] and "paired over deals" in lines[4]
    assert lines[5].startswith("A won ") and lines[5].endswith(" of its plays")


@pytest.mark.parametrize("args, words", [
    (["greedy", "nobody"], ["nobody"]),
    (["greedy", "random", "--preset", "brisca-9"], ["brisca-9"]),
    (["greedy", "random", "--deals", "0"], ["deals = 0"]),
    (["greedy", "random", "--deals", str(2 ** 32 + 1)], ["2**32"]),
    (["greedy", "random", "--seed", "-1"], ["seed = -1"]),
    (["greedy", "random", "--rule", "tie=sometimes"], ["tie"]),
])
def test_a_mistake_gets_one_line(capsys, args, words):
    code, out, err = run(capsys, "compare", *args)
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert all(w in err for w in words), err
