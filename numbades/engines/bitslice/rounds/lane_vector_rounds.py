"""The rounds with a key per lane on explicit 512-bit vectors: key bits loaded, not splatted.

``lane_rounds.rounds_on`` with ``lane_keys.lane_key_bit`` computes each
S-box input as the E-expanded R row XOR the key plane of that key bit, in
lane loops LLVM vectorises on its own; with AVX-512 it rebuilds the LUT
programs from ``& | ^ ~`` and spends close to twice the instructions of the
one-key rounds of ``simd_rounds`` (one ``vpternlogq`` per LUT).  Here the
same rounds run on ``simd.Vector`` values: ``simd_rounds``' S-box LUT
programs, with each key bit a vector *loaded* from the key planes (the
flat array of ``lane_keys.load_key_planes``; ``table[r, j]``, from
``lane_keys.key_table``, is the offset of round ``r``'s bit ``j``) where the
one-key code splats a mask.  For AVX-512 targets only (``cpu.target``'s
rule, as ``simd_rounds``): its callers keep the lane loops elsewhere.
"""

import numpy as np

from ...jit import always_inline, inline
from ..cpu.simd import LANES_PER_VECTOR, load, store, xor
from ..cpu.vector_width import prefer_wide_vectors
from ..layout.prefetch import WORDS_PER_SLOT, prefetch_slot, round_slots
from ..layout.transpose import LANES
from ..layout.wiring import E_ROW, P_ROW
from ..sboxes import sbox_luts_gen as _luts
from ..sboxes.dispatch import sbox_function
from . import simd_rounds

_HALF = 32 * LANES  # offset of R (work rows 32..63) in the flat work array

#: S-box ``box`` of six vectors: the LUT programs, one ``ternary`` per LUT (``simd_rounds``').
_sbox = sbox_function([getattr(_luts, f"ternary_s{box + 1}") for box in range(8)])


@inline
def _input(w: np.ndarray, e: int, kp: np.ndarray, k: np.uint64, lane: int):
    """The S-box input vector of lanes ``lane``..: R's E row at ``e`` XOR the key plane at ``k``.

    ``k`` is unsigned (a key-table entry), so the key index is too and Numba
    adds no negative-index wraparound.
    """
    always_inline()
    prefer_wide_vectors()
    return xor(load(w, e + lane), load(kp, k + np.uint64(lane)))


@inline
def _box(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, box: int,
         ahead: tuple, first: int) -> None:
    """S-box ``box`` of a round: L[P rows] ^= S(E(R) ^ key planes), eight lanes per step.

    As ``simd_rounds._box``, with round ``kr``'s key-plane offsets: each lane
    of a vector is XORed with its own key's bit.
    """
    always_inline()
    prefer_wide_vectors()
    j = 6 * box
    k1, k2, k3, k4, k5, k6 = kr[j], kr[j + 1], kr[j + 2], kr[j + 3], kr[j + 4], kr[j + 5]
    q = 4 * box
    p1, p2 = t + P_ROW[q] * LANES, t + P_ROW[q + 1] * LANES
    p3, p4 = t + P_ROW[q + 2] * LANES, t + P_ROW[q + 3] * LANES
    lanes = w.shape[0] // 64  # LANES, as a trip count LLVM does not unroll (compile time)
    prefetch_slot(ahead, first + WORDS_PER_SLOT * box)
    for lane in range(0, lanes, LANES_PER_VECTOR):
        o = _sbox(box, (_input(w, s + E_ROW[j] * LANES, kp, k1, lane),
                        _input(w, s + E_ROW[j + 1] * LANES, kp, k2, lane),
                        _input(w, s + E_ROW[j + 2] * LANES, kp, k3, lane),
                        _input(w, s + E_ROW[j + 3] * LANES, kp, k4, lane),
                        _input(w, s + E_ROW[j + 4] * LANES, kp, k5, lane),
                        _input(w, s + E_ROW[j + 5] * LANES, kp, k6, lane)))
        store(w, p1 + lane, xor(load(w, p1 + lane), o[0]))
        store(w, p2 + lane, xor(load(w, p2 + lane), o[1]))
        store(w, p3 + lane, xor(load(w, p3 + lane), o[2]))
        store(w, p4 + lane, xor(load(w, p4 + lane), o[3]))


@inline
def _round(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, ahead: tuple,
           first: int) -> None:
    """One Feistel round in place: L ^= P(S(E(R) ^ K)) (``np.int64``: one ``_box`` for all)."""
    always_inline()
    prefer_wide_vectors()
    _box(w, t, s, kr, kp, np.int64(0), ahead, first)
    _box(w, t, s, kr, kp, np.int64(1), ahead, first)
    _box(w, t, s, kr, kp, np.int64(2), ahead, first)
    _box(w, t, s, kr, kp, np.int64(3), ahead, first)
    _box(w, t, s, kr, kp, np.int64(4), ahead, first)
    _box(w, t, s, kr, kp, np.int64(5), ahead, first)
    _box(w, t, s, kr, kp, np.int64(6), ahead, first)
    _box(w, t, s, kr, kp, np.int64(7), ahead, first)


@inline
def rounds_on(w: np.ndarray, table: np.ndarray, kp: np.ndarray, ahead: tuple) -> None:
    """Run ``table.shape[0]`` rounds (a multiple of 16) on the work array under key planes ``kp``.

    Rounds in pairs with constant half offsets, the halves swapped after
    every 16, as the one-key rounds; meanwhile the caller's next pass,
    ``ahead`` (``prefetch``), is fetched into the caches.
    """
    always_inline()
    prefer_wide_vectors()
    for r in range(0, table.shape[0], 2):
        _round(w, np.int64(0), np.int64(_HALF), table[r], kp, ahead, round_slots(r))
        _round(w, np.int64(_HALF), np.int64(0), table[r + 1], kp, ahead, round_slots(r + 1))
        if r % 16 == 14:
            simd_rounds._swap_halves(w)
