"""Card and PIN verification values over batches: Visa CVV/CVC, Visa PVV, IBM 3624.

- ``cvv`` / ``verify_cvv``: the Visa CVV, Mastercard CVC algorithm; CVV2 and
  iCVV (chip CVC) are the same algorithm with their own service code
  (e.g. ``"000"`` for CVV2, ``"999"`` for iCVV, as the issuer sets).
- ``visa_pvv`` / ``verify_visa_pvv``: the Visa PIN verification value.
- ``ibm3624_natural_pin``, ``ibm3624_offset``, ``ibm3624_pin`` and
  ``verify_ibm3624_offset``: IBM 3624 PINs with a decimalisation table
  (psec's parameter names: ``pan_verify_offset``, ``pan_verify_length``,
  ``pan_pad``).

Arrays of rows in and out: digit inputs are ``str`` (a batch of one), a
sequence of ``str`` or a NumPy ``U``/``S`` array; a one-row argument is
used for every row.  Keys are ``uint8`` arrays, (16,) for the batch or
(N, 16) for a key per row (the PVKs also 8 or 24 bytes).  Results are
NumPy ``U`` arrays of digit strings; verify forms return boolean arrays.

The strings are read eight characters to a word, a block of rows at a time
(``_card_swar``); only when a row must be refused, or a string is wider
than 24 characters, do the exact per-row kernels (``_card_kernels``) read
them again, to name the rows.  Either way every check runs before any
cipher does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _card_kernels, _card_swar, _cipher, _swar
from ._digits import decimal, fast_read, flat, packed
from .inputs import (
    batch_size,
    codes,
    fixed_digits,
    key_rows,
    refuse_rows,
)

__all__ = [
    "cvv",
    "ibm3624_natural_pin",
    "ibm3624_offset",
    "ibm3624_pin",
    "verify_cvv",
    "verify_ibm3624_offset",
    "verify_visa_pvv",
    "visa_pvv",
]

#: PVK widths (psec accepts single, double and triple length PVKs).
_PVK_WIDTHS = (8, 16, 24)
#: The longest PAN (an IBM 3624 ``pan_verify_offset`` past it refuses every row).
_MOST_PAN = 19


def _expected(value: Any, name: str, length: int) -> np.ndarray:
    """Values to verify, ``length`` digits each: (rows,) digit words (``_values``), checked
    (``ValueError`` naming the rows)."""
    return _digit_words(codes(value, name), name, length, length)[0]


def _digit_words(chars: np.ndarray, name: str, low: int, high: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """((rows,) digit words, the first 16 digits with digit 0 on top; (rows,) int8 lengths)
    of character codes, checked: low..high digits (``ValueError`` naming the rows)."""
    n = chars.shape[0]
    words, lengths = np.empty(n, np.uint64), np.empty(n, np.int8)
    if n and chars.shape[1] <= _swar.FIELD_CHARS and _card_swar.words_fast(
            flat(chars), chars.shape[1], False, low, high, words, lengths):
        return words, lengths
    words, all_lengths = packed(n, 1, _card_kernels.digit_words, [(chars, name, low, high)])
    return words, all_lengths[0]


def _matches(words: np.ndarray, count: int, expected: np.ndarray) -> np.ndarray:
    """(N,) bool: are the Visa digits of each cipher block (``decimal``) the expected ones?"""
    out = np.empty(words.shape[0], np.bool_)
    _card_kernels.decimal_matches(words, count, expected, out)
    return out


def _cvv_blocks(cvk: Any, pan: Any, expiry: Any, service_code: Any,
                **more: int) -> np.ndarray:
    """(N,) words: the CVV cipher output of each row (``more``: other arguments' row
    counts, checked with these)."""
    key = key_rows(cvk, "cvk", (16,))
    fields = [(codes(pan, "pan"), "pan", 1, 19), (codes(expiry, "expiry"), "expiry", 4, 4),
              (codes(service_code, "service_code"), "service_code", 3, 3)]
    n = batch_size(cvk=key.shape[0], pan=fields[0][0].shape[0],
                   expiry=fields[1][0].shape[0], service_code=fields[2][0].shape[0], **more)
    blocks = np.empty((2, n), np.uint64)
    if not fast_read(_card_swar.cvv_fast, n, blocks, fields):
        blocks, _ = packed(n, 2, _card_kernels.cvv_data, fields, planar=True)
    # MAC algorithm 3 of the two blocks: E_A(b1) ^ b2, then Triple-DES (A, B) of that
    # (E_A, D_B, E_A): two ECB passes over words, no chaining to wait for
    chained = _cipher.ecb(key[:, :8], blocks[0], in_place=True)
    chained ^= blocks[1]
    return _cipher.ecb(key, chained, in_place=True)


def cvv(cvk: Any, pan: Any, expiry: Any, service_code: Any) -> np.ndarray:
    """Visa CVV / Mastercard CVC of each row: an (N,) array of 3-digit strings.

    ``cvk``: the double-length card verification key, (16,) or (N, 16) uint8.
    ``pan``: 1 to 19 digits; ``expiry``: 4 digits (YYMM or MMYY, as the issuer
    writes it); ``service_code``: 3 digits.  The 32 digits PAN || expiry ||
    service code || zeros are two blocks: ``E_A(block 1) ^ block 2`` under
    key A, then Triple-DES (A, B); the first three decimal digits of the
    result (then A-F as 0-5 if fewer) are the CVV.  CVV2 and iCVV are this
    function with their service codes.
    """
    return decimal(_cvv_blocks(cvk, pan, expiry, service_code), 3)


def verify_cvv(cvk: Any, pan: Any, expiry: Any, service_code: Any, value: Any) -> np.ndarray:
    """(N,) bool: does each row's 3-digit ``value`` equal its CVV (see ``cvv``)?"""
    expected = _expected(value, "cvv", 3)
    return _matches(_cvv_blocks(cvk, pan, expiry, service_code, cvv=expected.shape[0]), 3,
                    expected)


def _pvv_blocks(pvk: Any, pvki: Any, pin: Any, pan: Any, **more: int) -> np.ndarray:
    """(N,) words: the PVV cipher output of each row (``more`` as for ``_cvv_blocks``)."""
    key = key_rows(pvk, "pvk", _PVK_WIDTHS)
    fields = [(codes(pan, "pan"), "pan", 12, 19), (codes(pvki, "pvki"), "pvki", 1, 1),
              (codes(pin, "pin"), "pin", 4, 4)]
    n = batch_size(pvk=key.shape[0], pvki=fields[1][0].shape[0], pin=fields[2][0].shape[0],
                   pan=fields[0][0].shape[0], **more)
    # the transformed security parameter: the 11 PAN digits before the check digit,
    # the PVKI and the PIN
    tsp = np.empty(n, np.uint64)
    if not fast_read(_card_swar.pvv_fast, n, tsp, fields):
        tsp, _ = packed(n, 1, _card_kernels.pvv_data, fields)
    return _cipher.ecb(key, tsp, in_place=True)


def visa_pvv(pvk: Any, pvki: Any, pin: Any, pan: Any) -> np.ndarray:
    """Visa PIN verification value of each row: an (N,) array of 4-digit strings.

    ``pvk``: (8|16|24,) or (N, 8|16|24) uint8; ``pvki``: the key index, one
    digit; ``pin``: 4 digits; ``pan``: 12 to 19 digits.  The 16 digits (the
    11 rightmost PAN digits without the check digit, PVKI, PIN) are
    enciphered under the PVK; the first four decimal digits of the result
    (then A-F as 0-5 if fewer) are the PVV.
    """
    return decimal(_pvv_blocks(pvk, pvki, pin, pan), 4)


def verify_visa_pvv(pvk: Any, pvki: Any, pin: Any, pan: Any, pvv: Any) -> np.ndarray:
    """(N,) bool: does each row's ``pvv`` (4 digits) match its PIN (see ``visa_pvv``)?"""
    expected = _expected(pvv, "pvv", 4)
    return _matches(_pvv_blocks(pvk, pvki, pin, pan, pvv=expected.shape[0]), 4, expected)


def _table(decimalization: Any) -> np.ndarray:
    if not isinstance(decimalization, str):
        raise TypeError(f"decimalization must be a str of 16 digits, "
                        f"not {type(decimalization).__name__}")
    return fixed_digits(decimalization, "decimalization", 16)[0]


def _pad_nibble(pan_pad: Any) -> int:
    if not isinstance(pan_pad, str):
        raise TypeError(f"pan_pad must be a str (one hex digit), not {type(pan_pad).__name__}")
    if len(pan_pad) != 1 or pan_pad not in "0123456789abcdefABCDEF":
        raise ValueError(f"pan_pad must be one hex digit, got {pan_pad!r}")
    return int(pan_pad, 16)


def _count(value: Any, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return int(value)


def _enciphered(pvk: Any, decimalization: Any, pan: Any, pan_verify_offset: Any,
                pan_verify_length: Any, pan_pad: Any, n_other: int, other: str
                ) -> tuple[np.ndarray, np.ndarray]:
    """(the enciphered validation data as (N,) words, the decimalisation table (16,)):
    IBM 3624."""
    key = key_rows(pvk, "pvk", _PVK_WIDTHS)
    table = _table(decimalization)
    pad = _pad_nibble(pan_pad)
    start = _count(pan_verify_offset, "pan_verify_offset", 0)
    pan_chars = codes(pan, "pan")
    n = batch_size(pvk=key.shape[0], pan=pan_chars.shape[0], **{other: n_other})
    fixed = None if pan_verify_length is None else \
        _count(pan_verify_length, "pan_verify_length", 1)
    field, count = [(pan_chars, "pan", 1, 19)], -1 if fixed is None else fixed
    data = np.empty(n, np.uint64)
    if start > _MOST_PAN or not fast_read(_card_swar.validation_fast, n, data, field, start,
                                          count, pad):
        data, lengths = packed(n, 1, _card_kernels.validation_data, field, start, count, pad)
        pan_len = lengths[0, :pan_chars.shape[0]].astype(np.intp)
        short = pan_len - start < 1 if fixed is None else start + fixed > pan_len
        refuse_rows(short, "pan_verify_offset and pan_verify_length must lie within the PAN")
    return _cipher.ecb(key, data, in_place=True), table


def _values(value: Any, name: str) -> tuple[np.ndarray, np.ndarray, int]:
    """PINs or offsets (4 to 16 digits, rows may differ) as ((N,) digit words, (N,) lengths,
    the width of the strings given, at most 16), checked (``ValueError`` naming the rows)."""
    chars = codes(value, name)
    words, lengths = _digit_words(chars, name, 4, 16)
    return words, lengths, min(chars.shape[1], 16)


def _digit_codes(enciphered: np.ndarray, table: np.ndarray, values: np.ndarray,
                 lengths: np.ndarray, sign: int, width: int) -> np.ndarray:
    """(N, width) uint32 character codes of (values + sign * natural PIN) mod 10 per row,
    NUL after each row's ``lengths`` entry (at most ``width``)."""
    out = np.empty((enciphered.shape[0], width), np.uint32)
    _card_kernels.ibm3624_codes(enciphered, table, values, lengths, sign, out)
    return out


def _strings(codes: np.ndarray) -> np.ndarray:
    """(N, W) character codes -> (N,) ``U<W>`` strings (a view)."""
    return codes.view(f"U{codes.shape[1]}").reshape(codes.shape[0])


def ibm3624_natural_pin(pvk: Any, decimalization: str, pan: Any, *, length: int = 4,
                        pan_verify_offset: int = 0, pan_verify_length: int | None = None,
                        pan_pad: str = "F") -> np.ndarray:
    """IBM 3624 natural PIN of each row: (N,) strings of ``length`` (4 to 16) digits.

    The validation data (``pan_verify_length`` PAN digits from
    ``pan_verify_offset``; by default the rest of each row's PAN; at most 16
    used, right-padded to 16 with the hex digit ``pan_pad``) is enciphered
    under ``pvk`` ((8|16|24,) or (N, 8|16|24) uint8), its hex digits mapped
    through ``decimalization`` (a str of 16 digits, the table for 0-F), and
    the first ``length`` digits are the natural PIN.
    """
    length = _count(length, "length", 4)
    if length > 16:
        raise ValueError(f"length must be 4 to 16, got {length}")
    enciphered, table = _enciphered(pvk, decimalization, pan, pan_verify_offset,
                                    pan_verify_length, pan_pad, 1, "length")
    return _strings(_digit_codes(enciphered, table, np.zeros(1, np.uint64),
                                 np.array([length], np.int8), 1, length))


def ibm3624_offset(pvk: Any, decimalization: str, pin: Any, pan: Any, *,
                   pan_verify_offset: int = 0, pan_verify_length: int | None = None,
                   pan_pad: str = "F") -> np.ndarray:
    """IBM 3624 PIN offset of each row: (PIN - natural PIN) digit by digit, mod 10.

    ``pin``: 4 to 16 digits (rows may differ); the offset has the PIN's
    length.  The other arguments as for ``ibm3624_natural_pin``.
    """
    pins, pin_len, width = _values(pin, "pin")
    enciphered, table = _enciphered(pvk, decimalization, pan, pan_verify_offset,
                                    pan_verify_length, pan_pad, pins.shape[0], "pin")
    return _strings(_digit_codes(enciphered, table, pins, pin_len, -1, width))


def ibm3624_pin(pvk: Any, decimalization: str, offset: Any, pan: Any, *,
                pan_verify_offset: int = 0, pan_verify_length: int | None = None,
                pan_pad: str = "F") -> np.ndarray:
    """The PIN of each row from its IBM 3624 ``offset`` (4 to 16 digits): natural + offset.

    An offset of zeros gives the natural PIN; the other arguments as for
    ``ibm3624_natural_pin``.
    """
    offsets, offset_len, width = _values(offset, "offset")
    enciphered, table = _enciphered(pvk, decimalization, pan, pan_verify_offset,
                                    pan_verify_length, pan_pad, offsets.shape[0], "offset")
    return _strings(_digit_codes(enciphered, table, offsets, offset_len, 1, width))


def verify_ibm3624_offset(pvk: Any, decimalization: str, pin: Any, pan: Any, offset: Any, *,
                          pan_verify_offset: int = 0, pan_verify_length: int | None = None,
                          pan_pad: str = "F") -> np.ndarray:
    """(N,) bool: does each row's PIN equal its natural PIN plus its ``offset``?

    A row whose PIN and offset differ in length does not verify.
    """
    pins, pin_len, pin_width = _values(pin, "pin")
    offsets, offset_len, offset_width = _values(offset, "offset")
    n_rows = batch_size(pin=pins.shape[0], offset=offsets.shape[0])
    enciphered, table = _enciphered(pvk, decimalization, pan, pan_verify_offset,
                                    pan_verify_length, pan_pad, n_rows, "pin")
    out = np.empty(enciphered.shape[0], np.bool_)
    _card_kernels.ibm3624_matches(enciphered, table, pins, pin_len, offsets, offset_len,
                                  max(pin_width, offset_width), out)
    return out
