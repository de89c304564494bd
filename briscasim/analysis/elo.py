"""Elo-style ratings from head-to-head scores, fit by maximum likelihood.

The model is the Elo (Bradley-Terry) logistic one: strategy ``i`` scores against ``j``

    E[score] = 1 / (1 + 10 ** (-(R_i - R_j) / 400))

per play (a win 1, a draw 1/2, a loss 0). :func:`fit_elo` finds the ratings that maximise the
likelihood of all the pairings' observed scores at once, with 95% intervals from the
curvature of the log-likelihood (statsmodels' GLM standard errors), relative to an anchor
strategy held at a fixed rating. With one pairing the fit is the standard logistic formula
:func:`elo_difference`.

A strategy that wins every play has no finite maximum-likelihood rating; ``prior_draws``
adds that many drawn pseudo-plays to every pairing (as BayesElo does), which keeps the fit
finite and moves it negligibly when the real plays number in the thousands.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..stats import Z95, bradley_terry

SCALE = math.log(10) / 400
"""Natural-log slope of the Elo logistic: 400 rating points is a factor 10 in the odds."""


def expected_score(diff: float) -> float:
    """Expected score of a player rated ``diff`` points above its opponent."""
    return 1.0 / (1.0 + 10 ** (-diff / 400))


def elo_difference(score: float) -> float:
    """The rating difference that makes ``score`` (0 < score < 1) the expected score."""
    if not 0 < score < 1:
        raise ValueError(f"score = {score} must lie strictly between 0 and 1")
    return -400 * math.log10(1 / score - 1)


def fit_elo(games: pd.DataFrame, anchor: str | None = None, anchor_rating: float = 0.0,
            prior_draws: float = 1.0) -> pd.DataFrame:
    """Maximum-likelihood Elo ratings of the strategies in ``games`` (a Bradley-Terry fit,
    :func:`briscasim.stats.bradley_terry`, on the Elo scale).

    Parameters
    ----------
    games : DataFrame
        One row per pairing: ``a``, ``b`` (strategy names), ``score`` (``a``'s mean score
        against ``b``, wins + draws/2 per play) and ``plays`` (or the effective number of
        plays of a duplicate estimate, :func:`briscasim.stats.effective_n`). A pair
        may appear in several rows (they add up).
    anchor : str, optional
        The strategy held at ``anchor_rating`` (default: the first one in ``games``).
    prior_draws : float
        Drawn pseudo-plays added to every pairing (module docstring); 0 for the plain MLE.

    Returns
    -------
    DataFrame
        One row per strategy, best first: ``strategy``, ``rating``, ``lo``, ``hi`` (95%
        interval relative to the anchor), ``se``, ``plays``.
    """
    names = list(dict.fromkeys(list(games["a"]) + list(games["b"])))
    if len(names) < 2:
        raise ValueError("an Elo fit needs at least two strategies")
    anchor = names[0] if anchor is None else anchor
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of {names}")
    idx = {n: i for i, n in enumerate(names)}
    a = games["a"].map(idx).to_numpy()
    b = games["b"].map(idx).to_numpy()
    theta, se = bradley_terry(a, b, games["score"].to_numpy(float),
                              games["plays"].to_numpy(float), anchor=idx[anchor],
                              prior_draws=prior_draws)
    rating = theta / SCALE + anchor_rating
    se = se / SCALE
    plays = np.zeros(len(names))
    np.add.at(plays, a, games["plays"].to_numpy(float))
    np.add.at(plays, b, games["plays"].to_numpy(float))
    out = pd.DataFrame(dict(strategy=names, rating=rating, lo=rating - Z95 * se,
                            hi=rating + Z95 * se, se=se, plays=np.rint(plays).astype(np.int64)))
    return out.sort_values("rating", ascending=False, ignore_index=True)
