"""Small statistics helpers shared by ``simulate`` and the reports.

Everything here works from running totals (counts, sums, sums of squares), so callers can
aggregate records chunk by chunk and never keep them all.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion.

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
        Bounds within ``[0, 1]``. Unlike the normal (Wald) interval it stays sensible near
        0 and 1 and for small ``n``.
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes = {successes} must lie in [0, n = {n}]")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def mean_sd(total: float, total_sq: float, n: float) -> tuple[float, float]:
    """Mean and sample standard deviation from a count, a sum and a sum of squares.

    Returns ``(nan, nan)`` for ``n = 0`` and an SD of 0 for ``n = 1``.
    """
    if n <= 0:
        return math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, 0.0
    var = (total_sq - n * mean * mean) / (n - 1)
    return mean, math.sqrt(max(var, 0.0))


def mean_interval(mean: float, sd: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval for a mean: ``mean +- z * sd / sqrt(n)``."""
    if n <= 0 or math.isnan(mean):
        return math.nan, math.nan
    half = z * sd / math.sqrt(n)
    return mean - half, mean + half
