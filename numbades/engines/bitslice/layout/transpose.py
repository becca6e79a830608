"""Moving blocks between normal (one uint64 word per block) and bitsliced layout.

A *plane array* has shape ``(64, LANES)``, dtype uint64, C-contiguous.  It
holds one pass of ``64 * LANES`` blocks:

- plane ``i`` holds bit ``i`` of every block, bits numbered from the least
  significant end of the block value (plane 63 = FIPS bit 1, plane 0 = FIPS
  bit 64; FIPS bit ``n`` lives in plane ``64 - n``);
- block ``b`` of the pass sits in lane ``b % LANES`` at bit ``b // LANES`` of
  that lane's word.

That block order makes loading a plain contiguous copy: the word of block
``b`` goes to ``planes.flat[b]``, after which every lane column is a 64 x 64
bit matrix (row = block, column = bit) that a 6-stage swap-and-mask transpose
turns into (row = bit, column = block), all lanes at once so the inner loop is
SIMD over lanes.

Byte order: a raw little-endian memory word is the block value byte-swapped.
Byte-swapping every block moves bit ``i`` to bit ``i ^ 56``, so after the
transpose it is only a renaming of planes, never per-word work.
"""

import numpy as np

from ...jit import always_inline, inline
from ..cpu.vector_width import prefer_wide_vectors

LANES: int = 32
"""Number of uint64 lanes per bit plane; one pass handles ``64 * LANES`` blocks."""

BLOCKS: int = 64 * LANES
"""Blocks per pass."""

BSWAP_XOR: int = 56
"""Plane-index XOR that turns a byte-swapped word's plane into the value's plane."""

@inline
def aligned_words(n: int) -> np.ndarray:
    """``n`` uninitialised uint64 words starting on a 64-byte (cache-line) boundary.

    Numba aligns its own allocations to 32 bytes only, so with 512-bit
    vectors every other access to a scratch plane array would straddle two
    cache lines; a few spare words and a view fix that.
    """
    always_inline()
    prefer_wide_vectors()
    raw = np.empty(n + 7, dtype=np.uint64)
    skip = ((64 - (raw.ctypes.data & 63)) & 63) >> 3  # words up to the boundary
    return raw[skip:skip + n]


@inline
def new_planes() -> np.ndarray:
    """An uninitialised, cache-line-aligned plane array."""
    always_inline()
    prefer_wide_vectors()
    return aligned_words(BLOCKS).reshape(64, LANES)


@inline
def new_work() -> np.ndarray:
    """Uninitialised, cache-line-aligned flat scratch for one pass (64 rows x LANES)."""
    always_inline()
    prefer_wide_vectors()
    return aligned_words(BLOCKS)


@inline
def _delta_swap(a: np.uint64, b: np.uint64, s: np.uint64, mask: np.uint64) -> tuple:
    """Exchange a's bits whose index has bit s set with b's bits whose index has it clear.

    ``mask`` selects the "clear" bits; returns the new (a, b).
    """
    always_inline()
    prefer_wide_vectors()
    t = ((a >> s) ^ b) & mask  # a's high bits vs b's low bits, differing
    return a ^ (t << s), b ^ t


@inline
def _three_stages(x: np.ndarray, base: int, step: int, s0: np.uint64, m0: np.uint64,
                  s1: np.uint64, m1: np.uint64, s2: np.uint64, m2: np.uint64) -> None:
    """Three transpose stages on the eight rows ``base + k * step`` (k = 0..7), in registers.

    The stages pair rows 4, 2 and 1 steps apart (bit distances ``s0``, ``s1``,
    ``s2``).  Each row is loaded and stored once for three stages: stage by
    stage, a 64 x 64 transpose is six passes over the plane array and bound
    by the store port (it was 1.65x slower per transpose, and ECB 1.1x slower,
    on an AVX2 host).  Folding the copy to or from the pass's words into a
    stage pass was tried and was slower (ECB 0.78x): LLVM cannot prove the
    two arrays apart.  The lane loop is unit-stride for every row, so
    LLVM vectorizes it across lanes.
    """
    always_inline()
    prefer_wide_vectors()
    o0, o1, o2, o3 = base * LANES, (base + step) * LANES, (base + 2 * step) * LANES, \
        (base + 3 * step) * LANES
    o4, o5, o6, o7 = (base + 4 * step) * LANES, (base + 5 * step) * LANES, \
        (base + 6 * step) * LANES, (base + 7 * step) * LANES
    for lane in range(LANES):
        r0, r1, r2, r3 = x[o0 + lane], x[o1 + lane], x[o2 + lane], x[o3 + lane]
        r4, r5, r6, r7 = x[o4 + lane], x[o5 + lane], x[o6 + lane], x[o7 + lane]
        r0, r4 = _delta_swap(r0, r4, s0, m0)
        r1, r5 = _delta_swap(r1, r5, s0, m0)
        r2, r6 = _delta_swap(r2, r6, s0, m0)
        r3, r7 = _delta_swap(r3, r7, s0, m0)
        r0, r2 = _delta_swap(r0, r2, s1, m1)
        r1, r3 = _delta_swap(r1, r3, s1, m1)
        r4, r6 = _delta_swap(r4, r6, s1, m1)
        r5, r7 = _delta_swap(r5, r7, s1, m1)
        r0, r1 = _delta_swap(r0, r1, s2, m2)
        r2, r3 = _delta_swap(r2, r3, s2, m2)
        r4, r5 = _delta_swap(r4, r5, s2, m2)
        r6, r7 = _delta_swap(r6, r7, s2, m2)
        x[o0 + lane], x[o1 + lane], x[o2 + lane], x[o3 + lane] = r0, r1, r2, r3
        x[o4 + lane], x[o5 + lane], x[o6 + lane], x[o7 + lane] = r4, r5, r6, r7


@inline
def transpose64(planes: np.ndarray) -> None:
    """Transpose, in place, each lane's 64 x 64 bit matrix: x[i, l] bit j <-> x[j, l] bit i.

    Six delta-swap stages (row distances 32, 16, ..., 1) exchange row and bit
    index; they run as two passes of three stages each, on groups of eight
    rows: rows b, b + 8, ..., b + 56 (distances 32, 16, 8), then rows 8c ..
    8c + 7 (distances 4, 2, 1).  The transpose is its own inverse, so the same
    function converts both ways.
    """
    always_inline()
    prefer_wide_vectors()
    x = planes.reshape(BLOCKS)
    for b in range(8):
        _three_stages(x, b, np.int64(8), np.uint64(32), np.uint64(0x00000000FFFFFFFF),
                      np.uint64(16), np.uint64(0x0000FFFF0000FFFF),
                      np.uint64(8), np.uint64(0x00FF00FF00FF00FF))
    for c in range(8):
        _three_stages(x, 8 * c, np.int64(1), np.uint64(4), np.uint64(0x0F0F0F0F0F0F0F0F),
                      np.uint64(2), np.uint64(0x3333333333333333),
                      np.uint64(1), np.uint64(0x5555555555555555))


@inline
def load_words(src: np.ndarray, start: int, count: int, x: np.ndarray) -> None:
    """Copy src[start:start+count] into x.flat[0:count] and zero the rest of x."""
    always_inline()
    prefer_wide_vectors()
    flat = x.reshape(BLOCKS)
    if count == BLOCKS:  # full pass: straight copy (branch depends on length only)
        for b in range(BLOCKS):
            flat[b] = src[start + b]
    else:
        for b in range(count):
            flat[b] = src[start + b]
        for b in range(count, BLOCKS):
            flat[b] = 0


@inline
def store_words(x: np.ndarray, dst: np.ndarray, start: int, count: int) -> None:
    """Copy x.flat[0:count] to dst[start:start+count] (padding lanes are dropped)."""
    always_inline()
    prefer_wide_vectors()
    flat = x.reshape(BLOCKS)
    for b in range(count):
        dst[start + b] = flat[b]


@inline
def copy_renamed(src: np.ndarray, dst: np.ndarray, xor: int) -> None:
    """dst[i] = src[i ^ xor] for every plane i (xor = BSWAP_XOR or 0)."""
    always_inline()
    prefer_wide_vectors()
    for i in range(64):
        k = i ^ xor
        for lane in range(LANES):
            dst[i, lane] = src[k, lane]


@inline
def swap_renamed(x: np.ndarray, xor: int) -> None:
    """In place, exchange planes i and i ^ xor (xor = BSWAP_XOR or 0)."""
    always_inline()
    prefer_wide_vectors()
    if xor == 0:
        return
    for i in range(64):
        k = i ^ xor
        if k > i:
            for lane in range(LANES):
                a = x[i, lane]
                x[i, lane] = x[k, lane]
                x[k, lane] = a
