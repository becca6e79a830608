"""The compiled digit work of ``numbades.payments``: one pass over the rows per kernel.

NumPy spends more time on strings of digits (finding each row's length,
checking the characters, moving fields to per-row offsets, building and
parsing PIN blocks nibble by nibble, picking the decimal nibbles of a
cipher block) than the cipher spends on the blocks; these small loops do
it at memory speed, without temporaries.  ``inputs``, ``pinblock``,
``cards`` and ``emv`` check the arguments and call these; they never raise.
Every kernel takes C-contiguous arrays of one dtype each, so each compiles
once (and is cached on disk).  PIN block nibbles follow ISO 9564-1 (see
``pinblock.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_INLINED_SOURCES_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # see tools/stamp_kernel_sources.py


@njit(cache=True, nogil=True, inline="always")
def _scan(c: np.int64, j: int, end: int, wrong: np.int64) -> tuple:  # pragma: no cover
    """One character at index j: (new end, new wrong flag), without a branch."""
    nz = np.int64(c != 0)
    wrong |= nz & np.int64(end != j)  # a NUL before this character
    wrong |= nz & np.int64(np.uint64(c - 48) > 9)  # below '0' wraps to a large value
    return max(end, (j + 1) * nz), wrong


@njit(cache=True, nogil=True)
def digits_of(codes: np.ndarray, max_len: int, digits: np.ndarray,
              lengths: np.ndarray, bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """Character codes (N, W) (NUL-padded, uint8 or uint32) -> digits (N, max_len), lengths.

    ``bad[i]`` is set for a row with a non-digit before its end (its last
    non-NUL character: an embedded NUL is a non-digit); its digits are then
    not meaningful.  Branch-free, since lengths vary from row to row.
    """
    n, width = codes.shape
    kept = min(width, max_len)
    for i in range(n):
        end = 0
        wrong = np.int64(0)
        for j in range(kept):
            c = np.int64(codes[i, j])
            end, wrong = _scan(c, j, end, wrong)
            digits[i, j] = np.uint8((c - 48) * np.int64(c != 0))
        for j in range(kept, width):
            end, wrong = _scan(np.int64(codes[i, j]), j, end, wrong)
        lengths[i] = end
        bad[i] = wrong != 0


@njit(cache=True, nogil=True, inline="always")
def _xor_pan(nib: np.ndarray, pan_digits: np.ndarray, pan_lengths: np.ndarray,
             row: int) -> None:  # pragma: no cover - compiled
    """XOR the PAN field into nibbles 4..15: the 12 PAN digits before the check digit."""
    first = pan_lengths[row] - 13
    for k in range(12):
        pos = first + k
        if pos >= 0:
            nib[4 + k] ^= pan_digits[row, pos]


@njit(cache=True, nogil=True)
def build_blocks(pin_digits: np.ndarray, pin_lengths: np.ndarray, pan_digits: np.ndarray,
          pan_lengths: np.ndarray, fmt: int, fill: np.ndarray,
          out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Clear blocks (N, 8): control nibble ``fmt``, length, PIN, fill; PAN XORed in for 0 and 3.

    ``fill`` (N, 16) holds each row's fill nibbles, or has no rows for the
    fixed ``F`` fill; ``pan_digits`` has N rows, one row (the same PAN for
    all) or none (formats 1 and 2).
    """
    n = pin_digits.shape[0]
    pan_rows = pan_digits.shape[0]
    drawn = fill.shape[0] > 0
    nib = np.empty(16, np.uint8)
    for i in range(n):
        length = pin_lengths[i]
        nib[0] = fmt
        nib[1] = length
        for k in range(2, 16):
            if k < length + 2:
                nib[k] = pin_digits[i, k - 2]
            elif drawn:
                nib[k] = fill[i, k]
            else:
                nib[k] = 0x0F
        if pan_rows:
            _xor_pan(nib, pan_digits, pan_lengths, 0 if pan_rows == 1 else i)
        for b in range(8):
            out[i, b] = (nib[2 * b] << 4) | nib[2 * b + 1]


@njit(cache=True, nogil=True)
def parse_blocks(blocks: np.ndarray, pan_digits: np.ndarray, pan_lengths: np.ndarray, fmt: int,
          digits: np.ndarray, lengths: np.ndarray, valid: np.ndarray) -> None:  # pragma: no cover
    """Clear blocks (N, 8) -> PIN digits (N, 12), lengths (0 where invalid), validity.

    Valid: control nibble ``fmt``, length 4..12, decimal PIN digits, and the
    fill of the format (F for 0 and 2, A-F for 3, anything for 1).
    """
    n = blocks.shape[0]
    pan_rows = pan_digits.shape[0]
    nib = np.empty(16, np.uint8)
    for i in range(n):
        for b in range(8):
            nib[2 * b] = blocks[i, b] >> 4
            nib[2 * b + 1] = blocks[i, b] & 0x0F
        if pan_rows:
            _xor_pan(nib, pan_digits, pan_lengths, 0 if pan_rows == 1 else i)
        length = np.int64(nib[1])
        ok = nib[0] == fmt and 4 <= length <= 12
        if ok:
            for k in range(2, 16):
                v = nib[k]
                if k < length + 2:
                    ok = ok and v <= 9
                elif fmt == 0 or fmt == 2:
                    ok = ok and v == 0x0F
                elif fmt == 3:
                    ok = ok and v >= 0x0A
        valid[i] = ok
        lengths[i] = length if ok else 0
        for j in range(12):
            digits[i, j] = nib[j + 2] if ok and j < length else 0


@njit(cache=True, nogil=True)
def pin_codes(digits: np.ndarray, lengths: np.ndarray,
              out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Digits (N, 12) and lengths -> UCS-4 codes (N, 12) of the PIN strings, NUL-padded."""
    n = digits.shape[0]
    for i in range(n):
        for j in range(12):
            out[i, j] = digits[i, j] + 48 if j < lengths[i] else 0

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
