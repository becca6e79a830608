"""Files made by ``openssl enc`` for the DES family, and files ``openssl enc`` can open.

``encrypt``/``decrypt`` work on bytes and arrays, ``encrypt_file``/``decrypt_file``
on paths and binary file objects, streamed in chunks with constant memory.
The key and IV come from a password as OpenSSL derives them
(:func:`evp_bytes_to_key`, or :func:`pbkdf2` with ``pbkdf2=True`` or
``iterations=``), behind the ``Salted__`` header, or are given raw
(``key=``/``iv=``, what ``-K``/``-iv`` take).  Defaults follow OpenSSL 3:
digest sha256, a random salt, PKCS#7 padding for ECB and CBC; the cipher
defaults to ``des-ede3-cbc`` (``openssl enc`` has no default cipher).

A path given as output is written to a temporary file beside it and renamed
into place only when the whole input has been processed and the padding
checked (see :mod:`numbades.openssl_enc.atomic`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from typing import Any, BinaryIO

import numpy as np

from . import kdf
from .atomic import atomic_output
from .ciphers import CIPHERS, CipherSpec, lookup, names
from .job import DEFAULT_CHUNK, BadDecrypt, EncError, Keys, Params, Stats, run
from .kdf import evp_bytes_to_key, pbkdf2

__all__ = [
    "CIPHERS",
    "DEFAULT_CHUNK",
    "BadDecrypt",
    "CipherSpec",
    "EncError",
    "Keys",
    "Params",
    "Stats",
    "decrypt",
    "decrypt_file",
    "encrypt",
    "encrypt_file",
    "evp_bytes_to_key",
    "lookup",
    "make_params",
    "names",
    "pbkdf2",
]

Source = str | os.PathLike | BinaryIO


def _raw(value: Any, what: str, size: int | None) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be bytes-like, not {type(value).__name__}")
    value = bytes(value)
    if size is not None and len(value) != size:
        raise ValueError(f"{what} must be {size} bytes for this cipher, not {len(value)}")
    return value


def make_params(password: str | bytes | None = None, *, cipher: str = "des-ede3-cbc",
                key: bytes | None = None, iv: bytes | None = None, salt: bytes | None = None,
                nosalt: bool = False, md: str = kdf.DEFAULT_MD, pbkdf2: bool = False,
                iterations: int | None = None, base64: bool = False, single_line: bool = False,
                padding: bool = True) -> Params:
    """Check and bundle the ``openssl enc`` options (the keyword arguments of every call here).

    ``password`` (``-k``/``-pass``; a ``str`` is UTF-8 encoded) or ``key``
    (``-K``, exactly the cipher's key length) is required.  ``iv`` (``-iv``,
    8 bytes) is required with ``key`` alone and refused for ECB.  ``salt``
    (``-S``, 8 bytes) fixes the salt, and then, as OpenSSL 3 does, no
    ``Salted__`` header is written or read; ``nosalt`` derives without salt.
    ``iterations`` implies ``pbkdf2`` (default 10000 iterations).
    """
    spec = lookup(cipher)
    if password is not None:
        if isinstance(password, str):
            password = password.encode()
        password = _raw(password, "password", None)
    key = _raw(key, "key", spec.key_len)
    if iv is not None and not spec.iv_len:
        raise ValueError(f"{spec.name} takes no iv")
    iv = _raw(iv, "iv", spec.iv_len or None)
    salt = _raw(salt, "salt", kdf.SALT_LEN)
    if password is None and key is None:
        raise ValueError("give a password or a key")
    if password is None and spec.iv_len and iv is None:
        raise ValueError("iv undefined: a raw key needs an iv for this cipher")
    if iterations is not None:
        kdf.positive(iterations, "iterations")
        pbkdf2 = True
    kdf.hash_name(md)
    return Params(cipher=spec, password=password, key=key, iv=iv, salt=salt,
                  use_salt=not nosalt, md=md, pbkdf2=bool(pbkdf2),
                  iterations=iterations or kdf.DEFAULT_ITERATIONS, base64=bool(base64),
                  single_line=bool(single_line), padding=bool(padding))


def _as_bytes(data: Any) -> bytes:
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    if isinstance(data, np.ndarray):
        if data.dtype == np.uint8:
            return np.ascontiguousarray(data).tobytes()
        if data.dtype.kind == "u" and data.dtype.itemsize == 8:
            return data.astype(">u8").tobytes()  # one block per element, big-endian
        raise TypeError(f"array data must be uint8 or uint64, not {data.dtype}")
    raise TypeError(f"data must be bytes-like or a NumPy array, not {type(data).__name__}")


def _one_shot(data: Any, decrypt: bool, options: dict[str, Any]) -> Any:
    params = make_params(**options)
    raw = _as_bytes(data)
    out = io.BytesIO()
    run(params, io.BytesIO(raw), out, decrypt, chunk_size=max(len(raw), 8), overlap=False)
    result = out.getvalue()
    return np.frombuffer(result, np.uint8).copy() if isinstance(data, np.ndarray) else result


def encrypt(data: Any, password: str | bytes | None = None, **options: Any) -> Any:
    """What ``openssl enc -e`` makes of ``data``: ``bytes`` (a 1-D ``uint8`` array for an array).

    ``options`` are :func:`make_params`'s.  A ``uint64`` array is one block per
    element, read big-endian.
    """
    return _one_shot(data, False, {"password": password, **options})


def decrypt(data: Any, password: str | bytes | None = None, **options: Any) -> Any:
    """What ``openssl enc -d`` makes of ``data``; :class:`BadDecrypt` for a wrong password.

    Raises :class:`EncError` (a ``ValueError``) with OpenSSL's message for a
    missing or wrong header (``bad magic number``, ``error reading input file``).
    """
    return _one_shot(data, True, {"password": password, **options})


def _file(src: Source, dst: Source, decrypt: bool, chunk_size: int, overlap: bool,
          progress: Callable[[int], None] | None, on_keys: Callable[[Keys], Any] | None,
          options: dict[str, Any]) -> Stats:
    params = make_params(**options)
    for what, f in (("src", src), ("dst", dst)):
        if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "read" if what == "src"
                                                                 else "write"):
            raise TypeError(f"{what} must be a path or a binary file object")
    kw = {"chunk_size": chunk_size, "overlap": overlap, "progress": progress, "on_keys": on_keys}
    with open(src, "rb") if isinstance(src, (str, os.PathLike)) else _borrowed(src) as fin:
        if isinstance(dst, (str, os.PathLike)):
            with atomic_output(dst) as fout:
                return run(params, fin, fout, decrypt, **kw)
        return run(params, fin, dst, decrypt, **kw)


class _borrowed:
    """A caller's file object in a ``with`` that does not close it."""

    def __init__(self, f: Any):
        self.f = f

    def __enter__(self) -> Any:
        return self.f

    def __exit__(self, *exc: object) -> None:
        return None


def encrypt_file(src: Source, dst: Source, password: str | bytes | None = None, *,
                 chunk_size: int = DEFAULT_CHUNK, overlap: bool = True,
                 progress: Callable[[int], None] | None = None,
                 on_keys: Callable[[Keys], Any] | None = None, **options: Any) -> Stats:
    """``openssl enc -e -in src -out dst``: paths or binary file objects, streamed.

    A path ``dst`` is replaced only when everything succeeded (``dst`` may be
    ``src``).  ``progress(n)`` gets the input bytes read so far after each
    chunk.  ``options`` are :func:`make_params`'s.
    """
    return _file(src, dst, False, chunk_size, overlap, progress, on_keys,
                 {"password": password, **options})


def decrypt_file(src: Source, dst: Source, password: str | bytes | None = None, *,
                 chunk_size: int = DEFAULT_CHUNK, overlap: bool = True,
                 progress: Callable[[int], None] | None = None,
                 on_keys: Callable[[Keys], Any] | None = None, **options: Any) -> Stats:
    """``openssl enc -d -in src -out dst``; :class:`BadDecrypt` leaves a path ``dst`` untouched."""
    return _file(src, dst, True, chunk_size, overlap, progress, on_keys,
                 {"password": password, **options})
