"""crypt(3)'s DES-based hashes: ``crypt``, ``crypt_many``, ``crypt_verify``.

Traditional DES crypt (2-character salt, 13-character hash) and BSDi
extended DES crypt (``_`` + 4 count + 4 salt characters, 20-character
hash), compatible with glibc's ``crypt(3)``; Python 3.13 removed the
``crypt`` module.  Passwords are str (encoded as UTF-8) or bytes; only the
low 7 bits of each byte count, as in every DES crypt.  Settings and
hashes use the characters ``./0-9A-Za-z``; a malformed setting is a
``ValueError``, a non-str setting or a password of another type a
``TypeError``.  ``crypt_many`` takes lists (giving a list of str) or 1-D
``S``/``U`` arrays (giving an array of the same kind), with one setting for
all or one per password.  DES crypt is far too weak to store new passwords:
use it to verify or migrate legacy hashes.  The full contract is in the
numbades documentation (docs/api.md in the source tree, "crypt(3)").
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Any

import numpy as np

from .des import crypt3 as fmt
from .modes.crypt3 import Rows, first_bytes, hash_many, rows_of

Password = str | bytes | bytearray | memoryview


def crypt(password: Password, salt_or_setting: str) -> str:
    """The crypt(3) hash of ``password``: a 2-character salt, ``_CCCCSSSS``, or a whole hash.

    A whole hash as the setting gives the hash to compare with (see
    :func:`crypt_verify`).  ``TypeError`` for a password that is not str or
    bytes-like and a setting that is not str; ``ValueError`` for a NUL in
    the password and for a setting glibc refuses (too short, characters
    outside ``./0-9A-Za-z``).
    """
    result = crypt_many([password], [salt_or_setting])
    return result[0]


def _sequence(values: Any, name: str) -> Sequence[Any]:
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a list, tuple or 1-D array, not {type(values).__name__}")
    return values


def _rows(salts: Any, n: int) -> Rows:
    """Each row's setting, checked; a str/bytes array of 2-character salts is decoded with NumPy."""
    if isinstance(salts, str):
        return rows_of([fmt.parse_setting(salts)], np.zeros(n, dtype=np.intp))
    if isinstance(salts, np.ndarray):
        if salts.ndim != 1:
            raise ValueError(f"salts must be 1-D, got {salts.ndim}-D")
        if salts.dtype.kind not in "SU":
            raise TypeError(f"a salts array holds str or bytes, not {salts.dtype}")
        if salts.shape[0] != n:
            raise ValueError(f"{n} passwords but {salts.shape[0]} salts")
        chars = np.ascontiguousarray(salts).view(
            np.uint32 if salts.dtype.kind == "U" else np.uint8).reshape(n, -1)
        two = np.zeros((n, 2), dtype=np.uint8)
        if chars.shape[1] >= 2 and (chars.dtype == np.uint8 or chars[:, :2].max(initial=0) < 256):
            two[:] = chars[:, :2]  # else left NUL: invalid, and found one by one below
        values = fmt.traditional_salts(two)
        if values is None:  # BSDi settings or a bad salt: one by one (which names it)
            texts = [v.decode("latin-1") if isinstance(v, bytes) else v for v in salts.tolist()]
            return _rows(texts, n)
        prefixes = np.zeros((n, 9), dtype=np.uint8)
        prefixes[:, :2] = two
        return Rows(np.zeros(n, dtype=bool), np.full(n, fmt.TRADITIONAL_COUNT), values,
                    prefixes, np.full(n, 2))
    salts = _sequence(salts, "salts")
    if len(salts) != n:
        raise ValueError(f"{n} passwords but {len(salts)} salts")
    index: dict[str, int] = {}
    which = np.fromiter((index.setdefault(s, len(index)) for s in salts), dtype=np.intp,
                        count=n)
    return rows_of([fmt.parse_setting(t) for t in index], which)


def _passwords(passwords: Any) -> tuple[np.ndarray, list[bytes] | None, Any]:
    """(rows, 8) first bytes, and the whole passwords as bytes (None for a bytes array: lazily)."""
    if isinstance(passwords, np.ndarray):
        if passwords.ndim != 1:
            raise ValueError(f"passwords must be 1-D, got {passwords.ndim}-D")
        if passwords.dtype.kind == "S":  # fixed width, NUL-padded: a password ends at a NUL
            width = passwords.dtype.itemsize
            raw = np.zeros((passwords.shape[0], max(width, 8)), dtype=np.uint8)
            raw[:, :width] = np.ascontiguousarray(passwords).view(np.uint8).reshape(-1, width)
            nul = raw == 0
            if (nul[:, :-1] & ~nul[:, 1:]).any():  # a byte after a NUL: cut there
                raw[np.logical_or.accumulate(nul, axis=1)] = 0
            return raw[:, :8], None, passwords
        passwords = passwords.tolist()
    passwords = _sequence(passwords, "passwords")
    data = [p.encode("utf-8") if type(p) is str else fmt.password_bytes(p) for p in passwords]
    if b"\0" in b"".join(data):
        bad = next(i for i, p in enumerate(data) if b"\0" in p)
        raise ValueError(f"password {bad} contains a NUL byte, which crypt(3) cannot take")
    return first_bytes(data), data, None


def crypt_many(passwords: Sequence[Password] | np.ndarray,
               salts: Sequence[str] | str | np.ndarray) -> list[str] | np.ndarray:
    """``[crypt(p, s) for p, s in zip(passwords, salts)]``, bitsliced: 2048 hashes per pass.

    ``passwords`` is a list or tuple of str or bytes (the result is a list
    of str), or a 1-D NumPy array of bytes (dtype ``S``; a password ends at
    its first NUL, as NumPy pads with NULs) or of str (dtype ``U``), for
    which the result is an array of the same kind (``S20``/``U20``, or 13
    characters when every setting is traditional).  ``salts`` is one salt
    or setting for all, or one per password (a list, or a str/bytes array).
    Every password and setting is checked before any hash is computed.
    """
    first8, data, array = _passwords(passwords)
    rows = _rows(salts, first8.shape[0])
    if data is None and rows.extended.any():
        data = [p.split(b"\0")[0] for p in array.tolist()]
    chars = hash_many(first8, data, rows)
    width = 9 + fmt.HASH_CHARS if rows.extended.any() else 2 + fmt.HASH_CHARS
    hashes = np.ascontiguousarray(chars[:, :width]).view(f"S{width}").reshape(-1)
    if isinstance(passwords, np.ndarray) and passwords.dtype.kind == "S":
        return hashes
    if isinstance(passwords, np.ndarray) and passwords.dtype.kind == "U":
        return hashes.astype(f"U{width}")
    text = hashes.tobytes().decode("ascii")
    if width == 2 + fmt.HASH_CHARS or not (rows.widths == 2).any():
        return [text[i:i + width] for i in range(0, len(text), width)]
    return [text[i:i + width].rstrip("\0") for i in range(0, len(text), width)]


def crypt_verify(password: Password, hashed: str) -> bool:
    """Whether ``password`` hashes to ``hashed`` (a traditional or BSDi DES crypt hash).

    The comparison takes the same time wherever the hashes differ
    (``hmac.compare_digest``).  ``ValueError`` for a ``hashed`` that is not
    a DES crypt hash of the right length (13, or 20 for BSDi).
    """
    setting = fmt.parse_setting(hashed)
    want = len(setting.prefix) + fmt.HASH_CHARS
    if len(hashed) != want:
        raise ValueError(
            f"a {'BSDi' if setting.extended else 'traditional'} DES crypt hash is {want} "
            f"characters, got {len(hashed)}"
        )
    computed = crypt(password, hashed)
    return hmac.compare_digest(computed.encode("ascii"), hashed.encode("ascii", "replace"))
