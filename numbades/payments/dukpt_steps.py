"""The glue of one DUKPT key generation step, fused into two small compiled loops.

``dukpt.py`` orders the rows by counter weight, so that the rows taking
step j are the first m; ``step_inputs`` then picks each row's next counter
bit (its highest bit not yet taken), sets it in the row's KSN register and
lays out the 2m DES inputs (keys KL and KL ^ C0, blocks KR ^ R and
KR ^ C0 ^ R), and after the DES call ``step_outputs`` forms the new key
halves.  The DES itself is ``numbades.DESArray``; these loops only replace
a dozen whole-array NumPy passes per step.  Keys and blocks are uint64
values read big-endian.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_INLINED_SOURCES_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # see tools/stamp_kernel_sources.py

#: The C0 mask of X9.24-1's key generation, one half.
C0 = np.uint64(0xC0C0C0C000000000)


_M8 = np.uint64(0x00FF00FF00FF00FF)
_M16 = np.uint64(0x0000FFFF0000FFFF)


@njit(cache=True, nogil=True, inline="always")
def _byteswap(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    x = ((x & _M8) << np.uint64(8)) | ((x >> np.uint64(8)) & _M8)
    x = ((x & _M16) << np.uint64(16)) | ((x >> np.uint64(16)) & _M16)
    return (x << np.uint64(32)) | (x >> np.uint64(32))


@njit(cache=True, nogil=True)
def step_inputs(left: np.ndarray, right: np.ndarray, reg: np.ndarray, rest: np.ndarray,
                m: int, des_keys: np.ndarray, blocks: np.ndarray,
                keys_as_bytes: bool) -> None:  # pragma: no cover - compiled
    """For rows 0..m-1: take the highest bit of ``rest`` into ``reg``; fill the 2m DES inputs.

    With ``keys_as_bytes`` (a little-endian host) the keys are stored byte-swapped, so that
    ``des_keys.view(np.uint8)`` holds them as big-endian bytes, the form ``DESArray`` keeps.
    """
    one = np.uint64(1)
    for i in range(m):
        x = rest[i]
        for s in (1, 2, 4, 8, 16, 32):
            x |= x >> np.uint64(s)
        top = x ^ (x >> one)
        rest[i] ^= top
        r = reg[i] | top
        reg[i] = r
        kl = left[i]
        kr = right[i]
        k0, k1 = kl, kl ^ C0
        if keys_as_bytes:
            k0, k1 = _byteswap(k0), _byteswap(k1)
        des_keys[i] = k0
        des_keys[m + i] = k1
        blocks[i] = kr ^ r
        blocks[m + i] = kr ^ C0 ^ r


@njit(cache=True, nogil=True)
def step_outputs(left: np.ndarray, right: np.ndarray, out: np.ndarray,
                 m: int) -> None:  # pragma: no cover
    """New halves for rows 0..m-1: right = KR ^ out[i], left = (KR ^ C0) ^ out[m + i]."""
    for i in range(m):
        kr = right[i]
        right[i] = kr ^ out[i]
        left[i] = kr ^ C0 ^ out[m + i]
