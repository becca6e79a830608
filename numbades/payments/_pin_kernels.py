"""The compiled work of the PIN blocks (ISO 9564-1, see ``pinblock.py``): build, parse, re-format.

Two kinds of kernel.  The fast ones read PINs and PANs as bytes, eight
characters to a 64-bit word (SWAR: every byte tested at once), a block of
256 rows at a time: the block's characters narrowed to bytes (``U`` codes
are 4 bytes a character) in a buffer that stays in the L1 cache, loaded as
one word per eight characters into a column per word, then one loop,
without a branch, over the columns doing the digit checks, lengths and
blocks of every row of the block; the compiler runs both on vector
registers, several rows at once.
They only answer whether every row was clean (digits, then NULs only, of a
length in range).  When one was not, or the strings are wider than they
read, the exact kernels run instead: one row at a time, character by
character (``_kernels._string``), with each row's length and flag for the
caller's refusal naming the rows.  Blocks (clear, in and out) are words:
bytes loaded and stored big-endian.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._kernels import _ALL, _shr, _string
from ._swar import _D30, _ROWS, _U, _column, _count, _load_block, _word

_INLINED_SOURCES_SHA256 = "6cfb4b0978f14fa963e00e43df76bc83f7d7bce39820f3e3cd9b0e74858250c2"  # see tools/stamp_kernel_sources.py

_ONES = np.uint64(0x1111111111111111)  # bit 0 of every nibble
_PIN_FIELD = np.uint64(0x0011111111111111)  # nibbles 2..15: PIN digits and fill
_FIELD_BITS = np.uint64(0x00FFFFFFFFFFFFFF)  # all bits of nibbles 2..15
_PAN_BITS = np.uint64(0xFFFFFFFFFFFF)  # the PAN field: nibbles 4..15
#: Bytes each row of the fast kernels reads: PAN 24 (3 words), PIN 16 (2 words).
PAN_BYTES, PIN_BYTES = 24, 16


@njit(cache=True, nogil=True, inline="always")
def _swap(w: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """The word's bytes reversed (a big-endian block stored through a native uint64)."""
    w = ((w >> _U(8)) & _U(0x00FF00FF00FF00FF)) | ((w & _U(0x00FF00FF00FF00FF)) << _U(8))
    w = ((w >> _U(16)) & _U(0x0000FFFF0000FFFF)) | ((w & _U(0x0000FFFF0000FFFF)) << _U(16))
    return (w >> _U(32)) | (w << _U(32))


@njit(cache=True, nogil=True, inline="always")
def _pan_block(codes: np.ndarray, width: int, one: bool, start: int, chars: np.ndarray,
               cols: np.ndarray, done: np.ndarray) -> np.uint64:  # pragma: no cover - compiled
    """The PAN fields of rows start.. (as many as ``done`` holds) into ``done``, from the
    PANs' flat character codes (rows of ``width`` <= 24; ``one``: one PAN for all, read
    in the first block only); ``cols``: (3, _ROWS) scratch words kept from block to
    block.  Nonzero when some PAN is not clean or not 8..19 digits long."""
    rows = done.shape[0]
    if one and start > 0:
        done[:] = cols[0, 0]  # the one PAN's field, made in the first block
        return _U(0)
    c0, c1, c2 = cols[0, :rows], cols[1, :rows], cols[2, :rows]
    stride = 0 if one else width
    _load_block(codes, width, one, start, rows, chars)
    _column(chars, width, stride, 0, c0)
    _column(chars, width, stride, 1, c1)
    _column(chars, width, stride, 2, c2)
    wrong = _U(0)
    for j in range(rows):  # vectorised: no branch
        wrong0, mask0, flags0, d0 = _word(c0[j], _U(0))
        wrong1, mask1, flags1, d1 = _word(c1[j], mask0)
        wrong2, _, flags2, lo = _word(c2[j], mask1)
        length = _U(24) - _count(flags0 + flags1 + flags2)
        wrong |= wrong0 | wrong1 | wrong2 | _U(length < _U(8)) | _U(length > _U(19))
        # The 24 digits as hi:lo (96 bits); k: the digit before the check digit's bit.
        hi = (d0 << _U(32)) | d1
        k = _U(100) - _U(4) * length
        done[j] = ((((hi << (_U(32) - min(k, _U(32)))) >> (max(k, _U(32)) - _U(32)))
                    | (lo >> min(k, _U(63)))) & _PAN_BITS)
    if one:
        cols[0, 0] = done[0]  # kept for the later blocks
    return wrong


@njit(cache=True, nogil=True, inline="always")
def _pan_buffers(width: int) -> tuple:  # pragma: no cover - compiled
    """A PAN byte buffer (rows of ``width``) and the (4, _ROWS) words of ``_pan_block``."""
    return np.empty(_ROWS * width + PAN_BYTES, np.uint8), np.empty((4, _ROWS), np.uint64)


@njit(cache=True, nogil=True)
def pan_fields_fast(codes: np.ndarray, width: int, fields: np.ndarray
                    ) -> bool:  # pragma: no cover - compiled
    """The PAN field of formats 0 and 3 of each row (the 12 digits before the check digit,
    zeros on the left, as the low 48 bits) from the PANs' flat character codes (rows of
    ``width`` <= 24).  True when every PAN is clean and 8..19 digits long; else the
    fields are meaningless."""
    n = fields.shape[0]
    chars, cols = _pan_buffers(width)
    wrong = _U(0)
    for start in range(0, n, _ROWS):
        rows = min(_ROWS, n - start)
        done = cols[3, :rows]
        wrong |= _pan_block(codes, width, False, start, chars, cols, done)
        fields[start:start + rows] = done  # results in a column of their own: vectorised
    return wrong == _U(0)


@njit(cache=True, nogil=True)
def pan_fields(pan_codes: np.ndarray, fields: np.ndarray, pan_lengths: np.ndarray,
               pan_bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """``pan_fields_fast`` exactly, from (P, W) codes of any width, a row at a time; each
    row's length and bad-character flag written for the caller to check."""
    for i in range(fields.shape[0]):
        length, wrong, hi, lo = _string(pan_codes, i)
        pan_lengths[i] = length
        pan_bad[i] = wrong
        field, _ = _shr(hi, lo, 17 - length)  # the digit before the check digit to nibble 15
        fields[i] = field & _PAN_BITS


@njit(cache=True, nogil=True, inline="always")
def _block(fmt: int, length: np.uint64, digits: np.uint64, fill: np.uint64,
           field: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """A clear block: control nibble, length, the PIN digits (``digits``: character 0 in
    the top nibble), the fill nibbles after them, the PAN field XORed in."""
    pin_bits = _FIELD_BITS & ~(_FIELD_BITS >> (_U(4) * min(length, _U(14))))
    return ((_U(fmt & 15) << _U(60)) | ((length & _U(15)) << _U(56))
            | ((digits >> _U(8)) & pin_bits) | (fill & ~pin_bits & _FIELD_BITS)) ^ field


@njit(cache=True, nogil=True, inline="always")
def _encode_block(codes: np.ndarray, width: int, one: bool, start: int, fmt: int,
                  fills: np.ndarray, pans: np.ndarray, chars: np.ndarray, cols: np.ndarray,
                  done: np.ndarray) -> np.uint64:  # pragma: no cover - compiled
    """Clear blocks of rows start.. (as many as ``done`` holds, as words stored big-endian)
    into ``done`` from the PINs' flat character codes (rows of ``width`` <= 16; ``one``:
    one PIN for all), the fill ``fills[j]`` and PAN field ``pans[j]`` of each row;
    ``cols``: (2, _ROWS) scratch.  Nonzero when some PIN is not clean or not 4..12
    digits long."""
    rows = done.shape[0]
    c0, c1 = cols[0, :rows], cols[1, :rows]
    _load_block(codes, width, one, start, rows, chars)
    stride = 0 if one else width
    _column(chars, width, stride, 0, c0)
    _column(chars, width, stride, 1, c1)
    wrong = _U(0)
    for j in range(rows):  # vectorised: no branch
        wrong0, mask0, flags0, d0 = _word(c0[j], _U(0))
        wrong1, _, flags1, d1 = _word(c1[j], mask0)
        length = _U(16) - _count(flags0 + flags1)
        wrong |= wrong0 | wrong1 | _U(length < _U(4)) | _U(length > _U(12))
        done[j] = _swap(_block(fmt, length, (d0 << _U(32)) | d1, fills[j], pans[j]))
    return wrong


@njit(cache=True, nogil=True)
def encode_fast(codes: np.ndarray, width: int, one: bool, fields: np.ndarray, fmt: int,
                fill: np.ndarray, out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Clear ISO 9564-1 blocks (``out``: N words, stored as the blocks' bytes) from the
    PINs' flat character codes (rows of ``width`` <= 16; ``one``: one PIN for all): control
    nibble ``fmt``, length, digits, fill nibbles ``fill[i]`` (low 56 bits) after them,
    PAN field ``fields[i]`` XORed in (0 for formats 1 and 2).  True when every PIN is
    clean and 4..12 digits long; else the blocks are meaningless."""
    n = out.shape[0]
    chars = np.empty(_ROWS * width + PIN_BYTES, np.uint8)
    cols = np.empty((3, _ROWS), np.uint64)
    wrong = _U(0)
    for start in range(0, n, _ROWS):
        rows = min(_ROWS, n - start)
        done = cols[2, :rows]
        wrong |= _encode_block(codes, width, one, start, fmt, fill[start:start + rows],
                               fields[start:start + rows], chars, cols, done)
        out[start:start + rows] = done
    return wrong == _U(0)


@njit(cache=True, nogil=True)
def encode_pan_fast(codes: np.ndarray, width: int, one: bool, pan_codes: np.ndarray,
                    pan_width: int, one_pan: bool, fmt: int, fill: np.ndarray,
                    out: np.ndarray) -> bool:  # pragma: no cover - compiled
    """``encode_fast`` for formats 0 and 3 with the PAN fields made in the same pass, a
    block of rows at a time, from the PANs' flat character codes (rows of ``pan_width``
    <= 24; ``one_pan``: one PAN for all): no array of fields.  True when every PIN and
    every PAN is clean and of a length in range; else the blocks are meaningless."""
    n = out.shape[0]
    chars = np.empty(_ROWS * width + PIN_BYTES, np.uint8)
    cols = np.empty((3, _ROWS), np.uint64)
    pan_chars, pan_cols = _pan_buffers(pan_width)
    wrong = _U(0)
    for start in range(0, n, _ROWS):
        rows = min(_ROWS, n - start)
        pans, done = pan_cols[3, :rows], cols[2, :rows]
        wrong |= _pan_block(pan_codes, pan_width, one_pan, start, pan_chars, pan_cols, pans)
        wrong |= _encode_block(codes, width, one, start, fmt, fill[start:start + rows], pans,
                               chars, cols, done)
        out[start:start + rows] = done
    return wrong == _U(0)


@njit(cache=True, nogil=True)
def encode_blocks(pin_codes: np.ndarray, fields: np.ndarray, fmt: int, fill: np.ndarray,
                  out: np.ndarray, pin_lengths: np.ndarray,
                  pin_bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """``encode_fast`` exactly, from (N or 1, W) character codes of any width, a row at a
    time; each row's PIN length and bad-character flag written for the caller to check."""
    pin_rows = pin_codes.shape[0]
    for i in range(out.shape[0]):
        length, wrong, digits, _ = _string(pin_codes, i if pin_rows > 1 else 0)
        pin_lengths[i] = length
        pin_bad[i] = wrong
        out[i] = _swap(_block(fmt, _U(length), digits, fill[i], fields[i]))


@njit(cache=True, nogil=True, inline="always")
def _checked(word: np.uint64, fmt: int) -> tuple:  # pragma: no cover - compiled
    """(valid, PIN length, the PIN's nibbles as a mask) of a clear block, PAN field XORed out.

    Valid: control nibble ``fmt``, length 4..12, decimal PIN digits, and the
    fill of the format (F for 0 and 2, A-F for 3, anything for 1).  The
    nibble tests run on the whole word at once (one flag bit per nibble),
    without a branch.
    """
    one = _U(1)
    length = word >> _U(56) & _U(15)
    b1, b2, b3 = word >> one, word >> _U(2), word >> _U(3)
    letter = b3 & (b2 | b1) & _ONES  # nibble >= 10
    all_f = word & b1 & b2 & b3 & _ONES  # nibble == 15
    in_pin = ~((one << (_U(4) * (_U(14) - min(length, _U(14))))) - one) & _PIN_FIELD
    fill = _PIN_FIELD & ~in_pin
    f_fill = fmt == 0 or fmt == 2  # both tests, picked by the format: no branch
    fill_ok = (((all_f & fill) == fill) & f_fill) | (((letter & fill) == fill) & (fmt == 3)) \
        | (fmt == 1)
    ok = ((word >> _U(60) == _U(fmt)) & (length >= _U(4)) & (length <= _U(12))
          & ((letter & in_pin) == _U(0)) & fill_ok)
    return ok, length, in_pin * _U(15)


@njit(cache=True, nogil=True, inline="always")
def _words(blocks: np.ndarray, start: int, col: np.ndarray) -> None:  # pragma: no cover
    """Blocks start.. (native words, one a row, stored as the blocks' bytes) as big-endian
    words in ``col`` (all it holds): a byte swap, which the compiler vectorises (loading
    eight bytes one at a time did not)."""
    src = blocks[start:start + col.shape[0]]
    for j in range(col.shape[0]):
        col[j] = _swap(src[j])


@njit(cache=True, nogil=True, inline="always")
def _spread(v: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """The 8 nibbles of a 32-bit value, one to a byte: nibble 0 (the top) to the top byte."""
    t = ((v & _U(0xFFFF0000)) << _U(16)) | (v & _U(0xFFFF))
    t = ((t & _U(0x0000FF000000FF00)) << _U(8)) | (t & _U(0x000000FF000000FF))
    return ((t & _U(0x00F000F000F000F0)) << _U(4)) | (t & _U(0x000F000F000F000F))


@njit(cache=True, nogil=True, inline="always")
def _zeros(count: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """'0' in the top ``count`` bytes (0..8) of a word, NUL below."""
    top = ~((_ALL >> _U(1)) >> (_U(8) * max(count, _U(1)) - _U(1)))
    return _D30 & top & (_U(0) - _U(count > _U(0)))


@njit(cache=True, nogil=True, inline="always")
def _pair(chars: np.uint64, first: int) -> np.uint64:  # pragma: no cover - compiled
    """Characters ``first`` and ``first + 1`` of a word of bytes (character 0 the top byte)
    as two NumPy ``U`` codes in one little-endian word."""
    return ((chars >> _U(56 - 8 * first)) & _U(0xFF)) \
        | ((chars >> _U(48 - 8 * first)) & _U(0xFF)) << _U(32)


@njit(cache=True, nogil=True, inline="always")
def _decode_block(blocks: np.ndarray, start: int, pans: np.ndarray, fmt: int,
                  cols: np.ndarray, oks: np.ndarray, pins: np.ndarray,
                  valid: np.ndarray) -> None:  # pragma: no cover - compiled
    """Rows start.. (as many as ``pans`` holds) of ``decode_blocks``; ``cols``: (7, _ROWS)
    and ``oks``: (_ROWS,) scratch."""
    rows = pans.shape[0]
    col, ok_rows = cols[6, :rows], oks[:rows]
    _words(blocks, start, col)
    for j in range(rows):  # vectorised: no branch
        word = col[j] ^ pans[j]
        ok, length, in_pin = _checked(word, fmt)
        keep = _U(0) - _U(ok)  # all ones for a valid block
        digits = word & in_pin & keep  # the PIN's nibbles, the rest 0
        shown = length & keep  # characters shown: 4..12, or none
        first = min(shown, _U(8))
        head = _spread(digits >> _U(24) & _U(0xFFFFFFFF)) | _zeros(first)  # chars 0..7
        tail = _spread((digits << _U(8)) & _U(0xFFFF0000)) | _zeros(shown - first)  # 8..11
        ok_rows[j] = ok
        for m in range(4):
            cols[m, j] = _pair(head, 2 * m)
        cols[4, j] = _pair(tail, 0)
        cols[5, j] = _pair(tail, 2)
    valid[start:start + rows] = ok_rows
    for j in range(rows):
        for m in range(6):
            pins[6 * (start + j) + m] = cols[m, j]


@njit(cache=True, nogil=True)
def decode_blocks(blocks: np.ndarray, fields: np.ndarray, fmt: int, pins: np.ndarray,
                  valid: np.ndarray) -> None:  # pragma: no cover - compiled
    """Clear blocks (words, one a row, stored as the blocks' bytes) -> the PINs as NumPy ``U12`` character codes, two
    to a word (``pins``: 6 words a row; NUL past the PIN, all NUL where invalid) and
    validity (see ``_checked``), after the PAN field ``fields[i]`` is XORed out."""
    n = valid.shape[0]
    cols = np.empty((7, _ROWS), np.uint64)
    oks = np.empty(_ROWS, np.bool_)
    for start in range(0, n, _ROWS):
        rows = min(_ROWS, n - start)
        _decode_block(blocks, start, fields[start:start + rows], fmt, cols, oks, pins, valid)


@njit(cache=True, nogil=True)
def decode_pan_fast(blocks: np.ndarray, pan_codes: np.ndarray, pan_width: int, one_pan: bool,
                    fmt: int, pins: np.ndarray, valid: np.ndarray
                    ) -> bool:  # pragma: no cover - compiled
    """``decode_blocks`` for formats 0 and 3 with the PAN fields made in the same pass, a
    block of rows at a time, from the PANs' flat character codes (rows of ``pan_width``
    <= 24; ``one_pan``: one PAN for all): no array of fields.  True when every PAN is
    clean and 8..19 digits long; else the PINs and flags are meaningless."""
    n = valid.shape[0]
    cols = np.empty((7, _ROWS), np.uint64)
    oks = np.empty(_ROWS, np.bool_)
    pan_chars, pan_cols = _pan_buffers(pan_width)
    wrong = _U(0)
    for start in range(0, n, _ROWS):
        rows = min(_ROWS, n - start)
        pans = pan_cols[3, :rows]
        wrong |= _pan_block(pan_codes, pan_width, one_pan, start, pan_chars, pan_cols, pans)
        _decode_block(blocks, start, pans, fmt, cols, oks, pins, valid)
    return wrong == _U(0)


@njit(cache=True, nogil=True)
def reformat_blocks(blocks: np.ndarray, fields: np.ndarray, from_fmt: int, to_fmt: int,
                    fill: np.ndarray, out: np.ndarray,
                    valid: np.ndarray) -> None:  # pragma: no cover - compiled
    """Clear blocks (words, one a row, stored as the blocks' bytes) of ``from_fmt`` -> clear blocks of ``to_fmt``
    (``out``: words stored as the blocks' bytes) with the same PINs, the PIN never leaving
    its word: the PAN field ``fields[i]`` XORed out if ``from_fmt`` takes it and in if
    ``to_fmt`` does; the new fill ``fill[i]`` (low 56 bits).  Invalid rows (see
    ``_checked``) get an all-zero block."""
    n = valid.shape[0]
    pan_from = _U(from_fmt == 0 or from_fmt == 3)
    pan_to = _U(to_fmt == 0 or to_fmt == 3)
    cols = np.empty((2, _ROWS), np.uint64)
    oks = np.empty(_ROWS, np.bool_)
    for start in range(0, n, _ROWS):
        rows = min(_ROWS, n - start)
        col, done, ok_rows = cols[0, :rows], cols[1, :rows], oks[:rows]
        pans, fills = fields[start:start + rows], fill[start:start + rows]
        _words(blocks, start, col)
        for j in range(rows):  # vectorised: no branch
            word = col[j] ^ (pans[j] * pan_from)
            ok, _, pin_bits = _checked(word, from_fmt)
            block = ((_U(to_fmt & 15) << _U(60)) | (word & _U(0x0F00000000000000))
                     | (word & pin_bits) | (fills[j] & _FIELD_BITS & ~pin_bits))
            ok_rows[j] = ok
            done[j] = _swap((block ^ (pans[j] * pan_to)) * _U(ok))
        valid[start:start + rows] = ok_rows
        out[start:start + rows] = done
