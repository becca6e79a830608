"""numbades on Dask: encrypt and decrypt ``dask.array`` arrays chunk by chunk, on a cluster or not.

Results are lazy dask arrays whose computed value is exactly what the cipher
object gives for the whole array in memory::

    import dask.array as da
    import numbades, numbades.dask

    cipher = numbades.TripleDES(key)
    x = da.from_zarr("plain.zarr")                      # uint8 bytes, or uint64 blocks
    y = numbades.dask.encrypt(cipher, x, "ctr", iv=iv)  # lazy
    y.to_zarr("secret.zarr")                            # computed chunk by chunk

One stream (a 1-D array): ECB, CTR and CBC/CFB/CFB-8 decryption run every
chunk in parallel; CBC/CFB/CFB-8 encryption and OFB run as a chain of
tasks, one chunk after another (out of core, but on one core at a time;
Dask's schedulers may read input ahead of a slow chain).  Rows as messages (``encrypt_many``): parallel in
every mode.  Needs the ``dask`` extra: ``pip install "numbades[dask]"``.

- Chunks must fall on 8-byte blocks (every chunk but the last a whole
  number of blocks), or pass ``rechunk=True``; ``x`` is 1-D for one stream,
  2-D (one message per row, one whole row per chunk) for ``encrypt_many``.
- The task graph carries the cipher's round keys (which are the key) to the
  scheduler and the workers, once per graph: use a cluster with TLS
  (``distributed.security.Security``) on machines you trust with the key.
- Each task runs numbades with one Numba thread (``numba_threads=``), since
  Dask already runs a task per worker thread; ``warm_up(client)`` loads the
  kernels on every worker as it starts.

The full contract is in the numbades documentation (docs/api.md in the
source tree, "Dask").
"""

from __future__ import annotations

try:
    import dask.array  # noqa: F401  (fail here, with a useful message)
    import distributed  # noqa: F401
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "numbades.dask needs Dask and distributed: pip install \"numbades[dask]\""
    ) from error

from typing import Any

import dask.array as da

from ..cipher import DES, TripleDES
from .inputs import aligned_chunks
from .rows import crypt_many
from .streams import crypt
from .threads import DEFAULT_NUMBA_THREADS
from .workers import WarmUpPlugin, warm_up

__all__ = [
    "DEFAULT_NUMBA_THREADS",
    "WarmUpPlugin",
    "aligned_chunks",
    "decrypt",
    "decrypt_many",
    "encrypt",
    "encrypt_many",
    "warm_up",
]

Cipher = DES | TripleDES


def encrypt(cipher: Cipher, x: da.Array, mode: str = "ecb", *, iv: bytes | None = None,
            padding: str | None = None, rechunk: bool = False,
            numba_threads: int | None = DEFAULT_NUMBA_THREADS) -> da.Array:
    """Encrypt a 1-D dask array (uint8 bytes or uint64 blocks) as one stream, lazily.

    Computes to ``cipher.encrypt(x.compute(), mode, iv=iv, padding=padding)``.
    Every chunk but the last must be a multiple of 8 bytes; otherwise a
    ``ValueError`` says how to rechunk, or ``rechunk=True`` moves each
    misaligned boundary down to a block boundary (one extra copy of the
    data, a few bytes moved between neighbouring chunks).  Padding makes the
    final chunk up to 8 bytes longer.  ``numba_threads``: Numba threads per
    task (None leaves Numba's setting).
    """
    return crypt(cipher, x, mode, iv, padding, rechunk, numba_threads, decrypt=False)


def decrypt(cipher: Cipher, x: da.Array, mode: str = "ecb", *, iv: bytes | None = None,
            padding: str | None = None, rechunk: bool = False,
            numba_threads: int | None = DEFAULT_NUMBA_THREADS) -> da.Array:
    """Decrypt a 1-D dask array as one stream, lazily (the inverse of :func:`encrypt`).

    With ``padding="pkcs7"`` the final chunk's size is unknown (NaN) until
    computed, and bad padding raises ``ValueError`` when it is.
    """
    return crypt(cipher, x, mode, iv, padding, rechunk, numba_threads, decrypt=True)


def encrypt_many(cipher: Cipher, x: da.Array, mode: str = "ecb", *, ivs: Any = None,
                 rechunk: bool = False,
                 numba_threads: int | None = DEFAULT_NUMBA_THREADS) -> da.Array:
    """Encrypt each row of a 2-D dask array as its own message with its own IV, lazily.

    Computes to ``cipher.encrypt_many(x.compute(), mode, ivs=ivs)``; ``ivs`` is
    a NumPy or dask array, uint8 ``(m, 8)`` or uint64 ``(m,)``.  Chunks of
    rows run in parallel in every mode.  Each row must lie in one chunk
    (``rechunk=True`` makes the second axis one chunk).
    """
    return crypt_many(cipher, x, mode, ivs, rechunk, numba_threads, decrypt=False)


def decrypt_many(cipher: Cipher, x: da.Array, mode: str = "ecb", *, ivs: Any = None,
                 rechunk: bool = False,
                 numba_threads: int | None = DEFAULT_NUMBA_THREADS) -> da.Array:
    """Decrypt each row of a 2-D dask array as its own message, lazily."""
    return crypt_many(cipher, x, mode, ivs, rechunk, numba_threads, decrypt=True)
