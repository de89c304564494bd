"""Analysis: statistics, reports, charts, and the research questions as named analyses.

- :mod:`.stats`: every interval, test and model (scipy.stats and statsmodels).
- :mod:`.registry`: the named analyses a spec asks for (``analysis = "swap_policy"``) and
  ``briscasim report`` runs; ``generic`` when a spec names none.
- :mod:`.pack`: the research pack, the questions ``briscasim research NAME`` answers.

This package imports nothing heavy on import (``briscasim.stats`` re-exports from here).
"""
