"""Elo ratings fit by maximum likelihood (briscasim.analysis.elo)."""
import math

import numpy as np
import pandas as pd
import pytest

from briscasim.analysis.elo import elo_difference, expected_score, fit_elo


def test_logistic_formula_round_trip():
    assert expected_score(0) == 0.5
    assert math.isclose(expected_score(400), 10 / 11)
    for d in (-350.0, -40.0, 0.0, 120.0, 600.0):
        assert math.isclose(elo_difference(expected_score(d)), d, abs_tol=1e-9)
    with pytest.raises(ValueError):
        elo_difference(1.0)


def test_two_strategies_match_the_logistic_formula():
    games = pd.DataFrame(dict(a=["greedy"], b=["random"], score=[0.88], plays=[10000]))
    out = fit_elo(games, anchor="random", prior_draws=0).set_index("strategy")
    assert out.loc["random", "rating"] == 0 and out.loc["random", "se"] == 0
    assert math.isclose(out.loc["greedy", "rating"], elo_difference(0.88), rel_tol=1e-9)
    lo, hi = out.loc["greedy", ["lo", "hi"]]
    assert lo < out.loc["greedy", "rating"] < hi
    # the interval agrees with the delta method on the score: se(s) = sqrt(s(1-s)/n)
    slope = 400 / math.log(10) / (0.88 * 0.12)
    assert math.isclose((hi - lo) / 2, 1.959964 * slope * math.sqrt(0.88 * 0.12 / 10000),
                        rel_tol=1e-4)


def test_recovers_ratings_of_a_simulated_round_robin():
    rng = np.random.default_rng(5)
    true = {"a": 0.0, "b": 150.0, "c": 420.0, "d": -200.0}
    rows = []
    names = list(true)
    for i in range(4):
        for j in range(i + 1, 4):
            n = 20000
            p = expected_score(true[names[i]] - true[names[j]])
            rows.append(dict(a=names[i], b=names[j], score=rng.binomial(n, p) / n, plays=n))
    out = fit_elo(pd.DataFrame(rows), anchor="a", anchor_rating=0).set_index("strategy")
    for name, r in true.items():
        assert abs(out.loc[name, "rating"] - r) < 3 * out.loc[name, "se"] + 1e-9
        assert out.loc[name, "lo"] <= out.loc[name, "rating"] <= out.loc[name, "hi"]
    assert list(out.index) == ["c", "b", "a", "d"]     # best first
    assert out.loc["c", "plays"] == 3 * 20000


def test_a_clean_sweep_stays_finite_with_the_prior():
    games = pd.DataFrame(dict(a=["x", "y"], b=["y", "z"], score=[1.0, 0.6], plays=[500, 500]))
    out = fit_elo(games, anchor="z", anchor_rating=1000).set_index("strategy")
    assert np.isfinite(out["rating"]).all()
    assert out.loc["z", "rating"] == 1000
    assert out.loc["x", "rating"] > out.loc["y", "rating"] > 1000
