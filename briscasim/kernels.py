"""Every kernel a lineup of built-in strategies may need, compiled ahead of need.

``briscasim compile`` runs :func:`compile_all`. Afterwards any lineup of built-in strategies
on any preset, in ``simulate``, ``run``, ``research``, ``play`` (with hints), ``replay`` and
``analyze``, loads its kernels from the cache (:mod:`briscasim.jit`) instead of compiling
them. Without it, each kernel compiles on the first run that needs it. There are few: the
batch kernels come in a handful of shapes and feature sets
(:func:`briscasim.batch.kernel_key`), the searches in two feature sets.
"""
from __future__ import annotations

import time
from functools import partial

from .engine.layout import EVERY_FEATURE


def _shape_name(shape: int) -> str:
    from .strategies import dispatch as D
    return {D.HAS_RANDOM: "random alone", D.HAS_EXPERT: "expert alone",
            D.EVERY_SHAPE: "any lineup"}[shape]


def _features_name(features: int) -> str:
    from .batch import CHIAMATA_FEATURES
    return {0: "classic rules", CHIAMATA_FEATURES: "Briscola Chiamata's rules"}.get(
        features, "every rule")


def _step_api() -> None:
    """The move-by-move driver of ``play`` and ``replay``: a deal stepped through
    :class:`~briscasim.game.Deal` by the dispatcher of every strategy."""
    from .jit import compiled
    from .rules import Rules
    from .game import Deal
    from .strategies import dispatch
    deal = Deal.from_seed(Rules.preset("brisca-2"), 0)
    deal.play(deal.legal_actions()[0])
    compiled(dispatch._decide_entry, dispatch.DECIDE_SIGNATURE)


def _analysis() -> None:
    """The analysis of a position (``analyze``, ``play --hint``): at every decision of a
    deal, so that both the sampled and the exact valuation compile."""
    from .game import Deal
    from .position import analyze
    from .rules import Rules
    deal = Deal.from_seed(Rules.preset("brisca-2"), 0)
    while not deal.over:
        analyze(deal, iterations=1)
        deal.play(deal.legal_actions()[0])


def work() -> list[tuple[str, object]]:
    """``(what, compile)`` for every kernel :func:`compile_all` compiles, in order: first
    those that serve every lineup and rule (a compile stopped half-way leaves no run to wait
    for one), then the faster ones of fewer strategy kinds or rule features."""
    from . import batch
    from .envs.vector import kernel_work
    from .jit import function_slot
    from .strategies import dispatch as D
    from .strategies.api import STRATEGY_SIGNATURE
    from .strategies.registry import BUILTINS, REGISTRY
    kernels = [(kind, label, key) for kind, label in (("deal", "single deals"),
                                                      ("match", "matches"))
               for key in batch.KERNEL_KEYS[kind]]
    names = {REGISTRY[name].kind: name for name in BUILTINS}
    searches = ", ".join(names[k] for k in D.SEARCH_KINDS)

    def kernel(kind, label, key):
        return (f"{label}, {_shape_name(key[0])}, {_features_name(key[1])}",
                partial(batch.kernel, kind, *key))

    def search(features):
        return (f"{searches}, {_features_name(features)}",
                partial(function_slot, D.search_decider(features), D.SEARCH_SIGNATURE))

    every = [k for k in kernels if k[2] == batch.KERNEL_KEYS[k[0]][-1]]
    return [*(kernel(*k) for k in every),
            *((names[kind], partial(function_slot, fn, STRATEGY_SIGNATURE))
              for kind, fn in D.SLOT_BUILTINS.items()),
            search(EVERY_FEATURE),
            ("step by step (play, replay)", _step_api),
            ("the analysis of a position (analyze, play --hint)", _analysis),
            *kernel_work(),
            *(kernel(*k) for k in kernels if k not in every),
            search(0)]


def compile_all(progress=None) -> dict:
    """Compile (or load from the cache) every kernel of :func:`work`, calling
    ``progress(what)`` before each; returns ``{"kernels", "seconds", "cpu_seconds",
    "each"}``, ``each`` the CPU seconds of every item by what it is."""
    from .jit import quiet_notices
    items = work()
    each = {}
    start, cpu = time.perf_counter(), time.process_time()
    with quiet_notices():
        for what, build in items:
            if progress is not None:
                progress(what)
            t = time.process_time()
            build()
            each[what] = time.process_time() - t
    return {"kernels": len(items), "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu, "each": each}
