"""The one-key round code on explicit 512-bit vectors: each S-box LUT one ``vpternlogq``.

The same rounds as ``lane_rounds.rounds_on`` with ``fixed_key_bit`` (the work
array, the wiring and the key rows are the same), written on ``simd.Zmm``
values eight lanes at a time instead of as lane loops for LLVM to
vectorise, and with the S-boxes as ``sbox_luts_gen.ternary_s1`` ..
``ternary_s8``: one ``ternary`` call, so one instruction, per LUT.  Compiled
only for AVX-512 targets (``cpu.target``'s rule); the engine's
other round users (a key per lane, crypt(3)) keep the lane loops.
"""

import numpy as np

from ...jit import always_inline, inline
from ..cpu.simd import LANES_PER_VECTOR, load, splat, store, xor
from ..cpu.vector_width import prefer_wide_vectors
from ..layout.prefetch import WORDS_PER_SLOT, prefetch_slot, round_slots
from ..layout.transpose import LANES
from ..layout.wiring import E_ROW, P_ROW
from ..sboxes import sbox_luts_gen as _luts
from ..sboxes.dispatch import sbox_function

_HALF = 32 * LANES  # offset of R (work rows 32..63) in the flat work array


#: S-box ``box`` of six vectors: the LUT programs as one ``ternary`` call per LUT.
_sbox = sbox_function([getattr(_luts, f"ternary_s{box + 1}") for box in range(8)])


@inline
def _box(w: np.ndarray, t: int, s: int, kr: np.ndarray, box: int, ahead: tuple,
         first: int) -> None:
    """S-box ``box`` of a round: L[P rows] ^= S(E(R) ^ key bits), eight lanes per step.

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
