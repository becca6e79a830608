"""A load at *array base + byte offset*, for libdes's PTR option.

libdes's PTR variant indexes its flat SPtrans table by byte offset
(``*(DES_LONG *)((char *)des_SP + (u & 0xfc))``) to save the shift that
array indexing needs.  Numba has no pointer arithmetic, so this intrinsic
emits exactly that: a GEP over ``i8`` by the byte offset, then a 32-bit load.
There is no bounds check; callers mask offsets (``& 0xfc`` plus a multiple
of 0x100) so they stay inside the 2 KiB table.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def load_u32_at_byte(typingctx, table, byte_offset):
    """``*(uint32 *)((char *)table.data + byte_offset)`` for a uint32 array ``table``."""
    if not (isinstance(table, types.Array) and table.dtype == types.uint32):
        return None
    if not isinstance(byte_offset, types.Integer):
        return None
    sig = types.uint32(table, byte_offset)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        offset = context.cast(builder, args[1], signature.args[1], types.intp)
        base = builder.bitcast(array.data, ir.IntType(8).as_pointer())
        address = builder.gep(base, [offset], inbounds=True)
        word_ptr = builder.bitcast(address, ir.IntType(32).as_pointer())
        return builder.load(word_ptr, align=4)

    return sig, codegen
