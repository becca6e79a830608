"""Explicit vectors for the bitslice kernels: one ``vpternlogq`` per LUT, fused transposes.

LLVM vectorises plain lane loops on its own (the round code once was), but it
rebuilds the 3-input-LUT programs from ``& | ^ ~`` expressions: after its
own reassociation and ternary-logic matching, a two-round body of 430 LUTs
compiled to 484 ``vpternlogq`` plus 302 other logic instructions.  Here a
LUT is a call of ``ternary(a, b, c, tt)``, which compiles to exactly one
``llvm.x86.avx512.pternlog.q.512`` (``vpternlogq``) with ``tt`` as its
immediate, so the instruction count is the circuit's LUT count.

``Vector`` is ``LANES_PER_VECTOR`` uint64 lanes as one LLVM vector value,
``target.VECTOR_BITS`` wide: eight (a zmm register) where the target has
AVX-512, four (a ymm register on AVX2) elsewhere, where the round code runs
the 2-input circuits on it, one instruction per gate.  The functions below
are all the kernels need of it: ``load`` and ``store`` of consecutive words
of a 1-D uint64 array, ``vectors`` (an array indexed a vector at a time),
``splat`` of a word, ``and_``, ``xor``, Python's ``& | ^ ~`` operators (so
the generated circuits run unchanged on vectors), constant shifts,
two-source byte shuffles and ``ternary``.  They exist only compiled
(``ternary`` also runs in plain Python on integers, so generated programs can be checked
without a CPU that has the instruction).  Without AVX-512, ``ternary``
lowers to 2-input operations, which LLVM simplifies.
"""

import operator

from llvmlite import ir
from numba.core import cgutils, types
from numba.core.datamodel import models, register_default
from numba.extending import intrinsic, lower_builtin, type_callable

from .target import AVX512, VECTOR_BITS

LANES_PER_VECTOR = VECTOR_BITS // 64
"""uint64 lanes in one explicit vector: 8 (512 bits) with AVX-512, 4 (256 bits) otherwise."""

_VECTOR = ir.VectorType(ir.IntType(64), LANES_PER_VECTOR)


class _Value(types.Type):
    """A Numba type held as one LLVM value of the class's ``llvm_type``."""

    llvm_type: ir.Type
    suffix: str

    def __init__(self) -> None:
        super().__init__(name=f"u64x{LANES_PER_VECTOR}{self.suffix}")


class Vector(_Value):
    """Numba type of ``LANES_PER_VECTOR`` uint64 lanes held as one vector value."""

    llvm_type, suffix = _VECTOR, ""


class VectorView(_Value):
    """Numba type of a uint64 array read a vector at a time (``vectors``): its data pointer."""

    llvm_type, suffix = ir.IntType(64).as_pointer(), "view"


vector = Vector()
vector_view = VectorView()


@register_default(Vector)
@register_default(VectorView)
class _ValueModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type) -> None:
        super().__init__(dmm, fe_type, fe_type.llvm_type)


def _words_array(arr: types.Type) -> bool:
    return (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"
            and arr.dtype == types.uint64)


def _element_pointer(context, builder, arr_type, arr, index):
    array = context.make_array(arr_type)(context, builder, arr)
    word = builder.gep(array.data, [index])
    return builder.bitcast(word, _VECTOR.as_pointer())


@intrinsic
def load(typingctx, arr, index):
    """Words ``arr[index : index + LANES_PER_VECTOR]`` as one vector (no bounds check)."""
    if not (_words_array(arr) and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, arr, args[0], args[1])
        return builder.load(pointer, align=8)

    return vector(arr, index), codegen


@intrinsic
def store(typingctx, arr, index, value):
    """Write ``value`` to ``arr[index : index + LANES_PER_VECTOR]`` (no bounds check)."""
    if not (_words_array(arr) and isinstance(index, types.Integer) and value == vector):
        return None

    def codegen(context, builder, signature, args):
        pointer = _element_pointer(context, builder, arr, args[0], args[1])
        builder.store(args[2], pointer, align=8)
        return context.get_dummy_value()

    return types.none(arr, index, value), codegen


@intrinsic
def vectors(typingctx, arr):
    """A C-contiguous uint64 array (any number of dimensions) read as vectors.

    ``vectors(arr)[i]`` is ``load`` of its flat words ``i .. i +
    LANES_PER_VECTOR - 1`` (no bounds check), so code written with plain
    indexing and ``& | ^ ~`` (the round code's input functions) runs on
    vectors.  The view is the array's data pointer: it lives only as long as
    the array does, inside one kernel.
    """
    if not (isinstance(arr, types.Array) and arr.layout == "C" and arr.dtype == types.uint64):
        return None

    def codegen(context, builder, signature, args):
        return context.make_array(arr)(context, builder, args[0]).data

    return vector_view(arr), codegen


@type_callable(operator.getitem)
def _type_view_getitem(context):
    def typer(view, index):
        return vector if view == vector_view and isinstance(index, types.Integer) else None

    return typer


@lower_builtin(operator.getitem, VectorView, types.Integer)
def _lower_view_getitem(context, builder, signature, args):
    pointer = builder.bitcast(builder.gep(args[0], [args[1]]), _VECTOR.as_pointer())
    return builder.load(pointer, align=8)


@intrinsic
def splat(typingctx, word):
    """``word`` in every lane (a key-bit mask, broadcast once per S-box)."""
    if not isinstance(word, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], word, types.uint64)
        lanes = cgutils.get_null_value(_VECTOR)
        lanes = builder.insert_element(lanes, value, ir.Constant(ir.IntType(32), 0))
        mask = ir.Constant(ir.VectorType(ir.IntType(32), LANES_PER_VECTOR), [0] * LANES_PER_VECTOR)
        return builder.shuffle_vector(lanes, lanes, mask)

    return vector(word), codegen


def _literal_int(value: types.Type, allowed: tuple[int, ...]) -> bool:
    return isinstance(value, types.IntegerLiteral) and value.literal_value in allowed


@intrinsic
def shift_left(typingctx, a, bits):
    """Each lane shifted left by the constant ``bits`` (0..63), zeros in."""
    if not (a == vector and _literal_int(bits, tuple(range(64)))):
        return None
    count = ir.Constant(_VECTOR, [bits.literal_value] * LANES_PER_VECTOR)

    def codegen(context, builder, signature, args):
        return builder.shl(args[0], count)

    return vector(a, bits), codegen


@intrinsic
def shift_right(typingctx, a, bits):
    """Each lane shifted right (logically) by the constant ``bits`` (0..63)."""
    if not (a == vector and _literal_int(bits, tuple(range(64)))):
        return None
    count = ir.Constant(_VECTOR, [bits.literal_value] * LANES_PER_VECTOR)

    def codegen(context, builder, signature, args):
        return builder.lshr(args[0], count)

    return vector(a, bits), codegen


def _pack(high: bool):
    """The ``pack_low`` / ``pack_high`` intrinsic: a two-source shuffle at a constant width."""

    def typer(typingctx, a, b, width):
        if not (a == vector and b == vector and _literal_int(width, (8, 16, 32))):
            return None
        bits = width.literal_value
        count = VECTOR_BITS // bits
        part = ir.VectorType(ir.IntType(bits), count)
        # element i of the result: even i from a, odd i from b (the one just below it)
        mask = [i + high if i % 2 == 0 else count + i - 1 + high for i in range(count)]
        mask_constant = ir.Constant(ir.VectorType(ir.IntType(32), count), mask)

        def codegen(context, builder, signature, args):
            x = builder.bitcast(args[0], part)
            y = builder.bitcast(args[1], part)
            return builder.bitcast(builder.shuffle_vector(x, y, mask_constant), _VECTOR)

        return vector(a, b, width), codegen

    return typer


pack_low = intrinsic(_pack(False))
pack_low.__doc__ = """Pairs of ``width``-bit halves: each 2*width-bit field is (a's low half, b's low half above it).

With ``pack_high`` this is a transpose stage at a byte width: the two
outputs of a delta swap at distance ``width`` (8, 16 or 32), as one
two-source shuffle each.
"""
pack_high = intrinsic(_pack(True))
pack_high.__doc__ = """Each 2*width-bit field is (a's high half, b's high half above it): see ``pack_low``."""


# Python's bitwise operators on ``Vector`` values, so the generated 2-input
# circuits (``sbox_circuits_gen.s1`` ..) run unchanged on vectors: each operator
# is one LLVM instruction (``~y`` an ``xor`` with all-ones, which x86 folds
# into ``x & ~y`` as one ``vpandn``).  Typed and lowered as builtins, like
# ``ternary``: nothing is compiled per call site.
_BINARY = {operator.and_: "and_", operator.or_: "or_", operator.xor: "xor"}


def _type_binary(context):
    def typer(a, b):
        return vector if a == vector and b == vector else None

    return typer


def _lower_binary(method: str):
    def lower(context, builder, signature, args):
        return getattr(builder, method)(args[0], args[1])

    return lower


for _operation, _method in _BINARY.items():
    type_callable(_operation)(_type_binary)
    lower_builtin(_operation, Vector, Vector)(_lower_binary(_method))


@type_callable(operator.invert)
def _type_invert(context):
    def typer(a):
        return vector if a == vector else None

    return typer


@lower_builtin(operator.invert, Vector)
def _lower_invert(context, builder, signature, args):
    return builder.not_(args[0])


@intrinsic
def and_(typingctx, a, b):
    """Lane-wise ``a & b``."""
    if not (a == vector and b == vector):
        return None

    def codegen(context, builder, signature, args):
        return builder.and_(args[0], args[1])

    return vector(a, b), codegen


@intrinsic
def xor(typingctx, a, b):
    """Lane-wise ``a ^ b``."""
    if not (a == vector and b == vector):
        return None

    def codegen(context, builder, signature, args):
        return builder.xor(args[0], args[1])

    return vector(a, b), codegen


def ternary(a, b, c, tt):
    """The 3-input function with truth table ``tt`` of ``a``, ``b``, ``c``, bitwise.

    Bit ``(A << 2) | (B << 1) | C`` of ``tt`` is the output for input bits
    A, B, C: the order of ``vpternlogq``'s immediate.  In plain Python this
    works on integers (``tt`` as a sum of minterms); compiled on ``Vector``
    values it is one instruction, ``tt`` a compile-time constant.
    """
    mask = (1 << 64) - 1
    out = 0
    for row in range(8):
        if tt >> row & 1:
            out |= ((a if row & 4 else ~a) & (b if row & 2 else ~b)
                    & (c if row & 1 else ~c))
    return out & mask if isinstance(out, int) else out


# Typed and lowered as a builtin, not through ``@overload``: an overload with a
# literal argument compiles one implementation per truth table and copies its
# IR into every call site, which made the round kernel's cold compile 1.7x
# slower; a typing template and a lowering are as cheap as ``^``.
@type_callable(ternary)
def _type_ternary(context):
    def typer(a, b, c, tt):
        vectors = a == vector and b == vector and c == vector
        if vectors and isinstance(tt, types.IntegerLiteral) and 0 <= tt.literal_value <= 0xFF:
            return vector
        return None

    return typer


@lower_builtin(ternary, Vector, Vector, Vector, types.IntegerLiteral)
def _lower_ternary(context, builder, signature, args):
    if not AVX512:
        return _ternary_from_gates(builder, *args[:3], signature.args[3].literal_value)
    i32 = ir.IntType(32)
    fnty = ir.FunctionType(_VECTOR, [_VECTOR, _VECTOR, _VECTOR, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.avx512.pternlog.q.512")
    immediate = ir.Constant(i32, signature.args[3].literal_value)
    return builder.call(fn, [args[0], args[1], args[2], immediate])


def _ternary_from_gates(builder, a, b, c, tt: int):
    """``ternary`` without ``vpternlogq``: the OR of the table's minterms, which LLVM reduces."""
    out = cgutils.get_null_value(_VECTOR)
    for row in range(8):
        if tt >> row & 1:
            term = builder.and_(a if row & 4 else builder.not_(a), b if row & 2 else builder.not_(b))
            out = builder.or_(out, builder.and_(term, c if row & 1 else builder.not_(c)))
    return out
