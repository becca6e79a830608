"""The compiled digit work of the card and EMV functions: characters in, cipher blocks out.

Each card function (CVV, Visa PVV, IBM 3624, the EMV ICC master key) packs
a few digit fields into one or two cipher blocks, and CVV and PVV pick
decimal digits out of the cipher's result.  These kernels do each side in
one pass per row, straight from the characters of NumPy ``U``/``S`` arrays
(uint32 / uint8 codes, NUL-padded): the strings are scanned (length, a
non-digit flag, written for the caller to check before any cipher runs) and
their digits placed as nibbles of 64-bit words at fixed positions, with
masks instead of branches, so that rows of random lengths cost the same.
Argument arrays have N rows or one (serving every row).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from ._kernels import _ALL, _shr, _top

_INLINED_SOURCES_SHA256 = "84d1e09330ef2ec8835d0eaea64bad87ebe71268e6974678b93a582c7c02f499"  # see tools/stamp_kernel_sources.py


@njit(cache=True, nogil=True, inline="always")
def _scan(codes: np.ndarray, row: int) -> tuple:  # pragma: no cover - compiled
    """``_string`` of a row of at most 32 characters (``_digits.packed`` cuts wider
    arrays), by bit masks.

    One bit per character in two masks (present, not a digit): the length is
    the top present bit's place plus one, and the row is bad when a
    non-digit (a NUL included) comes before it.  The loops carry only ORs,
    which the compiler turns into vector code.
    """
    width = codes.shape[1]
    present = np.uint64(0)
    other = np.uint64(0)  # characters that are not digits (NUL included)
    hi = np.uint64(0)
    lo = np.uint64(0)
    for j in range(min(width, 16)):
        c = np.uint32(codes[row, j])
        d = c - np.uint32(48)  # below '0' wraps
        present |= np.uint64(c != np.uint32(0)) << np.uint64(j)
        other |= np.uint64(d > np.uint32(9)) << np.uint64(j)
        hi |= np.uint64(d & np.uint32(15)) << np.uint64(60 - 4 * j)
    for j in range(16, min(width, 32)):
        c = np.uint32(codes[row, j])
        d = c - np.uint32(48)
        present |= np.uint64(c != np.uint32(0)) << np.uint64(j)
        other |= np.uint64(d > np.uint32(9)) << np.uint64(j)
        lo |= np.uint64(d & np.uint32(15)) << np.uint64(124 - 4 * j)
    length = 64 - np.int64(leading_zeros(present))  # 0 for an empty row
    before = ~(_ALL << np.uint64(length))  # length <= 32: the bits below it
    return length, (other & before) != 0, hi, lo


@njit(cache=True, nogil=True, inline="always")
def _read(codes: np.ndarray, i: int, field: int, lengths: np.ndarray,
          bad: np.ndarray) -> tuple:  # pragma: no cover - compiled
    """(length, hi, lo) of the row of ``codes`` serving row i (see ``_scan``); its length
    and bad flag written to lengths/bad[field, i].  A one-row argument is read again for
    each row: cheaper than a branch around the read, which stops the loops vectorising."""
    length, wrong, hi, lo = _scan(codes, i if codes.shape[0] > 1 else 0)
    lengths[field, i] = length
    bad[field, i] = wrong
    return length, hi, lo


@njit(cache=True, nogil=True, inline="always")
def _cvv_blocks(length: int, hi: np.uint64, lo: np.uint64, e: np.uint64,
                c: np.uint64) -> tuple:  # pragma: no cover - compiled
    """The CVV input's two words from the PAN (length, digits hi/lo), expiry and service
    code digits."""
    tail = _top(e, 4) | (_top(c, 3) >> np.uint64(16))  # expiry || service code
    t_hi, t_lo = _shr(tail, np.uint64(0), length)
    return hi | t_hi, lo | t_lo


@njit(cache=True, nogil=True)
def cvv_data(pan: np.ndarray, expiry: np.ndarray, service: np.ndarray, out: np.ndarray,
             lengths: np.ndarray, bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """CVV input (2, N) words, block 1 of every row then block 2: PAN || expiry (4) ||
    service code (3) || zeros, 32 nibbles.  One service code for the batch (the usual
    case) is read once, in a loop of its own."""
    if service.shape[0] == 1:
        _, c, _ = _read(service, 0, 2, lengths, bad)
        for i in range(out.shape[1]):
            length, hi, lo = _read(pan, i, 0, lengths, bad)
            _, e, _ = _read(expiry, i, 1, lengths, bad)
            out[0, i], out[1, i] = _cvv_blocks(length, hi, lo, e, c)
        return
    for i in range(out.shape[1]):
        length, hi, lo = _read(pan, i, 0, lengths, bad)
        _, e, _ = _read(expiry, i, 1, lengths, bad)
        _, c, _ = _read(service, i, 2, lengths, bad)
        out[0, i], out[1, i] = _cvv_blocks(length, hi, lo, e, c)


@njit(cache=True, nogil=True, inline="always")
def _tsp(length: int, hi: np.uint64, lo: np.uint64, k: np.uint64,
         p: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """The PVV input word from the PAN (length, digits hi/lo), PVKI and PIN digits."""
    digits, _ = _shr(hi, lo, 12 - length)  # the 11 digits first, the check digit next
    return _top(digits, 11) | (_top(k, 1) >> np.uint64(44)) | (_top(p, 4) >> np.uint64(48))


@njit(cache=True, nogil=True)
def pvv_data(pan: np.ndarray, pvki: np.ndarray, pin: np.ndarray, out: np.ndarray,
             lengths: np.ndarray, bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """Visa PVV input (N,) words: the 11 PAN digits before the check digit, PVKI, 4 PIN
    digits.  One PVKI for the batch (the usual case) is read once, in a loop of its own."""
    if pvki.shape[0] == 1:
        _, k, _ = _read(pvki, 0, 1, lengths, bad)
        for i in range(out.shape[0]):
            length, hi, lo = _read(pan, i, 0, lengths, bad)
            _, p, _ = _read(pin, i, 2, lengths, bad)
            out[i] = _tsp(length, hi, lo, k, p)
        return
    for i in range(out.shape[0]):
        length, hi, lo = _read(pan, i, 0, lengths, bad)
        _, k, _ = _read(pvki, i, 1, lengths, bad)
        _, p, _ = _read(pin, i, 2, lengths, bad)
        out[i] = _tsp(length, hi, lo, k, p)


@njit(cache=True, nogil=True)
def validation_data(pan: np.ndarray, out: np.ndarray, lengths: np.ndarray, bad: np.ndarray,
                    start: int, count: int, pad: int) -> None:  # pragma: no cover
    """IBM 3624 validation data (N,) words: min(count, 16) PAN digits from ``start``, then
    the nibble ``pad`` to 16.  ``count``: the digits to take, or -1 for "to the PAN's end".
    The caller refuses rows where that leaves the PAN."""
    pads = np.uint64(pad & 15) * np.uint64(0x1111111111111111)
    for i in range(out.shape[0]):
        length, hi, lo = _read(pan, i, 0, lengths, bad)
        taken = max(min(length - start if count < 0 else count, 16), 1)
        digits = _top(_shr(hi, lo, -start)[0], taken)
        out[i] = digits | (pads & ~_top(_ALL, taken))


@njit(cache=True, nogil=True)
def icc_data(pan: np.ndarray, psn: np.ndarray, out: np.ndarray, lengths: np.ndarray,
             bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """EMV option A input (N, 2) words: Y, the rightmost 16 digits of PAN || PSN (2), zeros
    on the left, then Y with every bit inverted."""
    for i in range(out.shape[0]):
        length, hi, lo = _read(pan, i, 0, lengths, bad)
        _, s, _ = _read(psn, i, 1, lengths, bad)
        s_hi, s_lo = _shr(_top(s, 2), np.uint64(0), length)  # PAN || PSN
        y, _ = _shr(hi | s_hi, lo | s_lo, 14 - length)  # its last digit to nibble 15
        out[i, 0] = y
        out[i, 1] = ~y


@njit(cache=True, nogil=True)
def digit_words(codes: np.ndarray, out: np.ndarray, lengths: np.ndarray,
                bad: np.ndarray) -> None:  # pragma: no cover - compiled
    """Digit strings (N, W) as (N,) words, digit 0 the top nibble (the first 16 digits),
    their lengths and bad flags to lengths/bad[0]."""
    for i in range(out.shape[0]):
        _, hi, _ = _read(codes, i, 0, lengths, bad)
        out[i] = hi


@njit(cache=True, nogil=True, inline="always")
def _pairs(table: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The decimalisation table for bytes: byte b -> table[b >> 4] << 4 | table[b & 15]."""
    pairs = np.empty(256, np.uint8)
    for b in range(256):
        pairs[b] = (table[b >> 4] << 4) | table[b & 15]
    return pairs


#: Rows per block of the digit kernels: their digits and flags stay in the L1 cache.
_BLOCK = 256


@njit(cache=True, nogil=True, inline="always")
def _natural(word: np.uint64, pairs: np.ndarray, nbytes: int) -> np.uint64:  # pragma: no cover
    """The top 2 * ``nbytes`` (1..8 bytes) natural PIN digits of an enciphered block, the
    rest 0: each nibble through the table, a byte at a time (``_pairs``)."""
    natural = np.uint64(0)
    for b in range(nbytes):
        byte = (word >> np.uint64(56 - 8 * b)) & np.uint64(0xFF)
        natural = (natural << np.uint64(8)) | np.uint64(pairs[byte])
    return natural << np.uint64((64 - 8 * nbytes) & 63)


_BYTE_LOW = np.uint64(0x0F0F0F0F0F0F0F0F)  # the low nibble of every byte
_TENS = np.uint64(0x0A0A0A0A0A0A0A0A)
_TEN_UP = np.uint64(0x7676767676767676)  # 0x80 - 10 in every byte
_BYTE_TOP = np.uint64(0x8080808080808080)


@njit(cache=True, nogil=True, inline="always")
def _wrap10(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """Each byte (0..19) of ``x`` mod 10."""
    return x - (((x + _TEN_UP) & _BYTE_TOP) >> np.uint64(7)) * np.uint64(10)


@njit(cache=True, nogil=True, inline="always")
def _digitwise(value: np.uint64, natural: np.uint64, minus: np.uint64) -> np.uint64:  # pragma: no cover
    """(value + natural) mod 10, or (value - natural) mod 10 where ``minus`` is all ones,
    digit by digit over the 16 nibbles at once (each half of the nibbles in bytes)."""
    halves = np.uint64(0)
    for shift in (np.uint64(0), np.uint64(4)):
        v = (value >> shift) & _BYTE_LOW
        n = (natural >> shift) & _BYTE_LOW
        n = ((_TENS - n) & minus) | (n & ~minus)  # -n as 10 - n: the sum stays below 20
        halves |= _wrap10(v + n) << shift
    return halves


@njit(cache=True, nogil=True, inline="always")
def _first(length: int) -> np.uint64:  # pragma: no cover - compiled
    """The top ``length`` nibbles (1..16) of a word as a mask."""
    return ~((_ALL >> np.uint64(1)) >> np.uint64((4 * length - 1) & 63))


@njit(cache=True, nogil=True, inline="always")
def _offsets(enciphered: np.ndarray, values: np.ndarray, step: int, pairs: np.ndarray,
             minus: np.uint64, nbytes: int, found: np.ndarray) -> None:  # pragma: no cover
    """found[j]: (values[j * step] +/- the natural digits of enciphered[j]) mod 10, digit
    by digit (``_digitwise``; the top 2 * ``nbytes`` natural digits made)."""
    for j in range(enciphered.shape[0]):
        natural = _natural(enciphered[j], pairs, nbytes)
        found[j] = _digitwise(values[j * step], natural, minus)


@njit(cache=True, nogil=True, inline="always")
def _characters(digits: np.ndarray, lengths: np.ndarray, step: int, width: int,
                codes: np.ndarray) -> None:  # pragma: no cover - compiled
    """Rows of digit words (digit r in nibble r from the top) as NumPy ``U`` codes, ``width``
    a row (``codes``: flat), NUL from each row's length (``lengths[j * step]``) on."""
    for j in range(codes.shape[0] // width):
        length = np.int64(lengths[j * step])
        for r in range(width):
            digit = (digits[j] >> np.uint64(60 - 4 * r)) & np.uint64(15)
            codes[j * width + r] = np.uint32(np.uint64(48) + digit) if r < length \
                else np.uint32(0)


@njit(cache=True, nogil=True)
def ibm3624_codes(enciphered: np.ndarray, table: np.ndarray, values: np.ndarray,
                  lengths: np.ndarray, sign: int, out: np.ndarray) -> None:  # pragma: no cover
    """IBM 3624 digits as NumPy U codes: (values + sign * natural) mod 10 for each row.

    ``enciphered``: (N,) words, the enciphered validation data, whose 16
    nibbles map through ``table`` (16 digit values) to the natural PIN digits;
    ``values``: (N or 1,) words of 16 digit nibbles (offsets for sign +1: the
    PIN; PINs for sign -1: the offset; zeros for +1: the natural PIN),
    ``lengths`` (N or 1,); ``out``: (N, W) uint32 character codes (W <= 16),
    NUL after each row's length.  Only the W digits written are made, all of a
    row's digits at once (``_digitwise``); no branch on the digits or lengths.
    """
    pairs = _pairs(table)
    minus = np.uint64(0) - np.uint64(sign < 0)
    width = out.shape[1]
    nbytes = (width + 1) // 2
    v_step = 1 if values.shape[0] > 1 else 0
    l_step = 1 if lengths.shape[0] > 1 else 0
    found = np.empty(_BLOCK, np.uint64)
    flat = out.reshape(-1)
    for start in range(0, out.shape[0], _BLOCK):
        rows = min(_BLOCK, out.shape[0] - start)
        block, codes = enciphered[start:start + rows], flat[start * width:(start + rows) * width]
        vals = values[start * v_step:start * v_step + rows * v_step + 1 - v_step]
        if nbytes == 2:  # PINs of 4 digits: two table bytes, a count the compiler knows
            _offsets(block, vals, v_step, pairs, minus, 2, found)
        else:
            _offsets(block, vals, v_step, pairs, minus, nbytes, found)
        l_rows = lengths[start * l_step:start * l_step + rows * l_step + 1 - l_step]
        if width == 4:  # the usual PINs: a width the compiler knows, the rows vectorised
            _characters(found, l_rows, l_step, 4, codes)
        else:
            _characters(found, l_rows, l_step, width, codes)


@njit(cache=True, nogil=True, inline="always")
def _same(enciphered: np.ndarray, pairs: np.ndarray, pins: np.ndarray,
          pin_lengths: np.ndarray, offsets: np.ndarray, offset_lengths: np.ndarray,
          nbytes: int, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """``ibm3624_matches`` with the natural digits of ``nbytes`` table bytes."""
    for i in range(out.shape[0]):
        natural = _natural(enciphered[i], pairs, nbytes)
        pin = pins[i if pins.shape[0] > 1 else 0]
        offset = offsets[i if offsets.shape[0] > 1 else 0]
        length = np.int64(pin_lengths[i if pin_lengths.shape[0] > 1 else 0])
        same = length == np.int64(offset_lengths[i if offset_lengths.shape[0] > 1 else 0])
        wrong = (_digitwise(offset, natural, np.uint64(0)) ^ pin) & _first(length)
        out[i] = same & (wrong == np.uint64(0))


@njit(cache=True, nogil=True)
def ibm3624_matches(enciphered: np.ndarray, table: np.ndarray, pins: np.ndarray,
                    pin_lengths: np.ndarray, offsets: np.ndarray, offset_lengths: np.ndarray,
                    width: int, out: np.ndarray) -> None:  # pragma: no cover - compiled
    """out[i]: is the PIN (digit words, lengths) natural + offset, digit by digit mod 10,
    and as long as the offset?  Arguments as for ``ibm3624_codes``, one row serving every
    row; ``width``: the longest PIN or offset (4..16), the natural digits made."""
    pairs = _pairs(table)
    if width <= 4:  # PINs of 4 digits: two table bytes, a count the compiler knows
        _same(enciphered, pairs, pins, pin_lengths, offsets, offset_lengths, 2, out)
    else:
        _same(enciphered, pairs, pins, pin_lengths, offsets, offset_lengths, (width + 1) // 2,
              out)


_ONES = np.uint64(0x1111111111111111)  # bit 0 of every nibble


@njit(cache=True, nogil=True)
def _decimal_slow(data: np.ndarray, i: int, count: int) -> np.uint64:  # pragma: no cover
    """Row i's first ``count`` decimal nibbles, then its letters as 0-5 if too few:
    digit r in bits 4r..4r+3.  Eight bytes at a time: one flag bit per decimal (or
    letter) nibble, the leftmost taken with a leading-zero count."""
    width = data.shape[1]
    one = np.uint64(1)
    digits = np.uint64(0)
    taken = 0
    for letters in range(2):
        for first in range(0, width, 8):
            size = min(8, width - first)
            word = np.uint64(0)
            for b in range(size):
                word = (word << np.uint64(8)) | np.uint64(data[i, first + b])
            word <<= np.uint64(8 * (8 - size) & 63) if size < 8 else np.uint64(0)
            high = (word >> np.uint64(3)) & ((word >> np.uint64(2)) | (word >> one)) & _ONES
            flags = high if letters else ~high & _ONES
            flags &= _top(_ALL, 2 * size)
            while taken < count and flags:
                at = np.uint64(63 - leading_zeros(flags))  # the leftmost flagged nibble
                digits |= (((word >> at) & np.uint64(15)) - np.uint64(10 * letters)) \
                    << np.uint64(4 * taken)
                taken += 1
                flags ^= one << at
        if taken >= count:
            break
    return digits


def _byte_tables() -> tuple[np.ndarray, np.ndarray]:
    """For each byte: how many of its two nibbles are decimal, and those nibbles packed."""
    high, low = np.arange(256) >> 4, np.arange(256) & 15
    count = (high < 10).astype(np.uint8) + (low < 10)
    packed = np.where((high < 10) & (low < 10), (high << 4) | low,
                      np.where(high < 10, high, np.where(low < 10, low, 0)))
    return count.astype(np.uint8), packed.astype(np.uint8)


_DECIMALS, _PACKED = _byte_tables()


@njit(cache=True, nogil=True)
def decimal_codes(data: np.ndarray, base: int, out: np.ndarray) -> None:  # pragma: no cover
    """Visa's digit extraction: the first out.shape[1] (at most 16) decimal nibbles of each
    row of bytes, left to right, then if too few its nibbles A-F as 0-5; written as
    ``base + digit`` (48 for the character codes of a ``U`` array, 0 for digit values).

    Rows of up to 8 bytes go a byte at a time through two 256-entry tables
    (the byte's decimal nibbles and their count) into one word; a longer row,
    or one with too few decimal nibbles (rare), takes ``_decimal_slow``.
    """
    count = out.shape[1]
    short = data.shape[1] <= 8
    for i in range(data.shape[0]):
        packed = np.uint64(0)
        total = 0
        if short:
            for j in range(data.shape[1]):
                byte = data[i, j]
                found = np.int64(_DECIMALS[byte])
                packed = (packed << np.uint64(4 * found)) | np.uint64(_PACKED[byte])
                total += found
        if short and total >= count:
            first = packed >> np.uint64(4 * (total - count))  # the first `count`, digit 0 on top
            for r in range(count):
                out[i, r] = np.uint64(base) + ((first >> np.uint64(4 * (count - 1 - r)))
                                               & np.uint64(15))
        else:
            digits = _decimal_slow(data, i, count)
            for r in range(count):
                out[i, r] = np.uint64(base) + ((digits >> np.uint64(4 * r)) & np.uint64(15))


_NIBBLE_TOPS = np.uint64(0x8888888888888888)  # bit 3 of every nibble


@njit(cache=True, nogil=True, inline="always")
def _decimal_flags(word: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """Bit 3 of each decimal nibble of ``word`` (a nibble is 10-15 when bit 3 and bit 2 or
    bit 1 are set)."""
    letters = word & ((word << np.uint64(1)) | (word << np.uint64(2))) & _NIBBLE_TOPS
    return ~letters & _NIBBLE_TOPS


@njit(cache=True, nogil=True, inline="always")
def _next_digit(word: np.uint64, flags: np.uint64) -> tuple:  # pragma: no cover
    """(the leftmost flagged digit of ``word``, ``flags`` without it): its place is a
    leading-zero count (4k for nibble k); no flag left gives a digit of no meaning."""
    at = np.uint64(leading_zeros(flags)) & np.uint64(63)
    return (word << at) >> np.uint64(60), flags & ~((np.uint64(1) << np.uint64(63)) >> at)


@njit(cache=True, nogil=True, inline="always")
def _visa_slow(word: np.uint64, count: int) -> np.uint64:  # pragma: no cover - compiled
    """The first ``count`` decimal nibbles of a word with fewer than ``count`` of them, then
    its nibbles A-F as 0-5: digit r in nibble r from the top (nibble by nibble; rare)."""
    digits = np.uint64(0)
    taken = 0
    for letter in range(2):
        for k in range(16):
            nib = (word >> np.uint64(60 - 4 * k)) & np.uint64(15)
            if taken < count and (nib > np.uint64(9)) == (letter == 1):
                digits |= (nib - np.uint64(10 * letter)) << np.uint64(60 - 4 * taken)
                taken += 1
    return digits


@njit(cache=True, nogil=True, inline="always")
def _visa_digits(word: np.uint64, count: int) -> np.uint64:  # pragma: no cover - compiled
    """The first ``count`` decimal nibbles of a cipher block (a word, its first byte on
    top), then if too few its nibbles A-F as 0-5: digit r in nibble r from the top.

    Each decimal nibble is flagged on its top bit; the leftmost flag's place
    (a leading-zero count) shifts its digit out, then the flag is cleared, once
    per digit.  A word with too few decimal nibbles (rare) is redone nibble by
    nibble.
    """
    flags = _decimal_flags(word)
    digits = np.uint64(0)
    enough = True
    for r in range(count):
        enough &= flags != 0
        digit, flags = _next_digit(word, flags)
        digits |= digit << np.uint64(60 - 4 * r)
    return digits if enough else _visa_slow(word, count)


@njit(cache=True, nogil=True, inline="always")
def _visa4(word: np.uint64, count: int) -> tuple:  # pragma: no cover - compiled
    """(the first four decimal nibbles of a word, digit r in nibble r from the top; whether
    it has ``count`` (<= 4) of them): ``_visa_digits`` unrolled, without a branch, so that
    a loop over rows runs on vector registers (a vector leading-zero count with AVX-512)."""
    flags = _decimal_flags(word)
    digits = np.uint64(0)
    enough = True
    for r in range(4):
        enough &= (flags != 0) | (r >= count)
        digit, flags = _next_digit(word, flags)
        digits |= digit << np.uint64(60 - 4 * r)
    return digits, enough


@njit(cache=True, nogil=True)
def decimal_words(words: np.ndarray, base: int, out: np.ndarray) -> None:  # pragma: no cover
    """``decimal_codes`` of (N,) cipher blocks as words (the block's first byte on top),
    without a pass to bytes (see ``_visa_digits``).  Up to 4 digits (CVV, PVV): a block of
    rows at a time, the digits of every row without a branch (``_visa4``), then written;
    the rare row with too few decimal nibbles is redone."""
    count = out.shape[1]
    if count > 4:
        for i in range(words.shape[0]):
            digits = _visa_digits(words[i], count)
            for r in range(count):
                out[i, r] = np.uint64(base) + ((digits >> np.uint64(60 - 4 * r)) & np.uint64(15))
        return
    found = np.empty(_BLOCK, np.uint64)
    enough = np.empty(_BLOCK, np.bool_)
    for start in range(0, words.shape[0], _BLOCK):
        rows = min(_BLOCK, words.shape[0] - start)
        block, codes = words[start:start + rows], out[start:start + rows]
        for j in range(rows):  # vectorised: no branch
            found[j], enough[j] = _visa4(block[j], count)
        for j in range(rows):
            if not enough[j]:
                found[j] = _visa_slow(block[j], count)
        for j in range(rows):
            for r in range(4):  # unrolled; the test on ``count`` is hoisted out of the loop
                if r < count:
                    codes[j, r] = np.uint64(base) + ((found[j] >> np.uint64(60 - 4 * r))
                                                     & np.uint64(15))


@njit(cache=True, nogil=True)
def decimal_matches(words: np.ndarray, count: int, expected: np.ndarray,
                    out: np.ndarray) -> None:  # pragma: no cover - compiled
    """out[i]: are the ``count`` (<= 4) Visa digits of words[i] (see ``_visa_digits``) the
    top ``count`` nibbles of expected[i] (digit words; one row serves every row)?  As
    ``decimal_words``: every row without a branch, then the rare short rows redone."""
    top = _ALL << np.uint64(64 - 4 * count)
    enough = np.empty(_BLOCK, np.bool_)
    for start in range(0, words.shape[0], _BLOCK):
        rows = min(_BLOCK, words.shape[0] - start)
        block, same = words[start:start + rows], out[start:start + rows]
        given = expected[start:start + rows] if expected.shape[0] > 1 else expected
        step = 1 if expected.shape[0] > 1 else 0
        for j in range(rows):  # vectorised: no branch
            digits, enough[j] = _visa4(block[j], count)
            same[j] = ((digits ^ given[j * step]) & top) == 0
        for j in range(rows):
            if not enough[j]:
                same[j] = ((_visa_digits(block[j], count) ^ given[j * step]) & top) == 0


@njit(cache=True, nogil=True)
def odd_parity(keys: np.ndarray) -> None:  # pragma: no cover - compiled
    """Set the low bit of every byte of ``keys`` (any shape, C-contiguous) so that the byte
    has odd parity, in place."""
    flat = keys.reshape(-1)
    for i in range(flat.size):
        b = np.uint32(flat[i])
        x = b >> 1
        x ^= x >> 4
        x ^= x >> 2
        x ^= x >> 1
        flat[i] = np.uint8((b & 0xFE) | ((x & 1) ^ 1))
