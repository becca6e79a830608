"""The compiled digit work of ``numbades.payments``: one pass over the rows per kernel.

NumPy spends more time on strings of digits (finding each row's length,
checking the characters, moving fields to per-row offsets, building and
parsing PIN blocks nibble by nibble) than the cipher spends on the blocks;
these small loops do it at memory speed, without temporaries (the card and
EMV fields: ``_card_kernels``).  ``inputs``, ``pinblock``,
``cards`` and ``emv`` check the arguments and call these; they never raise.
Every kernel takes C-contiguous arrays of one dtype each, so each compiles
once (and is cached on disk).  PIN block nibbles follow ISO 9564-1 (see
``pinblock.py``).
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


_ONES = np.uint64(0x1111111111111111)  # bit 0 of every nibble
_PIN_FIELD = np.uint64(0x0011111111111111)  # nibbles 2..15: PIN digits and fill
_FIELD_BITS = np.uint64(0x00FFFFFFFFFFFFFF)  # all bits of nibbles 2..15


@njit(cache=True, nogil=True, inline="always")
def _pan_field(pan_codes: np.ndarray, row: int, pan_lengths: np.ndarray,
               pan_bad: np.ndarray, i: int) -> np.uint64:  # pragma: no cover - compiled
    """The PAN field of formats 0 and 3 as the low 48 bits of a word: the 12 PAN digits
    before the check digit, zeros on the left; the PAN's length and a bad-character flag
    go to ``pan_lengths[i]`` and ``pan_bad[i]``."""
    length, wrong, hi, lo = _string(pan_codes, row)
    pan_lengths[i] = length
    pan_bad[i] = wrong
    field, _ = _shr(hi, lo, 17 - length)  # the digit before the check digit to nibble 15
    return field & np.uint64(0xFFFFFFFFFFFF)


@njit(cache=True, nogil=True)
def encode_blocks(pin_codes: np.ndarray, pan_codes: np.ndarray, fmt: int, fill: np.ndarray,
                  out: np.ndarray, pin_lengths: np.ndarray, pin_bad: np.ndarray,
                  pan_lengths: np.ndarray, pan_bad: np.ndarray) -> None:  # pragma: no cover
    """Clear ISO 9564-1 blocks (N, 8) straight from the characters of PINs and PANs.

    One pass per row, on a 64-bit word: control nibble ``fmt``, the PIN
    length, its digits, the fill (``F``, or ``fill[i, 2:]`` when ``fill``
    has rows), the PAN field XORed in when ``pan_codes`` has rows (N or one
    for all; none for formats 1 and 2).  ``pin_codes``: (N or 1, W)
    NUL-padded character codes.  Each row's PIN and PAN lengths and
    bad-character flags are written for the caller to check; a refused
    row's block is meaningless.
    """
    n = out.shape[0]
    pin_rows, pan_rows = pin_codes.shape[0], pan_codes.shape[0]
    drawn = fill.shape[0] > 0
    for i in range(n):
        r = i if pin_rows > 1 else 0
        length, wrong, digits, _ = _string(pin_codes, r)
        pin_lengths[i] = length
        pin_bad[i] = wrong
        fill_bits = _FIELD_BITS  # all F
        if drawn:
            fill_bits = np.uint64(0)
            for k in range(2, 16):
                fill_bits = (fill_bits << np.uint64(4)) | np.uint64(fill[i, k] & 15)
        pin_bits = _FIELD_BITS & ~(_FIELD_BITS >> np.uint64(4 * min(length, 14)))
        word = ((np.uint64(fmt & 15) << np.uint64(60)) | (np.uint64(length & 15) << np.uint64(56))
                | ((digits >> np.uint64(8)) & pin_bits) | (fill_bits & ~pin_bits & _FIELD_BITS))
        if pan_rows:
            word ^= _pan_field(pan_codes, i if pan_rows > 1 else 0, pan_lengths, pan_bad, i)
        for b in range(8):
            out[i, b] = np.uint8((word >> np.uint64(56 - 8 * b)) & np.uint64(0xFF))


@njit(cache=True, nogil=True, inline="always")
def _load(blocks: np.ndarray, i: int) -> np.uint64:  # pragma: no cover - compiled
    """Row i of (N, 8) bytes as a big-endian word."""
    word = np.uint64(0)
    for b in range(8):
        word = (word << np.uint64(8)) | np.uint64(blocks[i, b])
    return word


@njit(cache=True, nogil=True, inline="always")
def _checked(word: np.uint64, fmt: int) -> tuple:  # pragma: no cover - compiled
    """(valid, PIN length, the PIN's nibbles as a mask) of a clear block, PAN field XORed out.

    Valid: control nibble ``fmt``, length 4..12, decimal PIN digits, and the
    fill of the format (F for 0 and 2, A-F for 3, anything for 1).  The
    nibble tests run on the whole word at once (one flag bit per nibble),
    without a branch.
    """
    one = np.uint64(1)
    length = np.int64((word >> np.uint64(56)) & np.uint64(15))
    b1, b2, b3 = word >> one, word >> np.uint64(2), word >> np.uint64(3)
    letter = b3 & (b2 | b1) & _ONES  # nibble >= 10
    all_f = word & b1 & b2 & b3 & _ONES  # nibble == 15
    in_pin = ~((one << np.uint64(4 * (14 - min(length, 14)))) - one) & _PIN_FIELD
    fill = _PIN_FIELD & ~in_pin
    if fmt == 0 or fmt == 2:
        fill_ok = (all_f & fill) == fill
    elif fmt == 3:
        fill_ok = (letter & fill) == fill
    else:
        fill_ok = True
    ok = ((np.int64(word >> np.uint64(60)) == fmt) & (length >= 4) & (length <= 12)
          & ((letter & in_pin) == 0) & fill_ok)
    return ok, length, in_pin * np.uint64(15)


@njit(cache=True, nogil=True)
def decode_blocks(blocks: np.ndarray, pan_codes: np.ndarray, fmt: int, pins: np.ndarray,
                  valid: np.ndarray, pan_lengths: np.ndarray,
                  pan_bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """Clear blocks (N, 8) -> the PINs' character codes (N, 12) (NUL-padded; all NUL where
    invalid) and validity (see ``_checked``), in one pass per row, after the PAN field
    (``pan_codes``: N rows, one for all, or none) is XORed out.  PAN lengths and flags
    as for ``encode_blocks``.
    """
    n = blocks.shape[0]
    pan_rows = pan_codes.shape[0]
    for i in range(n):
        word = _load(blocks, i)
        if pan_rows:
            word ^= _pan_field(pan_codes, i if pan_rows > 1 else 0, pan_lengths, pan_bad, i)
        ok, length, _ = _checked(word, fmt)
        valid[i] = ok
        for k in range(12):
            v = (word >> np.uint64(52 - 4 * k)) & np.uint64(15)
            keep = np.uint64(ok & (k < length))
            pins[i, k] = (v + np.uint64(48)) * keep


@njit(cache=True, nogil=True)
def reformat_blocks(blocks: np.ndarray, pan_codes: np.ndarray, from_fmt: int, to_fmt: int,
                    fill: np.ndarray, out: np.ndarray, valid: np.ndarray,
                    pan_lengths: np.ndarray, pan_bad: np.ndarray) -> None:  # pragma: no cover
    """Clear blocks of ``from_fmt`` -> clear blocks of ``to_fmt`` with the same PINs, on one
    word per row, the PIN never leaving it: the PAN field (computed once; ``pan_codes``
    N rows, one for all, or none when neither format takes it) XORed out if ``from_fmt``
    takes it and in if ``to_fmt`` does; the new fill ``F`` or ``fill[i, 2:]`` (when
    ``fill`` has rows).  Invalid rows (see ``_checked``) get an all-zero block.
    """
    n = blocks.shape[0]
    pan_rows = pan_codes.shape[0]
    drawn = fill.shape[0] > 0
    pan_from = from_fmt == 0 or from_fmt == 3
    pan_to = to_fmt == 0 or to_fmt == 3
    field_bits = np.uint64(0x00FFFFFFFFFFFFFF)
    for i in range(n):
        word = _load(blocks, i)
        field = np.uint64(0)
        if pan_rows:
            field = _pan_field(pan_codes, i if pan_rows > 1 else 0, pan_lengths, pan_bad, i)
        if pan_from:
            word ^= field
        ok, _, pin_bits = _checked(word, from_fmt)
        new_fill = field_bits
        if drawn:
            new_fill = np.uint64(0)
            for k in range(2, 16):
                new_fill = (new_fill << np.uint64(4)) | np.uint64(fill[i, k] & 15)
        block = ((np.uint64(to_fmt & 15) << np.uint64(60))
                 | (word & np.uint64(0x0F00000000000000))
                 | (word & pin_bits) | (new_fill & field_bits & ~pin_bits))
        if pan_to:
            block ^= field
        block *= np.uint64(ok)
        valid[i] = ok
        for b in range(8):
            out[i, b] = np.uint8((block >> np.uint64(56 - 8 * b)) & np.uint64(0xFF))


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
