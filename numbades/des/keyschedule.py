"""The DES key schedule, fast: PC-1, rotations and PC-2 by table lookups.

``round_keys48`` produces the 16 round keys K1..K16 of FIPS 46-3 as 48-bit
integers (bit 1 of K_i at bit 47), from chunk tables derived here from PC-1
and PC-2.  Every engine starts from these round keys and builds its own key
form (the table engine's (Ku, Kt) words, the bitslice engine's key masks).
Direction and Triple-DES live in the *order* of round keys, not in separate
kernels: decryption is encryption with K16..K1, and EDE is 48 rounds over
K1, reversed K2, K3.
"""

import numpy as np
from numba import njit

from . import fips
from .bits import chunk_tables, permute

_INLINED_SOURCES_SHA256 = "788be9ed3715e2edb30b14b432aad11a822a591197370e45df581aebcdeb42ae"  # see tools/stamp_kernel_sources.py

#: PC-1 by key byte: PC1_BYTES[i][byte] = 56-bit C||D contribution of key byte i.
PC1_BYTES = chunk_tables(lambda v: permute(v, fips.PC1, 64), 64, 8)
#: PC-2 by 7-bit chunk of C||D: 48-bit round-key contribution.
PC2_CHUNKS = chunk_tables(lambda v: permute(v, fips.PC2, 56), 56, 7)
#: Left rotations before each round, as an array the key-schedule kernel can read.
SHIFTS = np.array(fips.SHIFTS, dtype=np.int64)
SHIFTS.setflags(write=False)

_M28 = np.uint64(0x0FFFFFFF)
_M7 = np.uint64(0x7F)
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


#: The compiled schedule, for kernels that compute round keys themselves:
#: ``round_keys48_into(key_value, PC1_BYTES, PC2_CHUNKS, SHIFTS, out16)``.
round_keys48_into = _round_keys48


_PC2_SHIFTS = np.arange(49, -1, -7, dtype=np.uint64)  # where each 7-bit chunk of C||D sits


def round_keys48_numpy(key: bytes) -> np.ndarray:
    """:func:`round_keys48` without its kernel (tens of microseconds, no compiler): the same
    chunk tables, the rotations in Python and PC-2 by NumPy over the 16 rounds at once."""
    cd = int(np.bitwise_or.reduce(PC1_BYTES[np.arange(8), np.frombuffer(key, np.uint8)]))
    c, d, both = cd >> 28, cd & 0x0FFFFFFF, []
    for s in fips.SHIFTS:
        c = ((c << s) | (c >> (28 - s))) & 0x0FFFFFFF
        d = ((d << s) | (d >> (28 - s))) & 0x0FFFFFFF
        both.append((c << 28) | d)
    chunks = (np.array(both, np.uint64).reshape(-1, 1) >> _PC2_SHIFTS) & _M7
    return np.bitwise_or.reduce(PC2_CHUNKS[np.arange(8), chunks], axis=1)


def round_keys48(key: bytes) -> np.ndarray:
    """K1..K16 of an 8-byte key as a (16,) uint64 array; parity bits are ignored."""
    out = np.empty(16, dtype=np.uint64)
    _round_keys48(np.uint64(int.from_bytes(key, "big")), PC1_BYTES, PC2_CHUNKS, SHIFTS, out)
    return out
