"""``briscasim simulate``: JSON fields, the table, and one clear line for bad input."""
import json
import subprocess
import sys

import pytest

from briscasim.cli.main import main
from briscasim.jit import NOTICE


def run(argv, capsys):
    """Run the CLI in-process: (exit status, stdout, stderr)."""
    try:
        main(argv)
        code = 0
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_fields(capsys):
    code, out, err = run(["simulate", "--preset", "brisca-2", "--strategy", "random",
                          "--deals", "2000", "--seed", "1", "--json"], capsys)
    assert code == 0 and err.replace(NOTICE + "\n", "") == ""    # a compile notice at most
    d = json.loads(out)
    for key in ("deals", "draw_rate", "deals_per_second", "by_seat", "by_strategy", "rules",
                "options", "seed", "strategies", "black_hand_rate"):
        assert key in d
    assert d["deals"] == 2000 and d["seed"] == 1 and d["rules"] == "brisca-2"
    assert [it["seat"] for it in d["by_seat"]] == [0, 1]
    for it in d["by_seat"] + d["by_strategy"]:
        lo, hi = it["win_rate_ci95"]
        assert 0 <= lo <= it["win_rate"] <= hi <= 1
        assert it["mean_points"] > 0 and it["sd_points"] > 0


def test_strategies_in_the_order_given_and_rules(capsys):
    code, out, _ = run(["simulate", "--preset", "brisca-4-pairs", "--rule",
                        "swap_timing=after_draw", "--strategy", "random:swap_prob=1",
                        "--strategy", "random", "--strategy", "random:swap_prob=1",
                        "--strategy", "random", "--deals", "300", "--duplicate",
                        "--workers", "2", "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert d["options"]["swap_timing"] == "after_draw"
    assert [it["strategy"] for it in d["by_strategy"]] == ["random:swap_prob=1", "random"]
    assert d["plays"] == 1200 and d["rotations"] == 4 and d["duplicate"]
    # partners share results: the two strategies' win rates and the draws add up to one
    assert sum(it["win_rate"] for it in d["by_strategy"]) + d["draw_rate"] == \
        pytest.approx(1.0)


def test_same_json_statistics_for_one_and_two_workers(capsys):
    outs = []
    for w in ("1", "2"):
        code, out, _ = run(["simulate", "--preset", "brisca-3-hidden", "--deals", "777",
                            "--seed", "4", "--workers", w, "--json"], capsys)
        d = json.loads(out)
        outs.append((d["by_seat"], d["by_strategy"], d["draw_rate"]))
    assert outs[0] == outs[1]


def test_human_table(capsys):
    code, out, _ = run(["simulate", "--preset", "brisca-2", "--deals", "500", "--strategy",
                        "greedy", "--strategy", "random"], capsys)
    assert code == 0
    assert "500 deals" in out and "deals/s" in out and "draw rate" in out
    assert "seat  side  strategy" in out and "greedy" in out and "95% CI" in out


@pytest.mark.slow     # the match kernel
def test_match_rule(capsys):
    code, out, _ = run(["simulate", "--rule", "match=rounds_to_win 3", "--deals", "100",
                        "--json"], capsys)
    d = json.loads(out)
    assert d["matches"] == 100 and d["deals"] >= 300
    assert "mean_deals_won" in d["by_seat"][0]


@pytest.mark.parametrize("argv,message", [
    (["--preset", "brisca-9"], "unknown preset 'brisca-9'"),
    (["--rule", "colour=red"], "unknown rule option 'colour'"),
    (["--rule", "tie=coin"], "tie = 'coin'"),
    (["--rule", "players"], "must look like key=value"),
    (["--rule", "players=7"], "players = 7"),
    (["--preset", "brisca-6", "--rule", "deck=spanish40"], "do not divide among players = 6"),
    (["--rule", "removed_cards=Zz"], "unknown card code 'Zz'"),
    (["--strategy", "clever"], "unknown strategy 'clever'"),
    (["--strategy", "random:speed=3"], "speed"),
    (["--strategy", "random", "--strategy", "random", "--strategy", "random"],
     "3 strategies given for 2 seats"),
    (["--deals", "0"], "deals = 0"),
    (["--workers", "0"], "workers = 0"),
])
def test_bad_input_one_line(argv, message, capsys):
    code, out, err = run(["simulate", "--deals", "10", *argv], capsys)
    assert code == 2, err
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_console_script_exit_status():
    p = subprocess.run([sys.executable, "-c", "from briscasim.cli.main import main; main()",
                        "simulate", "--rule", "players=7"], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.startswith("error: ") and "players = 7" in p.stderr
    assert "Traceback" not in p.stderr


def test_duplicate_paired_difference_is_the_per_deal_one():
    import pandas as pd

    from briscasim import stats
    from briscasim.engine import layout as L
    from briscasim.lineup import Lineup, needed_features
    from briscasim.rules import Rules
    from briscasim.simulate import play_chunk, simulate

    rules = Rules.preset("brisca-2")
    lineup = Lineup.build(rules, ["random", "random:swap_prob=1"])
    p = simulate(rules, lineup, 500, 4, duplicate=True).to_dict()["paired"]
    rec = play_chunk(rules, lineup, 4, 0, 500, 2, features=needed_features(rules, lineup))
    rec = rec.reshape(500, 2, -1)
    score = {0: 0.0, 1: 0.0}
    points = {0: 0.0, 1: 0.0}
    for r in range(2):                       # rotation r seats entry (s + r) % 2 at seat s
        for s in range(2):
            winner = rec[:, r, L.REC_WINNER]
            won = (winner == s) + 0.5 * (winner == L.DRAW)
            score[(s + r) % 2] = score[(s + r) % 2] + won / 2
            points[(s + r) % 2] = points[(s + r) % 2] + rec[:, r, L.REC_POINTS + s] / 2
    for what, per in (("score", score), ("points", points)):
        e = stats.paired(pd.Series(per[0]), pd.Series(per[1]))
        assert p[f"{what}_diff"] == pytest.approx(e.mean, abs=1e-12)
        assert p[f"{what}_diff_ci95"] == pytest.approx([e.lo, e.hi], rel=1e-9)
        assert p[f"{what}_p_value"] == pytest.approx(e.p, rel=1e-6, abs=1e-12)
    assert (p["a"], p["b"], p["deals"]) == ("random", "random:swap_prob=1", 500)


def test_workers_count_the_cores_the_process_may_use():
    code = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
            "from briscasim.cli.main import main; "
            "main(['simulate', '--deals', '50', '--json'])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["workers"] == 1
