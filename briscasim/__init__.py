"""briscasim: Monte Carlo simulation and strategy research for Brisca and Briscola.

The public Python API:

- :class:`briscasim.rules.Rules`: every rule option and preset of RULES.md.
- :class:`briscasim.game.Deal`: step through one deal, see a seat's view, read the log.
- :func:`briscasim.simulate.simulate`: play many deals between strategies in parallel.
- :mod:`briscasim.strategies`: the strategy registry and the built-in strategies.
"""
import hashlib
import os
import pathlib

__version__ = "0.1.0"


def _numba_cache_dir() -> str:
    """A numba cache folder keyed by a hash of this package's sources.

    Numba checks only a cached function's own file, not the files of the functions it
    calls; keying the folder by every source file makes any edit invalidate the cache.
    """
    root = pathlib.Path(__file__).parent
    h = hashlib.sha1()
    # cli/ and experiments/ hold no jitted code: editing them must not force a recompile
    for p in sorted(q for q in root.rglob("*.py")
                    if q.relative_to(root).parts[0] not in ("cli", "experiments")):
        h.update(str(p.relative_to(root)).encode())
        h.update(p.read_bytes())
    base = pathlib.Path(os.environ.get("BRISCASIM_CACHE_DIR",
                                       pathlib.Path.home() / ".cache" / "briscasim"))
    return str(base / f"numba-{h.hexdigest()[:16]}")


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = _numba_cache_dir()
