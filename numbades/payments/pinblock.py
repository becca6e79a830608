"""ISO 9564-1 PIN blocks, formats 0, 1, 2 and 3, over arrays of PINs and PANs.

A block is 16 nibbles: the control nibble (the format number), the PIN
length (4 to 12), the PIN digits, then fill: ``F`` (formats 0 and 2),
random nibbles (format 1, the "transaction field") or random nibbles from
``A`` to ``F`` (format 3).  Formats 0 and 3 are XORed with the PAN field:
four zero nibbles, then the 12 rightmost PAN digits excluding the check
digit (zero-padded on the left for shorter PANs).

Blocks are built from the PINs' characters and the PANs' fields (the PAN
field of each row, computed and checked once, before any cipher runs), and
parsed straight to the PINs' characters, by compiled loops
(``_pin_kernels``): ``U`` and ``S`` strings are narrowed to bytes a block
of rows at a time, then read eight characters to a word, several rows at
once; only when some row is not clean (a bad character or length) or the
strings are wider than the fast loops read do the exact per-character
loops run, and refuse the rows by name.  In translation the clear PINs
stay in a word inside the kernel.  Parsing never raises on a bad block:
each row gets a validity flag (control nibble, PIN length, PIN digits,
fill, and through the fill the PAN of formats 0 and 3).
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from . import _cipher, _pin_kernels, dukpt, inputs

__all__ = ["FORMATS", "decipher_pin_blocks", "encipher_pin_blocks", "pin_block",
           "pin_from_block", "translate_pin_blocks"]

FORMATS = (0, 1, 2, 3)
_WITH_PAN = (0, 3)
_PIN_MIN, _PIN_MAX = 4, 12
_PAN_MIN, _PAN_MAX = 8, 19


def _format(value: Any, name: str = "format") -> int:
    return inputs.choice(value, FORMATS, name)


_F_FILL = np.uint64(0x00FFFFFFFFFFFFFF)  # formats 0 and 2: fill nibbles F


def _read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view: the kernels see one array type, so each compiles one signature."""
    view = array.view()
    view.flags.writeable = False
    return view


def _flat(array: np.ndarray) -> np.ndarray:
    """An array as the kernels read it: flat, read-only."""
    return _read_only(array.reshape(-1))


def _block_words(blocks: np.ndarray) -> np.ndarray:
    """(N, 8) uint8 blocks as the kernels read them: N native words, flat, aligned,
    read-only (a copy only when the bytes are not aligned to 8)."""
    words = np.ascontiguousarray(blocks).view(np.uint64).reshape(-1)
    return _read_only(words if words.flags.aligned else words.copy())


def _per_row(values: np.ndarray, n: int) -> np.ndarray:
    """n words: the argument's own (n), the one for all (1), or zeros (none)."""
    if values.shape[0] == n:
        return values
    return np.full(n, values[0] if values.shape[0] else 0, np.uint64)


_NO_PAN = np.zeros((0, 1), np.uint32)  # formats 1 and 2: no PAN rows


def _pan(pan: Any, fmt: int) -> np.ndarray:
    """The PAN characters of formats 0 and 3 (P rows, checked by ``_fields``); none for 1
    and 2."""
    if fmt not in _WITH_PAN:
        return _NO_PAN
    if pan is None:
        raise TypeError(f"format {fmt} needs the PAN (pan=None is for formats 1 and 2)")
    return inputs.codes(pan, "pan")


def _fields(chars: np.ndarray) -> np.ndarray:
    """The PAN field of each row of PAN characters (none for none), the PANs checked
    (``ValueError`` naming the rows): for the calls to run after the other checks, before
    any cipher."""
    rows, width = chars.shape
    fields = np.empty(rows, np.uint64)
    if width <= _pin_kernels.PAN_BYTES and _pin_kernels.pan_fields_fast(_flat(chars), width,
                                                                         fields):
        return fields
    lengths, bad = np.zeros(rows, np.intp), np.zeros(rows, np.bool_)  # exact: names the rows
    _pin_kernels.pan_fields(chars, fields, lengths, bad)
    inputs.check_read(chars, lengths, bad, "pan", _PAN_MIN, _PAN_MAX)
    return fields


def _random_nibbles(n: int, low: int) -> np.ndarray:
    """(n, 16) nibbles from ``secrets``, uniform on ``low``..15."""
    span = 16 - low
    limit = 256 - 256 % span
    need, got = n * 16, np.zeros(0, np.uint8)
    while got.size < need:  # rejection sampling keeps the draw uniform
        draw = np.frombuffer(secrets.token_bytes(need - got.size + 64), np.uint8)
        got = np.concatenate([got, draw[draw < limit]])
    return (got[:need] % span + low).astype(np.uint8).reshape(n, 16)


_NIBBLE_SHIFTS = np.arange(60, -4, -4, dtype=np.uint64)  # nibble k of a word: bits 60 - 4k


def _fill(fmt: int, n: int) -> np.ndarray:
    """The fill nibbles of format ``fmt`` for n rows: (n,) words, nibbles 2..15 in use."""
    if fmt == 1:
        return _random_nibbles(n, 0).astype(np.uint64) @ (np.uint64(1) << _NIBBLE_SHIFTS)
    if fmt == 3:
        return _random_nibbles(n, 10).astype(np.uint64) @ (np.uint64(1) << _NIBBLE_SHIFTS)
    return np.full(n, _F_FILL)


def _encode(pins: np.ndarray, pan_chars: np.ndarray, fmt: int, n: int) -> np.ndarray:
    """Clear blocks (n, 8) from PIN characters and PAN characters (1 or n rows each; none
    for formats 1 and 2), checked (``ValueError`` naming the rows: the PANs first, then
    the PINs) in the pass that builds the blocks; the exact kernels name the rows."""
    fill = _fill(fmt, n)
    out = np.empty((n, 8), np.uint8)
    words = out.view(np.uint64).reshape(-1)
    rows, width = pins.shape
    if (n and pan_chars.shape[0] and width <= _pin_kernels.PIN_BYTES
            and pan_chars.shape[1] <= _pin_kernels.PAN_BYTES and _pin_kernels.encode_pan_fast(
                _flat(pins), width, rows == 1, _flat(pan_chars), pan_chars.shape[1],
                pan_chars.shape[0] == 1, fmt, fill, words)):
        return out  # formats 0 and 3: the PAN fields made in the same pass
    fields = _per_row(_fields(pan_chars), n)
    if width <= _pin_kernels.PIN_BYTES and _pin_kernels.encode_fast(
            _flat(pins), width, rows == 1, fields, fmt, fill, words):
        return out
    pin_len, pin_bad = np.zeros(n, np.intp), np.zeros(n, np.bool_)  # exact: names the rows
    _pin_kernels.encode_blocks(pins, fields, fmt, fill, words, pin_len, pin_bad)
    inputs.check_read(pins, pin_len, pin_bad, "pin", _PIN_MIN, _PIN_MAX)
    return out


def _decode(blocks: np.ndarray, fields: np.ndarray, fmt: int) -> tuple[np.ndarray, np.ndarray]:
    """Clear blocks (N, 8) -> (PIN characters (N, 12) uint32, all NUL where invalid; valid)."""
    n = blocks.shape[0]
    pins = np.empty((n, _PIN_MAX), np.uint32)
    valid = np.empty(n, np.bool_)
    _pin_kernels.decode_blocks(_block_words(blocks), _per_row(fields, n), fmt,
                               pins.view(np.uint64).reshape(-1), valid)
    return pins, valid


def _decode_pan(blocks: np.ndarray, pan_chars: np.ndarray, fmt: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """``_decode`` from the PAN characters (none for formats 1 and 2): for formats 0 and 3
    the PAN fields are made in the same pass; a PAN to refuse (``ValueError`` naming the
    rows) is named by the exact kernels before any block is read."""
    n = blocks.shape[0]
    if not (n and pan_chars.shape[0] and pan_chars.shape[1] <= _pin_kernels.PAN_BYTES):
        return _decode(blocks, _fields(pan_chars), fmt)
    pins = np.empty((n, _PIN_MAX), np.uint32)
    valid = np.empty(n, np.bool_)
    if _pin_kernels.decode_pan_fast(_block_words(blocks), _flat(pan_chars), pan_chars.shape[1],
                                    pan_chars.shape[0] == 1, fmt,
                                    pins.view(np.uint64).reshape(-1), valid):
        return pins, valid
    return _decode(blocks, _fields(pan_chars), fmt)


def _reformat(blocks: np.ndarray, fields: np.ndarray, from_fmt: int, to_fmt: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """Clear blocks re-formatted, the PINs staying inside the kernel: (blocks, valid);
    the PAN fields serve both formats."""
    n = blocks.shape[0]
    out = np.empty((n, 8), np.uint8)
    valid = np.empty(n, np.bool_)
    _pin_kernels.reformat_blocks(_block_words(blocks), _per_row(fields, n),
                                 from_fmt, to_fmt, _fill(to_fmt, n),
                                 out.view(np.uint64).reshape(-1), valid)
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
    pins, valid = _decode_pan(blocks, pan_chars, fmt)
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
    pan_chars = _pan(pan, fmt)
    blocks, n = _blocks_and_pan(blocks, pan_chars, "blocks")
    inputs.batch_size(key=keys.shape[0], blocks=n)
    fields = _fields(pan_chars)  # checked before the cipher runs
    pins, valid = _decode(_cipher.ecb(keys, blocks, decrypt=True), fields, fmt)
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
    pan_chars = _pan(pan, from_fmt if from_fmt in _WITH_PAN else to_fmt)  # one for both
    out_keys = inputs.key_rows(to_key, "to_key")
    if ksn is not None:
        bdks, ksns, counters, n_from = dukpt.checked(from_key, ksn)
    else:
        from_keys = inputs.key_rows(from_key, "from_key")
        n_from = from_keys.shape[0]
    n = inputs.batch_size(blocks=blocks_in.shape[0], **_rows(pan_chars),
                          **{"from_key/ksn": n_from}, to_key=out_keys.shape[0])
    fields = _fields(pan_chars)  # the PANs' check, the last before the work
    if ksn is not None:  # every check done: now the work
        from_keys = dukpt.derive(bdks, ksns, counters, n_from, "pin")
    clear = _cipher.ecb(from_keys, inputs.spread(blocks_in, n), decrypt=True)
    clear, valid = _reformat(clear, fields, from_fmt, to_fmt)
    out = _cipher.ecb(out_keys, clear)
    out[~valid] = 0
    return out, valid
