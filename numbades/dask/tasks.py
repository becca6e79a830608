"""What runs inside a Dask task: one chunk through the public cipher calls.

These module-level functions are what the task graphs name; Dask pickles
them by reference, so a worker imports this module (and numbades) and runs
the cipher object that the graph carries.  Each call limits Numba's threads
for its own duration (:mod:`.threads`).
"""

from __future__ import annotations

import numpy as np

from ..cipher import DES, TripleDES
from . import chaining
from .threads import numba_threads

Cipher = DES | TripleDES


def crypt_chunk(cipher: Cipher, chunk: np.ndarray, mode: str, decrypt: bool, iv: bytes | None,
                padded: bool, threads: int | None) -> np.ndarray:
    """``cipher.encrypt(chunk, mode, iv=iv)`` (or ``decrypt``), PKCS#7 padding if ``padded``."""
    call = cipher.decrypt if decrypt else cipher.encrypt
    with numba_threads(threads):
        return call(chunk, mode, iv=iv, padding="pkcs7" if padded else None)


def chain_step(cipher: Cipher, chunk: np.ndarray, mode: str, decrypt: bool, iv: bytes,
               threads: int | None) -> tuple[np.ndarray, bytes]:
    """One link of a sequential chain: the chunk's result and the chaining value after it."""
    out = crypt_chunk(cipher, chunk, mode, decrypt, iv, False, threads)
    return out, chaining.next_iv(mode, decrypt, iv, chunk, out)


def crypt_rows(cipher: Cipher, rows: np.ndarray, mode: str, decrypt: bool,
               ivs: np.ndarray | None, threads: int | None) -> np.ndarray:
    """``cipher.encrypt_many(rows, mode, ivs=ivs)`` (or ``decrypt_many``): one message per row."""
    call = cipher.decrypt_many if decrypt else cipher.encrypt_many
    with numba_threads(threads):
        return call(rows, mode, ivs=ivs)
