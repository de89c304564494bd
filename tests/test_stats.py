"""Statistics helpers: Wilson interval, mean and SD from running sums."""
import math

import numpy as np
import pytest

from briscasim.stats import Z95, mean_interval, mean_sd, wilson_interval


def test_wilson_known_value():
    # 50 successes of 100: the textbook Wilson 95% interval
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)


def test_wilson_edges_stay_in_unit_interval():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.0 < hi < 0.35
    lo, hi = wilson_interval(10, 10)
    assert 0.65 < lo < 1.0 and hi == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_rejects_impossible_counts():
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_wilson_narrows_with_n():
    w = [np.subtract(*wilson_interval(0.3 * n, n)[::-1]) for n in (100, 1000, 10000)]
    assert w[0] > w[1] > w[2]
    assert w[2] == pytest.approx(2 * Z95 * math.sqrt(0.3 * 0.7 / 10000), rel=1e-2)


def test_wilson_coverage_with_fixed_seed():
    # 2,000 binomial samples of n=50, p=0.1: the 95% interval covers p about 95% of the time
    rng = np.random.default_rng(12345)
    k = rng.binomial(50, 0.1, size=2000)
    covered = np.mean([lo <= 0.1 <= hi for lo, hi in (wilson_interval(x, 50) for x in k)])
    assert 0.93 <= covered <= 0.99


def test_mean_sd_matches_numpy():
    x = np.array([3.0, 7.0, 7.0, 19.0, 0.0])
    mean, sd = mean_sd(x.sum(), (x * x).sum(), len(x))
    assert mean == pytest.approx(x.mean())
    assert sd == pytest.approx(x.std(ddof=1))
    assert mean_sd(5.0, 25.0, 1) == (5.0, 0.0)
    assert all(math.isnan(v) for v in mean_sd(0, 0, 0))


def test_mean_interval_is_a_t_interval():
    # 100 observations: the t quantile with 99 degrees of freedom, 1.9842
    lo, hi = mean_interval(10.0, 2.0, 100)
    assert (lo, hi) == pytest.approx((10 - 1.98422 * 0.2, 10 + 1.98422 * 0.2), rel=1e-5)
    assert mean_interval(10.0, 2.0, 100, z=Z95) == pytest.approx((10 - Z95 * 0.2,
                                                                  10 + Z95 * 0.2))
