"""Elo-style ratings from head-to-head scores, fit by maximum likelihood.

The model is the Elo (Bradley-Terry) logistic one: strategy ``i`` scores against ``j``

    E[score] = 1 / (1 + 10 ** (-(R_i - R_j) / 400))

per play (a win 1, a draw 1/2, a loss 0). :func:`fit_elo` finds the ratings that maximise the
likelihood of all the pairings' observed scores at once, with 95% intervals from the
curvature of the log-likelihood (the inverse Fisher information), relative to an anchor
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

from ..stats import Z95

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
            prior_draws: float = 1.0, max_iter: int = 100, tol: float = 1e-9) -> pd.DataFrame:
    """Maximum-likelihood Elo ratings of the strategies in ``games``.

    Parameters
    ----------
    games : DataFrame
        One row per pairing: ``a``, ``b`` (strategy names), ``score`` (``a``'s mean score
        against ``b``, wins + draws/2 per play) and ``plays``. A pair may appear in several
        rows (they add up).
    anchor : str, optional
        The strategy held at ``anchor_rating`` (default: the first one in ``games``).
    prior_draws : float
        Drawn pseudo-plays added to every pairing (module docstring); 0 for the plain MLE.
    max_iter, tol : Newton iterations and the convergence tolerance on the rating steps.

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
    n = games["plays"].to_numpy(float) + prior_draws
    won = games["score"].to_numpy(float) * games["plays"].to_numpy(float) + prior_draws / 2
    k = len(names)
    free = np.array([i for i in range(k) if names[i] != anchor])
    r = np.zeros(k)
    for _ in range(max_iter):
        p = 1 / (1 + np.exp(-SCALE * (r[a] - r[b])))
        resid = won - n * p
        grad = np.zeros(k)
        np.add.at(grad, a, SCALE * resid)
        np.add.at(grad, b, -SCALE * resid)
        info = _information(k, a, b, n * p * (1 - p))
        step = np.linalg.solve(info[np.ix_(free, free)], grad[free])
        r[free] += step
        if np.max(np.abs(step)) < tol:
            break
    p = 1 / (1 + np.exp(-SCALE * (r[a] - r[b])))
    cov = np.linalg.inv(_information(k, a, b, n * p * (1 - p))[np.ix_(free, free)])
    se = np.zeros(k)
    se[free] = np.sqrt(np.diag(cov))
    rating = r + anchor_rating
    plays = np.zeros(k)
    np.add.at(plays, a, games["plays"].to_numpy(float))
    np.add.at(plays, b, games["plays"].to_numpy(float))
    out = pd.DataFrame(dict(strategy=names, rating=rating, lo=rating - Z95 * se,
                            hi=rating + Z95 * se, se=se, plays=plays.astype(np.int64)))
    return out.sort_values("rating", ascending=False, ignore_index=True)


def _information(k, a, b, w) -> np.ndarray:
    """Fisher information of the ratings (in rating points) for pairings ``a``-``b`` with
    weights ``plays * p * (1 - p)``."""
    info = np.zeros((k, k))
    w = SCALE * SCALE * w
    np.add.at(info, (a, a), w)
    np.add.at(info, (b, b), w)
    np.add.at(info, (a, b), -w)
    np.add.at(info, (b, a), -w)
    return info
