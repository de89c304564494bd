"""The statistics helpers used by ``simulate`` and the runner; they live in
:mod:`briscasim.analysis.stats` (scipy and statsmodels), the one statistics module."""
from .analysis.stats import Z95, mean_interval, mean_sd, wilson_interval  # noqa: F401
