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

from ..jit import always_inline, inline
from .vector_width import prefer_wide_vectors

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
def _delta_swap_stage(x: np.ndarray, s: int, mask: np.uint64) -> None:
    """One transpose stage on a flat plane array, for every lane at once.

    Between rows j and j + s (j & s == 0) it exchanges the bits of row j whose
    index has bit s set with the bits of row j + s whose index has it clear;
    ``mask`` selects the "clear" bits.  Composing s = 32, 16, ..., 1 swaps row
    and bit index entirely.  Rows j0..j0+s-1 of all lanes are one contiguous
    run, so the inner loop is a long unit-stride loop LLVM vectorizes (a loop
    over 8 lanes alone gets fully unrolled and LLVM then vectorizes the row
    loop with gathers, several times slower).
    """
    always_inline()
    prefer_wide_vectors()
    us = np.uint64(s)
    for j0 in range(0, 64, 2 * s):
        lo = j0 * LANES  # rows j0 .. j0+s-1 are one contiguous run of s * LANES words
        hi = lo + s * LANES  # and so are their partners j0+s .. j0+2s-1
        for i in range(s * LANES):
            a = x[lo + i]
            b = x[hi + i]
            t = ((a >> us) ^ b) & mask  # a's high bits vs b's low bits, differing
            x[hi + i] = b ^ t
            x[lo + i] = a ^ (t << us)


@inline
def transpose64(planes: np.ndarray) -> None:
    """Transpose, in place, each lane's 64 x 64 bit matrix: x[i, l] bit j <-> x[j, l] bit i.

    The transpose is its own inverse, so the same function converts both ways.
    """
    always_inline()
    prefer_wide_vectors()
    x = planes.reshape(BLOCKS)
    _delta_swap_stage(x, 32, np.uint64(0x00000000FFFFFFFF))
    _delta_swap_stage(x, 16, np.uint64(0x0000FFFF0000FFFF))
    _delta_swap_stage(x, 8, np.uint64(0x00FF00FF00FF00FF))
    _delta_swap_stage(x, 4, np.uint64(0x0F0F0F0F0F0F0F0F))
    _delta_swap_stage(x, 2, np.uint64(0x3333333333333333))
    _delta_swap_stage(x, 1, np.uint64(0x5555555555555555))


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
