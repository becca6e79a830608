"""The two cipher operations a MAC needs, for one key or a key per row.

``chain`` runs CBC encryption over each row and keeps only the last block
(the CBC-MAC chaining value); ``ecb`` runs one block per row.  With one
key the rows go through ``encrypt_many`` (bitsliced across messages for
many rows) or, for one row, through the one-stream CBC path (a table
engine, chaining inside the kernel); with a key array, row i runs under
key i (``DESArray``/``TripleDESArray``, a key per bitslice lane).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..cipher import DES, TripleDES
from ..key_arrays import DESArray, TripleDESArray


class OneKey:
    """Every row under one ``DES``/``TripleDES`` cipher."""

    def __init__(self, cipher: DES | TripleDES):
        self.cipher = cipher

    def chain(self, rows: np.ndarray, ivs: np.ndarray) -> np.ndarray:
        """(N, L) uint8 whole blocks, (N, 8) IVs -> (N, 8): the last CBC block of each row."""
        if rows.shape[1] == 0 or rows.shape[0] == 0:
            return ivs.copy()
        if rows.shape[0] == 1:
            last = self.cipher.encrypt(rows[0], "cbc", iv=ivs[0].tobytes())[-8:]
            return last.reshape(1, 8)
        return np.ascontiguousarray(self.cipher.encrypt_many(rows, "cbc", ivs=ivs)[:, -8:])

    def ecb(self, blocks: np.ndarray, decrypt: bool = False) -> np.ndarray:
        """(N, 8) blocks -> (N, 8), each through the cipher (or its inverse)."""
        if blocks.shape[0] == 0:
            return blocks.copy()
        run = self.cipher.decrypt if decrypt else self.cipher.encrypt
        return run(np.ascontiguousarray(blocks).reshape(-1)).reshape(-1, 8)


class KeyRows:
    """Row i under key i of a ``DESArray``/``TripleDESArray``."""

    def __init__(self, keys: DESArray | TripleDESArray):
        self.keys = keys

    def chain(self, rows: np.ndarray, ivs: np.ndarray) -> np.ndarray:
        if rows.shape[1] == 0 or rows.shape[0] == 0:
            return ivs.copy()
        return np.ascontiguousarray(self.keys.encrypt(rows, "cbc", ivs=ivs)[:, -8:])

    def ecb(self, blocks: np.ndarray, decrypt: bool = False) -> np.ndarray:
        if blocks.shape[0] == 0:
            return blocks.copy()
        run = self.keys.decrypt if decrypt else self.keys.encrypt
        return run(np.ascontiguousarray(blocks))


Keyed = Any  # OneKey | KeyRows


def cipher_for(key: bytes) -> DES | TripleDES:
    """``DES`` for an 8-byte key, ``TripleDES`` (EDE) for 16 or 24 bytes."""
    return DES(key) if len(key) == 8 else TripleDES(key)
