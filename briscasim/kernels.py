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
    return {D.HAS_RANDOM: "random alone", D.HAS_GREEDY: "greedy alone",
            D.HAS_EXPERT: "expert alone", D.EVERY_SHAPE: "any lineup"}[shape]


def _features_name(features: int) -> str:
    return "classic rules" if features == 0 else "every rule"


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
    """``(what, compile)`` for every kernel :func:`compile_all` compiles, in order."""
    from . import batch
    from .jit import function_slot
    from .strategies import dispatch as D
    from .strategies.api import STRATEGY_SIGNATURE
    from .strategies.registry import BUILTINS, REGISTRY
    items = []
    for kind, label in (("deal", "single deals"), ("match", "matches")):
        for shape, features in batch.KERNEL_KEYS[kind]:
            items.append((f"{label}, {_shape_name(shape)}, {_features_name(features)}",
                          partial(batch.kernel, kind, shape, features)))
    names = {REGISTRY[name].kind: name for name in BUILTINS}
    for kind, fn in D.SLOT_BUILTINS.items():
        items.append((names[kind], partial(function_slot, fn, STRATEGY_SIGNATURE)))
    searches = ", ".join(names[k] for k in D.SEARCH_KINDS)
    for features in (0, EVERY_FEATURE):
        items.append((f"{searches}, {_features_name(features)}",
                      partial(function_slot, D.search_decider(features), D.SEARCH_SIGNATURE)))
    items.append(("step by step (play, replay)", _step_api))
    items.append(("the analysis of a position (analyze, play --hint)", _analysis))
    return items


def compile_all(progress=None) -> dict:
    """Compile (or load from the cache) every kernel of :func:`work`, calling
    ``progress(what)`` before each; returns ``{"kernels", "seconds", "cpu_seconds"}``."""
    from .jit import quiet_notices
    items = work()
    start, cpu = time.perf_counter(), time.process_time()
    with quiet_notices():
        for what, build in items:
            if progress is not None:
                progress(what)
            build()
    return {"kernels": len(items), "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu}
