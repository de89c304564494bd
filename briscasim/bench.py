"""``briscasim bench``: the engine's speed, start-up times and memory, measured.

Every figure is a best-of-``repeats`` wall-clock rate on this machine, after a warm-up call
(compile time excluded, except in the start-up figures). Timings on a machine shared with
other work are noisy; the best of several runs is the least disturbed one.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import njit

from . import batch
from .engine.core import signals
from .engine.layout import PUBLIC_LEN, R_SIGNALS
from .engine.primitives import hand_of
from .engine.rng import new_stream, seed_stream
from .envs import VectorEnv
from .game import Deal
from .lineup import Lineup, needed_features
from .rules import Rules
from .simulate import play_chunk, simulate
from .strategies.api import N_PARAMS
from .strategies.dispatch import search_features
from .strategies.ismcts import DEFINITION as ISMCTS, run_search

BENCH_PRESET = "brisca-2"
CHIAMATA_PRESET = "chiamata-5"
CHUNK = 32768


def kernel_deals_per_second(spec: str | list[str], deals: int, repeats: int = 3,
                            preset: str = BENCH_PRESET) -> float:
    """Deals per second of ``spec`` (one for every seat, or one per seat) on ONE thread: the
    batch kernel plays whole deals (shuffle included) in chunks of at most ``CHUNK``, reusing
    one scratch; the fastest kernel that plays it (:func:`briscasim.batch.kernel_keys`), as
    runs play once ``briscasim compile`` has compiled it."""
    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, spec)
    shape, features = batch.kernel_keys(rules.match_kind, lineup.own_shape,
                                        needed_features(rules, lineup))[0]
    work = batch.new_work()
    play_chunk(rules, lineup, 0, 0, min(deals, 100), 1, work, features, shape)  # warm up
    best = 0.0
    for rep in range(repeats):
        t0 = time.perf_counter()
        first = 0
        while first < deals:
            count = min(CHUNK, deals - first)
            play_chunk(rules, lineup, rep + 1, first, count, 1, work, features, shape)
            first += count
        best = max(best, deals / (time.perf_counter() - t0))
    return best


def simulate_deals_per_second(spec: str, deals: int, workers: int, repeats: int = 3,
                              preset: str = BENCH_PRESET) -> float:
    """Deals per second of :func:`briscasim.simulate.simulate` (threads, running totals)."""
    rules = Rules.preset(preset)
    simulate(rules, spec, min(deals, 100), 0, workers=1)             # warm up
    return max(simulate(rules, spec, deals, rep + 1, workers=workers).to_dict()
               ["deals_per_second"] for rep in range(repeats))


def step_api_deals_per_second(deals: int = 20_000, repeats: int = 3,
                              preset: str = BENCH_PRESET) -> float:
    """Deals per second of the Python step API on one thread: :meth:`Deal.from_seed`, then
    ``play(choice(legal_actions()))`` (a uniformly random legal action) to the end; timed in
    the thread's CPU time, so that other work on the machine does not count."""
    import random

    rules = Rules.preset(preset)
    choose = random.Random(0).choice

    def run(n):
        for i in range(n):
            deal = Deal.from_seed(rules, 0, i)
            while not deal.over:
                deal.play(choose(deal.legal_actions()))

    run(min(deals, 100))           # warm up (and compile)
    best = 0.0
    for _ in range(repeats):
        t0 = time.thread_time()
        run(deals)
        best = max(best, deals / (time.thread_time() - t0))
    return best


def vector_env_steps_per_second(num_envs: int = 1024, steps: int = 2_000_000,
                                repeats: int = 3, preset: str = BENCH_PRESET) -> float:
    """Steps per second of :class:`briscasim.envs.VectorEnv` on one thread: ``num_envs``
    deals in self-play, each step a uniformly random legal action in every deal
    (``random_actions``), observations, masks, rewards and new deals included."""
    env = VectorEnv(preset, num_envs, seed=0)
    env.reset()
    env.step(env.random_actions())             # warm up (and compile)
    rounds = max(1, steps // num_envs)
    best = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(rounds):
            env.step(env.random_actions())
        best = max(best, rounds * num_envs / (time.perf_counter() - t0))
    return best


def _child(code: str, env: dict | None = None) -> tuple[float, str, float]:
    """Run ``python -c code`` in a fresh interpreter; return (wall seconds, its stdout, its
    CPU seconds)."""
    t0 = time.perf_counter()
    cpu0 = _children_cpu()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **(env or {})})
    wall = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    if out.returncode != 0:
        tail = (out.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"benchmark child process failed: {tail}")
    return wall, out.stdout, cpu


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_FIRST_DEALS = ("from briscasim.rules import Rules; from briscasim.simulate import simulate; "
                "simulate(Rules.preset('brisca-2'), 'random', 1000, 1, workers=1)")


def start_seconds(cold: bool = False) -> tuple[float, float]:
    """Seconds from starting a fresh ``python`` to 1,000 simulated deals done: (wall, CPU).

    Warm: with the numba cache of this installation (what every run after the first sees).
    Cold: with an empty temporary cache, so the kernels that run needs compile (the first
    run). Compiling uses one core, so on a busy machine the CPU seconds are what the wall
    time would be on an idle one.
    """
    if not cold:
        _child(_FIRST_DEALS)          # make sure the cache is filled
        wall, _, cpu = _child(_FIRST_DEALS)
    else:
        with tempfile.TemporaryDirectory(prefix="briscasim-cold-") as d:
            wall, _, cpu = _child(_FIRST_DEALS, {"NUMBA_CACHE_DIR": d})
    return wall, cpu


def peak_rss_mb(deals: int, workers: int | None = None) -> float:
    """Peak resident memory (MB) of a fresh process that simulates ``deals`` random deals
    of brisca-2 with :func:`~briscasim.simulate.simulate`.

    On Linux the child reads its own high-water mark, ``VmHWM`` in ``/proc/self/status``:
    its ``ru_maxrss`` also counts the peak of this process, whose memory a child started by
    ``vfork`` shares until it runs the new program (a bench that has compiled ISMCTS would
    report its own 450 MB for every child).
    """
    code = ("import resource; from briscasim.rules import Rules; "
            "from briscasim.simulate import simulate; "
            f"simulate(Rules.preset('brisca-2'), 'random', {int(deals)}, 1, workers={workers}); "
            "import pathlib; p = pathlib.Path('/proc/self/status'); "
            "hwm = [l.split()[1] for l in p.read_text().splitlines() if l.startswith('VmHWM')] "
            "if p.exists() else []; "
            "print(hwm[0] if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    return int(_child(code)[1].split()[-1]) / 1024     # both are in KB on Linux


def ismcts_figures(repeats: int = 3, n_deals: int = 10) -> dict:
    """:func:`measure_iterations_per_second` of the ISMCTS strategy over the decisions of
    ``n_deals`` play-outs, best of ``repeats``."""
    return max((measure_iterations_per_second(n_deals=n_deals) for _ in range(repeats)),
               key=lambda f: f["iterations_per_second"])


QUICK = dict(deals=100_000, greedy_deals=20_000, repeats=1, memory_deals=(100_000,),
             ismcts_deals=2)
"""The counts of ``briscasim bench --quick``: every figure, measured once on fewer deals."""


def run_bench(deals: int = 1_000_000, greedy_deals: int = 200_000, repeats: int = 3,
              memory_deals=(10_000, 100_000, 1_000_000), cold: bool = False,
              ismcts: bool = True, progress=None, ismcts_deals: int = 10) -> dict:
    """Measure every figure of ``briscasim bench``; returns a JSON-ready dict.

    ``progress(step, steps, message)`` is called before each measurement (``step`` counts
    from 1).
    """
    cores = os.cpu_count() or 1
    out = {"preset": BENCH_PRESET, "cores": cores, "deals": deals, "repeats": repeats,
           "python": sys.version.split()[0]}

    def simulated():
        one = simulate_deals_per_second("random", deals, 1, repeats)
        every = simulate_deals_per_second("random", deals, cores, repeats)
        out["random_deals_per_second_simulate_one_core"] = one
        out["random_deals_per_second_all_cores"] = every
        out["scaling"] = every / one

    def searched():
        fig = ismcts_figures(repeats, ismcts_deals)
        out["ismcts_iterations_per_second"] = fig["iterations_per_second"]
        out["ismcts_ms_per_move"] = fig["ms_per_move"]

    def started_cold():
        out["cold_start_seconds"], out["cold_start_cpu_seconds"] = start_seconds(cold=True)

    def put(key, fn, *args, **kwargs):
        return lambda: out.__setitem__(key, fn(*args, **kwargs))

    steps = [
        ("random vs random, one thread (kernel)",
         put("random_deals_per_second", kernel_deals_per_second, "random", deals, repeats)),
        ("random vs random, simulate() on 1 and on every core", simulated),
        ("greedy vs greedy, one thread (kernel)",
         put("greedy_deals_per_second", kernel_deals_per_second, "greedy", greedy_deals,
             repeats)),
        ("expert vs expert, one thread (kernel)",
         put("expert_deals_per_second", kernel_deals_per_second, "expert", greedy_deals,
             repeats)),
        ("learned against greedy, one thread (kernel)",
         put("learned_deals_per_second", kernel_deals_per_second, ["learned", "greedy"],
             greedy_deals, repeats)),
        (f"random in Briscola Chiamata ({CHIAMATA_PRESET}, auction included), one thread",
         put("chiamata_random_deals_per_second", kernel_deals_per_second, "random", deals,
             repeats, preset=CHIAMATA_PRESET)),
        (f"greedy in Briscola Chiamata ({CHIAMATA_PRESET}), one thread",
         put("chiamata_greedy_deals_per_second", kernel_deals_per_second, "greedy",
             greedy_deals, repeats, preset=CHIAMATA_PRESET)),
        ("the Python step API, random legal actions, one thread",
         put("step_api_deals_per_second", step_api_deals_per_second, repeats=repeats)),
        ("VectorEnv, random legal actions, one thread",
         put("vector_env_steps_per_second", vector_env_steps_per_second, 2 ** 10, 2 * deals,
             repeats)),
        *([("ismcts iterations per second", searched)] if ismcts else []),
        ("start-up: warm cache",
         lambda: out.__setitem__("warm_start_seconds", start_seconds(cold=False)[0])),
        *([("start-up: cold cache (compiles the kernels of a random run)", started_cold)]
          if cold else []),
    ]
    rss = out["peak_rss_mb"] = {}
    steps += [(f"peak memory of {n:,} deals", put_rss)
              for n, put_rss in ((n, lambda n=n: rss.__setitem__(str(n), peak_rss_mb(n)))
                                 for n in memory_deals)]
    for i, (message, measure) in enumerate(steps, 1):
        if progress is not None:
            progress(i, len(steps), message)
        measure()
    return out


_ISMCTS_BENCHES = {}


def _ismcts_bench(features):
    """The jitted loop of :func:`measure_iterations_per_second` for rules of ``features``
    (a constant of the searches it calls)::

        bench(rules, states, seats, params, seed, rng) -> iterations run
    """
    if features not in _ISMCTS_BENCHES:
        @njit(cache=True, _nrt=False)
        def bench(rules, states, seats, params, seed, rng):
            total = 0
            for i in range(states.shape[0]):
                seed_stream(rng, seed, i, 1)
                st = states[i]
                s = seats[i]
                sig = signals(rules, st, s, features) if rules[R_SIGNALS] != 0 else 0
                _, it = run_search(rules, st[:PUBLIC_LEN], hand_of(rules, st, s), s, sig, params,
                                   rng, features, st)
                total += it
            return total
        _ISMCTS_BENCHES[features] = bench
    return _ISMCTS_BENCHES[features]


def decision_states(rules, n_deals=20, seed=0):
    """Every decision with a real choice in ``n_deals`` random play-outs: ``(states, seats)``
    arrays (int16 full states, int64 seats to act)."""
    rng = np.random.default_rng(seed)
    states, seats = [], []
    for d in range(n_deals):
        deal = Deal.from_seed(rules, seed, d)
        while not deal.over:
            legal = deal.legal_actions()
            if len(legal) > 1:
                states.append(deal.state.copy())
                seats.append(deal.turn)
            deal.play(int(legal[rng.integers(len(legal))]))
    return np.array(states, np.int16), np.array(seats, np.int64)


def measure_iterations_per_second(rules=None, n_deals=10, seed=0, **overrides):
    """Search iterations per second of ``ismcts`` on one core (for ``briscasim bench``).

    Runs a full search with the default parameters, or ``overrides`` (parameter name ->
    value, e.g. ``iterations=1000, rollout="greedy"``), at every real decision of ``n_deals``
    random play-outs of ``rules`` (default ``brisca-2``); compile time is excluded. Returns
    ``{"iterations_per_second", "ms_per_move", "moves"}``.
    """
    rules = rules or Rules.preset("brisca-2")
    r = rules.to_array()
    states, seats = decision_states(rules, n_deals, seed)
    params = np.zeros(N_PARAMS)
    for i, p in enumerate(ISMCTS.params):
        value = overrides.pop(p.name, p.default)
        p.check(value, "ismcts")
        params[i] = p.encode(value)
    if overrides:
        ISMCTS.param(next(iter(overrides)), "ismcts")   # raises: unknown parameter
    features = search_features(needed_features(rules, Lineup.build(rules, "ismcts")),
                               fastest=True)
    bench = _ismcts_bench(features)
    rng = new_stream()
    bench(r, states[:1], seats[:1], params, np.uint64(seed), rng)   # compile / warm up
    t0 = time.perf_counter()
    total = bench(r, states, seats, params, np.uint64(seed), rng)
    dt = time.perf_counter() - t0
    return {"iterations_per_second": total / dt, "ms_per_move": 1000 * dt / len(seats),
            "moves": len(seats)}


def format_bench(d: dict) -> str:
    """The human-readable figures."""
    def rate(x):
        return "not measured" if x is None else f"{x:,.0f}"

    lines = [
        f"briscasim bench ({d['preset']}, {d['cores']} cores, best of {d['repeats']}, "
        f"Python {d['python']})",
        f"random vs random, one thread:          {rate(d['random_deals_per_second'])} deals/s",
        f"random vs random, simulate(), 1 core:  "
        f"{rate(d['random_deals_per_second_simulate_one_core'])} deals/s",
        f"random vs random, simulate(), {d['cores']} cores: "
        f"{rate(d['random_deals_per_second_all_cores'])} deals/s (scaling {d['scaling']:.2f}x)",
        f"greedy vs greedy, one thread:          {rate(d['greedy_deals_per_second'])} deals/s",
        f"expert vs expert, one thread:          {rate(d['expert_deals_per_second'])} deals/s",
        f"learned vs greedy, one thread:         {rate(d['learned_deals_per_second'])} deals/s",
        f"chiamata-5 random, one thread:         "
        f"{rate(d['chiamata_random_deals_per_second'])} deals/s",
        f"chiamata-5 greedy, one thread:         "
        f"{rate(d['chiamata_greedy_deals_per_second'])} deals/s",
        f"Python step API (Deal), one thread:    {rate(d['step_api_deals_per_second'])} deals/s",
        f"VectorEnv, 1024 deals, one thread:     {rate(d['vector_env_steps_per_second'])} steps/s",
    ]
    if "ismcts_iterations_per_second" in d:
        lines.append(f"ismcts, one thread:                    "
                     f"{rate(d['ismcts_iterations_per_second'])} iterations/s")
    lines.append(f"warm start (fresh python to 1,000 deals): {d['warm_start_seconds']:.1f} s")
    if "cold_start_seconds" in d:
        lines.append(f"cold start (empty numba cache):           {d['cold_start_seconds']:.1f} s "
                     f"({d['cold_start_cpu_seconds']:.1f} s of CPU)")
    lines.append("peak RSS: " + ", ".join(f"{int(n):,} deals {mb:.0f} MB"
                                          for n, mb in d["peak_rss_mb"].items()))
    return "\n".join(lines)


if __name__ == "__main__":      # pragma: no cover - convenience
    print(json.dumps(run_bench(), indent=2))
