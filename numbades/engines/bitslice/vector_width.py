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
compiled into a kernel.  Hosts without AVX-512 are unaffected (LLVM caps the
width at the widest register it has), and so is every other function in the
process.  The attribute is written through llvmlite's function attribute
set, which validates names against a fixed list; LLVM string attributes are
not on it, so the set's base ``add`` is used, and if a future llvmlite makes
that impossible the kernels simply compile at the default width.
"""

import contextlib

from numba.core import types
from numba.extending import intrinsic

#: Vector width LLVM is asked to prefer in the bitslice kernels, in bits
#: (``benchmarks/bitslice_report.py`` sets 256 in a worker process, before
#: anything compiles, to time the default width against this).
PREFERRED_BITS = 512


@intrinsic
def prefer_wide_vectors(typingctx):
    """Mark the calling kernel's LLVM function with ``prefer-vector-width``."""

    def codegen(context, builder, signature, args):
        attribute = f'"prefer-vector-width"="{PREFERRED_BITS}"'
        # an llvmlite without this escape hatch: compile at the default width
        with contextlib.suppress(AttributeError, TypeError):
            set.add(builder.function.attributes, attribute)
        return context.get_dummy_value()

    return types.none(), codegen
