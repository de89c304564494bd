"""The learned player's network, run in numba: a small MLP over the seat's observation.

The input is the seat's observation (:mod:`briscasim.envs.observation`, ``OBSERVATION_LEN``
int8 fields), read sparsely: the first layer adds up the weight rows of the non-zero fields
(times their value), as NNUE networks do, since a position has some fifty of them out of
five hundred. Two hidden layers of rectified units follow, then two heads on the second:
an action value for every action id (``N_ACTIONS``: cards, swap and keep, and Briscola
Chiamata's pass, bids and calls), of which only the legal ones are computed, and the value
of the position (the expected result for the seat).

The weights travel as one flat float32 array (:func:`layout` gives the offsets), which the
kernels reach by its address in the strategy's parameter row: nothing of a model is compiled
in, so any model file loads at run time and the numba cache stays valid.
"""
import numpy as np
from numba import njit

from ..engine.primitives import at
from ..engine.layout import N_ACTIONS, S_TURN
from ..observation import OBSERVATION_LEN, encode
from .scratch import stack, view


HIDDEN1 = 128
HIDDEN2 = 32
"""The widths of the two hidden layers: constants of the code, so that its loops unroll and
vectorise (a third of the time of widths read at run time); a model file of other widths is
refused."""


def layout() -> dict[str, tuple[int, int]]:
    """Offset and length of each weight block in the flat array: ``w1`` (a row of
    ``HIDDEN1`` per observation field), ``b1``, ``w2`` (a row of ``HIDDEN1`` per unit of
    the second layer), ``b2``, ``wq`` (a row of ``HIDDEN2`` per action id), ``bq``, ``wv``,
    ``bv``."""
    sizes = (("w1", OBSERVATION_LEN * HIDDEN1), ("b1", HIDDEN1), ("w2", HIDDEN2 * HIDDEN1),
             ("b2", HIDDEN2), ("wq", N_ACTIONS * HIDDEN2), ("bq", N_ACTIONS),
             ("wv", HIDDEN2), ("bv", 1))
    out, offset = {}, 0
    for name, size in sizes:
        out[name] = (offset, size)
        offset += size
    return out


WEIGHTS_LEN = sum(n for _, n in layout().values())
"""Length of the flat weight array."""
_B1, _W2, _B2, _WQ, _BQ, _WV, _BV = (layout()[k][0] for k in ("b1", "w2", "b2", "wq", "bq",
                                                                 "wv", "bv"))


@njit(cache=True, _nrt=False, fastmath=True)
def hidden(w, obs, a1, a2):
    """The second hidden layer's activations ``a2`` (``HIDDEN2`` float32) for the
    observation ``obs`` under the weights ``w`` (``a1``: scratch for ``HIDDEN1`` float32)
    (jitted)."""
    for j in range(HIDDEN1):
        a1[j] = w[_B1 + j]
    for i in range(OBSERVATION_LEN):
        v = obs[i]
        if v != 0:
            x = np.float32(v)
            row = i * HIDDEN1
            for j in range(HIDDEN1):
                a1[j] += x * w[row + j]
    for j in range(HIDDEN1):
        a1[j] = max(a1[j], np.float32(0.0))
    for k in range(HIDDEN2):
        row = _W2 + k * HIDDEN1
        acc = w[_B2 + k]
        for j in range(HIDDEN1):
            acc += w[row + j] * a1[j]
        a2[k] = max(acc, np.float32(0.0))


@njit(cache=True, _nrt=False, fastmath=True, inline="always")
def action_value(w, a2, action):
    """The network's value of ``action`` from the second layer's activations (jitted)."""
    row = _WQ + at(action) * HIDDEN2
    acc = w[_BQ + at(action)]
    for k in range(HIDDEN2):
        acc += w[row + k] * a2[k]
    return acc


@njit(cache=True, _nrt=False, fastmath=True, inline="always")
def best_action(w, a2, legal):
    """The action of ``legal`` of highest value (the first of equals) (jitted)."""
    best = legal[0]
    best_q = action_value(w, a2, best)
    for i in range(1, legal.shape[0]):
        q = action_value(w, a2, legal[i])
        if q > best_q:
            best, best_q = legal[i], q
    return best


@njit(cache=True, _nrt=False, fastmath=True, inline="always")
def position_value(w, a2):
    """The network's value of the position from the second layer's activations (jitted)."""
    acc = w[_BV]
    for k in range(HIDDEN2):
        acc += w[_WV + k] * a2[k]
    return acc


@njit(cache=True, _nrt=False)
def forward(w, obs, q, a1, a2):
    """Every action value into ``q`` (``N_ACTIONS`` float32) and the position value
    (returned) for one observation: what the training library's forward pass computes
    (jitted; for tests and tools)."""
    hidden(w, obs, a1, a2)
    for a in range(N_ACTIONS):
        q[a] = action_value(w, a2, a)
    return position_value(w, a2)


@njit(cache=True)
def forward_batch(w, obs, q, v):
    """:func:`forward` for every row of ``obs`` (jitted)."""
    a1 = np.zeros(HIDDEN1, np.float32)
    a2 = np.zeros(HIDDEN2, np.float32)
    for i in range(obs.shape[0]):
        v[i] = forward(w, obs[i], q[i], a1, a2)


@njit(cache=True, _nrt=False)
def position_chance(rules, world, address):
    """The chance that the seat to move in ``world`` (a whole deal state) wins the deal,
    from the value the network at ``address`` gives the position from that seat's view:
    ``clip((v + 1) / 2, 0, 1)``, ``v`` in the training's ``sign(margin) + margin / 120``
    units (jitted)."""
    w = view(address, 0, WEIGHTS_LEN, np.float32)
    obs = stack(OBSERVATION_LEN, np.int8)
    a1 = stack(HIDDEN1, np.float32)
    a2 = stack(HIDDEN2, np.float32)
    encode(rules, world, world[S_TURN], obs)
    hidden(w, obs, a1, a2)
    return min(max((np.float64(position_value(w, a2)) + 1.0) / 2.0, 0.0), 1.0)
