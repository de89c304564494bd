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
print(batch.compiled_kernels(), len(dispatch.search_decide.signatures))
play_chunk(rules, Lineup.build(rules, ["ismcts:iterations=20", "greedy"]), 1, 0, 2)
play_chunk(rules, Lineup.build(rules, ["pimc:worlds=2", "omniscient"]), 1, 0, 2)
print(batch.compiled_kernels(), len(dispatch.search_decide.signatures))
print(dispatch.EVERY_SHAPE)
"""


@pytest.mark.slow     # compiles kernels in a fresh process on purpose
def test_kernels_compile_on_first_use_only():
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    # random deals: the deal kernel for random lineups alone
    assert out[0] == "[('deal', 1)] 0"
    # lineups of other shapes share the kernel of every shape, with one search slot for
    # every search strategy
    assert out[1] == f"[('deal', 1), ('deal', {out[2]})] 1"


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
