"""The one-key round code on explicit vectors: one instruction per LUT or gate.

The same rounds as ``lane_rounds.rounds_on`` under one key (the work array,
the wiring and the key rows are the same), written on ``simd.Vector`` values,
``LANES_PER_VECTOR`` lanes at a time, instead of as lane loops for LLVM to
vectorise.  The S-boxes are ``sboxes.dispatch.vector_circuits()``, by
``cpu.target``'s rule: with AVX-512, 512-bit vectors and the LUT programs
``sbox_luts_gen.ternary_s1`` .. ``ternary_s8`` (one ``ternary`` call, so one
``vpternlogq``, per LUT); elsewhere (AVX2), 256-bit vectors and the 2-input
circuits of ``sbox_circuits_gen`` on ``Vector`` operators (one ``vpand``,
``vpandn``, ``vpor`` or ``vpxor`` on a ymm register per gate).  The engine's
other round users (a key per lane, crypt(3)) keep the lane loops of
``lane_rounds``.
"""

import numpy as np

from ...jit import always_inline, inline
from ..cpu.simd import LANES_PER_VECTOR, load, splat, store, xor
from ..cpu.vector_width import prefer_wide_vectors
from ..layout.prefetch import WORDS_PER_SLOT, prefetch_slot, round_slots
from ..layout.transpose import LANES
from ..layout.wiring import E_ROW, P_ROW
from ..sboxes.dispatch import sbox_function, vector_circuits

_HALF = 32 * LANES  # offset of R (work rows 32..63) in the flat work array


#: S-box ``box`` of six vectors: one ``ternary`` per LUT with AVX-512, one ``Vector``
#: operator per gate elsewhere (``dispatch.vector_circuits``).
_sbox = sbox_function(vector_circuits())


@inline
def _box(w: np.ndarray, t: int, s: int, kr: np.ndarray, box: int, ahead: tuple,
         first: int) -> None:
    """S-box ``box`` of a round: L[P rows] ^= S(E(R) ^ key bits), one vector of lanes per step.

    ``t`` and ``s`` are the offsets of the target (L) and source (R) halves;
    constant after inlining, like ``box``, so every row offset folds.  The
    box also fetches its slot of the next pass (``prefetch``), from word
    ``first`` of the round's slots.
    """
    always_inline()
    prefer_wide_vectors()
    j = 6 * box
    k1, k2, k3 = splat(kr[j]), splat(kr[j + 1]), splat(kr[j + 2])
    k4, k5, k6 = splat(kr[j + 3]), splat(kr[j + 4]), splat(kr[j + 5])
    e1, e2, e3 = s + E_ROW[j] * LANES, s + E_ROW[j + 1] * LANES, s + E_ROW[j + 2] * LANES
    e4, e5, e6 = s + E_ROW[j + 3] * LANES, s + E_ROW[j + 4] * LANES, s + E_ROW[j + 5] * LANES
    q = 4 * box
    p1, p2 = t + P_ROW[q] * LANES, t + P_ROW[q + 1] * LANES
    p3, p4 = t + P_ROW[q + 2] * LANES, t + P_ROW[q + 3] * LANES
    # LANES, read from the array: a trip count LLVM cannot see keeps the loop
    # rolled (unrolled four times it spilled registers, ran no faster, and
    # was four times the code to compile).
    lanes = w.shape[0] // 64
    prefetch_slot(ahead, first + WORDS_PER_SLOT * box)
    for lane in range(0, lanes, LANES_PER_VECTOR):
        o = _sbox(box, (xor(load(w, e1 + lane), k1), xor(load(w, e2 + lane), k2),
                        xor(load(w, e3 + lane), k3), xor(load(w, e4 + lane), k4),
                        xor(load(w, e5 + lane), k5), xor(load(w, e6 + lane), k6)))
        store(w, p1 + lane, xor(load(w, p1 + lane), o[0]))
        store(w, p2 + lane, xor(load(w, p2 + lane), o[1]))
        store(w, p3 + lane, xor(load(w, p3 + lane), o[2]))
        store(w, p4 + lane, xor(load(w, p4 + lane), o[3]))


@inline
def _round(w: np.ndarray, t: int, s: int, kr: np.ndarray, ahead: tuple, first: int) -> None:
    """One Feistel round in place: L ^= P(S(E(R) ^ K)) (``np.int64``: one ``_box`` for all)."""
    always_inline()
    prefer_wide_vectors()
    _box(w, t, s, kr, np.int64(0), ahead, first)
    _box(w, t, s, kr, np.int64(1), ahead, first)
    _box(w, t, s, kr, np.int64(2), ahead, first)
    _box(w, t, s, kr, np.int64(3), ahead, first)
    _box(w, t, s, kr, np.int64(4), ahead, first)
    _box(w, t, s, kr, np.int64(5), ahead, first)
    _box(w, t, s, kr, np.int64(6), ahead, first)
    _box(w, t, s, kr, np.int64(7), ahead, first)


@inline
def _swap_halves(w: np.ndarray) -> None:
    """Exchange L and R in the work array (the swap between DES passes)."""
    always_inline()
    prefer_wide_vectors()
    for i in range(0, _HALF, LANES_PER_VECTOR):
        a = load(w, i)
        store(w, i, load(w, _HALF + i))
        store(w, _HALF + i, a)


@inline
def rounds_on(w: np.ndarray, kplanes: np.ndarray, ahead: tuple) -> None:
    """Run kplanes.shape[0] rounds (a multiple of 16) on the flat work array.

    As ``lane_rounds.rounds_on`` under one key: rounds in pairs with constant
    half offsets, the halves swapped after every 16; meanwhile the caller's
    next pass, ``ahead`` (``prefetch``), is fetched into the caches.
    """
    always_inline()
    prefer_wide_vectors()
    for r in range(0, kplanes.shape[0], 2):
        _round(w, np.int64(0), np.int64(_HALF), kplanes[r], ahead, round_slots(r))
        _round(w, np.int64(_HALF), np.int64(0), kplanes[r + 1], ahead,
               round_slots(r + 1))
        if r % 16 == 14:
            _swap_halves(w)
