"""Let LLVM use 512-bit vectors in the bitslice kernels on AVX-512 hosts.

On most AVX-512 CPUs LLVM *prefers* 256-bit vectors (its ``prefer-256-bit``
tuning, chosen because heavy 512-bit code can lower the clock on early
AVX-512 parts), so the lane loops of the bitslice kernels compile to ymm
registers even where zmm registers exist.  For these kernels — long runs of
independent bitwise operations on 32 lanes — the wider build is faster
(ECB 1.2-1.3x on a Rocket Lake VM, with the cache-line-aligned scratch of
``transpose.new_planes``): ``python benchmarks/bitslice_report.py``
times a 512-bit build against a 256-bit build on the machine it runs on.  Numba sets target features per process,
not per function, so the preference is set where LLVM also reads it: as the
``prefer-vector-width`` attribute of each kernel's own LLVM function.

``prefer_wide_vectors()`` is a no-op call that does exactly that when
compiled into a kernel.  Every bitslice helper calls it too, next to
``always_inline()``: Numba optimises each helper in its own module, loop
vectoriser included, before LLVM inlines it into a kernel, and a lane loop
vectorised at 256 bits there stays 256 bits in the kernel (the round code ran
on ymm registers on AVX-512 hosts while only the entry points asked;
``tests/test_vector_width.py`` now compiles the round and pass kernels for an
AVX-512 CPU on any x86-64 host and checks for zmm code).  Hosts without AVX-512 are unaffected (LLVM caps the
width at the widest register it has), and so is every other function in the
process.  The attribute is written through llvmlite's function attribute
set, which validates names against a fixed list; LLVM string attributes are
not on it, so the set's base ``add`` is used, and if a future llvmlite makes
that impossible the kernels simply compile at the default width.
"""

import contextlib

from numba.core import types
from numba.extending import intrinsic, overload

#: Vector width LLVM is asked to prefer in the bitslice kernels, in bits
#: (``benchmarks/bitslice_report.py`` sets 256 in a worker process, before
#: anything compiles, to time the default width against this).
PREFERRED_BITS = 512


def prefer_wide_vectors() -> None:
    """In plain Python, nothing; compiled into a function, marks it ``prefer-vector-width``.

    A plain function with a jitted overload (as ``jit.always_inline``), so the
    helpers that call it still run as Python (tests call their ``py_func``).
    """


@intrinsic
def _mark_prefer_wide_vectors(typingctx):
    """Mark the calling function's LLVM function with ``prefer-vector-width``."""

    def codegen(context, builder, signature, args):
        attribute = f'"prefer-vector-width"="{PREFERRED_BITS}"'
        # an llvmlite without this escape hatch: compile at the default width
        with contextlib.suppress(AttributeError, TypeError):
            set.add(builder.function.attributes, attribute)
        return context.get_dummy_value()

    return types.none(), codegen


@overload(prefer_wide_vectors, inline="always")  # inlined by Numba: the mark lands on the caller
def _prefer_wide_vectors_jit():
    def impl():
        _mark_prefer_wide_vectors()

    return impl
