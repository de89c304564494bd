"""Scratch memory and a clock for search strategies called from the no-NRT batch kernels.

The batch kernels are compiled without numba's reference-counting runtime, so a strategy
they call cannot create numpy arrays. Search strategies need a tree and state buffers sized
from their parameters: they take one block from C ``malloc`` per decision, view it as typed
arrays with :func:`view`, and give it back with :func:`release` before returning. All of this
stays cacheable (plain external symbols, no ctypes pointers).
"""
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


@intrinsic
def _malloc(typingctx, nbytes):
    sig = types.voidptr(types.intp)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(cgutils.voidptr_t, [cgutils.intp_t])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "malloc")
        return builder.call(fn, args)
    return sig, codegen


@intrinsic
def release(typingctx, ptr):
    """Free a block taken with :func:`take` (jitted intrinsic)."""
    sig = types.void(types.voidptr)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "free")
        builder.call(fn, args)
        return context.get_dummy_value()
    return sig, codegen


@intrinsic
def view(typingctx, ptr, offset, n, dtype):
    """A 1-d C-contiguous array of ``n`` items of ``dtype`` starting ``offset`` bytes into the
    block ``ptr`` (a pointer, or a memory address as an integer); no ownership (jitted
    intrinsic)."""
    arrty = types.Array(dtype.dtype, 1, "C")
    sig = arrty(ptr, offset, n, dtype)

    def codegen(context, builder, signature, args):
        ptr, offset, n, _ = args
        ary = context.make_array(arrty)(context, builder)
        itemsize = context.get_abi_sizeof(context.get_data_type(arrty.dtype))
        byte_ptr = ir.IntType(8).as_pointer()
        base = (builder.inttoptr(ptr, byte_ptr) if isinstance(signature.args[0], types.Integer)
                else builder.bitcast(ptr, byte_ptr))
        addr = builder.gep(base, [offset])
        populate_array(ary, data=builder.bitcast(addr, ary.data.type), shape=[n],
                       strides=[ir.Constant(n.type, itemsize)],
                       itemsize=ir.Constant(n.type, itemsize), meminfo=None)
        return ary._getvalue()
    return sig, codegen


@intrinsic
def stack(typingctx, n, dtype):
    """A 1-d array of ``n`` items of ``dtype`` on the stack, live until the calling function
    returns; no ownership (jitted intrinsic; call it outside loops, from a function that is
    not inlined)."""
    arrty = types.Array(dtype.dtype, 1, "C")
    sig = arrty(n, dtype)

    def codegen(context, builder, signature, args):
        n, _ = args
        ary = context.make_array(arrty)(context, builder)
        item = context.get_data_type(arrty.dtype)
        itemsize = context.get_abi_sizeof(item)
        populate_array(ary, data=builder.alloca(item, size=n), shape=[n],
                       strides=[ir.Constant(n.type, itemsize)],
                       itemsize=ir.Constant(n.type, itemsize), meminfo=None)
        return ary._getvalue()
    return sig, codegen


@intrinsic
def monotonic_ns(typingctx):
    """Nanoseconds of the monotonic clock (``clock_gettime``; jitted intrinsic)."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i32, i64 = ir.IntType(32), ir.IntType(64)
        ts = cgutils.alloca_once(builder, ir.ArrayType(i64, 2))
        fnty = ir.FunctionType(i32, [i32, cgutils.voidptr_t])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        builder.call(fn, [ir.Constant(i32, 1), builder.bitcast(ts, cgutils.voidptr_t)])
        zero = ir.Constant(i32, 0)
        sec = builder.load(builder.gep(ts, [zero, zero]))
        nsec = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1000000000)), nsec)
    return sig, codegen


@njit(cache=True, _nrt=False, inline="always")
def take(nbytes):
    """A block of ``nbytes`` bytes from ``malloc`` (jitted); give it back with
    :func:`release`."""
    return _malloc(nbytes)


@njit(cache=True, _nrt=False, inline="always")
def aligned(nbytes):
    """``nbytes`` rounded up to a multiple of 16, so the next array in a block is aligned
    (jitted)."""
    return (nbytes + 15) // 16 * 16
