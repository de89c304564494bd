"""Analysis: reports, charts, ratings and the research questions as named analyses.

- :mod:`.registry`: the named analyses a spec asks for (``analysis = "swap_policy"``) and
  ``briscasim report`` runs; ``generic`` when a spec names none.
- :mod:`.pack`: the research pack, the questions ``briscasim research NAME`` answers.
- :mod:`.elo`: Elo ratings fit by maximum likelihood.

Every interval, test and model is :mod:`briscasim.stats`. This package reads the results of
:mod:`briscasim.experiments`, which never imports it. It imports nothing heavy on import.
"""
