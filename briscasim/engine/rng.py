"""Counter-based random streams for the kernels.

Every deal draws its cards from a stream keyed by ``(master seed, deal index, 0)`` and each
strategy from ``(master seed, deal index, 1 + stream)``; results therefore never depend on
threads, processes or chunking. A stream is a SplitMix64 generator held in a
``STREAM_LEN``-element ``uint64`` array (:func:`new_stream`): its counter, and its next
output, mixed one draw ahead so that a draw hands out a value ready in memory while the
mixing of the next one runs beside the work that uses it (the deal's critical path goes
through the draw, not through the mixing).
"""
import numpy as np
from numba import njit

from .. import jit as _jit  # noqa: F401  (mends numba's inliner before anything compiles)

STREAM_LEN = 2
"""``uint64`` entries of a stream: the counter, then the next output."""

STREAMS_PER_DEAL = 64
"""Stream numbers per deal of an item: deal ``j`` draws its cards from stream
``STREAMS_PER_DEAL * j`` and its seats from the streams after it."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0


@njit(cache=True, _nrt=False, inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective hash of a ``uint64`` (jitted)."""
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True, _nrt=False, inline="always")
def item_key(seed, deal):
    """Key shared by every stream of deal (or match) ``deal`` under master ``seed`` (jitted)."""
    return mix64(mix64(np.uint64(seed) + _GOLDEN) + np.uint64(deal) * _GOLDEN)


@njit(cache=True, _nrt=False, inline="always")
def stream_key(seed, deal, stream):
    """Key of the random stream ``stream`` of deal ``deal`` under master ``seed`` (jitted)."""
    return substream_key(item_key(seed, deal), stream)


@njit(cache=True, _nrt=False, inline="always")
def seat_stream(deal_no, shift, seat):
    """The stream number ``seat`` decides with in deal ``deal_no`` of an item, the lineup
    shifted by ``shift`` seats (the rotation; six numbers per shift, one per possible seat)
    (jitted)."""
    return STREAMS_PER_DEAL * deal_no + 1 + 6 * shift + seat


@njit(cache=True, _nrt=False, inline="always")
def substream_key(key, stream):
    """Key of the stream ``stream`` of the deal whose :func:`item_key` is ``key`` (jitted)."""
    return mix64(key + np.uint64(stream) * _GOLDEN + _GOLDEN)


def new_stream(key: int = 0) -> np.ndarray:
    """A stream (a ``STREAM_LEN``-element ``uint64`` array) pointed at the sequence of
    ``key``; :func:`seed_stream` and :func:`start_stream` point it elsewhere."""
    rng = np.zeros(STREAM_LEN, np.uint64)
    start_stream(rng, np.uint64(key))
    return rng


@njit(cache=True, _nrt=False, inline="always")
def start_stream(rng, key):
    """Point the stream ``rng`` at the sequence of ``key`` (jitted)."""
    rng[0] = key
    rng[1] = mix64(key + _GOLDEN)


@njit(cache=True, _nrt=False, inline="always")
def seed_stream(rng, seed, deal, stream):
    """Point the stream ``rng`` at stream ``stream`` of deal ``deal`` (jitted)."""
    start_stream(rng, stream_key(seed, deal, stream))


@njit(cache=True, _nrt=False, inline="always")
def next_u64(rng):
    """Next 64 random bits of the stream ``rng`` (jitted): ``mix64`` of the counter after
    one more step, which was worked out at the previous draw."""
    out = rng[1]
    z = rng[0] + _GOLDEN
    rng[0] = z
    rng[1] = mix64(z + _GOLDEN)
    return out


@njit(cache=True, _nrt=False, inline="always")
def _scale(bits, n):
    """The integer in ``[0, n)`` that 64 random ``bits`` stand for (their top 32 bits)."""
    return np.int64(((bits >> _U32) * np.uint64(n)) >> _U32)


@njit(cache=True, _nrt=False, inline="always")
def below(rng, n):
    """A uniform integer in ``[0, n)`` for ``0 < n < 2**32`` (jitted)."""
    return _scale(next_u64(rng), n)


@njit(cache=True, _nrt=False, inline="always")
def uniform(rng):
    """A uniform float in ``[0, 1)`` (jitted)."""
    return np.float64(next_u64(rng) >> _U11) * _INV53


@njit(cache=True, _nrt=False, inline="always")
def shuffle(rng, a, n, partners):
    """Fisher-Yates shuffle of the first ``n`` entries of ``a`` in place (jitted).

    Entry ``i`` (from ``n - 1`` down to 1) swaps with entry ``below(rng, i + 1)``. The draws
    are worked out first into ``partners`` (scratch of at least ``n`` entries): they depend
    only on the stream, so that loop runs in vector registers, and the swaps follow.
    """
    z = rng[0]
    for t in range(n - 1):
        partners[t] = _scale(mix64(z + np.uint64(t + 1) * _GOLDEN), n - t)
    for t in range(n - 1):
        i = np.uint64(n - 1 - t)        # unsigned indexes: no wrap-around check
        j = np.uint64(partners[t])
        x = a[i]
        a[i] = a[j]
        a[j] = x
    if n > 1:
        start_stream(rng, z + np.uint64(n - 1) * _GOLDEN)
