"""Kernels compiled on first use.

A kernel with an explicit signature in ``@njit`` compiles when its module is imported. The
batch kernels and the search strategies instead compile (or load from the numba cache) only
when a run first needs them, so that a random-vs-random simulation never waits for ISMCTS to
compile, and a run of single deals never waits for the match kernel.
"""
import os
import sys
import threading
import time

from numba.core import types

_LOCK = threading.Lock()
_READY = set()      # ids of the kernels compiled here
_SLOTS = {}         # FunctionSlot of each kernel, by id
_SECONDS = [0.0]    # spent in compiled(): compiling, or loading from the numba cache
_NOTICE = "compiling the engine for this lineup, about 40 s, once (then it loads from the cache)"
_NOTICED = threading.Event()
NOTICE_AFTER = 3.0
"""Seconds a load from the numba cache may take before the compile notice shows anyway."""


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels or loading them from the cache:
    timings of play subtract it, so that a rate counts play alone."""
    return _SECONDS[0]


def _notice():
    if not _NOTICED.is_set():
        _NOTICED.set()
        print(_NOTICE, file=sys.stderr, flush=True)


def _cached(kernel) -> bool:
    """True if numba's cache holds an index for ``kernel`` (it may still be stale)."""
    try:
        return os.path.exists(kernel._cache._cache_file._index_path)
    except AttributeError:
        return False


def compiled(kernel, signature):
    """``kernel`` (an ``@njit`` dispatcher without signatures) compiled for ``signature``
    on its first use; it then accepts only that signature (arguments are converted to it, so
    a jitted function passed where the signature wants a function type is accepted)."""
    if id(kernel) not in _READY:
        with _LOCK:             # threads of one simulation may ask at the same time
            if id(kernel) not in _READY:
                start = time.perf_counter()
                if not _cached(kernel):
                    _notice()
                timer = threading.Timer(NOTICE_AFTER, _notice)
                timer.daemon = True
                timer.start()
                try:
                    kernel.compile(signature)
                finally:
                    timer.cancel()
                    _SECONDS[0] += time.perf_counter() - start
                kernel.disable_compile()
                _READY.add(id(kernel))
    return kernel


class FunctionSlot(types.WrapperAddressProtocol):
    """A jitted function compiled for ``signature``, for a kernel argument of a function type.

    numba accepts the dispatcher itself there, but then looks its compiled code up on every
    call of the kernel (about 25 µs for each such argument); this holds the address, looked up
    once. It calls through the C wrapper, which cannot pass an exception on: only for
    functions that raise none (briscasim's own; a user strategy goes as its dispatcher).
    """

    def __init__(self, kernel, signature):
        if signature not in kernel.nopython_signatures:     # a kernel jitted lazily
            compiled(kernel, signature)
        result = kernel.get_compile_result(signature)
        self._address = result.library.get_pointer_to_function(
            result.fndesc.llvm_cfunc_wrapper_name)
        self._signature = signature
        self.kernel = kernel        # keeps the compiled code alive

    def __wrapper_address__(self):
        return self._address

    def signature(self):
        return self._signature


def function_slot(kernel, signature) -> FunctionSlot:
    """The :class:`FunctionSlot` of ``kernel`` (compiled for ``signature`` on first use)."""
    slot = _SLOTS.get(id(kernel))
    if slot is None:
        slot = _SLOTS.setdefault(id(kernel), FunctionSlot(kernel, signature))
    return slot


def entry_point(kernel, signature):
    """The compiled code of ``kernel`` for ``signature`` as a plain Python callable, without
    the dispatcher's type checks (half the cost of a call): only for callers that always
    pass exactly these types."""
    return compiled(kernel, signature).overloads[signature.args].entry_point
