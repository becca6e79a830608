"""The bitsliced rounds on explicit vectors: one instruction per LUT or gate.

The Feistel rounds of every bitslice kernel, on the flat work array of
``lane_rounds`` (64 rows x LANES words, rows 0..31 = L, 32..63 = R, FIPS bit
order), written on ``simd.Vector`` values, ``LANES_PER_VECTOR`` lanes at a
time, instead of as lane loops for LLVM to vectorise.  The S-boxes are
``sboxes.dispatch.vector_circuits()``, by ``cpu.target``'s rule: with
AVX-512, 512-bit vectors and the LUT programs ``sbox_luts_gen.ternary_s1`` ..
``ternary_s8`` (one ``ternary`` call, so one ``vpternlogq``, per LUT);
elsewhere (AVX2), 256-bit vectors and the 2-input circuits of
``sbox_circuits_gen`` on ``Vector`` operators (one ``vpand``, ``vpandn``,
``vpor`` or ``vpxor`` on a ymm register per gate).

The round code is written once and specialised by the *input functions* it
is given (``fixed_key_bit`` here, for one key; ``lane_keys`` adds a key per
lane and ``crypt3`` the crypt(3) salt): each S-box input is ``xin(w, kp, e,
a, k, m, lane)``, a vector of lanes ``lane`` .. ``lane + LANES_PER_VECTOR -
1``: the E-expanded R bit at row offset ``e`` combined with round-key entry
``k`` (a mask for one key, a key-plane offset for a key per lane),
optionally swapped with its salt partner at row ``a`` under the salt plane at
``m``.  ``w`` and ``kp`` reach it as ``simd.vectors`` views, where ``w[i]``
is the vector of words ``i`` ..: written with plain indexing and ``& | ^``,
an input function reads as the scalar formula it computes.  LLVM inlines it,
so arguments it ignores cost nothing.

crypt(3)'s rounds (``salted_rounds_on``) run the S-boxes whose inputs its
salt swaps as pairs, 1 with 5, 2 with 6 (and 3 with 7, 4 with 8 for BSDi's
24-bit salts): input j of the one and of the other are E bits j and j + 24,
swapped per lane where the salt plane is set (``_salted_pair``).
"""

import numpy as np

from ...jit import always_inline, inline
from ..cpu.simd import LANES_PER_VECTOR, load, splat, store, vectors, xor
from ..cpu.vector_width import prefer_wide_vectors
from ..layout.prefetch import WORDS_PER_SLOT, prefetch_slot, round_slots
from ..layout.transpose import LANES
from ..layout.wiring import E_PARTNER_ROW, E_ROW, P_ROW, SALT_PLANE
from ..sboxes.dispatch import one_key_circuits, sbox_function, vector_circuits

_HALF = 32 * LANES  # offset of R (work rows 32..63) in the flat work array


#: S-box ``box`` of six vectors: one ``ternary`` per LUT with AVX-512, one ``Vector``
#: operator per gate elsewhere (``dispatch.vector_circuits``).
_sbox = sbox_function(vector_circuits())

#: The S-boxes for complemented inputs: on AVX2 without NOTs, for the inputs
#: the key masks or planes complement (``dispatch.one_key_circuits``; one key:
#: ``lane_rounds.key_planes``, crypt(3): its complemented key planes).
#: Where they are the same set (AVX-512's LUTs), the same function: one set to
#: type and compile, not two.
_folded_sbox = (_sbox if one_key_circuits() == vector_circuits()
                else sbox_function(one_key_circuits()))


@inline
def key_entry(kr: np.ndarray, j: int):
    """Round-key entry ``j`` as the input functions of a key per lane take it: a plane offset."""
    always_inline()
    prefer_wide_vectors()
    return kr[j]


@inline
def key_vector(kr: np.ndarray, j: int):
    """Round-key entry ``j`` (one key's mask) in every lane, read and broadcast in one step.

    Read and broadcast together, LLVM emits one ``vpbroadcastq`` from memory
    (a load, no vector ALU): read first and broadcast later, it took a
    ``vmovq`` and a register ``vpbroadcastq`` per key bit per S-box.
    """
    always_inline()
    prefer_wide_vectors()
    return splat(kr[j])


@inline
def fixed_key_bit(w, kp, e, a, k, m, lane):
    """S-box input bits under one key: ``k`` is the key bit as a vector mask (``key_vector``).

    Loop-invariant: it stays in a register or on the stack across the box's loop.
    """
    always_inline()
    prefer_wide_vectors()
    return w[e + lane] ^ k


@inline
def _box(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, box: int,
         xin, ahead: tuple, first: int, kread, sbox) -> None:
    """S-box ``box`` of a round: L[P rows] ^= S(E(R) ^ key bits), one vector of lanes per step.

    ``t`` and ``s`` are the offsets of the target (L) and source (R) halves;
    constant after inlining, like ``box``, so every row offset folds.  The
    round's key entries are read before the loop by ``kread`` (``key_entry``
    or ``key_vector``); ``kp`` is whatever ``xin`` reads per lane (key and
    salt planes); ``sbox`` is ``_sbox`` or, under one key, ``_folded_sbox``.  The box also
    fetches its slot of the next pass (``prefetch``), from word ``first`` of
    the round's slots.
    """
    always_inline()
    prefer_wide_vectors()
    j = 6 * box
    k1, k2, k3 = kread(kr, j), kread(kr, j + 1), kread(kr, j + 2)
    k4, k5, k6 = kread(kr, j + 3), kread(kr, j + 4), kread(kr, j + 5)
    e1, e2, e3 = s + E_ROW[j] * LANES, s + E_ROW[j + 1] * LANES, s + E_ROW[j + 2] * LANES
    e4, e5, e6 = s + E_ROW[j + 3] * LANES, s + E_ROW[j + 4] * LANES, s + E_ROW[j + 5] * LANES
    a1, a2 = s + E_PARTNER_ROW[j] * LANES, s + E_PARTNER_ROW[j + 1] * LANES
    a3, a4 = s + E_PARTNER_ROW[j + 2] * LANES, s + E_PARTNER_ROW[j + 3] * LANES
    a5, a6 = s + E_PARTNER_ROW[j + 4] * LANES, s + E_PARTNER_ROW[j + 5] * LANES
    m1, m2, m3 = SALT_PLANE[j] * LANES, SALT_PLANE[j + 1] * LANES, SALT_PLANE[j + 2] * LANES
    m4, m5, m6 = SALT_PLANE[j + 3] * LANES, SALT_PLANE[j + 4] * LANES, SALT_PLANE[j + 5] * LANES
    q = 4 * box
    p1, p2 = t + P_ROW[q] * LANES, t + P_ROW[q + 1] * LANES
    p3, p4 = t + P_ROW[q + 2] * LANES, t + P_ROW[q + 3] * LANES
    wv, kv = vectors(w), vectors(kp)
    # LANES, read from the array: a trip count LLVM cannot see keeps the loop
    # rolled (unrolled four times it spilled registers, ran no faster, and
    # was four times the code to compile).
    lanes = w.shape[0] // 64
    prefetch_slot(ahead, first + WORDS_PER_SLOT * box)
    for lane in range(0, lanes, LANES_PER_VECTOR):
        o = sbox(box, (xin(wv, kv, e1, a1, k1, m1, lane), xin(wv, kv, e2, a2, k2, m2, lane),
                       xin(wv, kv, e3, a3, k3, m3, lane), xin(wv, kv, e4, a4, k4, m4, lane),
                       xin(wv, kv, e5, a5, k5, m5, lane), xin(wv, kv, e6, a6, k6, m6, lane)))
        store(w, p1 + lane, xor(load(w, p1 + lane), o[0]))
        store(w, p2 + lane, xor(load(w, p2 + lane), o[1]))
        store(w, p3 + lane, xor(load(w, p3 + lane), o[2]))
        store(w, p4 + lane, xor(load(w, p4 + lane), o[3]))


@inline
def _round(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, xin_a, xin_b,
           ahead: tuple, first: int, kread, sbox) -> None:
    """One Feistel round in place on the flat work array: L ^= P(S(E(R) ^ K)).

    S-boxes 1, 2, 5, 6 (E bits 0-11 and 24-35, the ones crypt(3)'s 12-bit salt
    swaps) take their inputs from ``xin_a``, S-boxes 3, 4, 7, 8 from ``xin_b``.
    ``np.int64(box)``: a plain integer, not a literal, so Numba compiles one
    ``_box`` per input function for all eight calls (LLVM folds the constants
    after inlining).
    """
    always_inline()
    prefer_wide_vectors()
    _box(w, t, s, kr, kp, np.int64(0), xin_a, ahead, first, kread, sbox)
    _box(w, t, s, kr, kp, np.int64(1), xin_a, ahead, first, kread, sbox)
    _box(w, t, s, kr, kp, np.int64(2), xin_b, ahead, first, kread, sbox)
    _box(w, t, s, kr, kp, np.int64(3), xin_b, ahead, first, kread, sbox)
    _box(w, t, s, kr, kp, np.int64(4), xin_a, ahead, first, kread, sbox)
    _box(w, t, s, kr, kp, np.int64(5), xin_a, ahead, first, kread, sbox)
    _box(w, t, s, kr, kp, np.int64(6), xin_b, ahead, first, kread, sbox)
    _box(w, t, s, kr, kp, np.int64(7), xin_b, ahead, first, kread, sbox)


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
def rounds_on(w: np.ndarray, kplanes: np.ndarray, kp: np.ndarray, xin_a, xin_b,
              ahead: tuple) -> None:
    """``_rounds_with`` for input functions that take plane offsets (a key per lane)."""
    always_inline()
    prefer_wide_vectors()
    _rounds_with(w, kplanes, kp, xin_a, xin_b, ahead, key_entry, _sbox)


@inline
def one_key_rounds_on(w: np.ndarray, kplanes: np.ndarray, ahead: tuple) -> None:
    """The rounds under one key (``lane_rounds.key_planes``' masks): ``_rounds_with``, NOTs folded.

    The S-boxes are ``_folded_sbox``, whose complemented inputs the key
    masks deliver (``dispatch.input_complement``, applied by ``key_planes``).
    """
    always_inline()
    prefer_wide_vectors()
    _rounds_with(w, kplanes, kplanes, fixed_key_bit, fixed_key_bit, ahead, key_vector,
                 _folded_sbox)


@inline
def _rounds_with(w: np.ndarray, kplanes: np.ndarray, kp: np.ndarray, xin_a, xin_b,
                 ahead: tuple, kread, sbox) -> None:
    """Run kplanes.shape[0] rounds (a multiple of 16) on the flat work array.

    ``kplanes[r]`` is round r's key row as ``xin_a``/``xin_b`` read it (see
    ``_box``); ``kp`` a C-contiguous uint64 array of key (and salt) planes,
    which they read as vectors.  Rounds go in pairs, L ^= f(R) then R ^= f(L),
    so the halves are constant offsets (two specialised copies of the round,
    not one with variable offsets).  After 16 rounds L16 sits in L and R16 in
    R; swapping them gives the preoutput R16 || L16, which is also the next
    pass's L0 || R0 (3DES; crypt(3)'s iterations).  Meanwhile the caller's
    next pass, ``ahead`` (``prefetch``), is fetched into the caches.
    """
    always_inline()
    prefer_wide_vectors()
    for r in range(0, kplanes.shape[0], 2):
        _round(w, np.int64(0), np.int64(_HALF), kplanes[r], kp, xin_a, xin_b, ahead,
               round_slots(r), kread, sbox)
        _round(w, np.int64(_HALF), np.int64(0), kplanes[r + 1], kp, xin_a, xin_b, ahead,
               round_slots(r + 1), kread, sbox)
        if r % 16 == 14:
            _swap_halves(w)


@inline
def _swapped_pair(wv, kv, e, f, k, g, m, lane):
    """crypt(3)'s inputs E bit j and j + 24 (rows ``e``, ``f``), swapped where salt plane ``m`` is set.

    One difference for both: ``d = (x ^ y) & salt`` gives ``x ^ d`` (the
    bit where the salt is clear, its partner where set) and ``y ^ d``; then
    the key planes ``k`` and ``g`` are XORed in.
    """
    always_inline()
    prefer_wide_vectors()
    x = wv[e + lane]
    y = wv[f + lane]
    d = (x ^ y) & kv[m + lane]
    return x ^ d ^ kv[k + np.uint64(lane)], y ^ d ^ kv[g + np.uint64(lane)]


@inline
def _salted_pair(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, box: int,
                 ahead: tuple, first: int) -> None:
    """S-boxes ``box`` and ``box + 4`` of a crypt(3) round in one lane loop (a key per lane).

    Input j of S-box ``box`` is E bit ``6 box + j`` and input j of ``box + 4``
    its salt partner, E bit ``6 box + j + 24``: each pair of rows is read
    once and swapped with one difference (``_swapped_pair``), not selected
    twice, each side reading the other's row and the salt plane again.
    ``kp`` holds the key planes and the salt planes (``SALT_PLANE``).
    """
    always_inline()
    prefer_wide_vectors()
    j, u = 6 * box, 6 * box + 24
    e1, e2, e3 = s + E_ROW[j] * LANES, s + E_ROW[j + 1] * LANES, s + E_ROW[j + 2] * LANES
    e4, e5, e6 = s + E_ROW[j + 3] * LANES, s + E_ROW[j + 4] * LANES, s + E_ROW[j + 5] * LANES
    f1, f2, f3 = s + E_ROW[u] * LANES, s + E_ROW[u + 1] * LANES, s + E_ROW[u + 2] * LANES
    f4, f5, f6 = s + E_ROW[u + 3] * LANES, s + E_ROW[u + 4] * LANES, s + E_ROW[u + 5] * LANES
    k1, k2, k3, k4, k5, k6 = kr[j], kr[j + 1], kr[j + 2], kr[j + 3], kr[j + 4], kr[j + 5]
    g1, g2, g3, g4, g5, g6 = kr[u], kr[u + 1], kr[u + 2], kr[u + 3], kr[u + 4], kr[u + 5]
    m1, m2, m3 = SALT_PLANE[j] * LANES, SALT_PLANE[j + 1] * LANES, SALT_PLANE[j + 2] * LANES
    m4, m5, m6 = SALT_PLANE[j + 3] * LANES, SALT_PLANE[j + 4] * LANES, SALT_PLANE[j + 5] * LANES
    q, v = 4 * box, 4 * box + 16
    p1, p2 = t + P_ROW[q] * LANES, t + P_ROW[q + 1] * LANES
    p3, p4 = t + P_ROW[q + 2] * LANES, t + P_ROW[q + 3] * LANES
    r1, r2 = t + P_ROW[v] * LANES, t + P_ROW[v + 1] * LANES
    r3, r4 = t + P_ROW[v + 2] * LANES, t + P_ROW[v + 3] * LANES
    wv, kv = vectors(w), vectors(kp)
    lanes = w.shape[0] // 64  # from the array: the loop stays rolled (see _box)
    prefetch_slot(ahead, first + WORDS_PER_SLOT * box)
    prefetch_slot(ahead, first + WORDS_PER_SLOT * (box + 4))
    for lane in range(0, lanes, LANES_PER_VECTOR):
        a1, b1 = _swapped_pair(wv, kv, e1, f1, k1, g1, m1, lane)
        a2, b2 = _swapped_pair(wv, kv, e2, f2, k2, g2, m2, lane)
        a3, b3 = _swapped_pair(wv, kv, e3, f3, k3, g3, m3, lane)
        a4, b4 = _swapped_pair(wv, kv, e4, f4, k4, g4, m4, lane)
        a5, b5 = _swapped_pair(wv, kv, e5, f5, k5, g5, m5, lane)
        a6, b6 = _swapped_pair(wv, kv, e6, f6, k6, g6, m6, lane)
        o = _folded_sbox(box, (a1, a2, a3, a4, a5, a6))
        store(w, p1 + lane, xor(load(w, p1 + lane), o[0]))
        store(w, p2 + lane, xor(load(w, p2 + lane), o[1]))
        store(w, p3 + lane, xor(load(w, p3 + lane), o[2]))
        store(w, p4 + lane, xor(load(w, p4 + lane), o[3]))
        o = _folded_sbox(box + 4, (b1, b2, b3, b4, b5, b6))
        store(w, r1 + lane, xor(load(w, r1 + lane), o[0]))
        store(w, r2 + lane, xor(load(w, r2 + lane), o[1]))
        store(w, r3 + lane, xor(load(w, r3 + lane), o[2]))
        store(w, r4 + lane, xor(load(w, r4 + lane), o[3]))


@inline
def _salted_round(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, xin,
                  wide: bool, ahead: tuple, first: int) -> None:
    """One crypt(3) round: S-boxes 1, 2, 5, 6 as salted pairs (1 with 5, 2 with 6).

    S-boxes 3, 4, 7, 8 are salted pairs too if ``wide`` (BSDi), else take
    ``xin`` (no salt).  ``wide`` is tested once per round: one compiled
    kernel serves both salt widths.  Pairs take a quarter fewer
    instructions than selecting each salted input on its own; on AVX2 a
    pair's inputs overflow the 16 registers (spills), and still ran 0-10%
    faster.
    """
    always_inline()
    prefer_wide_vectors()
    _salted_pair(w, t, s, kr, kp, np.int64(0), ahead, first)
    _salted_pair(w, t, s, kr, kp, np.int64(1), ahead, first)
    if wide:
        _salted_pair(w, t, s, kr, kp, np.int64(2), ahead, first)
        _salted_pair(w, t, s, kr, kp, np.int64(3), ahead, first)
    else:
        _box(w, t, s, kr, kp, np.int64(2), xin, ahead, first, key_entry, _folded_sbox)
        _box(w, t, s, kr, kp, np.int64(3), xin, ahead, first, key_entry, _folded_sbox)
        _box(w, t, s, kr, kp, np.int64(6), xin, ahead, first, key_entry, _folded_sbox)
        _box(w, t, s, kr, kp, np.int64(7), xin, ahead, first, key_entry, _folded_sbox)


@inline
def salted_rounds_on(w: np.ndarray, kplanes: np.ndarray, kp: np.ndarray, xin, wide: bool,
                     ahead: tuple) -> None:
    """crypt(3)'s rounds: ``rounds_on`` with each lane's salt swapping E bits j and j + 24.

    ``kp`` holds the key planes (offsets ``kplanes[r]``) and the salt planes
    from ``SALT_PLANE0``; ``xin`` reads an unsalted S-box input.  The S-boxes
    are ``_folded_sbox``: ``kplanes`` must point the inputs they take
    complemented (``dispatch.input_complement``) at complemented key planes; salt bits
    12..23 (``wide``, BSDi) swap in S-boxes 3, 4, 7, 8 as well.
    """
    always_inline()
    prefer_wide_vectors()
    for r in range(0, kplanes.shape[0], 2):
        _salted_round(w, np.int64(0), np.int64(_HALF), kplanes[r], kp, xin, wide, ahead,
                      round_slots(r))
        _salted_round(w, np.int64(_HALF), np.int64(0), kplanes[r + 1], kp, xin, wide,
                      ahead, round_slots(r + 1))
        if r % 16 == 14:
            _swap_halves(w)
