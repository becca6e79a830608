"""The DES key schedule, fast: PC-1, rotations and PC-2 by table lookups.

``round_keys48`` produces the 16 round keys K1..K16 of FIPS 46-3 as 48-bit
integers (bit 1 of K_i at bit 47), from the chunk tables that ``_tables``
derives from PC-1 and PC-2.  ``frame_schedule`` scatters round keys into the
(Ku, Kt) word pairs the table kernels XOR in.  Direction and Triple-DES live
in the *order* of round keys, not in separate kernels: decryption is
encryption with K16..K1, and EDE is 48 rounds over K1, reversed K2, K3.
"""

import numpy as np
from numba import njit

from . import _tables

_INLINED_SOURCES_SHA256 = "38c4119b46fad19ac463ffbad849bf589dedc0e9d6d90d0b3aef8e30546dba1d"  # see tools/stamp_kernel_sources.py

_M28 = np.uint64(0x0FFFFFFF)
_M7 = np.uint64(0x7F)
_M6 = np.uint64(0x3F)
_M8 = np.uint64(0xFF)
_U28 = np.uint64(28)


@njit(nogil=True, cache=True)
def _round_keys48(key, pc1_bytes, pc2_chunks, shifts, out):
    cd = np.uint64(0)
    for i in range(8):
        cd |= pc1_bytes[i, (key >> np.uint64(56 - 8 * i)) & _M8]
    c = cd >> _U28
    d = cd & _M28
    for r in range(16):
        s = np.uint64(shifts[r])
        c = ((c << s) | (c >> (_U28 - s))) & _M28
        d = ((d << s) | (d >> (_U28 - s))) & _M28
        both = (c << _U28) | d
        k = np.uint64(0)
        for j in range(8):
            k |= pc2_chunks[j, (both >> np.uint64(49 - 7 * j)) & _M7]
        out[r] = k


@njit(nogil=True, cache=True)
def _frame_schedule(round_keys, frame_chunks, out):
    for r in range(round_keys.shape[0]):
        k = round_keys[r]
        both = np.uint64(0)
        for j in range(8):
            both |= frame_chunks[j, (k >> np.uint64(42 - 6 * j)) & _M6]
        out[2 * r] = np.uint32(both >> np.uint64(32))
        out[2 * r + 1] = np.uint32(both & np.uint64(0xFFFFFFFF))


def round_keys48(key: bytes) -> np.ndarray:
    """K1..K16 of an 8-byte key as a (16,) uint64 array; parity bits are ignored."""
    out = np.empty(16, dtype=np.uint64)
    _round_keys48(
        np.uint64(int.from_bytes(key, "big")),
        _tables.PC1_BYTES,
        _tables.PC2_CHUNKS,
        _tables.SHIFTS,
        out,
    )
    return out


def frame_schedule(round_keys: np.ndarray) -> np.ndarray:
    """(Ku, Kt) pairs for round keys in application order: shape (2 * R,) uint32."""
    round_keys = np.ascontiguousarray(round_keys, dtype=np.uint64)
    out = np.empty(2 * round_keys.shape[0], dtype=np.uint32)
    _frame_schedule(round_keys, _tables.FRAME_KEY_CHUNKS, out)
    return out
