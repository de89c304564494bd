"""Random streams: the SplitMix64 sequence of a key, whatever the stream's layout."""
import numpy as np
import pytest

from briscasim.engine import layout as L
from briscasim.engine.rng import STREAM_LEN, mix64, new_stream, next_u64, shuffle
from briscasim.rules import Rules
from briscasim.simulate import Lineup
from briscasim.strategies.dispatch import decide_entry

GOLDEN = 0x9E3779B97F4A7C15
M64 = (1 << 64) - 1


def splitmix64(key: int, k: int) -> int:
    """The k-th output (1-based) of SplitMix64 from ``key``, in plain Python."""
    z = (key + k * GOLDEN) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


@pytest.mark.parametrize("key", [0, 1, 12345, 2**63 + 7])
def test_a_stream_draws_the_splitmix64_sequence(key):
    rng = new_stream(key)
    assert [int(next_u64(rng)) for _ in range(5)] == [splitmix64(key, k) for k in range(1, 6)]
    assert int(mix64(np.uint64(key))) == splitmix64((key - GOLDEN) & M64, 1)


def test_a_shuffle_leaves_the_stream_after_its_draws():
    key = 99
    rng = new_stream(key)
    a = np.arange(10, dtype=np.int16)
    shuffle(rng, a, 10, np.zeros(10, np.int16))
    assert sorted(a) == list(range(10))
    # the shuffle drew 9 numbers: the stream goes on with the 10th
    assert int(next_u64(rng)) == splitmix64(key, 10)


def test_decide_entry_refuses_an_array_that_is_not_a_stream():
    rules = Rules.preset("brisca-2")
    state = np.zeros(L.STATE_LEN, np.int16)
    with pytest.raises(ValueError, match=f"stream of {STREAM_LEN} uint64"):
        decide_entry(Lineup.build(rules, "random").arrays(), rules.to_array(), state, 0, 0,
                     np.zeros(1, np.uint64))
