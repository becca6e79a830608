"""Key and IV derivation as ``openssl enc`` does it: EVP_BytesToKey and PBKDF2."""

from __future__ import annotations

import hashlib

DEFAULT_MD = "sha256"  # OpenSSL >= 1.1.0; md5 before
DEFAULT_ITERATIONS = 10000  # ``-pbkdf2`` without ``-iter``
SALT_LEN = 8


def hash_name(md: str) -> str:
    """The ``hashlib`` name of an OpenSSL digest name (``sha3-256`` -> ``sha3_256``)."""
    if not isinstance(md, str):
        raise TypeError(f"md must be a digest name such as 'sha256', not {type(md).__name__}")
    for candidate in (md.lower(), md.lower().replace("-", "_")):
        try:
            hashlib.new(candidate)
        except (ValueError, TypeError):
            continue
        return candidate
    raise ValueError(f"unknown message digest {md!r}")


def _bytes(value: object, what: str) -> bytes:
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be str or bytes-like, not {type(value).__name__}")


def positive(value: object, what: str) -> int:
    """``value`` if it is an int >= 1; TypeError / ValueError naming ``what`` otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int")
    if value < 1:
        raise ValueError(f"{what} must be >= 1, not {value}")
    return value


def _check(salt: object, key_len: object, iv_len: object) -> bytes | None:
    if salt is not None:
        salt = _bytes(salt, "salt")
        if len(salt) != SALT_LEN:
            raise ValueError(f"salt must be {SALT_LEN} bytes, not {len(salt)}")
    for what, n in (("key_len", key_len), ("iv_len", iv_len)):
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"{what} must be an int")
        if n < 0:
            raise ValueError(f"{what} must be >= 0, not {n}")
    return salt


def evp_bytes_to_key(password: str | bytes, salt: bytes | None, key_len: int, iv_len: int,
                     md: str = DEFAULT_MD, count: int = 1) -> tuple[bytes, bytes]:
    """OpenSSL's ``EVP_BytesToKey``: ``(key, iv)`` from a password and an 8-byte salt (or None).

    ``D_1 = H^count(password || salt)``, ``D_i = H^count(D_{i-1} || password || salt)``;
    the concatenation ``D_1 || D_2 || ...`` is cut into the key and then the IV.
    ``openssl enc`` uses ``count=1`` and ``md`` sha256 (md5 before OpenSSL 1.1.0).
    A ``str`` password is UTF-8 encoded.
    """
    pw = _bytes(password, "password")
    salt = _check(salt, key_len, iv_len)
    positive(count, "count")
    name = hash_name(md)
    material = b""
    block = b""
    while len(material) < key_len + iv_len:
        h = hashlib.new(name, block + pw + (salt or b""))
        block = h.digest()
        for _ in range(count - 1):
            block = hashlib.new(name, block).digest()
        material += block
    return material[:key_len], material[key_len:key_len + iv_len]


def pbkdf2(password: str | bytes, salt: bytes | None, key_len: int, iv_len: int,
           md: str = DEFAULT_MD, iterations: int = DEFAULT_ITERATIONS) -> tuple[bytes, bytes]:
    """``openssl enc -pbkdf2``: ``(key, iv)`` cut from PBKDF2-HMAC(md) output (``hashlib``).

    ``salt=None`` (``-nosalt``) is an empty salt, as OpenSSL computes it.
    """
    pw = _bytes(password, "password")
    salt = _check(salt, key_len, iv_len)
    positive(iterations, "iterations")
    out = hashlib.pbkdf2_hmac(hash_name(md), pw, salt or b"", iterations, key_len + iv_len)
    return out[:key_len], out[key_len:]
