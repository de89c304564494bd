"""Kernels compiled on first use, the notice that a compile starts, and two fixes to numba's
inliner.

A kernel with an explicit signature in ``@njit`` compiles when its module is imported. The
batch kernels and the search strategies instead compile (or load from the numba cache) only
when a run first needs them, so that a random-vs-random simulation never waits for ISMCTS to
compile, and a run of single deals never waits for the match kernel. Whatever compiles, on
any path (a batch kernel, the step API, a position's analysis, a user strategy), says so on
stderr first (:data:`NOTICE`). Processes that need the same kernel at once (a test suite's
workers, a cluster's) compile it once: the others wait for it, then load it from the cache.

Importing this module (the engine's modules do, before anything of theirs compiles) also
mends two costs of numba's IR inliner: a quadratic copy (:func:`_fix_inliner`) and the
translation of an inlined function afresh at every call site (:func:`_share_inlined_ir`).
"""
import contextlib
import copy
import hashlib
import inspect
import os
import pickle
import sys
import textwrap
import threading
import time
import warnings

from numba.core import event, inline_closurecall, types
from numba.core.caching import FunctionCache
from numba.core.dispatcher import Dispatcher
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.serialize import dumps

# The lineups' function slots are numba's first-class function types, which it still calls
# experimental; they are tested here (tests/test_jit.py), and the warning told users nothing.
warnings.filterwarnings("ignore", "First-class function type", NumbaExperimentalFeatureWarning)


def _fix_inliner() -> bool:
    """Make numba's IR inliner copy a function's blocks in one deep copy; return True if
    done.

    Before inlining a function (``inline="always"``), numba copies its IR block by block,
    each with a deep copy of its own, so every block copies the function's whole variable
    scope anew: the cost grows with blocks times variables. The batch kernels inline the
    engine and the simple strategies, whose IR has hundreds of blocks and thousands of
    variables, and that copy took about half of a kernel's compile time (a greedy kernel
    85 -> 37 s of CPU time). One deep copy of all the blocks copies the scope once and
    gives the same IR (the kernels' records are unchanged, bit for bit). numba then copies
    the copy once more, to return an unchanged IR that both of its callers throw away: that
    second copy is skipped (the callee's IR is returned in its place). Where numba's code
    is not the one this was written for, nothing is changed.
    """
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "_briscasim_fixed", False):
        return True
    try:
        source = textwrap.dedent(inspect.getsource(worker.inline_ir))
    except (OSError, TypeError):
        return False
    per_block = ("        kernel_copy.blocks = {}\n"
                 "        for block_label, block in the_ir.blocks.items():\n"
                 "            new_block = copy.deepcopy(the_ir.blocks[block_label])\n"
                 "            kernel_copy.blocks[block_label] = new_block\n")
    spare_copy = "    callee_ir_original = copy_ir(callee_ir)\n"
    if source.count(per_block) != 1 or source.count(spare_copy) != 1:
        return False
    source = source.replace(per_block, "        kernel_copy.blocks = copy.deepcopy("
                            "the_ir.blocks)\n")
    source = source.replace(spare_copy, "    callee_ir_original = callee_ir\n")
    namespace = dict(vars(inline_closurecall), copy=copy)
    exec(compile(source, inline_closurecall.__file__, "exec"), namespace)
    fixed = namespace["inline_ir"]
    fixed._briscasim_fixed = True
    worker.inline_ir = fixed
    return True


INLINER_FIXED = _fix_inliner()
"""True if :func:`_fix_inliner` applies to the installed numba."""


def _share_inlined_ir() -> bool:
    """Make numba's IR inliner build the IR of each inlined function once per process; return
    True if done.

    To inline a function (``inline="always"``) numba runs the untyped passes of the compiler
    over it afresh at every call site, inlining its own callees again on the way, so a helper
    inlined at a hundred call sites is translated from bytecode a hundred times (with the
    nesting, 614 translations for the kernel of every lineup shape). The inliner deep-copies
    the IR it is given before it changes anything, so one IR per function (and per set of
    compiler flags) serves every call site; the kernels' machine code is the same.
    """
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_function, "_briscasim_shared", False):
        return True
    try:
        params = list(inspect.signature(worker.inline_function).parameters)
        run_params = list(inspect.signature(worker.run_untyped_passes).parameters)
        source = inspect.getsource(worker.inline_function)
    except (OSError, TypeError, ValueError):
        return False
    if (params != ["self", "caller_ir", "block", "i", "function", "arg_typs"]
            or run_params != ["self", "func", "enable_ssa"]
            or "callee_ir = self.run_untyped_passes(function)" not in source
            or "self.inline_ir(" not in source):
        return False
    irs = {}
    lock = threading.Lock()

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        self.flags.enable_ssa = False       # as run_untyped_passes leaves it
        key = (function, self.flags.get_mangle_string(), type(self.pipeline),
               self.typingctx, self.targetctx, tuple(sorted((self.locals or {}).items())))
        with lock:
            callee_ir = irs.get(key)
        if callee_ir is None:
            callee_ir = self.run_untyped_passes(function)
            with lock:
                callee_ir = irs.setdefault(key, callee_ir)
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                              arg_typs=arg_typs)

    inline_function._briscasim_shared = True
    inline_function.__doc__ = worker.inline_function.__doc__
    worker.inline_function = inline_function
    return True


INLINED_IR_SHARED = _share_inlined_ir()
"""True if :func:`_share_inlined_ir` applies to the installed numba."""

def _fingerprint(value) -> bytes:
    """What a closure variable is, in the same bytes in every process: a jitted function by
    its module, name, bytecode and own closure variables; a tuple item by item; anything
    else (numbers, flags) pickled."""
    if isinstance(value, Dispatcher):
        f = value.py_func
        return b"|".join((f.__module__.encode(), f.__qualname__.encode(), f.__code__.co_code,
                          _closure_fingerprint(f)))
    if isinstance(value, tuple):
        return b"(" + b",".join(_fingerprint(v) for v in value) + b")"
    return dumps(value)


def _closure_fingerprint(f) -> bytes:
    return b"" if f.__closure__ is None else _fingerprint(
        tuple(c.cell_contents for c in f.__closure__))


class ClosureCache(FunctionCache):
    """numba's cache for a kernel built by a factory (a closure over the lineup shape, the
    rule features and the jitted functions they select), keyed by :func:`_fingerprint` of
    its closure variables.

    numba keys a closure's cache entry by its pickled closure variables, and a jitted
    function pickles with an id drawn afresh in each process: a kernel holding one never
    found its entry again and compiled on every run. The variables here are the factory's
    arguments and functions of them, and the cache folder is keyed by the package's sources
    (:data:`briscasim.SOURCE_DIGEST`), so the fingerprint names the kernel fully."""

    def _index_key(self, sig, codegen):
        f = self._py_func
        digest = [hashlib.sha256(b).hexdigest() for b in (f.__code__.co_code,
                                                          _closure_fingerprint(f))]
        return sig, codegen.magic_tuple(), tuple(digest)


_LOCK = threading.Lock()
_READY = set()      # ids of the kernels compiled here
_SLOTS = {}         # FunctionSlot of each kernel, by id
_SECONDS = [0.0]    # spent in compiled(): compiling, or loading from the numba cache
NOTICE = ("compiling the engine for this run, once (later runs load it from the cache; "
          "`briscasim compile` compiles every built-in lineup's kernels ahead)")
NOTICE_AFTER = 3.0
"""Seconds a load from the numba cache may take before the compile notice shows anyway."""
NOTICE_GAP = 2.0
"""Seconds after a compile ends within which the next one is part of the same wait (no
second notice)."""


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels or loading them from the cache:
    timings of play subtract it, so that a rate counts play alone."""
    return _SECONDS[0]


class _CompileNotice(event.Listener):
    """Prints :data:`NOTICE` to stderr when numba starts to compile a function of any
    caller (numba's cache had none), before it compiles: once for compiles that follow each
    other within :data:`NOTICE_GAP` seconds, as the kernels of one command do. ``quiet``
    (:func:`quiet_notices`) stops it, for callers that show their own progress."""

    def __init__(self):
        self.depth = 0
        self.shown = False
        self.ended = -float("inf")
        self.quiet = 0

    def show(self):
        if not self.shown and not self.quiet:
            self.shown = True
            print(NOTICE, file=sys.stderr, flush=True)

    def on_start(self, ev):
        self.depth += 1
        if self.depth == 1:
            if time.monotonic() - self.ended > NOTICE_GAP:
                self.shown = False
            self.show()

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0:
            self.ended = time.monotonic()


_NOTICES = _CompileNotice()
event.register("numba:compile", _NOTICES)


class quiet_notices:
    """A context in which no compile notice shows (re-entrant)."""

    def __enter__(self):
        _NOTICES.quiet += 1

    def __exit__(self, *exc):
        _NOTICES.quiet -= 1


def closure_cached(kernel):
    """``kernel`` (an ``@njit(cache=True)`` dispatcher) with its cache keyed by
    :class:`ClosureCache` if it is a closure, so that another process finds its entry."""
    if kernel.py_func.__closure__ is not None and isinstance(kernel._cache, FunctionCache):
        kernel._cache = ClosureCache(kernel.py_func)
    return kernel


def ready(kernel, signature) -> bool:
    """True if ``kernel`` is compiled for ``signature`` here, or numba's cache holds it:
    :func:`compiled` would load it rather than compile it."""
    if id(kernel) in _READY:
        return True
    cache = closure_cached(kernel)._cache
    try:
        index = cache._cache_file._load_index()
        return _index_key(kernel, signature) in index
    except (AttributeError, EOFError, OSError, pickle.UnpicklingError):
        return False        # no cache, or one numba cannot read: compiled() would compile


def _index_key(kernel, signature):
    """The key of ``kernel``'s numba cache entry for ``signature`` (AttributeError where the
    kernel has no cache)."""
    return kernel._cache._index_key(signature, kernel.targetctx.codegen())


@contextlib.contextmanager
def _compile_lock(kernel, signature):
    """Hold a lock file beside ``kernel``'s numba cache entry for ``signature`` (a POSIX
    ``flock``), so that processes compiling the same kernel at once compile it once: the
    others wait, then load it from the cache. Where there is no cache or no ``flock``, or the
    lock file cannot be made, nothing is held."""
    try:
        import fcntl
        cache = kernel._cache
        key = repr(_index_key(kernel, signature))
        name = "%s.%s.lock" % (cache._cache_file._index_name,
                               hashlib.sha256(key.encode()).hexdigest()[:16])
        cache._impl.locator.ensure_cache_path()
        handle = open(os.path.join(cache._cache_path, name), "a")
    except (AttributeError, ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def compiled(kernel, signature):
    """``kernel`` (an ``@njit`` dispatcher without signatures) compiled for ``signature``
    on its first use; it then accepts only that signature (arguments are converted to it, so
    a jitted function passed where the signature wants a function type is accepted)."""
    if id(kernel) not in _READY:
        with _LOCK:             # threads of one simulation may ask at the same time
            if id(kernel) not in _READY:
                start = time.perf_counter()
                closure_cached(kernel)
                timer = threading.Timer(NOTICE_AFTER, _NOTICES.show)
                timer.daemon = True
                timer.start()
                try:
                    with _compile_lock(kernel, signature):
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
