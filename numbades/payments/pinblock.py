"""ISO 9564-1 PIN blocks, formats 0, 1, 2 and 3, over arrays of PINs and PANs.

A block is 16 nibbles: the control nibble (the format number), the PIN
length (4 to 12), the PIN digits, then fill: ``F`` (formats 0 and 2),
random nibbles (format 1, the "transaction field") or random nibbles from
``A`` to ``F`` (format 3).  Formats 0 and 3 are XORed with the PAN field:
four zero nibbles, then the 12 rightmost PAN digits excluding the check
digit (zero-padded on the left for shorter PANs).

Blocks are built and parsed by compiled loops (``_kernels``); the clear
PINs stay in uint8 digit arrays inside the call.  Parsing never raises on a bad block:
each row gets a validity flag (control nibble, PIN length, PIN digits,
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


_NO_PAN = (np.zeros((0, _PAN_MAX), np.uint8), np.zeros(0, np.intp))
Pan = tuple[np.ndarray, np.ndarray]  # PAN digits (P, 19) and lengths (P,); P = 0 for no PAN


def _pan(pan: Any, fmt: int) -> Pan:
    """The PAN digits of formats 0 and 3 (P rows); no rows for formats 1 and 2."""
    if fmt not in _WITH_PAN:
        return _NO_PAN
    if pan is None:
        raise TypeError(f"format {fmt} needs the PAN (pan=None is for formats 1 and 2)")
    return inputs.digit_rows(pan, "pan", _PAN_MIN, _PAN_MAX)


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


def _build(digits: np.ndarray, lengths: np.ndarray, pan: Pan, fmt: int) -> np.ndarray:
    """Clear blocks (N, 8) from PIN digits (N, 12), lengths (N,) and the PAN (0, 1 or N rows)."""
    n = digits.shape[0]
    if fmt == 1:
        fill = _random_nibbles(n, 0)
    elif fmt == 3:
        fill = _random_nibbles(n, 10)
    else:
        fill = _F_FILL
    out = np.empty((n, 8), np.uint8)
    _kernels.build_blocks(np.ascontiguousarray(digits), np.ascontiguousarray(lengths), pan[0],
                      pan[1], fmt, fill, out)
    return out


def _parse(blocks: np.ndarray, pan: Pan, fmt: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Clear blocks (N, 8) -> PIN digits (N, 12) (zero where invalid), lengths (N,), valid (N,)."""
    n = blocks.shape[0]
    digits = np.empty((n, _PIN_MAX), np.uint8)
    lengths = np.empty(n, np.intp)
    valid = np.empty(n, np.bool_)
    _kernels.parse_blocks(np.ascontiguousarray(blocks), pan[0], pan[1], fmt, digits, lengths, valid)
    return digits, lengths, valid


def _pin_strings(digits: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """(N, 12) digits and lengths -> a ``U12`` array ('' for length 0)."""
    codes = np.empty((digits.shape[0], _PIN_MAX), np.uint32)
    _kernels.pin_codes(digits, lengths, codes)
    return codes.view("U12").reshape(-1)


def _rows(pan: Pan) -> dict[str, int]:
    """The PAN's row count for ``inputs.batch_size`` (nothing when the format takes no PAN)."""
    return {"pan": pan[1].size} if pan[1].size else {}


def _pin_rows(pin: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    digits, lengths = pin
    return (np.ascontiguousarray(inputs.spread(digits, n)),
            np.ascontiguousarray(inputs.spread(lengths, n)))


def _pin_digits(pin: Any) -> tuple[np.ndarray, np.ndarray]:
    return inputs.digit_rows(pin, "pin", _PIN_MIN, _PIN_MAX)


def pin_block(pin: Any, pan: Any, format: int) -> np.ndarray:
    """Clear ISO 9564-1 PIN blocks: an ``(N, 8)`` uint8 array.

    ``pin``: PINs of 4 to 12 decimal digits (a ``str``, a sequence of
    ``str`` or a NumPy ``U``/``S`` array).  ``pan``: PANs of 8 to 19 digits
    for formats 0 and 3 (one PAN for every PIN, or one per PIN); ``None``
    for formats 1 and 2.  ``format``: 0, 1, 2 or 3; the fill of formats 1
    and 3 comes from ``secrets``.
    """
    fmt = _format(format)
    pan_digits = _pan(pan, fmt)
    pins = _pin_digits(pin)
    n = inputs.batch_size(pin=pins[1].size, **_rows(pan_digits))
    return _build(*_pin_rows(pins, n), pan_digits, fmt)


def _blocks_and_pan(block: Any, pan: Any, fmt: int, name: str = "block"
                    ) -> tuple[np.ndarray, Pan, int]:
    blocks = inputs.byte_rows(block, name, (8,))
    pan_digits = _pan(pan, fmt)
    n = inputs.batch_size(**{name: blocks.shape[0]}, **_rows(pan_digits))
    return np.ascontiguousarray(inputs.spread(blocks, n)), pan_digits, n


def pin_from_block(block: Any, pan: Any, format: int) -> tuple[np.ndarray, np.ndarray]:
    """PINs from clear PIN blocks: (``U12`` array of PINs, boolean validity mask), one row each.

    ``block``: 8 bytes or a uint8 ``(8,)`` / ``(N, 8)`` array.  ``pan`` and
    ``format`` as for ``pin_block``.  A row whose block is malformed (wrong
    control nibble, PIN length outside 4..12, a non-decimal PIN digit, a
    wrong fill, which is also how a wrong PAN shows) gets ``''`` and
    ``False``; nothing is raised for it.
    """
    fmt = _format(format)
    blocks, pan_digits, _ = _blocks_and_pan(block, pan, fmt)
    digits, lengths, valid = _parse(blocks, pan_digits, fmt)
    return _pin_strings(digits, lengths), valid


def encipher_pin_blocks(key: Any, pin: Any, pan: Any, format: int = 0) -> np.ndarray:
    """PIN blocks built as by ``pin_block`` and Triple-DES-enciphered (ECB): ``(N, 8)`` uint8.

    ``key``: 16 bytes or a uint8 ``(16,)`` array (one key) or ``(N, 16)``
    (a key per row).  Three DES operations (one Triple-DES block) per row.
    """
    keys = inputs.key_rows(key, "key")
    fmt = _format(format)
    pan_digits = _pan(pan, fmt)
    pins = _pin_digits(pin)
    n = inputs.batch_size(key=keys.shape[0], pin=pins[1].size, **_rows(pan_digits))
    return _cipher.ecb(keys, _build(*_pin_rows(pins, n), pan_digits, fmt))


def decipher_pin_blocks(key: Any, blocks: Any, pan: Any, format: int = 0
                        ) -> tuple[np.ndarray, np.ndarray]:
    """PINs from enciphered PIN blocks: (``U12`` PINs, validity mask), as ``pin_from_block``
    after Triple-DES ECB decryption under ``key`` (one key or a key per row)."""
    keys = inputs.key_rows(key, "key")
    fmt = _format(format)
    blocks, pan_digits, n = _blocks_and_pan(blocks, pan, fmt, "blocks")
    inputs.batch_size(key=keys.shape[0], blocks=n)
    digits, lengths, valid = _parse(_cipher.ecb(keys, blocks, decrypt=True), pan_digits, fmt)
    return _pin_strings(digits, lengths), valid


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
    digits, lengths, valid = _parse(clear, pan_from, from_fmt)
    # Invalid rows are rebuilt from a dummy PIN (length 4, digits 0) and zeroed after.
    lengths[~valid] = _PIN_MIN
    out = _cipher.ecb(out_keys, _build(digits, lengths, pan_to, to_fmt))
    out[~valid] = 0
    return out, valid
