"""briscasim: Monte Carlo simulation and strategy research for Brisca and Briscola.

The public Python API:

- :class:`briscasim.rules.Rules`: every rule option and preset of docs/rules.md.
- :class:`briscasim.game.Deal`: step through one deal, see a seat's view, read the log.
- :func:`briscasim.simulate`: play many deals between strategies in parallel.
- :func:`briscasim.analyze`: the value of every legal action of a deal as it stands.
- :mod:`briscasim.strategies`: the strategy registry and the built-in strategies.
- :func:`briscasim.load`: the records of a finished experiment run as one pandas DataFrame.
"""
import hashlib
import os
import pathlib
import sys
import types

__version__ = "0.1.0"


def _source_digest() -> str:
    """Digest of the sources that decide results: every module but ``cli/``,
    ``experiments/``, ``analysis/`` and ``stats.py`` (they hold no jitted code), as loaded by
    this process."""
    root = pathlib.Path(__file__).parent
    h = hashlib.sha1()
    for p in sorted(q for q in root.rglob("*.py")
                    if q.relative_to(root).parts[0] not in ("cli", "experiments", "analysis",
                                                            "stats.py")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


SOURCE_DIGEST = _source_digest()


def cache_dir() -> pathlib.Path:
    """Where the compiled engine is cached: ``$BRISCASIM_CACHE_DIR`` if set, else the
    platform's user cache folder (``$XDG_CACHE_HOME/briscasim``, by default
    ``~/.cache/briscasim``, on Linux)."""
    if os.environ.get("BRISCASIM_CACHE_DIR"):
        return pathlib.Path(os.environ["BRISCASIM_CACHE_DIR"])
    import platformdirs
    return pathlib.Path(platformdirs.user_cache_dir("briscasim", appauthor=False))


# Numba checks only a cached function's own file, not the files of the functions it calls;
# a cache folder keyed by SOURCE_DIGEST makes any edit invalidate the cache.
if "NUMBA_CACHE_DIR" not in os.environ:
    _base = cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = str(_base / f"numba-{SOURCE_DIGEST}")
    if "numba" in sys.modules:
        # numba was imported first and has read its configuration already: without this,
        # it would cache next to the sources, where an edit of a called module goes unseen
        from numba.core import config as _numba_config
        _numba_config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]

_EXPORTS = {"Rules": "rules", "Deal": "game", "simulate": "simulate", "Lineup": "lineup",
            "analyze": "position", "load": "experiments.runner"}


class _Package(types.ModuleType):
    """The package, whose top-level names stay the API's functions and classes: importing
    the module :mod:`briscasim.simulate` would otherwise set the package's ``simulate`` to
    that module (modules import it as ``from .simulate import ...``)."""

    def __setattr__(self, name, value):
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    """``from briscasim import Rules, Deal, simulate, Lineup, analyze, load`` (imported on
    first use, so that the command line starts without loading the kernels). An import that
    fails inside is raised as what it is, never as a missing attribute."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'briscasim' has no attribute {name!r}")
    import importlib
    module = f"{__name__}.{_EXPORTS[name]}"
    try:
        value = getattr(importlib.import_module(module), name)
    except AttributeError as e:
        raise ImportError(f"importing {module} failed: {e}", name=module) from e
    globals()[name] = value
    return value
