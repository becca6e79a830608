"""Digit rows of the card and EMV functions, after ``inputs`` has checked them.

Packing digit fields into blocks at per-row offsets (``join``), Visa's
decimalisation of cipher output (``decimalize``), digit values back to
strings (``as_strings``) and odd key parity (``odd_parity``); the loops are
in ``_kernels``.  Nothing here checks arguments.
"""

from __future__ import annotations

import numpy as np

from . import _kernels


def decimalize(data: np.ndarray, count: int) -> np.ndarray:
    """Visa's digit extraction from (N, k) bytes: the first ``count`` decimal nibbles left
    to right, then, if too few, the nibbles A-F left to right as 0-5.  (N, count) uint8."""
    out = np.zeros((data.shape[0], count), np.uint8)
    _kernels.decimalize(np.ascontiguousarray(data, np.uint8), out)
    return out


def as_strings(digits: np.ndarray, lengths: np.ndarray | None = None) -> np.ndarray:
    """(N, k) digit values -> N strings (a NumPy U array); row i cut to lengths[i] digits."""
    n, k = digits.shape
    codes = digits.astype(np.uint32) + 48
    if lengths is not None:
        codes[np.arange(k) >= lengths[:, None]] = 0
    return np.ascontiguousarray(codes).view(np.dtype(f"U{max(k, 1)}")).reshape(n) if k \
        else np.full(n, "", "U1")


_NOTHING = np.zeros((1, 1), np.uint8)


def entries(value: np.ndarray | int) -> np.ndarray:
    """One intp entry per row, or one for every row."""
    return np.ascontiguousarray(np.asarray(value, np.intp).reshape(-1))


def join(n: int, width: int, a: np.ndarray, a_start: np.ndarray | int,
         a_len: np.ndarray | int, b: np.ndarray = _NOTHING, b_len: np.ndarray | int = 0,
         c: np.ndarray = _NOTHING, c_len: np.ndarray | int = 0, *,
         lead: np.ndarray | int = 0, fill: int = 0) -> np.ndarray:
    """(n, width) bytes of packed digits: ``lead`` fill nibbles, a[i, a_start:][:a_len],
    b[i, :b_len], c[i, :c_len], fill nibbles to the end.

    Digit arrays have n rows or one (serving every row); starts and lengths
    are per row or one for all, and the caller keeps them inside the rows.
    """
    out = np.empty((n, width), np.uint8)
    if n:
        _kernels.join(entries(lead), np.ascontiguousarray(a), entries(a_start),
                      entries(a_len), np.ascontiguousarray(b), entries(b_len),
                      np.ascontiguousarray(c), entries(c_len), fill, out)
    return out


_LOW_BITS = np.uint64(0x0101010101010101)
_HIGH_BITS = np.uint64(0xFEFEFEFEFEFEFEFE)
_FOLDS = ((np.uint64(4), np.uint64(0x0F0F0F0F0F0F0F0F)),
          (np.uint64(2), np.uint64(0x3333333333333333)),
          (np.uint64(1), np.uint64(0x5555555555555555)))


def odd_parity(keys: np.ndarray) -> np.ndarray:
    """(N, 8k) uint8 keys with each byte's low bit set so that it has odd parity.

    Eight bytes at a time: each byte's upper seven bits fold (xor) into its
    low bit, within the byte, and the parity bit is the complement of that.
    """
    words = np.ascontiguousarray(keys).view(np.uint64)
    upper = words & _HIGH_BITS
    folded = upper.copy()
    for shift, mask in _FOLDS:
        folded ^= (folded >> shift) & mask
    return (upper | ((folded & _LOW_BITS) ^ _LOW_BITS)).view(np.uint8).reshape(keys.shape)
