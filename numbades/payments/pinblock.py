"""ISO 9564-1 PIN blocks, formats 0, 1, 2 and 3, over arrays of PINs and PANs.

A block is 16 nibbles: the control nibble (the format number), the PIN
length (4 to 12), the PIN digits, then fill: ``F`` (formats 0 and 2),
random nibbles (format 1, the "transaction field") or random nibbles from
``A`` to ``F`` (format 3).  Formats 0 and 3 are XORed with the PAN field:
four zero nibbles, then the 12 rightmost PAN digits excluding the check
digit (zero-padded on the left for shorter PANs).

Blocks are built straight from the PINs' and PANs' characters, and parsed
straight to the PINs' characters, by compiled loops (``_kernels``): one
pass over the rows, which also checks the digits.  In translation the
clear PINs stay in a character array inside the call.  Parsing never
raises on a bad block: each row gets a validity flag (control nibble, PIN length, PIN digits,
fill, and through the fill the PAN of formats 0 and 3).
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from . import _cipher, _kernels, dukpt, inputs

__all__ = ["FORMATS", "decipher_pin_blocks", "encipher_pin_blocks", "pin_block",
           "pin_from_block", "translate_pin_blocks"]

FORMATS = (0, 1, 2, 3)
_WITH_PAN = (0, 3)
_PIN_MIN, _PIN_MAX = 4, 12
_PAN_MIN, _PAN_MAX = 8, 19


def _format(value: Any, name: str = "format") -> int:
    return inputs.choice(value, FORMATS, name)


_NO_PAN = np.zeros((0, 1), np.uint32)  # formats 1 and 2: no PAN rows


def _pan(pan: Any, fmt: int) -> np.ndarray:
    """The PAN characters of formats 0 and 3 (P rows, checked by the kernels); none for 1 and 2."""
    if fmt not in _WITH_PAN:
        return _NO_PAN
    if pan is None:
        raise TypeError(f"format {fmt} needs the PAN (pan=None is for formats 1 and 2)")
    return inputs.codes(pan, "pan")


def _check_pan(pan: np.ndarray, lengths: np.ndarray, bad: np.ndarray) -> None:
    inputs.check_read(pan, lengths, bad, "pan", _PAN_MIN, _PAN_MAX)


def _check_now(chars: np.ndarray) -> np.ndarray:
    """PAN characters checked now: for the calls whose cipher runs before they are read."""
    if chars.shape[0]:
        inputs.digits_from(chars, "pan", _PAN_MIN, _PAN_MAX)
    return chars


_F_FILL = np.zeros((0, 16), np.uint8)  # no rows: the kernel writes F


def _random_nibbles(n: int, low: int) -> np.ndarray:
    """(n, 16) nibbles from ``secrets``, uniform on ``low``..15."""
    span = 16 - low
    limit = 256 - 256 % span
    need, got = n * 16, np.zeros(0, np.uint8)
    while got.size < need:  # rejection sampling keeps the draw uniform
        draw = np.frombuffer(secrets.token_bytes(need - got.size + 64), np.uint8)
        got = np.concatenate([got, draw[draw < limit]])
    return (got[:need] % span + low).astype(np.uint8).reshape(n, 16)


def _fill(fmt: int, n: int) -> np.ndarray:
    """The fill nibbles of format ``fmt`` for n rows (no rows: the kernels write F)."""
    if fmt == 1:
        return _random_nibbles(n, 0)
    if fmt == 3:
        return _random_nibbles(n, 10)
    return _F_FILL


def _encode(pins: np.ndarray, pan: np.ndarray, fmt: int, n: int) -> np.ndarray:
    """Clear blocks (n, 8) from PIN and PAN characters (1 or n rows each; PAN: none for
    formats 1 and 2); both are checked here, in the one pass that builds the blocks."""
    fill = _fill(fmt, n)
    out = np.empty((n, 8), np.uint8)
    pin_len, pan_len = np.zeros(n, np.intp), np.zeros(n, np.intp)
    pin_bad, pan_bad = np.zeros(n, np.bool_), np.zeros(n, np.bool_)
    if n:
        _kernels.encode_blocks(pins, pan, fmt, fill, out, pin_len, pin_bad, pan_len, pan_bad)
    _check_pan(pan, pan_len, pan_bad)
    inputs.check_read(pins, pin_len, pin_bad, "pin", _PIN_MIN, _PIN_MAX)
    return out


def _decode(blocks: np.ndarray, pan: np.ndarray, fmt: int) -> tuple[np.ndarray, np.ndarray]:
    """Clear blocks (N, 8) -> (PIN characters (N, 12) uint32, all NUL where invalid; valid)."""
    n = blocks.shape[0]
    pins = np.empty((n, _PIN_MAX), np.uint32)
    valid = np.empty(n, np.bool_)
    pan_len, pan_bad = np.zeros(n, np.intp), np.zeros(n, np.bool_)
    if n:
        _kernels.decode_blocks(np.ascontiguousarray(blocks), pan, fmt, pins, valid, pan_len,
                               pan_bad)
    _check_pan(pan, pan_len, pan_bad)
    return pins, valid


def _reformat(blocks: np.ndarray, pan: np.ndarray, from_fmt: int, to_fmt: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """Clear blocks re-formatted, the PINs staying inside the kernel: (blocks, valid);
    the PAN (checked already) serves both formats."""
    n = blocks.shape[0]
    out = np.empty((n, 8), np.uint8)
    valid = np.empty(n, np.bool_)
    if n:
        _kernels.reformat_blocks(np.ascontiguousarray(blocks), pan, from_fmt, to_fmt,
                                 _fill(to_fmt, n), out, valid, np.zeros(n, np.intp),
                                 np.zeros(n, np.bool_))
    return out, valid


def _strings(pins: np.ndarray) -> np.ndarray:
    """(N, 12) PIN characters -> a ``U12`` array ('' for an invalid row)."""
    return pins.view("U12").reshape(-1)


def _rows(pan: np.ndarray) -> dict[str, int]:
    """The PAN's row count for ``inputs.batch_size`` (nothing when the format takes no PAN)."""
    return {"pan": pan.shape[0]} if pan.shape[0] else {}


def pin_block(pin: Any, pan: Any, format: int) -> np.ndarray:
    """Clear ISO 9564-1 PIN blocks: an ``(N, 8)`` uint8 array.

    ``pin``: PINs of 4 to 12 decimal digits (a ``str``, a sequence of
    ``str`` or a NumPy ``U``/``S`` array).  ``pan``: PANs of 8 to 19 digits
    for formats 0 and 3 (one PAN for every PIN, or one per PIN); ``None``
    for formats 1 and 2.  ``format``: 0, 1, 2 or 3; the fill of formats 1
    and 3 comes from ``secrets``.
    """
    fmt = _format(format)
    pan_chars = _pan(pan, fmt)
    pins = inputs.codes(pin, "pin")
    n = inputs.batch_size(pin=pins.shape[0], **_rows(pan_chars))
    return _encode(pins, pan_chars, fmt, n)


def _blocks_and_pan(block: Any, pan: np.ndarray, name: str = "block"
                    ) -> tuple[np.ndarray, int]:
    blocks = inputs.byte_rows(block, name, (8,))
    n = inputs.batch_size(**{name: blocks.shape[0]}, **_rows(pan))
    return np.ascontiguousarray(inputs.spread(blocks, n)), n


def pin_from_block(block: Any, pan: Any, format: int) -> tuple[np.ndarray, np.ndarray]:
    """PINs from clear PIN blocks: (``U12`` array of PINs, boolean validity mask), one row each.

    ``block``: 8 bytes or a uint8 ``(8,)`` / ``(N, 8)`` array.  ``pan`` and
    ``format`` as for ``pin_block``.  A row whose block is malformed (wrong
    control nibble, PIN length outside 4..12, a non-decimal PIN digit, a
    wrong fill, which is also how a wrong PAN shows) gets ``''`` and
    ``False``; nothing is raised for it.
    """
    fmt = _format(format)
    pan_chars = _pan(pan, fmt)
    blocks, _ = _blocks_and_pan(block, pan_chars)
    pins, valid = _decode(blocks, pan_chars, fmt)
    return _strings(pins), valid


def encipher_pin_blocks(key: Any, pin: Any, pan: Any, format: int = 0) -> np.ndarray:
    """PIN blocks built as by ``pin_block`` and Triple-DES-enciphered (ECB): ``(N, 8)`` uint8.

    ``key``: 16 bytes or a uint8 ``(16,)`` array (one key) or ``(N, 16)``
    (a key per row).  Three DES operations (one Triple-DES block) per row.
    """
    keys = inputs.key_rows(key, "key")
    fmt = _format(format)
    pan_chars = _pan(pan, fmt)
    pins = inputs.codes(pin, "pin")
    n = inputs.batch_size(key=keys.shape[0], pin=pins.shape[0], **_rows(pan_chars))
    return _cipher.ecb(keys, _encode(pins, pan_chars, fmt, n))


def decipher_pin_blocks(key: Any, blocks: Any, pan: Any, format: int = 0
                        ) -> tuple[np.ndarray, np.ndarray]:
    """PINs from enciphered PIN blocks: (``U12`` PINs, validity mask), as ``pin_from_block``
    after Triple-DES ECB decryption under ``key`` (one key or a key per row)."""
    keys = inputs.key_rows(key, "key")
    fmt = _format(format)
    pan_chars = _check_now(_pan(pan, fmt))
    blocks, n = _blocks_and_pan(blocks, pan_chars, "blocks")
    inputs.batch_size(key=keys.shape[0], blocks=n)
    pins, valid = _decode(_cipher.ecb(keys, blocks, decrypt=True), pan_chars, fmt)
    return _strings(pins), valid


def translate_pin_blocks(blocks: Any, pan: Any, from_key: Any, to_key: Any,
                         from_format: int = 0, to_format: int = 0, *,
                         ksn: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Translate enciphered PIN blocks from one key and format to another: (blocks, valid).

    Each row is deciphered under ``from_key`` (or, with ``ksn=``, under the
    DUKPT PIN key of its KSN, ``from_key`` then being the base derivation
    key), parsed as ``from_format`` against its PAN, rebuilt as
    ``to_format`` and enciphered under ``to_key``; the clear PINs never
    leave the call.  Keys: 16 bytes, a uint8 ``(16,)`` array or ``(N, 16)``.
    Returns the ``(N, 8)`` translated blocks and a boolean mask; a row whose
    deciphered block is malformed gets ``False`` and an all-zero block.
    KSNs are checked as ``dukpt_key`` checks them (counter 0 or more than
    ten bits set: ``ValueError`` naming the rows).
    """
    from_fmt, to_fmt = _format(from_format, "from_format"), _format(to_format, "to_format")
    blocks_in = inputs.byte_rows(blocks, "blocks", (8,))
    pan_from, pan_to = _pan(pan, from_fmt), _pan(pan, to_fmt)
    _check_now(pan_from if pan_from.shape[0] else pan_to)  # one PAN serves both formats
    out_keys = inputs.key_rows(to_key, "to_key")
    if ksn is not None:
        bdks, ksns, counters, n_from = dukpt.checked(from_key, ksn)
    else:
        from_keys = inputs.key_rows(from_key, "from_key")
        n_from = from_keys.shape[0]
    n = inputs.batch_size(blocks=blocks_in.shape[0], **(_rows(pan_from) or _rows(pan_to)),
                          **{"from_key/ksn": n_from}, to_key=out_keys.shape[0])
    if ksn is not None:  # every check done: now the work
        from_keys = dukpt.derive(bdks, ksns, counters, n_from, "pin")
    clear = _cipher.ecb(from_keys, inputs.spread(blocks_in, n), decrypt=True)
    clear, valid = _reformat(clear, pan_from if pan_from.shape[0] else pan_to, from_fmt, to_fmt)
    out = _cipher.ecb(out_keys, clear)
    out[~valid] = 0
    return out, valid
