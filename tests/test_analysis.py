"""Named analyses: the statistics module, trumps dealt, the luck-or-skill and swap-policy
analyses on small runs, and the one-line refusals of a name that does not exist or fit."""
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from briscasim import stats
from briscasim.analysis import luck_skill, registry
from briscasim.analysis.document import Context
from briscasim.analysis.runs import Run
from briscasim.errors import UserError
from briscasim.experiments.runner import run
from briscasim.experiments.spec import load_spec
from briscasim.game import Deal
from briscasim.rules import Rules

PAIRS = """
name = "luck"
analysis = "luck_skill"
seed = 21
deals = 600
lineup = ["greedy", "random"]
[[variants]]
preset = "brisca-2"
[[variants]]
preset = "brisca-4-pairs"
[grid]
lineup = [["greedy", "random"], ["random", "random"]]
"""

THREE = """
name = "luck3"
analysis = "luck_skill"
seed = 23
deals = 600
lineup = ["greedy", "random", "random"]
[[variants]]
preset = "brisca-3-remove2"
"""

SWAPS = """
name = "swaps"
analysis = "swap_policy"
seed = 5
deals = 800
lineup = ["greedy+immediate", "greedy+immediate"]
[[variants]]
preset = "brisca-2"
[grid]
"lineup.0" = ["greedy+immediate", "greedy+never"]
"""

BRISCOLA = """
name = "briscola"
seed = 5
deals = 50
lineup = ["greedy", "greedy"]
[[variants]]
preset = "briscola-2"
"""


def _run(tmp_path_factory, name, text):
    d = tmp_path_factory.mktemp(name)
    (d / "s.toml").write_text(text)
    return Run.open(run(load_spec(d / "s.toml"), d / "run", progress=False))


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    return _run(tmp_path_factory, "pairs", PAIRS)


@pytest.fixture(scope="module")
def swaps(tmp_path_factory):
    return _run(tmp_path_factory, "swaps", SWAPS)


@pytest.fixture(scope="module")
def briscola(tmp_path_factory):
    return _run(tmp_path_factory, "briscola", BRISCOLA)


# ---- statistics -----------------------------------------------------------------------------

def test_mean_ci_and_paired_agree_with_scipy():
    from scipy import stats as ss
    rng = np.random.default_rng(3)
    x = rng.normal(0.2, 1.0, 400)
    e = stats.mean_ci(x)
    ci = ss.ttest_1samp(x, 0).confidence_interval(0.95)
    assert (e.lo, e.hi) == pytest.approx((ci.low, ci.high))
    assert e.p == pytest.approx(ss.ttest_1samp(x, 0).pvalue) and e.n == 400
    y = pd.Series(x + rng.normal(0, 0.1, 400))
    d = stats.paired(y, pd.Series(x))
    assert d.p == pytest.approx(ss.ttest_rel(y, x).pvalue)
    # constant differences: no spread, a degenerate interval, nothing to test
    same = stats.paired(pd.Series([0.5] * 5), pd.Series([0.5] * 5))
    assert (same.mean, same.lo, same.hi, same.p) == (0, 0, 0, 1.0)


def test_holm_adjustment():
    p = stats.adjust([0.01, 0.04, 0.03, math.nan])
    assert p[:3] == pytest.approx([0.03, 0.06, 0.06])
    assert math.isnan(p[3])


def test_match_probabilities():
    assert stats.match_win_probability(0.6, 0.0, 1) == pytest.approx(0.6)
    assert stats.match_win_probability(0.6, 0.0, 3) == pytest.approx(0.648)
    # a level match is not a win: two deals, one each
    assert stats.match_win_probability(0.6, 0.0, 2) == pytest.approx(0.36)
    assert stats.first_to_probability(0.6, 0.0, 2) == pytest.approx(0.648)
    # draws count for no one in a first-to-K match
    assert stats.first_to_probability(0.3, 0.5, 1) == pytest.approx(0.3 / 0.5)
    n = stats.deals_needed(0.6, 0.0, 0.95)
    assert stats.match_win_probability(0.6, 0.0, n) >= 0.95 > \
        stats.match_win_probability(0.6, 0.0, n - 2)
    k = stats.rounds_needed(0.6, 0.0, 0.95)
    assert stats.first_to_probability(0.6, 0.0, k) >= 0.95 > \
        stats.first_to_probability(0.6, 0.0, k - 1)
    assert stats.rounds_needed(0.5, 0.0) is None


def test_match_probabilities_against_two_opponents():
    """Against two opponents sharing the other deals: by enumeration of every sequence."""
    import itertools
    win, draw = 0.45, 0.1
    p = {0: win, 1: draw, 2: (1 - win - draw) / 2, 3: (1 - win - draw) / 2}
    for n in (1, 2, 3, 4, 5):
        total = 0.0
        for seq in itertools.product(range(4), repeat=n):
            c = [seq.count(o) for o in range(4)]
            if c[0] > c[2] and c[0] > c[3]:
                total += math.prod(p[o] for o in seq)
        assert stats.match_win_probability(win, draw, n, others=2) == pytest.approx(total)
    # first to K: the player's K-th win before either opponent's, draws for no one
    for k in (1, 2, 3):
        total = 0.0
        for b1 in range(k):
            for b2 in range(k):
                ways = math.comb(k - 1 + b1 + b2, k - 1) * math.comb(b1 + b2, b1)
                total += ways * (win / (1 - draw)) ** k * (p[2] / (1 - draw)) ** (b1 + b2)
        assert stats.first_to_probability(win, draw, k, others=2) == pytest.approx(total)
    assert stats.first_to_probability(win, draw, 1, others=2) == pytest.approx(win / 0.9)
    # one opponent: the two-opponent code is not used
    assert stats.match_win_probability(0.6, 0.0, 3, others=1) == pytest.approx(0.648)
    assert stats.rounds_needed(0.3, 0.0, others=2) is None         # 0.3 < 0.35 each


def test_logistic_recovers_a_slope():
    rng = np.random.default_rng(8)
    x = rng.integers(-3, 4, 4000).astype(float)
    y = rng.random(4000) < 1 / (1 + np.exp(-(0.2 + 0.7 * x)))
    X = pd.DataFrame({"const": 1.0, "x": x})
    fit = stats.logistic(y, X, groups=np.arange(4000) // 2)
    lo, hi = fit.conf_int().loc["x"]
    assert lo < 0.7 < hi and hi - lo < 0.2


# ---- trumps dealt ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["brisca-2", "brisca-4-pairs", "briscola-2-reshuffle"])
def test_trumps_dealt_match_the_deals(preset):
    rules = Rules.preset(preset)
    got = luck_skill.trumps_dealt(rules, 99, np.arange(40))
    for d in range(40):
        deal = Deal.from_seed(rules, 99, d)
        want = [sum(1 for c in deal.hand(s) if _suit(c) == deal.trump)
                for s in range(rules.players)]
        assert got[d].tolist() == want


def _suit(card):
    from briscasim.cards import suit_of
    return suit_of(card)


# ---- analyses on runs -----------------------------------------------------------------------

@pytest.mark.slow     # plays a run of its own
def test_luck_skill_report(pairs, tmp_path):
    reg = registry.get("luck_skill")
    path = reg.analyse([pairs], Context(out=tmp_path / "luck"))
    md = path.read_text()
    assert "## Conclusion" in md and "`expert` plays as `greedy`" in md
    r = pd.read_csv(tmp_path / "luck" / "regression.csv").set_index("preset")
    # more trumps dealt, more wins: the slope is positive in both presets
    assert (r["trump_lo"] > 0).all()
    v = pd.read_csv(tmp_path / "luck" / "variance.csv").set_index("pair")
    assert (v["deal_lo"] <= v["deal_share"]).all() and (v["deal_share"] <= v["deal_hi"]).all()
    assert (v["deal_share"] + v["strategy_share"] + v["rest_share"]).round(12).eq(1).all()
    # greedy's edge over random is a large part of the margin; equal strategies have none
    assert (v.loc["greedy vs random", "strategy_lo"] > 0.25).all()
    assert (v.loc["random vs random", "strategy_share"] < 0.05).all()
    m = pd.read_csv(tmp_path / "luck" / "match_length.csv")
    g = m[m["pair"] == "greedy vs random"]
    assert (g["who"] == "greedy").all() and (g["best_of"] >= 1).all()
    # random against random: neither is the better one
    assert m[m["pair"] == "random vs random"]["best_of"].isna().all()
    for chart in ("trump_effect", "deal_share", "match_length"):
        assert (tmp_path / "luck" / f"{chart}.png").stat().st_size > 0
        assert (tmp_path / "luck" / f"{chart}.svg").exists()


def test_a_match_length_beyond_the_longest_computed_reads_as_such():
    from briscasim.analysis.luck_skill import _length, _range
    assert _length(67, _range(67, 69, 2001), 2001) == "67 (67-69)"
    assert _length(900, _range(700, None, 2001), 2001) == "900 (700->2001)"
    assert _length(None, _range(None, None, 2001), 2001) == "more than 2001"


@pytest.mark.slow     # a three-player kernel of its own
def test_luck_skill_at_three_sides(tmp_path_factory, tmp_path):
    three = _run(tmp_path_factory, "three", THREE)
    path = registry.get("luck_skill").analyse([three], Context(out=tmp_path / "luck3"))
    assert "greedy vs 2 random" in path.read_text()
    d = luck_skill.plays(three, three.cells[0])
    # the trump difference is the own side's trumps minus the mean of the two others': over
    # the three rotations of a deal the first strategy holds each hand once, so they cancel
    assert d.groupby("deal")["trump_diff"].sum().abs().max() < 1e-9
    v = pd.read_csv(tmp_path / "luck3" / "variance.csv").iloc[0]
    assert v["margin_lo"] > 0 and v["strategy_lo"] > 0     # greedy's edge over random
    assert v["deal_lo"] <= v["deal_share"] <= v["deal_hi"]
    m = pd.read_csv(tmp_path / "luck3" / "match_length.csv").iloc[0]
    assert m["who"] == "greedy" and m["cap"] == luck_skill.MAX_DEALS_TWO
    # the match length is the two-opponent one, at the measured rates
    n = int(m["best_of"])
    assert stats.match_win_probability(m["win"], m["draw"], n, others=2) >= 0.95 > \
        stats.match_win_probability(m["win"], m["draw"], n - 2, others=2)


def test_swap_policy_report_pairs_with_the_control(swaps, tmp_path):
    path = registry.get("swap_policy").analyse([swaps], Context(out=tmp_path / "sw"))
    t = pd.read_csv(tmp_path / "sw" / "policies.csv")
    control = t[t["policy"] == "immediate (control)"].iloc[0]
    never = t[t["policy"] == "never"].iloc[0]
    assert control["d_score"] == 0 and control["swapped"] > 0
    assert never["swapped"] == 0 and never["held"] > 0
    # the paired difference is the difference of the two cells' scores (same deals)
    assert never["d_score"] == pytest.approx(never["score"] - control["score"])
    assert "p adj" in path.read_text()


@pytest.mark.slow     # plays a run of its own
def test_analysis_that_does_not_fit_is_refused(briscola):
    with pytest.raises(UserError, match=r"swap_policy.*briscola.*no swap of the 7"):
        registry.get("swap_policy").check([briscola])
    with pytest.raises(UserError, match="valid analyses: generic, swap_policy"):
        registry.get("nope")


def _cli(*args):
    return subprocess.run([sys.executable, "-c", "from briscasim.cli.main import main; main()",
                           *args], capture_output=True, text=True, timeout=600)


@pytest.mark.slow     # plays runs of its own
def test_cli_report_names_bad_analyses_in_one_line(briscola, pairs, tmp_path):
    done = _cli("report", str(briscola.path), "--analysis", "swap_policy", "-o",
                str(tmp_path / "x"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no swap of the 7" in done.stderr
    done = _cli("report", str(briscola.path), "--analysis", "nope")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "valid analyses:" in done.stderr and "luck_skill" in done.stderr
    done = _cli("research", "nope")
    assert done.returncode == 2 and "valid questions:" in done.stderr
    # the spec's own analysis is the default
    done = _cli("report", str(pairs.path), "-o", str(tmp_path / "own"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "own" / "regression.csv").exists()


def test_cost_line_says_when_a_run_recorded_no_time():
    from pathlib import Path

    from briscasim.analysis.runs import cost_line

    def fake(name, deals, last_run=None):
        m = {"spec": {"name": name}, "deals": {"0": deals}}
        if last_run:
            m["last_run"] = last_run
        return Run(Path(name), m)

    timed = fake("a", 1000, dict(seconds=70.0, compile_seconds=10.0, workers=2))
    assert cost_line([timed]) == (
        "Compute: 1,000 deals in 1.0 min of wall time (`a` 1,000 deals in 60 s; compiling "
        "the engine took 0.2 min more) on 2 worker thread(s) of a 2-core machine shared with "
        "other jobs, so the times are rough.")
    line = cost_line([timed, fake("b", 500)])
    assert "nan" not in line
    assert line == ("Compute: 1,500 deals (`a` 1,000, `b` 500); the wall time of `b` was "
                    "not recorded.")


def _hold(play, d, lo, hi, p):
    return dict(variant="brisca-2", play=play, policy="hold to the last chance", d_score=d,
                d_score_lo=lo, d_score_hi=hi, d_score_p_adj=p)


def test_swap_policy_says_where_the_players_agree():
    from briscasim.analysis import swap_policy
    t = pd.DataFrame([_hold("expert", -0.011, -0.012, -0.010, 1e-9),
                      _hold("ismcts", -0.012, -0.016, -0.008, 1e-6)])
    (line,) = swap_policy.agreement(t)
    assert "the players agree" in line and "costs for each of expert, ismcts" in line
    assert "intervals overlap" in line
    t = pd.DataFrame([_hold("expert", -0.011, -0.012, -0.010, 1e-9),
                      _hold("learned", 0.001, -0.001, 0.003, 0.4)])
    (line,) = swap_policy.agreement(t)
    assert "disagree" in line and "expert costs" in line and "learned no measurable" in line
    assert "the intervals of expert and learned do not overlap" in line
    assert swap_policy.agreement(t[t["play"] == "expert"]) == []     # one player: no claim


def test_luck_skill_says_where_learned_and_ismcts_agree():
    dec = pd.DataFrame([dict(preset=p, pair=f"{a} vs greedy", deal_share=d, strategy_share=s)
                        for p, a, d, s in (("brisca-2", "learned", 0.1, 0.3),
                                           ("brisca-2", "ismcts", 0.05, 0.35),
                                           ("briscola-2", "learned", 0.3, 0.1),
                                           ("briscola-2", "ismcts", 0.1, 0.3))])
    mat = dec[["preset", "pair"]].assign(who=dec["pair"].str.partition(" vs ")[0], score=0.6)
    (line,) = luck_skill.agreement(dec, mat)
    assert line.startswith("- **learned and ismcts against greedy:** the same conclusions")
    assert "different ones in briscola-2 (learned: the deal 30%" in line


CHIAMATA_ROLES = """
name = "roles"
analysis = "chiamata"
seed = 14
deals = 60
lineup = ["expert", "greedy", "greedy", "greedy", "greedy"]
[grid]
"lineup.0" = ["expert", "greedy"]
[[variants]]
preset = "chiamata-5"
"""


def test_chiamata_roles_against_greedy_in_the_same_seat_of_the_same_rotated_deal(
        tmp_path_factory, tmp_path):
    """The lineup rotated over the five seats: each play is compared with greedy's play of
    the same deal in the same rotation (so the same seat)."""
    from briscasim.analysis import chiamata
    roles_run = _run(tmp_path_factory, "roles", CHIAMATA_ROLES)
    registry.get("chiamata").analyse([roles_run], Context(out=tmp_path / "roles"))
    cells = [chiamata.deals(roles_run, c) for c in roles_run.cells]
    mixed, base = (cells[0], cells[1]) if cells[1]["strategy_0"].nunique() == 1 else (
        cells[1], cells[0])
    assert base["rotation"].nunique() == 5
    t = chiamata.roles(mixed, "expert", base)
    everyone = t[t["role"] == "all"].iloc[0]
    played = mixed[mixed["caller"] >= 0]
    seat = sum(np.where(played[f"strategy_{s}"] == "expert", s, 0) for s in range(5))
    b = base.set_index(["deal", "rotation"])
    diff = [row[f"game_points_{s}"] - b.loc[(row["deal"], row["rotation"]), f"game_points_{s}"]
            for (_, row), s in zip(played.iterrows(), seat)]
    per_deal = pd.Series(diff).groupby(played["deal"].to_numpy()).mean()
    assert everyone["vs_greedy"] == pytest.approx(per_deal.mean())
