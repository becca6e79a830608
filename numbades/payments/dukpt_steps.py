"""The glue of the DUKPT key generation steps, fused into small compiled loops.

``dukpt.py`` orders the rows by counter weight, so that the rows taking
step j are the first m; ``step_inputs`` then picks each row's next counter
bit (its highest bit not yet taken), sets it in the row's KSN register and
lays out the 2m DES inputs (keys KL and KL ^ C0, blocks KR ^ R and
KR ^ C0 ^ R), and after the DES call ``step_outputs`` forms the new key
halves; ``gather`` and ``scatter`` move the rows into that order (reading
the IPEKs and KSN registers as big-endian words) and back.  The DES itself
is ``numbades.DESArray``; these loops only replace a dozen whole-array
NumPy passes per step.  Keys and blocks are uint64
values read big-endian.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

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
    for i in range(m):
        top = np.uint64(1) << np.uint64(63 - leading_zeros(rest[i]))  # rest is never 0 here
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


@njit(cache=True, nogil=True, inline="always")
def _word(rows: np.ndarray, r: int, at: int) -> np.uint64:  # pragma: no cover - compiled
    """rows[r, at:at + 8] as a big-endian word."""
    word = np.uint64(0)
    for b in range(8):
        word = (word << np.uint64(8)) | np.uint64(rows[r, at + b])
    return word


@njit(cache=True, nogil=True)
def gather(ipek: np.ndarray, ksns: np.ndarray, counters: np.ndarray, order: np.ndarray,
           counter_mask: int, left: np.ndarray, right: np.ndarray, reg: np.ndarray,
           rest: np.ndarray) -> None:  # pragma: no cover - compiled
    """Row i of the step state from row order[i] of the inputs: the IPEK's halves, the KSN
    register (its rightmost 8 bytes, counter cleared) and the counter bits still to take."""
    clear = ~np.uint64(counter_mask)
    for i in range(order.shape[0]):
        r = order[i]
        left[i] = _word(ipek, r, 0)
        right[i] = _word(ipek, r, 8)
        reg[i] = _word(ksns, r, 2) & clear
        rest[i] = np.uint64(counters[r])


@njit(cache=True, nogil=True)
def scatter(left: np.ndarray, right: np.ndarray, order: np.ndarray,
            out: np.ndarray) -> None:  # pragma: no cover - compiled
    """out[order[i]] = (left[i], right[i]): the keys back in the rows' own order."""
    for i in range(order.shape[0]):
        r = order[i]
        out[r, 0] = left[i]
        out[r, 1] = right[i]
