"""Digit rows of the card and EMV functions: packed into cipher blocks, picked out of them.

Packing digit fields into blocks at per-row offsets (``join`` from digit
values; ``fast_read`` through the SWAR kernels of ``_card_swar`` when every
row is clean, else ``packed`` straight from characters into uint64 words,
with the fields' checks naming the rows), Visa's decimalisation of cipher
output (``decimal``) and odd key parity (``odd_parity``); the loops are in
``_kernels``, ``_card_kernels`` and ``_card_swar``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _card_kernels, _kernels, _swar
from .inputs import check_digits, check_read

#: The card kernels read up to this many characters a row (``_card_kernels._scan``).
_WIDEST = 32


def _narrow(chars: np.ndarray, name: str, low: int, high: int) -> np.ndarray:
    """Character codes cut to ``_WIDEST`` columns; a row with a character past them is
    too long (``ValueError`` naming the rows).  NumPy arrays are as wide as their longest
    row, so this is rare."""
    if chars.shape[1] <= _WIDEST:
        return chars
    too_long = chars[:, _WIDEST:].any(axis=1)
    check_digits(np.where(too_long, _WIDEST + 1, high), np.zeros_like(too_long), name, low, high)
    return np.ascontiguousarray(chars[:, :_WIDEST])


def packed(n: int, words: int, kernel: Any, fields: list[tuple[np.ndarray, str, int, int]],
           *extra: Any, planar: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Cipher input packed by ``kernel`` from the fields' characters, as blocks in uint64
    words ((n,) for one block a row, else (n, words), or (words, n) if ``planar``), and
    the fields' lengths (F, n) int8; each field (characters, name, min and max digits) is
    checked (``ValueError`` naming the rows) before any cipher runs."""
    out = np.empty((n,) if words == 1 else (words, n) if planar else (n, words), np.uint64)
    lengths = np.empty((len(fields), n), np.int8)  # at most _WIDEST
    bad = np.empty((len(fields), n), np.bool_)
    if n:
        kernel(*(_narrow(*field) for field in fields), out, lengths, bad, *extra)
    for k, (chars, name, low, high) in enumerate(fields):
        check_read(chars, lengths[k], bad[k], name, low, high)
    return out, lengths


def flat(chars: np.ndarray) -> np.ndarray:
    """Character codes as the fast kernels read them: flat and read-only (one array type,
    so that each kernel compiles one signature per dtype)."""
    view = chars.reshape(-1)
    view.flags.writeable = False
    return view


def fast_read(kernel: Any, n: int, out: np.ndarray,
              fields: list[tuple[np.ndarray, str, int, int]], *extra: Any) -> bool:
    """Run a SWAR kernel of ``_card_swar`` on the fields' characters (``packed``'s fields,
    each 1 or n rows) into ``out``: True when it ran and every row was clean.  False for
    an empty batch, a field wider than the reader reads, or a row to refuse: the caller
    then runs the exact kernels, which name the rows."""
    if n == 0 or any(chars.shape[1] > _swar.FIELD_CHARS for chars, *_ in fields):
        return False
    args: list[Any] = []
    for chars, *_ in fields:
        args += [flat(chars), chars.shape[1], chars.shape[0] == 1]
    return bool(kernel(*args, *extra, out))


def decimal(data: np.ndarray, count: int, as_text: bool = True) -> np.ndarray:
    """Visa's decimalisation of each row's cipher output (uint8 (N, width) rows, or one
    block a row as (N,) uint64 words): (N,) ``U<count>`` strings, or (N, count) digit
    values when not ``as_text``."""
    out = np.empty((data.shape[0], count), np.uint32 if as_text else np.uint8)
    if data.dtype == np.uint64:
        _card_kernels.decimal_words(np.ascontiguousarray(data), 48 if as_text else 0, out)
    else:
        _card_kernels.decimal_codes(np.ascontiguousarray(data), 48 if as_text else 0, out)
    return out.view(f"U{count}").reshape(-1) if as_text else out


_NOTHING = np.zeros((1, 1), np.uint8)


def entries(value: np.ndarray | int) -> np.ndarray:
    """One intp entry per row, or one for every row."""
    return np.ascontiguousarray(np.asarray(value, np.intp).reshape(-1))


def join(n: int, width: int, a: np.ndarray, a_start: np.ndarray | int,
         a_len: np.ndarray | int, b: np.ndarray = _NOTHING, b_len: np.ndarray | int = 0,
         c: np.ndarray = _NOTHING, c_len: np.ndarray | int = 0, *,
         lead: np.ndarray | int = 0, fill: int = 0) -> np.ndarray:
    """(n, width) bytes of packed digits: ``lead`` fill nibbles, a[i, a_start:][:a_len],
    b[i, :b_len], c[i, :c_len], fill nibbles to the end.

    Digit arrays have n rows or one (serving every row); starts and lengths
    are per row or one for all, and the caller keeps them inside the rows.
    """
    out = np.empty((n, width), np.uint8)
    if n:
        _kernels.join(entries(lead), np.ascontiguousarray(a), entries(a_start),
                      entries(a_len), np.ascontiguousarray(b), entries(b_len),
                      np.ascontiguousarray(c), entries(c_len), fill, out)
    return out


def odd_parity(keys: np.ndarray) -> np.ndarray:
    """Keys with each byte's low bit set so that it has odd parity: from (N, 8k) uint8
    (a copy) or from cipher blocks, (N, k) uint64 words (bytes big-endian)."""
    if keys.dtype == np.uint64:
        out = keys.astype(">u8").view(np.uint8).reshape(keys.shape[0], 8 * keys.shape[1])
    else:
        out = np.array(keys, np.uint8, order="C", copy=True)
    _card_kernels.odd_parity(out)
    return out
