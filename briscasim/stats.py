"""The statistics of briscasim, on scipy.stats and statsmodels: one place for every interval,
test and model a report shows, so the same quantity gets the same interval everywhere.

Conventions
-----------
- Every interval is 95% (``LEVEL``).
- A *rate over independent plays* (a count of wins among plays dealt independently) gets the
  Wilson score interval (:func:`wilson_interval`).
- A *mean over deals* gets a t interval over deals (:func:`mean_ci`). In duplicate play a deal
  is played once per rotation of the lineup with the same cards; its plays are averaged first,
  so the deal is the independent observation and the correlation between its rotations is
  accounted for. A strategy's *score* (wins + draws/2) is such a mean, in every report.
- A *difference on the same deals* is paired deal by deal (:func:`paired`); when a report makes
  several such comparisons their p-values are adjusted together (:func:`adjust`, Holm).
- Models: :func:`logistic` (a binomial GLM with standard errors clustered by deal) and
  :func:`bradley_terry` (Elo-scale ratings with standard errors).

scipy and statsmodels are imported when first needed: ``briscasim simulate`` and the runner
call :func:`wilson_interval` and should not pay for the rest.
"""
from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np
import pandas as pd

LEVEL = 0.95
"""The confidence level of every interval."""
Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


class Estimate(NamedTuple):
    """A mean (or a difference of means) with its 95% interval, the number of independent
    observations and the two-sided p-value against ``null`` (nan when not tested)."""
    mean: float
    lo: float
    hi: float
    n: int
    p: float = math.nan

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def fmt(self, scale: float = 100.0, digits: int = 1, sign: bool = False) -> str:
        """``mean [lo, hi]`` scaled (percent by default); ``n/a`` without data."""
        return fmt_ci(self.mean, self.lo, self.hi, scale, digits, sign)


NAN = Estimate(math.nan, math.nan, math.nan, 0)


# ---- proportions ---------------------------------------------------------------------------

def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``statsmodels`` ``proportion_confint``).

    Parameters
    ----------
    successes : float
        Number of successes (may be fractional, e.g. a share of seats that won).
    n : float
        Number of trials; ``n = 0`` gives the uninformative ``(0.0, 1.0)``.
    z : float
        Normal quantile; the default gives a 95% interval.

    Returns
    -------
    (low, high) : tuple of float
        Bounds within ``[0, 1]`` (exactly 0 with no success, 1 with no failure).
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes = {successes} must lie in [0, n = {n}]")
    from scipy.stats import norm
    from statsmodels.stats.proportion import proportion_confint
    alpha = 2 * float(norm.sf(z))
    low, high = proportion_confint(successes, n, alpha=alpha, method="wilson")
    low = 0.0 if successes == 0 else max(0.0, float(low))
    high = 1.0 if successes == n else min(1.0, float(high))
    return low, high


# ---- means -------------------------------------------------------------------------------

def mean_sd(total: float, total_sq: float, n: float) -> tuple[float, float]:
    """Mean and sample standard deviation from a count, a sum and a sum of squares (running
    totals, so callers can aggregate chunk by chunk).

    Returns ``(nan, nan)`` for ``n = 0`` and an SD of 0 for ``n = 1``.
    """
    if n <= 0:
        return math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, 0.0
    var = (total_sq - n * mean * mean) / (n - 1)
    return mean, math.sqrt(max(var, 0.0))


def mean_interval(mean: float, sd: float, n: float, z: float | None = None
                  ) -> tuple[float, float]:
    """95% t interval for a mean from its sample SD and ``n`` observations (``scipy.stats.t``);
    with ``z`` given, the normal interval ``mean +- z * sd / sqrt(n)`` instead."""
    if n <= 0 or math.isnan(mean):
        return math.nan, math.nan
    if n < 2:
        return (mean, mean) if sd == 0 else (math.nan, math.nan)
    if z is None:
        from scipy.stats import t
        z = float(t.ppf(0.5 + LEVEL / 2, n - 1))
    half = z * sd / math.sqrt(n)
    return mean - half, mean + half


def mean_ci(x, null: float = 0.0) -> Estimate:
    """Mean of ``x`` (one value per independent observation, e.g. per deal) with its 95% t
    interval and the two-sided one-sample t-test against ``null``."""
    x = np.asarray(x, float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return NAN
    m = float(x.mean())
    if n < 2:
        return Estimate(m, math.nan, math.nan, n)
    sd = float(x.std(ddof=1))
    lo, hi = mean_interval(m, sd, n)
    if sd == 0:                      # every observation equal: no spread, nothing to test
        return Estimate(m, m, m, n, 1.0 if m == null else 0.0)
    from scipy.stats import ttest_1samp
    return Estimate(m, lo, hi, n, float(ttest_1samp(x, null).pvalue))


def totals_ci(n: int, total: float, total_sq: float, null: float = 0.0) -> Estimate:
    """As :func:`mean_ci`, from running totals of ``n`` observations: their sum and the sum
    of their squares (the t-test from the summary, as ``scipy.stats.ttest_1samp`` makes it)."""
    if n <= 0:
        return NAN
    m, sd = mean_sd(total, total_sq, n)
    if n < 2:
        return Estimate(m, math.nan, math.nan, n)
    lo, hi = mean_interval(m, sd, n)
    if sd == 0:
        return Estimate(m, m, m, n, 1.0 if m == null else 0.0)
    from scipy.stats import t
    p = 2 * float(t.sf(abs(m - null) / (sd / math.sqrt(n)), n - 1))
    return Estimate(m, lo, hi, n, p)


def paired(x: pd.Series, y: pd.Series) -> Estimate:
    """Mean of ``x - y`` over the index values (deals) both have, with its 95% t interval and
    the paired t-test (``scipy.stats.ttest_rel``) against no difference."""
    a, b = x.align(y, join="inner")
    a, b = a.to_numpy(float), b.to_numpy(float)
    return mean_ci(a - b)


def adjust(pvalues, method: str = "holm") -> np.ndarray:
    """p-values adjusted for multiple comparisons (``statsmodels`` ``multipletests``; Holm's
    step-down by default, which controls the family-wise error rate). nan stays nan."""
    p = np.asarray(pvalues, float)
    out = np.full(p.shape, math.nan)
    ok = ~np.isnan(p)
    if ok.any():
        from statsmodels.stats.multitest import multipletests
        out[ok] = multipletests(p[ok], alpha=1 - LEVEL, method=method)[1]
    return out


def effective_n(estimate: Estimate) -> float:
    """Plays worth of independent Bernoulli information in a score estimated over duplicate
    deals: ``s (1 - s) / SE**2`` (what an Elo fit should weigh the pairing by)."""
    s = estimate.mean
    se = estimate.half_width / _t_quantile(estimate.n)
    if not (0 < s < 1) or not se > 0:
        return float(estimate.n)
    return s * (1 - s) / se ** 2


def _t_quantile(n: int) -> float:
    from scipy.stats import t
    return float(t.ppf(0.5 + LEVEL / 2, max(n - 1, 1)))


# ---- models ------------------------------------------------------------------------------

def logistic(y, X: pd.DataFrame, groups=None):
    """Logistic regression of ``y`` (0/1, or a fractional score in [0, 1]) on the columns of
    ``X`` (add a constant yourself), a binomial GLM (``statsmodels``); with ``groups`` (e.g.
    the deal of each row) the standard errors are clustered by group, since the rotations of
    a duplicate deal are not independent. Returns the fitted results object."""
    import statsmodels.api as sm
    model = sm.GLM(np.asarray(y, float), X, family=sm.families.Binomial())
    if groups is None:
        return model.fit()
    codes = pd.factorize(pd.Series(np.asarray(groups)))[0]
    return model.fit(cov_type="cluster", cov_kwds={"groups": codes})


def bradley_terry(a, b, score, plays, anchor: int = 0, prior_draws: float = 0.0):
    """Bradley-Terry strengths from pairings, fit by maximum likelihood (a binomial GLM).

    Pairing ``k`` has items ``a[k]`` and ``b[k]`` (integer ids), ``a``'s mean score
    ``score[k]`` over ``plays[k]`` plays. The model: P(a beats b) = 1 / (1 + exp(-(t_a -
    t_b))). ``prior_draws`` drawn pseudo-plays are added to every pairing (keeps a clean sweep
    finite). Item ``anchor`` is held at 0. Returns ``(theta, se)`` in natural-log odds units,
    one value per item (se 0 for the anchor).
    """
    import statsmodels.api as sm
    a, b = np.asarray(a, int), np.asarray(b, int)
    plays = np.asarray(plays, float)
    k = int(max(a.max(), b.max())) + 1
    n = plays + prior_draws
    won = np.asarray(score, float) * plays + prior_draws / 2
    X = np.zeros((len(a), k))
    X[np.arange(len(a)), a] += 1.0
    X[np.arange(len(b)), b] -= 1.0
    free = [i for i in range(k) if i != anchor]
    with warnings.catch_warnings():
        # as many pairings as free ratings leaves no residual degrees of freedom (harmless:
        # the binomial scale is fixed at 1), and a near sweep looks like separation
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.filterwarnings("ignore", message=".*[Pp]erfect separation")
        fit = sm.GLM(won / n, X[:, free], family=sm.families.Binomial(), var_weights=n).fit()
    theta, se = np.zeros(k), np.zeros(k)
    theta[free] = fit.params
    se[free] = fit.bse
    return theta, se


# ---- matches -----------------------------------------------------------------------------

def match_curve(win: float, draw: float, max_deals: int, others: int = 1) -> np.ndarray:
    """``P[N - 1]``, N = 1..max_deals: probability that a player who wins a deal with
    probability ``win`` and draws with ``draw`` (independent deals) wins more deals than each
    of ``others`` opponents over N deals (a level match is not a win); the opponents share the
    other deals equally. With one opponent the distribution of wins minus losses is convolved
    deal by deal; with two, the joint distribution of the leads over each (``others`` > 2 is
    not supported)."""
    if others not in (1, 2):
        raise ValueError(f"others = {others}: one or two opponents")
    loss = max(0.0, 1.0 - win - draw) / others
    out = np.empty(max_deals)
    if others == 1:
        step = np.array([loss, draw, win])                      # -1, 0, +1
        dist = np.ones(1)
        for n in range(1, max_deals + 1):
            dist = np.convolve(dist, step)
            out[n - 1] = dist[n + 1:].sum()                    # index n: level
        return out
    m = max_deals
    dist = np.zeros((2 * m + 3, 2 * m + 3))                    # lead over each, offset m + 1
    dist[m + 1, m + 1] = 1.0
    for n in range(1, m + 1):
        new = draw * dist
        new[1:, 1:] += win * dist[:-1, :-1]                    # the player wins: both leads +1
        new[:-1, :] += loss * dist[1:, :]                      # the first opponent wins
        new[:, :-1] += loss * dist[:, 1:]                      # the second opponent wins
        dist = new
        out[n - 1] = dist[m + 2:, m + 2:].sum()
    return out


def match_win_probability(win: float, draw: float, deals: int, others: int = 1) -> float:
    """Probability of winning a match of ``deals`` deals (:func:`match_curve`)."""
    return float(match_curve(win, draw, deals, others)[-1])


def deals_needed(win: float, draw: float, target: float = 0.95, cap: int = 2001,
                 others: int = 1) -> int | None:
    """Fewest (odd) deals N such that the player wins an N-deal match with probability at
    least ``target``; None if not within ``cap``."""
    curve = match_curve(win, draw, cap, others)
    odd = np.arange(0, cap, 2)                   # N = 1, 3, 5, ...
    hit = np.flatnonzero(curve[odd] >= target)
    return int(odd[hit[0]] + 1) if hit.size else None


def first_to_probability(win: float, draw: float, k: int, others: int = 1) -> float:
    """Probability of reaching ``k`` deal wins first (draws count for no one) against
    ``others`` opponents sharing the other deals equally: the player's k-th win comes before
    any opponent's (a negative binomial sum; with several opponents, over the ways their wins
    fall short of k each)."""
    from scipy.special import gammaln, logsumexp
    loss = 1.0 - win - draw
    if win + loss <= 0:
        return math.nan
    p, q = win / (win + loss), loss / (win + loss) / others
    if others == 1:
        from scipy.stats import nbinom
        return float(nbinom.cdf(k - 1, k, p))    # fewer than k losses before the k-th win
    if p == 0 or q == 0:
        return float(p > 0)
    # log of the multinomial ways to share s losses among the opponents, fewer than k each
    ways = np.zeros(1)
    one = -gammaln(np.arange(k) + 1)             # sum over b of x^b / b!, b < k
    for _ in range(others):
        ways = _log_convolve(ways, one)
    s = np.arange(len(ways))
    terms = (gammaln(k + s) - gammaln(k) + ways + k * math.log(p) + s * math.log(q))
    return float(min(1.0, math.exp(logsumexp(terms))))


def _log_convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The convolution of two sequences given and returned as logarithms."""
    out = np.full(len(a) + len(b) - 1, -np.inf)
    for i, x in enumerate(a):
        out[i:i + len(b)] = np.logaddexp(out[i:i + len(b)], x + b)
    return out


def rounds_needed(win: float, draw: float, target: float = 0.95, cap: int = 999,
                  others: int = 1) -> int | None:
    """Smallest ``k`` such that the player reaches ``k`` deal wins first with probability at
    least ``target``; None if not within ``cap`` (or the player is not the better one)."""
    if not win > (1.0 - win - draw) / others:
        return None
    lo, hi = 1, 1
    while first_to_probability(win, draw, hi, others) < target:
        if hi >= cap:
            return None
        lo, hi = hi, min(2 * hi, cap)
    while lo < hi:
        mid = (lo + hi) // 2
        if first_to_probability(win, draw, mid, others) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


# ---- text --------------------------------------------------------------------------------

def fmt_ci(m, lo, hi, scale: float = 100.0, digits: int = 1, sign: bool = False) -> str:
    """``m [lo, hi]`` scaled and rounded; the mean alone without an interval; ``n/a``."""
    if m is None or math.isnan(m):
        return "n/a"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    if lo is None or math.isnan(lo):
        return f.format(scale * m)
    return f"{f.format(scale * m)} [{f.format(scale * lo)}, {f.format(scale * hi)}]"


def verdict(est: Estimate, up: str = "higher", down: str = "lower",
            null: float = 0.0, same: str = "not distinguishable from no difference") -> str:
    """Which side of ``null`` the interval lies on, in words."""
    if math.isnan(est.lo):
        return "not measurable"
    if est.lo > null:
        return up
    if est.hi < null:
        return down
    return same
