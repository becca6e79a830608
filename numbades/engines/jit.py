"""How engine kernels inline their helpers: compiled once by Numba, inlined by LLVM.

``inline`` is the decorator of every helper a kernel inlines, and every such
helper starts with ``always_inline()``.  Numba compiles the helper once per
signature and LLVM inlines it into each caller, where the caller's constant
arguments (row offsets, S-box numbers, table slots) fold, giving the same
machine code as inlining the source.  Numba's own ``inline="always"`` would
too, but it copies and re-types the helper's IR at every call site: for the
bitslice round code (8 S-boxes x 2 round copies) and the table engines'
interleaved block functions that was most of a cold compile.

Pass helper arguments that must fold as plain integers (``np.int64(k)``),
not literals: Numba compiles a separate specialisation per literal value.
"""

import contextlib

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.imputils import impl_ret_borrowed
from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys
from numba.extending import intrinsic, overload


class KernelHelper(CPUDispatcher):
    """A Numba dispatcher compiled without a CPython or C wrapper: a helper kernels call.

    Numba lowers, optimises and compiles both wrappers of every signature of
    every function it compiles, though a helper is only ever called from
    kernels: for the bitslice ``ecb`` group that was about a sixth of its
    compile time.  Called from Python (a test, a debugging session), a
    helper runs as plain Python, as under ``NUMBA_DISABLE_JIT``: with no
    wrapper, Numba's own call would jump to nothing.
    """

    def __call__(self, *args, **kwargs):
        return self.py_func(*args, **kwargs)


def _helper(func):
    dispatcher = _helper_jit(func)
    if isinstance(dispatcher, CPUDispatcher):  # not a plain function (NUMBA_DISABLE_JIT)
        dispatcher.__class__ = KernelHelper
    return dispatcher


_helper_jit = numba.njit(nogil=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)

#: Decorator of the helpers kernels inline (each calls ``always_inline()`` first):
#: :class:`KernelHelper` dispatchers.
inline = _helper


def always_inline() -> None:
    """In plain Python, nothing; compiled into a function, marks it ``alwaysinline`` for LLVM."""


@intrinsic
def _mark_always_inline(typingctx):
    def codegen(context, builder, signature, args):
        builder.function.attributes.add("alwaysinline")
        return context.get_dummy_value()

    return types.none(), codegen


@overload(always_inline, inline="always")  # inlined by Numba, so the mark lands on the caller
def _always_inline_jit():
    def impl():
        _mark_always_inline()

    return impl


def loaded(dispatcher, signature: tuple) -> bool:
    """Whether ``dispatcher`` has ``signature`` compiled, loading it from Numba's disk cache if there.

    Never compiles.  What it does on a cache hit is what
    ``Dispatcher.compile`` does on one (load, register, add the overload),
    under Numba's compiler lock; Numba offers no public "load only" call.  If
    anything about that internal interface differs, the answer is True and
    the kernel compiles when it is called, as it always did.

    Unlike ``Dispatcher.compile`` it skips the refresh of Numba's typing and
    lowering registries (about 0.15 s of a process's first kernel call, on
    the critical path of a warm first call) but for what loaded machine code
    calls into, Numba's runtime (NRT); the first compile of the process
    still refreshes them all.
    """
    signature = tuple(signature)
    with global_compiler_lock:
        if signature in dispatcher.overloads:
            return True
        try:
            cache, context = dispatcher._cache, dispatcher.targetctx
            rtsys.initialize(context)  # the one part of the refresh loaded code needs: NRT
            load = getattr(cache, "_load_overload", cache.load_overload)  # no refresh
            compiled = load(signature, context)
            if compiled is None:
                return False
            if not compiled.objectmode:
                dispatcher.targetctx.insert_user_function(
                    compiled.entry_point, compiled.fndesc, [compiled.library])
            dispatcher.add_overload(compiled)
        except Exception:  # noqa: BLE001 - an unfamiliar Numba: compile on demand
            return True
        return True


@intrinsic
def arrays_do_not_overlap(typingctx):
    """Promise LLVM that the calling kernel's array arguments never share memory.

    Marks every pointer argument of the kernel's LLVM function ``noalias``
    (what Numba itself does for the kernels it generates for parallel
    loops).  A kernel that reads per-lane key planes at offsets taken from a
    table would otherwise be compiled with run-time overlap checks between
    those reads and its stores into the work array, and scalar fallbacks,
    about 1.7x slower.  Only for kernels whose callers pass distinct arrays.
    """

    def codegen(context, builder, signature, args):
        for argument in builder.function.args:
            if isinstance(argument.type, ir.PointerType):
                with contextlib.suppress(AttributeError, TypeError, ValueError):
                    argument.add_attribute("noalias")
        return context.get_dummy_value()

    return types.none(), codegen


@intrinsic
def as_read_only(typingctx, array):
    """The same array, typed read-only (no copy): one signature for helpers that only read.

    Numba types a read-only array apart from a writable one, so a helper
    reading a caller's input (read-only) in one place and a scratch array
    (writable) in another is typed and compiled twice; passing the scratch
    array through this makes both calls one signature.
    """
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, signature.return_type, args[0])

    return array.copy(readonly=True)(array), codegen


@intrinsic
def prefetch(typingctx, address, for_write):
    """Ask for the cache line at byte ``address``: a hint (it never faults, results never depend on it).

    ``for_write`` (a constant) fetches the line for writing, so a later
    store to it does not wait for the line's read-for-ownership.
    """
    if not (isinstance(address, types.Integer) and isinstance(for_write, types.BooleanLiteral)):
        return None
    rw = int(for_write.literal_value)

    def codegen(context, builder, signature, args):
        pointer = builder.inttoptr(args[0], ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # locality 3: keep in every cache level; cache type 1: data
        builder.call(fn, [pointer, ir.Constant(i32, rw), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(address, for_write), codegen
