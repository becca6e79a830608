"""The compiled digit work of ``numbades.payments``: one pass over the rows per kernel.

NumPy spends more time on strings of digits (finding each row's length,
checking the characters, moving fields to per-row offsets, building and
parsing PIN blocks nibble by nibble) than the cipher spends on the blocks;
these small loops do it at memory speed, without temporaries (the card and
EMV fields: ``_card_kernels``; the PIN blocks: ``_pin_kernels``).  ``inputs``, ``pinblock``,
``cards`` and ``emv`` check the arguments and call these; they never raise.
Every kernel takes C-contiguous arrays of one dtype each, so each compiles
once (and is cached on disk).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_INLINED_SOURCES_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # see tools/stamp_kernel_sources.py


_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def _char(codes: np.ndarray, row: int, j: int, end: int, count: int,
          letters: bool) -> tuple:  # pragma: no cover - compiled
    """Character j of a row folded into (end, count, letters) of ``_string``, and its
    digit value as a nibble (a NUL gives 0)."""
    c = np.uint64(codes[row, j])
    present = c != 0
    end = max(end, (j + 1) * present)
    count += present
    d = c - np.uint64(48)  # below '0' wraps
    letters |= present & (d > np.uint64(9))
    return end, count, letters, d & np.uint64(15)


@njit(cache=True, nogil=True, inline="always")
def _string(codes: np.ndarray, row: int) -> tuple:  # pragma: no cover - compiled
    """(length, bad, hi, lo) of a NUL-padded string: length up to its last non-NUL
    character; bad when a character before it is not a digit (an embedded NUL is one,
    seen as fewer non-NUL characters than the length); its first 32 characters as
    digit nibbles of the pair (hi, lo), character 0 the top nibble of hi, a NUL as 0.

    One pass over the full width, each character at a fixed place: no branch
    and no shift that depends on the characters (loops that stopped at each
    row's own length mispredicted on rows of random lengths); the pass is cut
    at characters 16 and 32, so that each part fills one word or none.
    """
    end = 0
    count = 0
    letters = False
    hi = np.uint64(0)
    lo = np.uint64(0)
    width = codes.shape[1]
    for j in range(min(width, 16)):
        end, count, letters, d = _char(codes, row, j, end, count, letters)
        hi |= d << np.uint64(60 - 4 * j)
    for j in range(16, min(width, 32)):
        end, count, letters, d = _char(codes, row, j, end, count, letters)
        lo |= d << np.uint64(124 - 4 * j)
    for j in range(32, width):
        end, count, letters, _ = _char(codes, row, j, end, count, letters)
    return end, letters | (count != end), hi, lo


@njit(cache=True, nogil=True, inline="always")
def _shr(hi: np.uint64, lo: np.uint64, nibbles: int) -> tuple:  # pragma: no cover - compiled
    """The 128-bit pair shifted right by ``nibbles`` (0..31; negative: left by -nibbles)."""
    bits = 4 * nibbles
    if bits < 0:
        b = np.uint64(-bits & 63)
        if -bits >= 64:
            return lo << b, np.uint64(0)
        return (hi << b) | ((lo >> np.uint64(1)) >> (np.uint64(63) - b)), lo << b
    b = np.uint64(bits & 63)
    if bits >= 64:
        return np.uint64(0), hi >> b
    return hi >> b, (lo >> b) | ((hi << np.uint64(1)) << (np.uint64(63) - b))


@njit(cache=True, nogil=True, inline="always")
def _top(word: np.uint64, count: int) -> np.uint64:  # pragma: no cover - compiled
    """The top ``count`` nibbles (1..16) of a word, the rest cleared."""
    return word & ~((_ALL >> np.uint64(1)) >> np.uint64((4 * max(count, 1) - 1) & 63))


@njit(cache=True, nogil=True)
def digits_of(codes: np.ndarray, max_len: int, digits: np.ndarray,
              lengths: np.ndarray, bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """Character codes (N, W) (NUL-padded, uint8 or uint32) -> digits (N, max_len), lengths.

    A row's length runs to its last non-NUL character.  ``digits`` comes in
    zeroed; each row's first min(W, max_len) characters are written as digit
    values (a NUL as 0).  ``bad[i]`` is set for a row with a non-digit
    before its end (an embedded NUL is one); its digits are then not
    meaningful.  No branch depends on the characters (see ``_string``).
    """
    n = codes.shape[0]
    top = min(codes.shape[1], max_len)
    for i in range(n):
        length, wrong, _, _ = _string(codes, i)
        lengths[i] = length
        bad[i] = wrong
        for j in range(top):
            c = np.uint64(codes[i, j])
            digits[i, j] = np.uint8(((c - np.uint64(48)) * (c != 0)) & np.uint64(0xFF))


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
