"""Where chunks are played: threads in this process, or a Dask distributed cluster.

A :class:`Job` names one chunk completely (rules, strategies per seat, seed, deals,
rotations), so any process with briscasim installed can play it with :func:`play_job`; the
records depend only on the job. Both executors take ``submit(job, finish)``, where ``finish``
turns the records into what the runner keeps (it writes the chunk's Parquet file). The local
executor runs ``finish`` on the worker thread, next to the play; the Dask executor ships the
records back and runs it here.

Threads rather than processes locally: the batch kernels release the GIL, so threads share
one process, one numba cache load and no pickling.
"""
from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor
from concurrent.futures import wait as _wait
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..engine.layout import EVERY_FEATURE
from ..errors import UserError
from ..limits import usable_cores
from ..rules import Rules
from ..lineup import Lineup
from ..simulate import play_chunk


@dataclass(frozen=True)
class Job:
    """One chunk: deals ``first .. first + count - 1`` of ``rules`` between ``lineup`` (a
    strategy spec per seat), each in ``rotations`` rotations, by the kernel of ``features``
    and ``shape`` (the rule features and strategy kinds of the whole run: one kernel plays
    every cell)."""
    rules: Rules
    lineup: tuple[str, ...]
    seed: int
    first: int
    count: int
    rotations: int
    features: int = EVERY_FEATURE
    shape: int | None = None


@lru_cache(maxsize=128)
def lineup_of(rules: Rules, specs: tuple[str, ...]) -> Lineup:
    """The lineup of strategy ``specs`` (one per seat), built once per process."""
    return Lineup.build(rules, list(specs))


def play_job(job: Job) -> np.ndarray:
    """Play one chunk and return its records (``play_chunk``)."""
    return play_chunk(job.rules, lineup_of(job.rules, job.lineup), job.seed, job.first,
                      job.count, job.rotations, features=job.features, shape=job.shape)


class LocalExecutor:
    """A pool of ``workers`` threads (default: every core)."""

    def __init__(self, workers: int | None = None):
        self.workers = workers or usable_cores()
        self.pool = ThreadPoolExecutor(self.workers, thread_name_prefix="briscasim-chunk")

    def submit(self, job: Job, finish):
        return self.pool.submit(lambda: finish(play_job(job)))

    def wait(self, futures):
        """``(done, pending)`` once at least one future has finished."""
        return _wait(futures, return_when=FIRST_COMPLETED)

    def result(self, future):
        return future.result()

    def close(self, cancel: bool = False):
        """Stop; a running chunk always finishes (and writes its file)."""
        self.pool.shutdown(wait=True, cancel_futures=cancel)


class DaskExecutor:
    """Chunks played on a Dask distributed cluster; records come back to this process."""

    def __init__(self, scheduler: str, workers: int | None = None):
        try:
            from distributed import Client
        except ImportError:
            raise UserError("--executor dask needs Dask distributed: "
                            "pip install 'briscasim[dask]'") from None
        if not scheduler:
            raise UserError("--executor dask needs --scheduler ADDRESS "
                            "(e.g. tcp://10.0.0.5:8786; see docs/cluster.md)")
        try:
            self.client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as e:
            raise UserError(f"--scheduler {scheduler}: cannot connect to a Dask scheduler "
                            f"({e})") from None
        n = sum(w.get("nthreads", 1) for w in
                self.client.scheduler_info()["workers"].values())
        self.workers = workers or max(n, 1)
        self._finish = {}

    def submit(self, job: Job, finish):
        future = self.client.submit(play_job, job, pure=False)
        self._finish[future.key] = finish
        return future

    def wait(self, futures):
        from distributed import wait
        done, pending = wait(list(futures), return_when="FIRST_COMPLETED")
        return done, set(pending)

    def result(self, future):
        return self._finish.pop(future.key)(future.result())

    def close(self, cancel: bool = False):
        self.client.close()


def make_executor(kind: str, workers: int | None = None, scheduler: str | None = None):
    """``"local"`` or ``"dask"`` (with a scheduler address)."""
    if kind == "local":
        if scheduler:
            raise UserError("--scheduler is only used with --executor dask")
        return LocalExecutor(workers)
    if kind == "dask":
        return DaskExecutor(scheduler, workers)
    raise UserError(f"--executor {kind!r}: valid executors: local, dask")
