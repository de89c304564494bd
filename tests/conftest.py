"""Shared test set-up: the helper modules (``deckbuild``, ``repo_scripts``, ``chartcheck``,
``command_line``) importable from every test file, and the number of workers of ``-n auto``."""
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker per core and one more (``--maxprocesses`` still caps it). Most of
    the suite's time is numba compiling, and a worker that needs a kernel another is
    compiling waits for it (``briscasim.jit``, to load it from the cache); the spare worker
    keeps the core busy meanwhile."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1
