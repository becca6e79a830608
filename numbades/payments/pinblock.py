"""ISO 9564-1 PIN blocks, formats 0, 1, 2 and 3, over arrays of PINs and PANs.

A block is 16 nibbles: the control nibble (the format number), the PIN
length (4 to 12), the PIN digits, then fill: ``F`` (formats 0 and 2),
random nibbles (format 1, the "transaction field") or random nibbles from
``A`` to ``F`` (format 3).  Formats 0 and 3 are XORed with the PAN field:
four zero nibbles, then the 12 rightmost PAN digits excluding the check
digit (zero-padded on the left for shorter PANs).

Everything here is whole-array NumPy on nibbles; the clear PINs stay in
uint8 digit arrays inside the call.  Parsing never raises on a bad block:
each row gets a validity flag (control nibble, PIN length, PIN digits,
fill, and through the fill the PAN of formats 0 and 3).
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from ..cipher import TripleDES
from ..key_arrays import TripleDESArray
from . import dukpt, inputs

__all__ = ["FORMATS", "decipher_pin_blocks", "encipher_pin_blocks", "pin_block",
           "pin_from_block", "translate_pin_blocks"]

FORMATS = (0, 1, 2, 3)
_WITH_PAN = (0, 3)
_PIN_MIN, _PIN_MAX = 4, 12
_PAN_MIN, _PAN_MAX = 8, 19
_COLUMNS = np.arange(16)


def _format(value: Any, name: str = "format") -> int:
    return inputs.choice(value, FORMATS, name)


def _pan_nibbles(pan: Any, fmt: int) -> np.ndarray | None:
    """The PAN field of formats 0 and 3 as (P, 16) nibbles; None for formats 1 and 2."""
    if fmt not in _WITH_PAN:
        return None
    if pan is None:
        raise TypeError(f"format {fmt} needs the PAN (pan=None is for formats 1 and 2)")
    digits, lengths = inputs.digit_rows(pan, "pan", _PAN_MIN, _PAN_MAX)
    # The 12 digits before the check digit: PAN positions length-13 .. length-2.
    positions = lengths[:, None] - 13 + np.arange(12)
    taken = np.take_along_axis(digits, np.maximum(positions, 0), axis=1)
    out = np.zeros((digits.shape[0], 16), np.uint8)
    out[:, 4:] = np.where(positions >= 0, taken, 0)
    return out


def _random_nibbles(n: int, low: int) -> np.ndarray:
    """(n, 16) nibbles from ``secrets``, uniform on ``low``..15."""
    span = 16 - low
    limit = 256 - 256 % span
    need, got = n * 16, np.zeros(0, np.uint8)
    while got.size < need:  # rejection sampling keeps the draw uniform
        draw = np.frombuffer(secrets.token_bytes(need - got.size + 64), np.uint8)
        got = np.concatenate([got, draw[draw < limit]])
    return (got[:need] % span + low).astype(np.uint8).reshape(n, 16)


def _pack(nibbles: np.ndarray) -> np.ndarray:
    return (nibbles[:, 0::2] << 4) | nibbles[:, 1::2]


def _unpack(blocks: np.ndarray) -> np.ndarray:
    nibbles = np.empty((blocks.shape[0], 16), np.uint8)
    nibbles[:, 0::2] = blocks >> 4
    nibbles[:, 1::2] = blocks & 0x0F
    return nibbles


def _build(digits: np.ndarray, lengths: np.ndarray, pan: np.ndarray | None, fmt: int
           ) -> np.ndarray:
    """Clear blocks (N, 8) from PIN digits (N, 12), lengths (N,) and PAN nibbles (1 or N rows)."""
    n = digits.shape[0]
    if fmt == 1:
        nibbles = _random_nibbles(n, 0)
    elif fmt == 3:
        nibbles = _random_nibbles(n, 10)
    else:
        nibbles = np.full((n, 16), 0xF, np.uint8)
    nibbles[:, 0] = fmt
    nibbles[:, 1] = lengths
    in_pin = _COLUMNS[2:14] < (lengths[:, None] + 2)
    nibbles[:, 2:14] = np.where(in_pin, digits, nibbles[:, 2:14])
    if pan is not None:
        nibbles ^= pan
    return _pack(nibbles)


def _parse(blocks: np.ndarray, pan: np.ndarray | None, fmt: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Clear blocks (N, 8) -> PIN digits (N, 12) (zero where invalid), lengths (N,), valid (N,)."""
    nibbles = _unpack(blocks)
    if pan is not None:
        nibbles ^= pan
    lengths = nibbles[:, 1].astype(np.intp)
    in_pin = (lengths[:, None] + 2) > _COLUMNS
    fill = ~in_pin
    fill[:, :2] = False
    valid = (nibbles[:, 0] == fmt) & (lengths >= _PIN_MIN) & (lengths <= _PIN_MAX)
    pin_part = in_pin.copy()
    pin_part[:, :2] = False
    valid &= ~(pin_part & (nibbles > 9)).any(axis=1)
    if fmt in (0, 2):
        valid &= ~(fill & (nibbles != 0xF)).any(axis=1)
    elif fmt == 3:
        valid &= ~(fill & (nibbles < 0xA)).any(axis=1)
    digits = np.where(pin_part[:, 2:14] & valid[:, None], nibbles[:, 2:14], 0).astype(np.uint8)
    return digits, np.where(valid, lengths, 0), valid


def _pin_strings(digits: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """(N, 12) digits and lengths -> a ``U12`` array ('' for length 0)."""
    chars = np.where(_COLUMNS[:12] < lengths[:, None], digits + 48, 0).astype(np.uint8)
    return np.ascontiguousarray(chars).view("S12").reshape(-1).astype("U12")


def _pins(pin: Any, n_pan: int) -> tuple[np.ndarray, np.ndarray, int]:
    digits, lengths = inputs.digit_rows(pin, "pin", _PIN_MIN, _PIN_MAX)
    n = inputs.batch_size({"pin": digits.shape[0], "pan": n_pan})
    return inputs.rows_for(digits, n), inputs.rows_for(lengths, n), n


def pin_block(pin: Any, pan: Any, format: int) -> np.ndarray:
    """Clear ISO 9564-1 PIN blocks: an ``(N, 8)`` uint8 array.

    ``pin``: PINs of 4 to 12 decimal digits (a ``str``, a sequence of
    ``str`` or a NumPy ``U``/``S`` array).  ``pan``: PANs of 8 to 19 digits
    for formats 0 and 3 (one PAN for every PIN, or one per PIN); ``None``
    for formats 1 and 2.  ``format``: 0, 1, 2 or 3; the fill of formats 1
    and 3 comes from ``secrets``.
    """
    fmt = _format(format)
    pan_nibbles = _pan_nibbles(pan, fmt)
    digits, lengths, n = _pins(pin, 1 if pan_nibbles is None else pan_nibbles.shape[0])
    pan_nibbles = None if pan_nibbles is None else inputs.rows_for(pan_nibbles, n)
    return _build(digits, lengths, pan_nibbles, fmt)


def _blocks_and_pan(block: Any, pan: Any, fmt: int) -> tuple[np.ndarray, np.ndarray | None, int]:
    blocks = inputs.binary_rows(block, 8, "block")
    pan_nibbles = _pan_nibbles(pan, fmt)
    rows = {"block": blocks.shape[0]}
    if pan_nibbles is not None:
        rows["pan"] = pan_nibbles.shape[0]
    n = inputs.batch_size(rows)
    blocks = inputs.rows_for(blocks, n)
    return blocks, None if pan_nibbles is None else inputs.rows_for(pan_nibbles, n), n


def pin_from_block(block: Any, pan: Any, format: int) -> tuple[np.ndarray, np.ndarray]:
    """PINs from clear PIN blocks: (``U12`` array of PINs, boolean validity mask), one row each.

    ``block``: 8 bytes or a uint8 ``(8,)`` / ``(N, 8)`` array.  ``pan`` and
    ``format`` as for ``pin_block``.  A row whose block is malformed (wrong
    control nibble, PIN length outside 4..12, a non-decimal PIN digit, a
    wrong fill, which is also how a wrong PAN shows) gets ``''`` and
    ``False``; nothing is raised for it.
    """
    fmt = _format(format)
    blocks, pan_nibbles, _ = _blocks_and_pan(block, pan, fmt)
    digits, lengths, valid = _parse(blocks, pan_nibbles, fmt)
    return _pin_strings(digits, lengths), valid


def _cipher(key: Any, name: str) -> tuple[np.ndarray, Any]:
    """(key rows, a cipher whose encrypt/decrypt take (N, 8) rows) for one key or a key per row."""
    keys = inputs.key_rows(key, name)
    return keys, _cipher_for(keys)


def _cipher_for(keys: np.ndarray) -> Any:
    if keys.shape[0] == 1:
        return TripleDES(keys[0].tobytes(), allow_degenerate=True)
    return TripleDESArray(keys, allow_degenerate=True)


def encipher_pin_blocks(key: Any, pin: Any, pan: Any, format: int = 0
                        ) -> np.ndarray:
    """PIN blocks built as by ``pin_block`` and Triple-DES-enciphered (ECB): ``(N, 8)`` uint8.

    ``key``: 16 bytes or a uint8 ``(16,)`` array (one key) or ``(N, 16)``
    (a key per row).  Three DES operations (one Triple-DES block) per row.
    """
    keys, cipher = _cipher(key, "key")
    fmt = _format(format)
    pan_nibbles = _pan_nibbles(pan, fmt)
    digits, lengths = inputs.digit_rows(pin, "pin", _PIN_MIN, _PIN_MAX)
    rows = {"key": keys.shape[0], "pin": digits.shape[0]}
    if pan_nibbles is not None:
        rows["pan"] = pan_nibbles.shape[0]
    n = inputs.batch_size(rows)
    pan_nibbles = None if pan_nibbles is None else inputs.rows_for(pan_nibbles, n)
    clear = _build(inputs.rows_for(digits, n), inputs.rows_for(lengths, n), pan_nibbles, fmt)
    return _run(cipher, keys, clear, decrypt=False)


def _run(cipher: Any, keys: np.ndarray, blocks: np.ndarray, *, decrypt: bool) -> np.ndarray:
    """One key: ECB over the rows; a key per row: row i under key i (rows must then be N)."""
    blocks = np.ascontiguousarray(blocks)
    if keys.shape[0] != 1 and blocks.shape[0] != keys.shape[0]:
        blocks = np.ascontiguousarray(inputs.rows_for(blocks, keys.shape[0]))
    return cipher.decrypt(blocks) if decrypt else cipher.encrypt(blocks)


def decipher_pin_blocks(key: Any, blocks: Any, pan: Any, format: int = 0
                        ) -> tuple[np.ndarray, np.ndarray]:
    """PINs from enciphered PIN blocks: (``U12`` PINs, validity mask), as ``pin_from_block``
    after Triple-DES ECB decryption under ``key`` (one key or a key per row)."""
    keys, cipher = _cipher(key, "key")
    fmt = _format(format)
    blocks, pan_nibbles, n = _blocks_and_pan(blocks, pan, fmt)
    n = inputs.batch_size({"key": keys.shape[0], "block": n})
    pan_nibbles = None if pan_nibbles is None else inputs.rows_for(pan_nibbles, n)
    digits, lengths, valid = _parse(_run(cipher, keys, blocks, decrypt=True), pan_nibbles, fmt)
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
    blocks_in, _, n_blocks = _blocks_and_pan(blocks, None, 1)
    pan_from, pan_to = _pan_nibbles(pan, from_fmt), _pan_nibbles(pan, to_fmt)
    out_keys, out_cipher = _cipher(to_key, "to_key")
    if ksn is not None:
        bdks, ksns, counters, n_from = dukpt.checked(from_key, ksn)
    else:
        from_keys, in_cipher = _cipher(from_key, "from_key")
        n_from = from_keys.shape[0]
    pan_rows = next((p.shape[0] for p in (pan_from, pan_to) if p is not None), 1)
    n = inputs.batch_size({"blocks": n_blocks, "pan": pan_rows, "from_key/ksn": n_from,
                           "to_key": out_keys.shape[0]})
    if ksn is not None:  # every check done: now the work
        from_keys = dukpt.derive(bdks, ksns, counters, n_from, "pin")
        in_cipher = _cipher_for(from_keys)
    clear = _run(in_cipher, from_keys, inputs.rows_for(blocks_in, n), decrypt=True)
    digits, lengths, valid = _parse(clear, None if pan_from is None
                                    else inputs.rows_for(pan_from, n), from_fmt)
    # Invalid rows are rebuilt from a dummy PIN (length 4, digits 0) and zeroed after.
    lengths = np.where(valid, lengths, _PIN_MIN)
    rebuilt = _build(digits, lengths, None if pan_to is None else inputs.rows_for(pan_to, n),
                     to_fmt)
    out = _run(out_cipher, out_keys, rebuilt, decrypt=False)
    out[~valid] = 0
    return out, valid
