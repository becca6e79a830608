"""Message authentication codes from DES and Triple-DES, one message or many at once.

- ``cbc``: ISO/IEC 9797-1 MAC algorithm 1 (CBC-MAC; libdes's ``DES_cbc_cksum``).
- ``retail``: ISO/IEC 9797-1 MAC algorithm 3 (the retail MAC, ANSI X9.19).
- ``cmac``: NIST SP 800-38B CMAC with a 64-bit block (Rb = 0x1B).
- ``quad_cksum``: libdes's ``DES_quad_cksum``.
- ``new``: a streaming ``MAC`` object (update, digest, verify).

One shape everywhere: ``bytes`` in gives ``bytes`` out (one message, one
key); a 2-D ``uint8`` array of equal-length messages gives an (N, length)
array, one tag per row; a key given as an (N, key bytes) ``uint8`` array
puts row i under key i (with one message, that message under every key).
Each function's docstring states its rules; more in the numbades
documentation (docs/api.md in the source tree).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cipher import DES
from . import inputs, rows
from .keyed import KeyRows, OneKey, cipher_for, key_array
from .quad import quad_rows
from .stream import MAC

__all__ = ["MAC", "cbc", "cmac", "new", "quad_cksum", "retail"]

Tags = Any  # bytes for one message under one key, else an (N, length) uint8 array


def _messages_for_keys(m: np.ndarray, n: int) -> np.ndarray:
    """Data for a key array: one row per key, or one message for every key."""
    if m.ndim == 1:
        return np.broadcast_to(m, (n, m.size))
    if m.shape[0] != n:
        raise ValueError(f"{m.shape[0]} messages for {n} keys: give one row per key, "
                         "or one message for every key")
    return m


def _tags(tags: np.ndarray, length: int) -> np.ndarray:
    return np.ascontiguousarray(tags[:, :length])


def new(algorithm: str, key: Any, *, iv: Any = None, padding: int | None = None,
        length: int = 8) -> MAC:
    """A streaming MAC object: ``"cbc"`` (``iv``, ``padding``), ``"retail"`` (``padding``)
    or ``"cmac"``, under one key (bytes-like); see ``MAC``."""
    return MAC(algorithm, key, iv=iv, padding=padding, length=length)


def _keys_and_messages(key: Any, data: Any, sizes: tuple[int, ...], what: str
                       ) -> tuple[bytes | None, np.ndarray | None, np.ndarray]:
    """(one key or None, key rows or None, messages), every argument checked."""
    key_rows = inputs.key_rows(key, sizes, what)
    m = inputs.message(data)
    if key_rows is None:
        return inputs.one_key(key, sizes, what), None, m
    return None, key_rows, _messages_for_keys(m, key_rows.shape[0])


def _keyed(one: bytes | None, key_rows: np.ndarray | None) -> OneKey | KeyRows:
    if one is not None:
        return OneKey(cipher_for(one))
    return key_array(key_rows)


def cbc(key: Any, data: Any, *, iv: Any = None, padding: int = 1, length: int = 8) -> Tags:
    """ISO/IEC 9797-1 MAC algorithm 1: the last block of CBC encryption of the padded data.

    ``key``: 8 bytes (DES) or 16/24 bytes (Triple-DES EDE), or an (N, 8|16|24)
    uint8 array (row i under key i).  ``iv``: 8 bytes, default zero (with an
    ``iv``, ``padding=1`` and a non-empty message this is ``DES_cbc_cksum``).
    ``padding``: ISO/IEC 9797-1 method 1, 2 or 3.  ``length``: 4 to 8 bytes.
    """
    length, padding = inputs.check_length(length), inputs.check_padding(padding)
    iv = inputs.check_iv(iv)
    one, key_rows, m = _keys_and_messages(key, data, (8, 16, 24), "CBC-MAC")
    if one is not None and m.ndim == 1:
        return MAC("cbc", one, iv=iv, padding=padding, length=length).update(m).digest()
    return _tags(rows.cbc(_keyed(one, key_rows), m, iv, padding), length)


def retail(key: Any, data: Any, *, padding: int = 1, length: int = 8) -> Tags:
    """ISO/IEC 9797-1 MAC algorithm 3, the retail MAC (ANSI X9.19 with a double-length key).

    DES-CBC under K over the padded data, then the last block decrypted under
    K' and encrypted under K.  ``key`` is K || K' (16 bytes) or K || K' || K''
    (24 bytes: the last encryption under K'' instead of K), or an
    (N, 16|24) uint8 array (row i under key i).  K == K' is allowed (it is
    then CBC-MAC under K).  ``padding``: method 1, 2 or 3; ``length``: 4 to 8.
    """
    length, padding = inputs.check_length(length), inputs.check_padding(padding)
    one, key_rows, m = _keys_and_messages(key, data, (16, 24), "retail MAC")
    if one is not None:
        if m.ndim == 1:
            return MAC("retail", one, padding=padding, length=length).update(m).digest()
        chain = OneKey(DES(one[:8]))
        outer = OneKey(DES(one[16:])) if len(one) == 24 else chain
        return _tags(rows.retail(chain, OneKey(DES(one[8:16])), outer, m, padding), length)
    return _tags(rows.retail_key_rows(key_rows, m, padding), length)


def cmac(key: Any, data: Any, *, length: int = 8) -> Tags:
    """NIST SP 800-38B CMAC with DES (8-byte key) or Triple-DES EDE (16 or 24 bytes).

    ``key`` may be an (N, 8|16|24) uint8 array (row i under key i).
    ``length``: 4 to 8 bytes (SP 800-38B recommends at least 8 for a 64-bit block).
    """
    length = inputs.check_length(length)
    one, key_rows, m = _keys_and_messages(key, data, (8, 16, 24), "CMAC")
    if one is not None and m.ndim == 1:
        return MAC("cmac", one, length=length).update(m).digest()
    subkey_rows = 1 if one is not None else key_rows.shape[0]
    return _tags(rows.cmac(_keyed(one, key_rows), m, subkey_rows), length)


def quad_cksum(data: Any, seed: Any, *, outputs: int = 1) -> Tags:
    """libdes's ``DES_quad_cksum`` (no DES inside: a quadratic checksum; not a secure MAC).

    Returns ``8 * outputs`` bytes (``outputs`` 1 to 4): for each output the
    pair (z0, z1) as two 32-bit little-endian words, the bytes OpenSSL writes
    into its output array on a little-endian machine; libdes's return value
    is the last z0, ``int.from_bytes(result[-8:-4], "little")``.  ``seed``
    is 8 bytes.  A 2-D uint8 array gives one checksum per row.
    """
    if isinstance(outputs, bool) or not isinstance(outputs, int):
        raise TypeError(f"outputs must be an int, not {type(outputs).__name__}")
    if not 1 <= outputs <= 4:
        raise ValueError(f"outputs must be 1 to 4, got {outputs}")
    seed = inputs.block_bytes(seed, "seed")
    m = inputs.message(data)
    batch = np.ascontiguousarray(m.reshape(1, -1) if m.ndim == 1 else m).view()
    batch.flags.writeable = False  # one kernel signature, whatever the caller's array allows
    out = np.zeros((batch.shape[0], 8 * outputs), np.uint8)
    z0, z1 = int.from_bytes(seed[:4], "little"), int.from_bytes(seed[4:], "little")
    if batch.shape[0]:
        quad_rows(batch, z0, z1, outputs, out)
    return out[0].tobytes() if m.ndim == 1 else out
