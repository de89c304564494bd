"""Kernels compile on first use only: a random-vs-random run of single deals never compiles
the search strategies, the match kernel or the kernels of other lineup shapes (what keeps the
first run short)."""
import subprocess
import sys

import pytest

_PROBE = """
from briscasim import batch
from briscasim.rules import Rules
from briscasim.simulate import Lineup, play_chunk
from briscasim.strategies import dispatch
rules = Rules.preset("brisca-2")
play_chunk(rules, Lineup.build(rules, "random"), 1, 0, 10)
print(batch.compiled_kernels(), sorted(dispatch._SEARCH_DECIDERS))
play_chunk(rules, Lineup.build(rules, ["ismcts:iterations=20", "greedy"]), 1, 0, 2)
play_chunk(rules, Lineup.build(rules, ["pimc:worlds=2", "omniscient"]), 1, 0, 2)
print(batch.compiled_kernels(), sorted(dispatch._SEARCH_DECIDERS))
print(dispatch.EVERY_SHAPE)
print(dispatch.HAS['random'])
"""


@pytest.mark.slow     # compiles kernels in a fresh process on purpose
def test_kernels_compile_on_first_use_only():
    from briscasim.engine.layout import EVERY_FEATURE
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    # random deals: the deal kernel for random lineups alone
    assert out[0] == f"[('deal', {out[3]}, {EVERY_FEATURE})] []"
    # lineups of other shapes share the kernel of every shape, with one search slot for
    # every search strategy
    assert out[1] == (f"[('deal', {out[3]}, {EVERY_FEATURE}), ('deal', {out[2]}, {EVERY_FEATURE})] "
                      f"[{EVERY_FEATURE}]")


def test_function_slots_play_as_the_dispatchers_they_hold():
    """A lineup hands briscasim's own jitted functions to the kernels by address
    (jit.FunctionSlot, looked up once) and a user strategy as its dispatcher: the records
    are those of the dispatchers themselves."""
    import numpy as np

    from briscasim import batch
    from briscasim.jit import FunctionSlot
    from briscasim.rules import Rules
    from briscasim.simulate import Lineup, record_len

    rules = Rules.preset("brisca-2")
    lineup = Lineup.build(rules, ["ismcts:iterations=10", "greedy"])
    kinds, params, users, search = lineup.arrays()
    assert all(isinstance(u, FunctionSlot) for u in users) and isinstance(search, FunctionSlot)
    kernel = batch.kernel(rules.match_kind, lineup.shape)
    records = []
    for slots in ((users, search), (tuple(u.kernel for u in users), search.kernel)):
        out = np.zeros((6, record_len(rules)), np.int32)
        r, w16, w64 = batch.new_work()
        r[:] = rules.to_array()
        assert kernel(kinds, params, *slots, r, np.uint64(3), 0, 3, 2, out, w16, w64) == -1
        records.append(out)
    assert np.array_equal(*records)


def test_inliner_fixes_apply_and_keep_what_is_inlined():
    """Both mends of numba's IR inliner apply to the installed numba, and a function inlined
    at several call sites (nested, with different argument types) computes what it did."""
    from numba import njit

    from briscasim import jit

    assert jit.INLINER_FIXED and jit.INLINED_IR_SHARED

    @njit(inline="always")
    def twice(x):
        y = x + x
        return y

    @njit
    def combine(a, b):
        return twice(a) + 10 * twice(b) + twice(twice(a))

    assert combine(1, 2) == 2 + 40 + 4
    assert combine(1.5, 2) == 3.0 + 40 + 6.0


@pytest.mark.slow     # compiles the kernels of fewer features
@pytest.mark.parametrize("preset, features", [("brisca-2", 0), ("brisca-4-pairs", 0),
                                              ("brisca-4-pairs-signals", "F_SIGNALS")])
def test_the_kernel_of_fewer_features_plays_the_same_deals(preset, features):
    import numpy as np

    from briscasim.engine import layout
    from briscasim.engine.layout import EVERY_FEATURE
    from briscasim.rules import Rules
    from briscasim.simulate import Lineup, needed_features, play_chunk

    rules = Rules.preset(preset)
    lineup = Lineup.build(rules, ["greedy+hold:stock=4", "random"] * (rules.players // 2))
    features = getattr(layout, features) if features else 0
    assert needed_features(rules, lineup) == features
    narrow = play_chunk(rules, lineup, 5, 0, 400, rotations=2, features=features)
    every = play_chunk(rules, lineup, 5, 0, 400, rotations=2, features=EVERY_FEATURE)
    assert np.array_equal(narrow, every)


def test_a_kernel_without_a_needed_feature_is_refused():
    from briscasim.rules import Rules
    from briscasim.simulate import Lineup, needed_features, play_chunk
    from briscasim.engine.layout import (F_AUCTION, F_BLACK_HAND, F_FEWEST, F_LARGE_HAND,
                                         F_PLAYS)

    rules = Rules.preset("chiamata-5")
    lineup = Lineup.build(rules, "random")
    assert needed_features(rules, lineup) == F_AUCTION | F_LARGE_HAND
    with pytest.raises(ValueError, match="lacks 0x81"):
        play_chunk(rules, lineup, 1, 0, 1, features=0)
    assert needed_features(Rules.preset("brisca-2-blackhand"), Lineup.build(
        Rules.preset("brisca-2"), "random")) == F_BLACK_HAND
    greedy_fewest = Lineup.build(Rules.preset("brisca-2"), "greedy:objective=fewest")
    assert needed_features(Rules.preset("brisca-2"), greedy_fewest) == F_FEWEST
    # the order of play is recorded for the strategies that may read it
    for spec in ("ismcts", "hoard"):
        reader = Lineup.build(Rules.preset("brisca-2"), [spec, "random"])
        assert needed_features(Rules.preset("brisca-2"), reader) == F_PLAYS
    # nor a kernel of strategy kinds the lineup does not fit in
    from briscasim.strategies.dispatch import HAS
    with pytest.raises(ValueError, match="cannot play"):
        play_chunk(Rules.preset("brisca-2"), greedy_fewest, 1, 0, 1, shape=HAS["random"])


_CACHE_PROBE = """
from briscasim import batch, simulate
from briscasim.rules import Rules
from briscasim.strategies.dispatch import HAS
simulate(Rules.preset("brisca-2"), "random", deals=10, seed=1, workers=1)
print(sum(batch.kernel("deal", HAS["random"], 0).stats.cache_hits.values()))
"""


@pytest.mark.slow     # compiles a kernel in a fresh cache on purpose
def test_a_second_process_loads_the_kernel_from_the_cache(tmp_path):
    """A kernel is a closure over jitted functions, which numba's own cache key pickles with
    an id of the process: it would compile on every run. jit.ClosureCache keys it by what
    the closure holds, so the second process finds it."""
    import os
    env = dict(os.environ, BRISCASIM_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    runs = [subprocess.run([sys.executable, "-c", _CACHE_PROBE], capture_output=True,
                           text=True, check=True, env=env) for _ in range(2)]
    assert "compiling the engine" in runs[0].stderr
    assert runs[0].stdout.split() == ["0"]
    assert "compiling the engine" not in runs[1].stderr
    assert runs[1].stdout.split() == ["1"]


_LOCK_PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from numba import types
from briscasim import jit
import lock_probe
print("asking", flush=True)
jit.compiled(lock_probe.double, types.int64(types.int64))
stats = lock_probe.double.stats
print(sum(stats.cache_misses.values()), sum(stats.cache_hits.values()))
"""


def test_a_process_waits_for_another_compiling_the_same_kernel_then_loads_it(tmp_path):
    """Two processes that need the same kernel at once (the suite's workers) compile it
    once: the second waits on the first's lock, then loads the kernel from the cache."""
    import time
    from numba import types
    from briscasim import jit
    (tmp_path / "lock_probe.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef double(x):\n    return 2 * x\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import lock_probe
    finally:
        sys.path.remove(str(tmp_path))
    signature = types.int64(types.int64)
    with jit._compile_lock(lock_probe.double, signature):
        child = subprocess.Popen([sys.executable, "-c", _LOCK_PROBE, str(tmp_path)],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "asking"
        time.sleep(1.0)
        assert child.poll() is None         # waiting on the lock
        lock_probe.double.compile(signature)
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 0
    assert out.split() == ["0", "1"]        # no compile: a load from the cache
