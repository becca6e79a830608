"""The digit work of the card and EMV functions, compiled: one pass over the rows each.

NumPy spends more time on strings of digits (finding each row's length,
checking the characters, moving fields to per-row offsets, picking the
decimal nibbles of a cipher block) than the cipher spends on the blocks;
these small loops do it at memory speed.  Every kernel takes C-contiguous
arrays of one dtype each, so each compiles once (and is cached on disk).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_INLINED_SOURCES_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # see tools/stamp_kernel_sources.py

#: parse status codes, one per row
OK, BAD_LENGTH, NOT_DIGITS = 0, 1, 2


@njit(cache=True, nogil=True)
def parse(codes: np.ndarray, min_len: int, max_len: int, digits: np.ndarray,
          lengths: np.ndarray, status: np.ndarray) -> None:  # pragma: no cover - compiled
    """Characters (N, W) uint32 (NumPy U codes, NUL-padded) -> digit values.

    A row's length is up to its last non-NUL character (NumPy's ``str_len``);
    ``digits[i, :length]`` gets its values (zeros after), ``status[i]`` OK,
    BAD_LENGTH (outside min_len..max_len) or NOT_DIGITS.
    """
    n, width = codes.shape
    for i in range(n):
        length = width
        while length > 0 and codes[i, length - 1] == 0:
            length -= 1
        lengths[i] = length
        for j in range(digits.shape[1]):
            digits[i, j] = 0
        if length < min_len or length > max_len:
            status[i] = BAD_LENGTH
            continue
        state = OK
        for j in range(length):
            value = np.int64(codes[i, j]) - 48
            if value < 0 or value > 9:
                state = NOT_DIGITS
                break
            digits[i, j] = value
        status[i] = state


@njit(cache=True, nogil=True)
def move(target: np.ndarray, target_starts: np.ndarray, source: np.ndarray,
         source_starts: np.ndarray, counts: np.ndarray) -> None:  # pragma: no cover - compiled
    """target[i, target_starts[i] + j] = source[i, source_starts[i] + j] for j < counts[i].

    uint8 rows, intp offsets and counts (the caller keeps them inside the rows).
    """
    for i in range(target.shape[0]):
        t, s = target_starts[i], source_starts[i]
        for j in range(counts[i]):
            target[i, t + j] = source[i, s + j]


@njit(cache=True, nogil=True)
def pack(nibbles: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """(N, 2k) values 0..15 -> (N, k) bytes, high nibble first."""
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = (nibbles[i, 2 * j] << 4) | nibbles[i, 2 * j + 1]


@njit(cache=True, nogil=True)
def decimalize(data: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """The first out.shape[1] decimal nibbles of each row of bytes, left to right, then
    (if too few) its nibbles A-F as 0-5, left to right (Visa's digit extraction)."""
    count = out.shape[1]
    nibbles = 2 * data.shape[1]
    for i in range(data.shape[0]):
        k = 0
        for letters in range(2):
            for j in range(nibbles):
                if k == count:
                    break
                byte = data[i, j >> 1]
                nib = (byte >> 4) if (j & 1) == 0 else (byte & 15)
                if (nib >= 10) == (letters == 1):
                    out[i, k] = nib % 10
                    k += 1
