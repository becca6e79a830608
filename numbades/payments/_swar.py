"""Digit strings read eight characters to a 64-bit word (SWAR), a block of rows at a time.

The reader of every fast payments kernel (PIN blocks: ``_pin_kernels``; card
inputs: ``_card_swar``).  NumPy ``U`` codes are 4 bytes a character, so a
block of 256 rows is first narrowed to bytes in a buffer that stays in the
L1 cache (``_load_block``), then loaded as one big-endian word per eight
characters into a column per word (``_column``); ``_word`` tests all eight
bytes of a word at once (digit, NUL, anything else; a digit after a NUL)
and packs the digits to nibbles, without a branch, so that the compiler runs
the loops over a block's rows on vector registers, several rows at once.
``digit_rows`` does all of it for one field of up to 24 characters.
The fast kernels only answer whether every row was clean; the exact
per-character kernels name the rows when one was not.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _ALL

_INLINED_SOURCES_SHA256 = "84d1e09330ef2ec8835d0eaea64bad87ebe71268e6974678b93a582c7c02f499"  # see tools/stamp_kernel_sources.py

_U = np.uint64
_H = np.uint64(0x8080808080808080)  # bit 7 of every byte
_L7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_D30 = np.uint64(0x3030303030303030)  # '0' in every byte
_D76 = np.uint64(0x7676767676767676)  # 0x7F - 9 in every byte
_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)
_B1 = np.uint64(0x0101010101010101)
#: Rows per block of the fast kernels: their bytes and words stay in the L1 cache.
_ROWS = 256
#: The widest field ``digit_rows`` reads (3 words a row).
FIELD_CHARS = 24
#: Bytes past a block's characters that its last row's word loads may touch.
_SLACK = FIELD_CHARS


@njit(cache=True, nogil=True, inline="always")
def _be(chars: np.ndarray, p: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """Bytes p..p+7 as a big-endian word (unsigned indices: LLVM merges the eight loads)."""
    return ((_U(chars[p]) << _U(56)) | (_U(chars[p + _U(1)]) << _U(48))
            | (_U(chars[p + _U(2)]) << _U(40)) | (_U(chars[p + _U(3)]) << _U(32))
            | (_U(chars[p + _U(4)]) << _U(24)) | (_U(chars[p + _U(5)]) << _U(16))
            | (_U(chars[p + _U(6)]) << _U(8)) | _U(chars[p + _U(7)]))


@njit(cache=True, nogil=True, inline="always")
def _word(x: np.uint64, before: np.uint64) -> tuple:  # pragma: no cover - compiled
    """(not clean, non-digit byte mask, non-digit byte flags, the 8 digits as 32 bits) of
    a word of characters; ``before``: the previous word's non-digit byte mask (0 for the
    first).  Not clean: a byte neither digit nor NUL, a digit after a NUL in this word,
    a digit here after a NUL in the word before."""
    y = x ^ _D30  # a digit's byte becomes its value
    flags = ((((y & _L7) + _D76) | y) & _H) >> _U(7)  # bit 0 of a byte: not a digit
    mask = flags * _U(0xFF)
    wrong = (x & mask) | (mask & (mask + _U(1))) | ((_U(0) - (before & _U(1))) & ~mask)
    d = y & _LOW  # each digit's value, its byte's low nibble (NUL: 0)
    d = (d | (d >> _U(4))) & _U(0x00FF00FF00FF00FF)  # nibble pairs
    d = (d | (d >> _U(8))) & _U(0x0000FFFF0000FFFF)
    return wrong, mask, flags, (d | (d >> _U(16))) & _U(0xFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def _count(flags: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """The sum of a word's byte counters (the sum below 256)."""
    return (flags * _B1) >> _U(56)


@njit(cache=True, nogil=True, inline="always")
def _keep(width: int, word: int) -> np.uint64:  # pragma: no cover - compiled
    """The bytes of word ``word`` of a row that lie within ``width`` characters."""
    inside = min(max(width - 8 * word, 0), 8)
    return _ALL if inside == 8 else ~(_ALL >> _U(8 * inside)) if inside else _U(0)


@njit(cache=True, nogil=True, inline="always")
def _narrow(codes: np.ndarray, chars: np.ndarray) -> None:  # pragma: no cover - compiled
    """Character codes (uint8, or NumPy ``U`` codes: uint32) as bytes at the start of
    ``chars``, NULs after them: a code above 255 becomes 255, so that digits and NULs stay
    what they are and anything else stays neither.  Vectorised (indices from a range:
    no negative-index checks)."""
    count = codes.shape[0]
    for k in range(count):
        chars[k] = min(codes[k], 255)
    for k in range(count, chars.shape[0]):
        chars[k] = 0


@njit(cache=True, nogil=True, inline="always")
def _column(chars: np.ndarray, width: int, stride: int, word: int,
            col: np.ndarray) -> None:  # pragma: no cover - compiled
    """Word ``word`` of each row of bytes (row j at ``j * stride``) into ``col`` (as many
    rows as it holds), the bytes past ``width`` NUL."""
    keep = _keep(width, word)
    for j in range(col.shape[0]):
        col[j] = _be(chars, _U(j * stride + 8 * word)) & keep


@njit(cache=True, nogil=True, inline="always")
def _load_block(codes: np.ndarray, width: int, one: bool, start: int, rows: int,
                chars: np.ndarray) -> None:  # pragma: no cover - compiled
    """Rows start.. (``rows`` of them) of flat character codes as bytes in ``chars``, NULs
    after them; ``one``: the codes are one row serving all, loaded once (start 0)."""
    if one:
        if start == 0:
            _narrow(codes, chars)
        return
    _narrow(codes[start * width:(start + rows) * width], chars)


@njit(cache=True, nogil=True, inline="always")
def _digits3(x0: np.uint64, x1: np.uint64, x2: np.uint64) -> tuple:  # pragma: no cover
    """(not clean, length, digits 0..15 as nibbles, digits 16..23 in the top 32 bits) of a
    row's three words of characters (a word past the row's width all NUL)."""
    wrong0, mask0, flags0, d0 = _word(x0, _U(0))
    wrong1, mask1, flags1, d1 = _word(x1, mask0)
    wrong2, _, flags2, d2 = _word(x2, mask1)
    length = _U(24) - _count(flags0 + flags1 + flags2)
    return wrong0 | wrong1 | wrong2, length, (d0 << _U(32)) | d1, d2 << _U(32)


@njit(cache=True, nogil=True)
def digit_rows(codes: np.ndarray, width: int, one: bool, start: int, low: int, high: int,
               chars: np.ndarray, cols: np.ndarray, rows: int) -> np.uint64:  # pragma: no cover
    """One field of rows start.. (``rows`` of them), read: ``cols[0]`` the
    rows' first 16 digits as nibbles (character 0 on top), ``cols[1]`` characters 16..23
    in the top 32 bits, ``cols[2]`` the lengths.  Nonzero when some row is not clean or
    its length is outside low..high.

    ``codes``: the field's flat character codes, rows of ``width`` <= 24
    (``one``: one row serving all); ``chars``: a byte buffer of at least
    ``_ROWS * width + _SLACK``; ``cols``: a (3, _ROWS) array of words that
    persists from block to block, its first ``rows`` columns written (a field
    of one row is read in the first block only).  The words a row does not
    have are not loaded: their NULs are constants the compiler folds.

    Compiled once and called (not inlined by Numba): the card kernels read
    up to three fields each, and typing an inlined copy per field cost
    most of their compile time; a call per block of 256 rows costs nothing
    measurable.  The whole (3, _ROWS) array comes in, and the columns are
    sliced here as contiguous rows, so that the loops still vectorise.
    """
    if one and start > 0:
        return _U(0)  # one row for all: the first block's columns (all of them) serve
    _load_block(codes, width, one, start, rows, chars)
    stride = 0 if one else width
    hi, lo, lengths = cols[0, :rows], cols[1, :rows], cols[2, :rows]
    _column(chars, width, stride, 0, hi)
    if width > 8:
        _column(chars, width, stride, 1, lo)
    if width > 16:
        _column(chars, width, stride, 2, lengths)
    wrong = _U(0)
    lo_bound, hi_bound = _U(low), _U(high)
    if width <= 8:
        for j in range(rows):  # vectorised: no branch
            bad, length, hi[j], lo[j] = _digits3(hi[j], _U(0), _U(0))
            wrong |= bad | _U(length < lo_bound) | _U(length > hi_bound)
            lengths[j] = length
    elif width <= 16:
        for j in range(rows):
            bad, length, hi[j], lo[j] = _digits3(hi[j], lo[j], _U(0))
            wrong |= bad | _U(length < lo_bound) | _U(length > hi_bound)
            lengths[j] = length
    else:
        for j in range(rows):
            bad, length, hi[j], lo[j] = _digits3(hi[j], lo[j], lengths[j])
            wrong |= bad | _U(length < lo_bound) | _U(length > hi_bound)
            lengths[j] = length
    return wrong
