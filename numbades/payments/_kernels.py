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
def _at(values: np.ndarray, i: int) -> int:  # pragma: no cover - compiled
    """Row i's entry of a per-row array, or the one entry every row shares."""
    return values[i] if values.shape[0] > 1 else values[0]


@njit(cache=True, nogil=True)
def join(lead: np.ndarray, a: np.ndarray, a_start: np.ndarray, a_len: np.ndarray,
         b: np.ndarray, b_len: np.ndarray, c: np.ndarray, c_len: np.ndarray, fill: int,
         out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Packed digit rows: ``lead[i]`` fill nibbles, a[i, a_start[i]:][:a_len[i]],
    b[i, :b_len[i]], c[i, :c_len[i]], then fill nibbles to 2 * out.shape[1].

    ``a``, ``b``, ``c`` are (N or 1, width) uint8 digit values; the intp arrays
    hold one entry per row or one for every row; a one-row ``a``, ``b`` or
    ``c`` serves every row.  ``out``: (N, k) uint8, high nibble first.
    """
    n, k = out.shape
    nibbles = np.empty(2 * k, np.uint8)
    for i in range(n):
        pos = 0
        for _ in range(_at(lead, i)):
            nibbles[pos] = fill
            pos += 1
        ar = i if a.shape[0] > 1 else 0
        first = _at(a_start, i)
        for j in range(_at(a_len, i)):
            nibbles[pos] = a[ar, first + j]
            pos += 1
        br = i if b.shape[0] > 1 else 0
        for j in range(_at(b_len, i)):
            nibbles[pos] = b[br, j]
            pos += 1
        cr = i if c.shape[0] > 1 else 0
        for j in range(_at(c_len, i)):
            nibbles[pos] = c[cr, j]
            pos += 1
        while pos < 2 * k:
            nibbles[pos] = fill
            pos += 1
        for j in range(k):
            out[i, j] = (np.int64(nibbles[2 * j]) << 4) | np.int64(nibbles[2 * j + 1])


@njit(cache=True, nogil=True)
def decimalize(data: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """The first out.shape[1] decimal nibbles of each row of bytes, left to right, then
    (if too few) its nibbles A-F as 0-5, left to right (Visa's digit extraction).

    Branch-free in the common case: every nibble is written and the position
    advances only past decimal ones (a random nibble is a letter 6 times in 16,
    which a branch would mispredict).
    """
    count = out.shape[1]
    width = data.shape[1]
    picked = np.empty(2 * width + 1, np.uint8)
    for i in range(data.shape[0]):
        k = 0
        for j in range(width):
            byte = np.int64(data[i, j])
            high, low = byte >> 4, byte & 15
            picked[k] = high
            k += high < 10
            picked[k] = low
            k += low < 10
        if k < count:  # rare: too few decimal digits, the letters follow as 0-5
            for j in range(width):
                byte = np.int64(data[i, j])
                high, low = byte >> 4, byte & 15
                picked[k] = high - 10
                k += high >= 10
                picked[k] = low - 10
                k += low >= 10
        for j in range(count):
            out[i, j] = picked[j]


@njit(cache=True, nogil=True)
def ibm3624(enciphered: np.ndarray, table: np.ndarray, values: np.ndarray,
            lengths: np.ndarray, sign: int, out: np.ndarray) -> None:  # pragma: no cover
    """IBM 3624 digits as NumPy U codes: (values + sign * natural) mod 10 for each row.

    ``enciphered``: (N, 8) bytes of the enciphered validation data, whose 16
    nibbles map through ``table`` (16 digit values) to the natural PIN digits;
    ``values``: (N or 1, 16) digit values (offsets for sign +1: the PIN; PINs
    for sign -1: the offset; zeros for +1: the natural PIN),
    ``lengths`` per row or one for all; ``out``: (N, 16) uint32 character
    codes, NUL after each row's length.
    """
    for i in range(out.shape[0]):
        vr = i if values.shape[0] > 1 else 0
        length = _at(lengths, i)
        for j in range(16):
            if j < length:
                byte = np.int64(enciphered[i, j >> 1])
                nib = (byte >> 4) if (j & 1) == 0 else (byte & 15)
                natural = np.int64(table[nib])
                value = np.int64(values[vr, j])
                out[i, j] = 48 + (value + sign * natural + 10) % 10
            else:
                out[i, j] = 0
