"""Kernels compiled on first use.

A kernel with an explicit signature in ``@njit`` compiles when its module is imported. The
batch kernels and the search strategies instead compile (or load from the numba cache) only
when a run first needs them, so that a random-vs-random simulation never waits for ISMCTS to
compile, and a run of single deals never waits for the match kernel.
"""
import threading

_LOCK = threading.Lock()
_READY = set()      # ids of the kernels compiled here


def compiled(kernel, signature):
    """``kernel`` (an ``@njit`` dispatcher without signatures) compiled for ``signature``
    on its first use; it then accepts only that signature (arguments are converted to it, so
    a jitted function passed where the signature wants a function type is accepted)."""
    if id(kernel) not in _READY:
        with _LOCK:             # threads of one simulation may ask at the same time
            if id(kernel) not in _READY:
                kernel.compile(signature)
                kernel.disable_compile()
                _READY.add(id(kernel))
    return kernel
