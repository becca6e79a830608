"""Compiled loops of the PIN block work: digit strings to digits, blocks built and parsed.

One pass over each row, no temporaries: NumPy's whole-array form of the
same steps makes a dozen (N, 16) passes and spends far more time than the
Triple-DES of the block.  ``pinblock.py`` checks the arguments and calls
these; they never raise.  Nibbles follow ISO 9564-1 (see ``pinblock.py``).
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
def build(pin_digits: np.ndarray, pin_lengths: np.ndarray, pan_digits: np.ndarray,
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
def parse(blocks: np.ndarray, pan_digits: np.ndarray, pan_lengths: np.ndarray, fmt: int,
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
