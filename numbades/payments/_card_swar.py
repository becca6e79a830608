"""The card functions' inputs read by the SWAR reader (``_swar``): fast paths of ``_card_kernels``.

Each kernel reads its fields a block of 256 rows at a time
(``_swar.digit_rows``: narrowed to bytes, eight characters to a word, every
row's digit check and length at once) and packs them into the cipher input
of each row with 128-bit word shifts (no branch, no per-character loop), so
that the compiler runs them on vector registers.  Each answers only whether
every row was clean (digits, then NULs, lengths in range, the IBM 3624 digits
within the PAN); when one was not, or a field is wider than 24 characters,
the caller runs the exact kernels of ``_card_kernels``, which name the
rows.  Fields are flat character codes (``U``: uint32, ``S``: uint8) with
their width and whether one row serves all.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _ALL
from ._swar import _ROWS, _SLACK, _U, digit_rows

_INLINED_SOURCES_SHA256 = "6cfb4b0978f14fa963e00e43df76bc83f7d7bce39820f3e3cd9b0e74858250c2"  # see tools/stamp_kernel_sources.py


@njit(cache=True, nogil=True, inline="always")
def _shl(hi: np.uint64, lo: np.uint64, bits: np.uint64) -> tuple:  # pragma: no cover
    """The 128-bit pair hi:lo shifted left by ``bits`` (0..127), without a branch."""
    r = bits & _U(63)
    big = _U(0) - ((bits >> _U(6)) & _U(1))  # all ones for a shift of 64 or more
    h = (hi << r) | ((lo >> _U(1)) >> (_U(63) - r))
    low = lo << r
    return (low & big) | (h & ~big), low & ~big


@njit(cache=True, nogil=True, inline="always")
def _shr(hi: np.uint64, lo: np.uint64, bits: np.uint64) -> tuple:  # pragma: no cover
    """The 128-bit pair hi:lo shifted right by ``bits`` (0..127), without a branch."""
    r = bits & _U(63)
    big = _U(0) - ((bits >> _U(6)) & _U(1))
    high = hi >> r
    low = (lo >> r) | ((hi << _U(1)) << (_U(63) - r))
    return high & ~big, (high & big) | (low & ~big)


@njit(cache=True, nogil=True, inline="always")
def _top(word: np.uint64, count: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """The top ``count`` nibbles (1..16) of a word, the rest cleared."""
    return word & ~((_ALL >> _U(1)) >> ((_U(4) * count - _U(1)) & _U(63)))


@njit(cache=True, nogil=True, inline="always")
def _buffers(width: int) -> tuple:  # pragma: no cover - compiled
    """A field's byte buffer and its (3, _ROWS) columns (``_swar.digit_rows``)."""
    return np.empty(_ROWS * width + _SLACK, np.uint8), np.empty((3, _ROWS), np.uint64)


@njit(cache=True, nogil=True)
def words_fast(codes: np.ndarray, width: int, one: bool, low: int, high: int,
               words: np.ndarray, lengths: np.ndarray) -> bool:  # pragma: no cover
    """Digit strings (rows of ``width`` <= 24) as (N,) words, digit 0 the top nibble (the
    first 16 digits), and their lengths; True when every row is clean and low..high
    digits long (else the results are meaningless)."""
    chars, cols = _buffers(width)
    wrong = _U(0)
    for start in range(0, words.shape[0], _ROWS):
        rows = min(_ROWS, words.shape[0] - start)
        wrong |= digit_rows(codes, width, one, start, low, high, chars, cols, rows)
        words[start:start + rows] = cols[0, :rows]
        row_lengths, found = lengths[start:start + rows], cols[2, :rows]
        for j in range(rows):  # indices from a range: vectorised
            row_lengths[j] = np.int8(found[j])
    return wrong == _U(0)


@njit(cache=True, nogil=True)
def pvv_fast(pan: np.ndarray, pan_width: int, pan_one: bool, pvki: np.ndarray,
             pvki_width: int, pvki_one: bool, pin: np.ndarray, pin_width: int,
             pin_one: bool, out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """``_card_kernels.pvv_data`` (the Visa PVV input words): True when every row is clean
    (PAN 12 to 19 digits, PVKI 1, PIN 4)."""
    a_chars, a = _buffers(pan_width)
    k_chars, k = _buffers(pvki_width)
    p_chars, p = _buffers(pin_width)
    done = np.empty(_ROWS, np.uint64)
    wrong = _U(0)
    for start in range(0, out.shape[0], _ROWS):
        rows = min(_ROWS, out.shape[0] - start)
        wrong |= digit_rows(pan, pan_width, pan_one, start, 12, 19, a_chars, a, rows)
        wrong |= digit_rows(pvki, pvki_width, pvki_one, start, 1, 1, k_chars, k, rows)
        wrong |= digit_rows(pin, pin_width, pin_one, start, 4, 4, p_chars, p, rows)
        for j in range(rows):  # vectorised: no branch
            # the 11 digits before the check digit to the top, then the PVKI and the PIN
            digits, _ = _shl(a[0, j], a[1, j], (_U(4) * (a[2, j] - _U(12))) & _U(127))
            done[j] = _top(digits, _U(11)) | (k[0, j] >> _U(44)) | (p[0, j] >> _U(48))
        out[start:start + rows] = done[:rows]
    return wrong == _U(0)


@njit(cache=True, nogil=True)
def cvv_fast(pan: np.ndarray, pan_width: int, pan_one: bool, expiry: np.ndarray,
             expiry_width: int, expiry_one: bool, service: np.ndarray, service_width: int,
             service_one: bool, out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """``_card_kernels.cvv_data`` (the CVV input, (2, N) words): True when every row is
    clean (PAN 1 to 19 digits, expiry 4, service code 3)."""
    a_chars, a = _buffers(pan_width)
    e_chars, e = _buffers(expiry_width)
    c_chars, c = _buffers(service_width)
    done = np.empty((2, _ROWS), np.uint64)
    wrong = _U(0)
    for start in range(0, out.shape[1], _ROWS):
        rows = min(_ROWS, out.shape[1] - start)
        wrong |= digit_rows(pan, pan_width, pan_one, start, 1, 19, a_chars, a, rows)
        wrong |= digit_rows(expiry, expiry_width, expiry_one, start, 4, 4, e_chars, e,
                            rows)
        wrong |= digit_rows(service, service_width, service_one, start, 3, 3, c_chars, c,
                            rows)
        for j in range(rows):  # vectorised: no branch
            tail = e[0, j] | (c[0, j] >> _U(16))  # expiry || service code, after the PAN
            t_hi, t_lo = _shr(tail, _U(0), (_U(4) * a[2, j]) & _U(127))
            done[0, j] = a[0, j] | t_hi
            done[1, j] = a[1, j] | t_lo
        out[0, start:start + rows] = done[0, :rows]
        out[1, start:start + rows] = done[1, :rows]
    return wrong == _U(0)


@njit(cache=True, nogil=True)
def validation_fast(pan: np.ndarray, pan_width: int, pan_one: bool, start_digit: int,
                    count: int, pad: int, out: np.ndarray) -> bool:  # pragma: no cover
    """``_card_kernels.validation_data`` (IBM 3624, (N,) words; ``start_digit`` <= 19):
    True when every PAN is clean, 1 to 19 digits, and holds the digits taken."""
    chars, a = _buffers(pan_width)
    done = np.empty(_ROWS, np.uint64)
    pads = _U(pad & 15) * _U(0x1111111111111111)
    first = _U(start_digit)
    fixed = _U(max(count, 1))
    to_end = _U(0) - _U(count < 0)  # all ones: take the digits to the PAN's end
    wrong = _U(0)
    for start in range(0, out.shape[0], _ROWS):
        rows = min(_ROWS, out.shape[0] - start)
        wrong |= digit_rows(pan, pan_width, pan_one, start, 1, 19, chars, a, rows)
        for j in range(rows):  # vectorised: no branch
            length = a[2, j]
            rest = length - first  # wraps when the PAN is shorter than the offset
            wrong |= _U(length <= first) | (_U(first + fixed > length) & ~to_end)
            taken = (rest & to_end) | (fixed & ~to_end)
            taken = min(max(taken, _U(1)), _U(16))
            digits, _ = _shl(a[0, j], a[1, j], (_U(4) * first) & _U(127))
            done[j] = _top(digits, taken) | (pads & ~_top(_ALL, taken))
        out[start:start + rows] = done[:rows]
    return wrong == _U(0)
