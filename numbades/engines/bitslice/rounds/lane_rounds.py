"""Bitsliced DES / 3DES kernels: 64 * LANES blocks per pass, pure Boolean ops.

The round work of the bitslice engine.  The state of a pass is a plane
array (layout documented in ``transpose``): plane ``i`` holds bit
``i`` of every block (0 = least significant bit of the block value, so FIPS
bit ``n`` is plane ``64 - n``); block ``b`` of a pass is lane ``b % LANES``,
bit ``b // LANES``.

Inside ``crypt_into`` the 64 planes are copied in IP order into a flat work
array of 64 rows x LANES (rows 0..31 = L, 32..63 = R, FIPS bit order), so IP and FP
are plane renamings and E and P are index renamings inside the round; the
only arithmetic is the key XOR, the S-box circuits and the XOR into L.

Key planes: ``kplanes[r, j]`` is all-ones or zero, FIPS bit ``j + 1`` of the
r-th round key in application order.  Every 16 rounds the halves swap as at
the end of DES, so 48 rounds with keys K1, reversed K2, K3 are 3DES-EDE, and
reversed keys decrypt.  No branch or memory index depends on key or data.

The round code is written once and specialised by the *input functions* it
is given (``fixed_key_bit`` here; ``lane_keys`` adds a key per lane and the
crypt(3) salt): each S-box input bit is ``xin(w, kp, e, a, k, m, lane)``,
the E-expanded R bit at row offset ``e`` combined with round-key row ``k``
(a mask for one key, a key-plane offset for a key per lane), optionally
swapped with its salt partner at row ``a`` under the salt plane at ``m``.
LLVM inlines the function, so each specialisation compiles to straight lane
loops and arguments it ignores cost nothing.
"""

import numba
import numpy as np

from ...jit import always_inline, inline
from ..cpu.target import AVX512
from ..cpu.vector_width import prefer_wide_vectors
from ..layout.prefetch import WORDS_PER_SLOT, next_pass, nothing_ahead, prefetch_slot, round_slots
from ..layout.simd_passes import PLAIN_ROWS, words_to_work, work_rows, work_to_words
from ..layout.transpose import (
    BLOCKS,
    BSWAP_XOR,
    LANES,
    copy_renamed,
    load_words,
    new_planes,
    new_work,
    store_words,
    swap_renamed,
    transpose64,
)
from ..layout.wiring import E_PARTNER_ROW as _E_PARTNER_ROW
from ..layout.wiring import E_ROW as _E_ROW
from ..layout.wiring import IP_PLANE as _IP_PLANE
from ..layout.wiring import P_ROW as _P_ROW
from ..layout.wiring import SALT_PLANE as _SALT_PLANE
from ..sboxes.dispatch import circuits, sbox_function
from . import simd_rounds

_INLINED_SOURCES_SHA256 = "0333e0b716d510b4c495ddf15ffca36560997791c0db8a7c514af75a23ae6c7a"  # see tools/stamp_kernel_sources.py


#: S-box ``box`` of six input words (``sboxes.dispatch``), from this target's circuit set.
_sbox = sbox_function([getattr(circuits(), f"s{box + 1}") for box in range(8)])


@numba.njit(nogil=True, cache=True)
def _spread_bits(round_keys: np.ndarray, out: np.ndarray) -> None:
    for r in range(round_keys.shape[0]):
        k = round_keys[r]
        for j in range(48):
            out[r, j] = np.uint64(0) - ((k >> np.uint64(47 - j)) & np.uint64(1))


def key_planes(round_keys48: np.ndarray) -> np.ndarray:
    """Spread R 48-bit round keys (application order) into an (R, 48) mask array.

    Element [r, j] is all-ones if FIPS bit j + 1 of round key r (integer bit
    47 - j) is set, else zero: XORing it into a plane flips that bit in every
    block at once.  One small kernel call (a new key's bitslice set-up is on
    the path of its first block).
    """
    rk = np.ascontiguousarray(round_keys48, dtype=np.uint64).reshape(-1)
    out = np.empty((rk.shape[0], 48), dtype=np.uint64)
    _spread_bits(rk, out)
    return out


@inline
def fixed_key_bit(w, kp, e, a, k, m, lane):
    """S-box input bit under one key for all lanes: ``k`` is the key bit as a mask."""
    always_inline()
    prefer_wide_vectors()
    return w[e + lane] ^ k


@inline
def _box(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, box: int,
         xin, ahead, first) -> None:
    """S-box ``box`` of a round: L[P rows] ^= S(E(R) ^ key bits), its inputs from ``xin``.

    ``w`` is the flat work array; ``t`` and ``s`` are the offsets of the
    target (L) and source (R) halves.  Inlined by LLVM with ``t``, ``s`` and
    ``box`` constant, every row index is a constant plus the lane, so LLVM
    sees fixed distances between rows and vectorizes the lanes; the round's
    key entries ``kr[j]`` are read before the loop so no load in it may alias
    them.  ``kp`` is whatever ``xin`` reads per lane (key and salt planes),
    unused by ``fixed_key_bit``.  The box also fetches its slot of the next
    pass (``prefetch``), from word ``first`` of the round's slots.
    """
    always_inline()
    prefer_wide_vectors()
    j = 6 * box
    k1, k2, k3, k4, k5, k6 = kr[j], kr[j + 1], kr[j + 2], kr[j + 3], kr[j + 4], kr[j + 5]
    e1, e2, e3 = s + _E_ROW[j] * LANES, s + _E_ROW[j + 1] * LANES, s + _E_ROW[j + 2] * LANES
    e4, e5, e6 = s + _E_ROW[j + 3] * LANES, s + _E_ROW[j + 4] * LANES, s + _E_ROW[j + 5] * LANES
    a1, a2 = s + _E_PARTNER_ROW[j] * LANES, s + _E_PARTNER_ROW[j + 1] * LANES
    a3, a4 = s + _E_PARTNER_ROW[j + 2] * LANES, s + _E_PARTNER_ROW[j + 3] * LANES
    a5, a6 = s + _E_PARTNER_ROW[j + 4] * LANES, s + _E_PARTNER_ROW[j + 5] * LANES
    m1, m2, m3 = _SALT_PLANE[j] * LANES, _SALT_PLANE[j + 1] * LANES, _SALT_PLANE[j + 2] * LANES
    m4, m5, m6 = _SALT_PLANE[j + 3] * LANES, _SALT_PLANE[j + 4] * LANES, _SALT_PLANE[j + 5] * LANES
    q = 4 * box
    p1, p2 = t + _P_ROW[q] * LANES, t + _P_ROW[q + 1] * LANES
    p3, p4 = t + _P_ROW[q + 2] * LANES, t + _P_ROW[q + 3] * LANES
    prefetch_slot(ahead, first + WORDS_PER_SLOT * box)
    for lane in range(LANES):
        o = _sbox(box, (xin(w, kp, e1, a1, k1, m1, lane), xin(w, kp, e2, a2, k2, m2, lane),
                        xin(w, kp, e3, a3, k3, m3, lane), xin(w, kp, e4, a4, k4, m4, lane),
                        xin(w, kp, e5, a5, k5, m5, lane), xin(w, kp, e6, a6, k6, m6, lane)))
        w[p1 + lane] ^= o[0]
        w[p2 + lane] ^= o[1]
        w[p3 + lane] ^= o[2]
        w[p4 + lane] ^= o[3]


@inline
def _round(w: np.ndarray, t: int, s: int, kr: np.ndarray, kp: np.ndarray, xin_a,
           xin_b, ahead, first) -> None:
    """One Feistel round in place on the flat work array: L ^= P(S(E(R) ^ K)).

    S-boxes 1, 2, 5, 6 (E bits 0-11 and 24-35, the ones crypt(3)'s 12-bit salt
    swaps) take their inputs from ``xin_a``, S-boxes 3, 4, 7, 8 from ``xin_b``.
    ``np.int64(box)``: a plain integer, not a literal, so Numba compiles one
    ``_box`` per input function for all eight calls (LLVM folds the constants
    after inlining).
    """
    always_inline()
    prefer_wide_vectors()
    _box(w, t, s, kr, kp, np.int64(0), xin_a, ahead, first)
    _box(w, t, s, kr, kp, np.int64(1), xin_a, ahead, first)
    _box(w, t, s, kr, kp, np.int64(2), xin_b, ahead, first)
    _box(w, t, s, kr, kp, np.int64(3), xin_b, ahead, first)
    _box(w, t, s, kr, kp, np.int64(4), xin_a, ahead, first)
    _box(w, t, s, kr, kp, np.int64(5), xin_a, ahead, first)
    _box(w, t, s, kr, kp, np.int64(6), xin_b, ahead, first)
    _box(w, t, s, kr, kp, np.int64(7), xin_b, ahead, first)


_HALF = 32 * LANES  # offset of R (work rows 32..63) in the flat work array


@inline
def _swap_halves(w: np.ndarray) -> None:
    """Exchange L and R in the work array (the swap between DES passes)."""
    always_inline()
    prefer_wide_vectors()
    for i in range(_HALF):
        a = w[i]
        w[i] = w[_HALF + i]
        w[_HALF + i] = a


@inline
def rounds_on(w: np.ndarray, kplanes: np.ndarray, kp: np.ndarray, xin_a, xin_b,
              ahead: tuple) -> None:
    """Run kplanes.shape[0] rounds (a multiple of 16) on the flat work array.

    ``kplanes[r]`` is round r's key row as ``xin_a``/``xin_b`` read it (see
    ``_box``).  Rounds go in pairs, L ^= f(R) then R ^= f(L), so the halves
    are constant offsets (two specialised copies of the round, not one with
    variable offsets).  After 16 rounds L16 sits in L and R16 in R; swapping
    them gives the preoutput R16 || L16, which is also the next pass's
    L0 || R0 (3DES; crypt(3)'s iterations).  Meanwhile the caller's next
    pass, ``ahead`` (``prefetch``), is fetched into the caches.
    """
    always_inline()
    prefer_wide_vectors()
    for r in range(0, kplanes.shape[0], 2):
        _round(w, np.int64(0), np.int64(_HALF), kplanes[r], kp, xin_a, xin_b, ahead,
               round_slots(r))
        _round(w, np.int64(_HALF), np.int64(0), kplanes[r + 1], kp, xin_a, xin_b, ahead,
               round_slots(r + 1))
        if r % 16 == 14:
            _swap_halves(w)


@inline
def gather_ip(planes: np.ndarray, w: np.ndarray, xor: int) -> None:
    """w = IP(planes) as a renaming; xor = BSWAP_XOR reads byte-swapped planes."""
    always_inline()
    prefer_wide_vectors()
    flat = planes.reshape(BLOCKS)
    for k in range(64):
        p = (_IP_PLANE[k] ^ xor) * LANES
        for lane in range(LANES):
            w[k * LANES + lane] = flat[p + lane]


@inline
def scatter_fp(w: np.ndarray, planes: np.ndarray, xor: int) -> None:
    """planes = FP(w) as a renaming (w the preoutput)."""
    always_inline()
    prefer_wide_vectors()
    flat = planes.reshape(BLOCKS)
    for k in range(64):
        p = (_IP_PLANE[k] ^ xor) * LANES
        for lane in range(LANES):
            flat[p + lane] = w[k * LANES + lane]


@inline
def _lane_loop_rounds(w: np.ndarray, kplanes: np.ndarray, ahead: tuple) -> None:
    """The rounds of ``kplanes`` under one key, as lane loops LLVM vectorises."""
    always_inline()
    prefer_wide_vectors()
    rounds_on(w, kplanes, kplanes, fixed_key_bit, fixed_key_bit, ahead)


#: The one-key rounds ``crypt_into`` runs (``cpu.target``'s rule): explicit 512-bit
#: vectors with one ``vpternlogq`` per LUT where the target has AVX-512, the lane
#: loops elsewhere.
one_key_rounds = simd_rounds.rounds_on if AVX512 else _lane_loop_rounds


@numba.njit(nogil=True, cache=True)
def crypt_work(w: np.ndarray, kplanes: np.ndarray, ahead: tuple) -> None:
    """Run the one-key rounds of ``kplanes`` on the work array ``w`` (IP order, flat).

    The one compiled copy of the one-key round code: deliberately not
    inlined, so ECB, the mode kernels and crypt_planes share it, which keeps
    cold compile time down.  Meanwhile the caller's next pass (``ahead``:
    ``prefetch.next_pass`` or ``prefetch.nothing_ahead``) is fetched into the
    caches.
    """
    prefer_wide_vectors()
    one_key_rounds(w, kplanes, ahead)


@numba.njit(nogil=True, cache=True)
def crypt_into(planes: np.ndarray, w: np.ndarray, kplanes: np.ndarray, xor: int,
               ahead: tuple) -> None:
    """Encrypt planes in place (w is flat scratch); xor renames byte-swapped planes.

    ``ahead`` as for ``crypt_work``.
    """
    prefer_wide_vectors()
    gather_ip(planes, w, xor)
    crypt_work(w, kplanes, ahead)
    scatter_fp(w, planes, xor)


@numba.njit(nogil=True, cache=True)
def _ecb_chunk(src, dst, start, count, kplanes, xor, buf, work) -> None:
    """Encrypt blocks src[start:start+count] (count <= BLOCKS) into dst.

    A compiled function of its own, so its transposes are optimised on their
    own (inlined into the loop of ``ecb``, LLVM vectorized them worse, about
    10% slower, when this was measured with a parallel caller).
    """
    prefer_wide_vectors()
    load_words(src, start, count, buf)
    transpose64(buf)
    crypt_into(buf, work, kplanes, xor, next_pass(src, dst, start + BLOCKS))
    transpose64(buf)
    store_words(buf, dst, start, count)


@numba.njit(nogil=True, cache=True)
def to_planes(src_words: np.ndarray, start: int, count: int, swap: bool,
              planes: np.ndarray) -> None:
    """Transpose blocks src_words[start:start+count] (count <= 64*LANES) into planes.

    Missing blocks are zero.  swap=True: each word is the block byte-swapped
    (raw little-endian memory); planes always hold block-value bits.
    """
    prefer_wide_vectors()
    load_words(src_words, start, count, planes)
    transpose64(planes)
    swap_renamed(planes, BSWAP_XOR if swap else 0)


@numba.njit(nogil=True, cache=True)
def from_planes(planes: np.ndarray, dst_words: np.ndarray, start: int, count: int,
                swap: bool) -> None:
    """Inverse of to_planes: write the first count blocks of planes to dst_words[start:].

    ``planes`` is left unchanged (a chaining mode may still need it).
    """
    prefer_wide_vectors()
    buf = new_planes()
    copy_renamed(planes, buf, BSWAP_XOR if swap else 0)
    transpose64(buf)
    store_words(buf, dst_words, start, count)


@numba.njit(nogil=True, cache=True)
def crypt_planes(planes: np.ndarray, kplanes: np.ndarray) -> None:
    """Apply the rounds of kplanes to a plane array in place (plaintext in, ciphertext out)."""
    crypt_into(planes, new_work(), kplanes, 0, nothing_ahead())


@numba.njit(nogil=True, cache=True)
def _fused_ecb_pass(src, dst, start, kplanes, xor, rows, buf, work) -> None:
    """A full pass with the transposes reading src and writing dst directly (``simd_passes``).

    Every full pass of ``ecb`` on every target (512-bit vectors with AVX-512,
    256-bit elsewhere); ``rows``: ``simd_passes.work_rows(xor)``.
    """
    prefer_wide_vectors()
    flat = buf.reshape(BLOCKS)
    words_to_work(src, start, flat, PLAIN_ROWS, rows, work)
    crypt_work(work, kplanes, next_pass(src, dst, start + BLOCKS))
    work_to_words(work, rows, flat, PLAIN_ROWS, dst, start, None, 0)


@numba.njit(nogil=True, cache=True)
def ecb(src: np.ndarray, dst: np.ndarray, kplanes: np.ndarray, swap: bool) -> None:
    """ECB over all of src into dst (may be src), one pass of 64*LANES blocks at a time.

    The last partial pass is zero-padded inside the kernel.
    """
    n = src.shape[0]
    xor = BSWAP_XOR if swap else 0
    rows = work_rows(xor)
    buf = new_planes()
    work = new_work()
    full = n - n % BLOCKS
    for start in range(0, full, BLOCKS):
        _fused_ecb_pass(src, dst, start, kplanes, xor, rows, buf, work)
    if full < n:
        _ecb_chunk(src, dst, full, n - full, kplanes, xor, buf, work)
