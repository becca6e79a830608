"""IP and FP as swap-and-mask steps on a 64-bit block value, for the kernels.

DES's IP is an affine map on the six index bits of a bit position: it
transposes the block's 8x8 bit matrix, reverses one axis and reorders rows.
Any such map is a product of *delta swaps*
``t = ((x >> s) ^ x) & m;  x ^= t ^ (t << s)``, each exchanging or
complementing index bits.  ``tools/find_ip_swaps.py`` finds the shortest
product by breadth-first search from ``des.fips.IP``; these are its five steps,
and the tests check them bit by bit against the FIPS table.  Every delta swap
is its own inverse, so FP is the same steps in reverse order.

After IP, the kernels split the value into L (high 32 bits) and R (low 32
bits) and rotate each into the table engine's frame (see ``frame``).
"""

import numpy as np

from ..jit import always_inline, inline
from .frame import FRAME_ROTATION

# (shift, mask) of each delta swap, in the order IP applies them.
IP_STEPS = (
    (3, 0x1111111111111111),
    (6, 0x0303030303030303),
    (9, 0x0055005500550055),
    (18, 0x0000333300003333),
    (36, 0x000000000F0F0F0F),
)

_S0, _M0 = np.uint64(IP_STEPS[0][0]), np.uint64(IP_STEPS[0][1])
_S1, _M1 = np.uint64(IP_STEPS[1][0]), np.uint64(IP_STEPS[1][1])
_S2, _M2 = np.uint64(IP_STEPS[2][0]), np.uint64(IP_STEPS[2][1])
_S3, _M3 = np.uint64(IP_STEPS[3][0]), np.uint64(IP_STEPS[3][1])
_S4, _M4 = np.uint64(IP_STEPS[4][0]), np.uint64(IP_STEPS[4][1])
_ROT = np.uint64(FRAME_ROTATION)
_UNROT = np.uint64(32 - FRAME_ROTATION)
_M32 = np.uint64(0xFFFFFFFF)
_B8 = np.uint64(8)
_B24 = np.uint64(24)
_B40 = np.uint64(40)
_B56 = np.uint64(56)
_BYTE = np.uint64(0xFF)
_B32 = np.uint64(32)


@inline
def _delta_swap(x, shift, mask):
    always_inline()
    t = ((x >> shift) ^ x) & mask
    return x ^ t ^ (t << shift)


@inline
def ip(x):
    """IP of a block value (FIPS bit 1 = bit 63)."""
    always_inline()
    x = _delta_swap(x, _S0, _M0)
    x = _delta_swap(x, _S1, _M1)
    x = _delta_swap(x, _S2, _M2)
    x = _delta_swap(x, _S3, _M3)
    return _delta_swap(x, _S4, _M4)


@inline
def fp(x):
    """FP = IP^-1: the same delta swaps in reverse order."""
    always_inline()
    x = _delta_swap(x, _S4, _M4)
    x = _delta_swap(x, _S3, _M3)
    x = _delta_swap(x, _S2, _M2)
    x = _delta_swap(x, _S1, _M1)
    return _delta_swap(x, _S0, _M0)


@inline
def bswap64(x):
    """Reverse the bytes of a uint64 (LLVM turns this pattern into one bswap)."""
    always_inline()
    return (
        ((x & _BYTE) << _B56)
        | (((x >> _B8) & _BYTE) << np.uint64(48))
        | (((x >> np.uint64(16)) & _BYTE) << _B40)
        | (((x >> _B24) & _BYTE) << _B32)
        | (((x >> _B32) & _BYTE) << _B24)
        | (((x >> _B40) & _BYTE) << np.uint64(16))
        | (((x >> np.uint64(48)) & _BYTE) << _B8)
        | (x >> _B56)
    )


@inline
def split_into_frame(x):
    """IP, then (L, R) as int64 words in the rotated frame."""
    always_inline()
    x = ip(x)
    hi = x >> _B32
    lo = x & _M32
    left = ((hi << _ROT) | (hi >> _UNROT)) & _M32
    right = ((lo << _ROT) | (lo >> _UNROT)) & _M32
    return np.int64(left), np.int64(right)


@inline
def join_from_frame(left, right):
    """Undo the frame rotation of two halves, join them (``left`` high) and apply FP."""
    always_inline()
    hi = np.uint64(left)
    lo = np.uint64(right)
    hi = ((hi >> _ROT) | (hi << _UNROT)) & _M32
    lo = ((lo >> _ROT) | (lo << _UNROT)) & _M32
    return fp((hi << _B32) | lo)
