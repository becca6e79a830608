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


@njit(cache=True, nogil=True)
def digits_of(codes: np.ndarray, max_len: int, digits: np.ndarray,
              lengths: np.ndarray, bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """Character codes (N, W) (NUL-padded, uint8 or uint32) -> digits (N, max_len), lengths.

    ``bad[i]`` is set for a row with a non-digit before its end (its last
    non-NUL character); its digits are then not meaningful.
    """
    n, width = codes.shape
    for i in range(n):
        end = 0
        for j in range(width - 1, -1, -1):
            if codes[i, j] != 0:
                end = j + 1
                break
        lengths[i] = end
        wrong = False
        for j in range(end):
            c = np.int64(codes[i, j]) - 48
            if c < 0 or c > 9:
                wrong = True
            elif j < max_len:
                digits[i, j] = c
        bad[i] = wrong


@njit(cache=True, nogil=True, inline="always")
def _pan_nibble(pan_digits: np.ndarray, pan_lengths: np.ndarray, row: int,
                k: int) -> np.uint8:  # pragma: no cover - compiled
    """Nibble k (0..15) of the PAN field: 4 zeros, then the 12 digits before the check digit."""
    if k < 4:
        return np.uint8(0)
    pos = pan_lengths[row] - 13 + (k - 4)
    return pan_digits[row, pos] if pos >= 0 else np.uint8(0)


@njit(cache=True, nogil=True)
def build(pin_digits: np.ndarray, pin_lengths: np.ndarray, pan_digits: np.ndarray,
          pan_lengths: np.ndarray, fmt: int, fill: np.ndarray,
          out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Clear blocks (N, 8): control nibble ``fmt``, length, PIN, fill; PAN XORed in for 0 and 3.

    ``fill`` (N, 16) holds each row's fill nibbles (F for formats 0 and 2);
    ``pan_digits`` has N rows, one row (the same PAN for all) or none
    (formats 1 and 2).
    """
    n = pin_digits.shape[0]
    pan_rows = pan_digits.shape[0]
    for i in range(n):
        length = pin_lengths[i]
        p = 0 if pan_rows == 1 else i
        for b in range(8):
            byte = 0
            for h in range(2):
                k = 2 * b + h
                if k == 0:
                    v = np.uint8(fmt)
                elif k == 1:
                    v = np.uint8(length)
                elif k < length + 2:
                    v = pin_digits[i, k - 2]
                else:
                    v = fill[i, k]
                if pan_rows:
                    v ^= _pan_nibble(pan_digits, pan_lengths, p, k)
                byte = (byte << 4) | np.int64(v)
            out[i, b] = byte


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
        p = 0 if pan_rows == 1 else i
        for k in range(16):
            v = (blocks[i, k // 2] >> (4 * (1 - k % 2))) & 0x0F
            if pan_rows:
                v ^= _pan_nibble(pan_digits, pan_lengths, p, k)
            nib[k] = v
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
