"""The compiled digit work of the card and EMV functions: characters in, cipher blocks out.

Each card function (CVV, Visa PVV, IBM 3624, the EMV ICC master key) packs
a few digit fields into one or two cipher blocks, and CVV and PVV pick
decimal digits out of the cipher's result.  These kernels do each side in
one pass per row, straight from the characters of NumPy ``U``/``S`` arrays
(uint32 / uint8 codes, NUL-padded): the strings are scanned (length, a
non-digit flag, written for the caller to check before any cipher runs) and
their digits placed as nibbles of 64-bit words at fixed positions, with
masks instead of branches, so that rows of random lengths cost the same.
Argument arrays have N rows or one (serving every row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _mask, _scan

_INLINED_SOURCES_SHA256 = "4b54275d21d10b05786236e65c2d816d469c25061babbdcc3a3c2f9907e0c1bb"  # see tools/stamp_kernel_sources.py


@njit(cache=True, nogil=True, inline="always")
def _read(codes: np.ndarray, i: int, field: int, lengths: np.ndarray,
          bad: np.ndarray) -> tuple:  # pragma: no cover - compiled
    """(row of ``codes`` serving row i, its length): the scan written to lengths/bad[field, i]."""
    row = i if codes.shape[0] > 1 else 0
    length, wrong = _scan(codes, row)
    lengths[field, i] = length
    bad[field, i] = wrong
    return row, length


@njit(cache=True, nogil=True, inline="always")
def _put(codes: np.ndarray, row: int, first: int, count: int,
         at: int) -> np.uint64:  # pragma: no cover - compiled
    """Characters first..first+count-1 of a row as nibbles at..at+count-1 of a word (nibble 0
    the most significant); those that fall outside nibbles 0..15 are dropped."""
    word = np.uint64(0)
    for j in range(codes.shape[1]):
        k = j - first
        q = at + k
        keep = (k >= 0) & (k < count) & (q >= 0) & (q < 16)
        d = (np.uint64(codes[row, j]) - np.uint64(48)) & np.uint64(15)
        word |= (d & _mask(keep)) << np.uint64(4 * ((15 - q) & 15))
    return word


@njit(cache=True, nogil=True, inline="always")
def _store(out: np.ndarray, i: int, col: int, word: np.uint64) -> None:  # pragma: no cover
    """A word as 8 big-endian bytes at out[i, col:col + 8]."""
    for b in range(8):
        out[i, col + b] = np.uint8((word >> np.uint64(56 - 8 * b)) & np.uint64(0xFF))


@njit(cache=True, nogil=True)
def cvv_data(pan: np.ndarray, expiry: np.ndarray, service: np.ndarray, out: np.ndarray,
             lengths: np.ndarray, bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """CVV input (N, 16): PAN || expiry (4) || service code (3) || zeros, 32 nibbles."""
    for i in range(out.shape[0]):
        rp, length = _read(pan, i, 0, lengths, bad)
        re, _ = _read(expiry, i, 1, lengths, bad)
        rs, _ = _read(service, i, 2, lengths, bad)
        hi = (_put(pan, rp, 0, length, 0) | _put(expiry, re, 0, 4, length)
              | _put(service, rs, 0, 3, length + 4))
        lo = (_put(pan, rp, 0, length, -16) | _put(expiry, re, 0, 4, length - 16)
              | _put(service, rs, 0, 3, length - 12))
        _store(out, i, 0, hi)
        _store(out, i, 8, lo)


@njit(cache=True, nogil=True)
def pvv_data(pan: np.ndarray, pvki: np.ndarray, pin: np.ndarray, out: np.ndarray,
             lengths: np.ndarray, bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """Visa PVV input (N, 8): the 11 PAN digits before the check digit, PVKI, 4 PIN digits."""
    for i in range(out.shape[0]):
        rp, length = _read(pan, i, 0, lengths, bad)
        rk, _ = _read(pvki, i, 1, lengths, bad)
        rn, _ = _read(pin, i, 2, lengths, bad)
        _store(out, i, 0, _put(pan, rp, length - 12, 11, 0) | _put(pvki, rk, 0, 1, 11)
               | _put(pin, rn, 0, 4, 12))


@njit(cache=True, nogil=True)
def validation_data(pan: np.ndarray, out: np.ndarray, lengths: np.ndarray, bad: np.ndarray,
                    start: int, count: int, pad: int) -> None:  # pragma: no cover
    """IBM 3624 validation data (N, 8): min(count, 16) PAN digits from ``start``, then the
    nibble ``pad`` to 16.  ``count``: the digits to take, or -1 for "to the PAN's end".
    The caller refuses rows where that leaves the PAN."""
    pads = np.uint64(pad & 15) * np.uint64(0x1111111111111111)
    for i in range(out.shape[0]):
        rp, length = _read(pan, i, 0, lengths, bad)
        taken = min(length - start if count < 0 else count, 16)
        tail = np.uint64(4 * (16 - max(taken, 0)))
        fill = pads & ((np.uint64(1) << tail) - np.uint64(1)) if taken > 0 else pads
        _store(out, i, 0, _put(pan, rp, start, taken, 0) | fill)


@njit(cache=True, nogil=True)
def icc_data(pan: np.ndarray, psn: np.ndarray, out: np.ndarray, lengths: np.ndarray,
             bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """EMV option A input (N, 16): Y, the rightmost 16 digits of PAN || PSN (2), zeros on the
    left, then Y with every bit inverted."""
    for i in range(out.shape[0]):
        rp, length = _read(pan, i, 0, lengths, bad)
        rs, _ = _read(psn, i, 1, lengths, bad)
        y = _put(pan, rp, 0, length, 14 - length) | _put(psn, rs, 0, 2, 14)
        _store(out, i, 0, y)
        _store(out, i, 8, ~y)


@njit(cache=True, nogil=True)
def decimal_codes(data: np.ndarray, base: int, out: np.ndarray) -> None:  # pragma: no cover
    """Visa's digit extraction: the first out.shape[1] (at most 16) decimal nibbles of each
    row of bytes, left to right, then if too few its nibbles A-F as 0-5; written as
    ``base + digit`` (48 for the character codes of a ``U`` array, 0 for digit values).

    The digits gather in a word at a running position, without a branch; only
    a row with too few decimal nibbles (rare) takes the second loop.
    """
    count = out.shape[1]
    for i in range(data.shape[0]):
        word = np.uint64(0)
        k = 0
        for j in range(2 * data.shape[1]):
            nib = (np.int64(data[i, j >> 1]) >> (4 * (1 - (j & 1)))) & 15
            take = (nib < 10) & (k < count)
            word |= (np.uint64(nib) & _mask(take)) << np.uint64(4 * (k & 15))
            k += nib < 10
        if k < count:
            for j in range(2 * data.shape[1]):
                nib = (np.int64(data[i, j >> 1]) >> (4 * (1 - (j & 1)))) & 15
                take = (nib >= 10) & (k < count)
                word |= (np.uint64(nib - 10) & _mask(take)) << np.uint64(4 * (k & 15))
                k += nib >= 10
        for r in range(count):
            out[i, r] = np.uint64(base) + ((word >> np.uint64(4 * r)) & np.uint64(15))


@njit(cache=True, nogil=True)
def odd_parity(keys: np.ndarray) -> None:  # pragma: no cover - compiled
    """Set the low bit of every byte of ``keys`` (any shape, C-contiguous) so that the byte
    has odd parity, in place."""
    flat = keys.reshape(-1)
    for i in range(flat.size):
        b = np.uint32(flat[i])
        x = b >> 1
        x ^= x >> 4
        x ^= x >> 2
        x ^= x >> 1
        flat[i] = np.uint8((b & 0xFE) | ((x & 1) ^ 1))
