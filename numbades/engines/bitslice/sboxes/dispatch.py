"""Which generated S-boxes run, and one inlined ``sbox(box, x)`` over them, for the round code.

``circuits`` applies ``cpu.target``'s rule to pick the set, ``vector_circuits``
the form of it the explicit vectors of ``simd_rounds`` run (512-bit with
AVX-512, 256-bit elsewhere).  Under one key the round code runs
``one_key_circuits`` instead: on AVX2 the same gates with their NOTs folded
into the inputs (``sbox_folded_gen``), whose inputs ``input_complement``
says to complement through the key masks.  The round code calls its S-boxes through a
function made here: ``box`` is a constant after LLVM inlines the round, so
one branch survives constant folding, and one ``_box`` compiles for all
eight S-boxes.
"""

from collections.abc import Callable, Sequence
from types import ModuleType

import numba
import numpy as np

from ...jit import always_inline, inline
from ..cpu.target import AVX512
from ..cpu.vector_width import prefer_wide_vectors
from . import sbox_circuits_gen, sbox_folded_gen, sbox_luts_gen


def circuits(avx512: bool = AVX512) -> ModuleType:
    """The generated S-boxes (``s1`` .. ``s8``) for a target with or without AVX-512.

    ``cpu.target``'s rule: the 3-input-LUT programs where ``vpternlogq``
    exists, the 2-input gates elsewhere; by default for this process's target.
    """
    return sbox_luts_gen if avx512 else sbox_circuits_gen


def vector_circuits(avx512: bool = AVX512) -> list[Callable]:
    """S-boxes 1..8 as ``simd_rounds`` runs them on ``simd.Vector`` values, for the same rule.

    With AVX-512 the LUT programs as one ``ternary`` call per LUT (one
    ``vpternlogq`` each: LLVM's own matching of the expressions costs more
    instructions); elsewhere the 2-input circuits themselves, whose ``& | ^ ~``
    are ``Vector`` operators (one ``vpand``/``vpandn``/``vpor``/``vpxor`` each).
    """
    if avx512:
        return [getattr(sbox_luts_gen, f"ternary_s{box + 1}") for box in range(8)]
    return [getattr(circuits(False), f"s{box + 1}") for box in range(8)]


def one_key_circuits(avx512: bool = AVX512) -> list[Callable]:
    """S-boxes 1..8 as the one-key round code runs them: ``vector_circuits``, NOTs folded on AVX2.

    A NOT costs two AVX2 instructions (``vpcmpeqd`` for the all-ones
    constant, ``vpxor``); under one key it is free, folded into the key mask
    each input is XORed with anyway (``input_complement``).  The LUT
    programs of AVX-512 have no NOTs to fold.
    """
    if avx512:
        return vector_circuits(True)
    return [getattr(sbox_folded_gen, f"s{box + 1}") for box in range(8)]


def input_complement(avx512: bool = AVX512) -> np.ndarray:
    """(48,) uint64: all-ones where ``one_key_circuits`` take S-box input j complemented, else 0.

    Input ``6 b + j`` is input ``j + 1`` of S-box ``b + 1`` (the round key's
    bit order); XORed into a one-key mask it makes the round code's key XOR
    deliver the complemented input.  All zero with AVX-512.
    """
    masks = (0,) * 8 if avx512 else sbox_folded_gen.INPUT_COMPLEMENT
    bits = [(masks[i // 6] >> (i % 6)) & 1 for i in range(48)]
    return np.array([2**64 - 1 if bit else 0 for bit in bits], dtype=np.uint64)


def on_tuple(fn: Callable) -> Callable:
    """A njit wrapper of a circuit taking the six inputs as one tuple, inlined by LLVM.

    ``fn`` is a generated circuit (plain or already jitted); one signature
    lets a single ``_box`` serve all eight S-boxes.  The circuit is inlined
    into its wrapper by Numba (once per S-box), the wrapper into ``_box`` by
    LLVM.
    """
    circuit = numba.njit(inline="always", nogil=True)(getattr(fn, "py_func", fn))

    def on_six(x: tuple) -> tuple:
        always_inline()
        prefer_wide_vectors()
        return circuit(x[0], x[1], x[2], x[3], x[4], x[5])

    return inline(on_six)


def sbox_function(circuits: Sequence[Callable]) -> Callable:
    """``sbox(box, x)``: S-box ``box`` (0..7) of the six words of tuple ``x``, via ``circuits[box]``."""
    s1, s2, s3, s4, s5, s6, s7, s8 = (on_tuple(fn) for fn in circuits)

    def sbox(box: int, x: tuple) -> tuple:
        always_inline()
        prefer_wide_vectors()
        if box == 0:
            return s1(x)
        if box == 1:
            return s2(x)
        if box == 2:
            return s3(x)
        if box == 3:
            return s4(x)
        if box == 4:
            return s5(x)
        if box == 5:
            return s6(x)
        if box == 6:
            return s7(x)
        return s8(x)

    sbox.circuits = tuple(circuits)  # what it runs, for tests and reports
    return inline(sbox)
