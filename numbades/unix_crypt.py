"""crypt(3)'s DES-based hashes: ``crypt``, ``crypt_many``, ``crypt_verify``.

Traditional DES crypt (2-character salt, 13-character hash) and BSDi
extended DES crypt (``_`` + 4 count + 4 salt characters, 20-character
hash), compatible with glibc's ``crypt(3)``; Python 3.13 removed the
``crypt`` module.  Passwords are str (encoded as UTF-8) or bytes; only the
low 7 bits of each byte count, as in every DES crypt.  ``docs/api.md``
(crypt(3)) has the contract.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Any

import numpy as np

from .des import crypt3 as fmt
from .modes.crypt3 import hash_many

Password = str | bytes | bytearray | memoryview


def crypt(password: Password, salt_or_setting: str) -> str:
    """The crypt(3) hash of ``password``: a 2-character salt, ``_CCCCSSSS``, or a whole hash.

    A whole hash as the setting gives the hash to compare with (see
    :func:`crypt_verify`).  ``TypeError`` for a password that is not str or
    bytes-like and a setting that is not str; ``ValueError`` for a NUL in
    the password and for a setting glibc refuses (too short, characters
    outside ``./0-9A-Za-z``).
    """
    return crypt_many([password], [salt_or_setting])[0]


def _sequence(values: Any, name: str) -> Sequence[Any]:
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"{name} must be 1-D, got {values.ndim}-D")
        return [v.decode("latin-1") if isinstance(v, bytes) and name == "salts" else v
                for v in values.tolist()]
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a list, tuple or 1-D array, not {type(values).__name__}")
    return values


def crypt_many(passwords: Sequence[Password] | np.ndarray,
               salts: Sequence[str] | str | np.ndarray) -> list[str]:
    """``[crypt(p, s) for p, s in zip(passwords, salts)]``, bitsliced: 2048 hashes per pass.

    ``passwords`` is a list, tuple or 1-D array (of str or bytes);
    ``salts`` one salt or setting for all, or one per password.  Every
    password and setting is checked before any hash is computed.
    """
    passwords = _sequence(passwords, "passwords")
    if isinstance(salts, str):
        settings = [fmt.parse_setting(salts)] * len(passwords)
    else:
        salts = _sequence(salts, "salts")
        if len(salts) != len(passwords):
            raise ValueError(f"{len(passwords)} passwords but {len(salts)} salts")
        parsed: dict[str, fmt.Setting] = {}
        settings = []
        for s in salts:
            if not isinstance(s, str):
                raise TypeError(f"salt or setting must be a str, not {type(s).__name__}")
            setting = parsed.get(s)
            if setting is None:
                setting = parsed[s] = fmt.parse_setting(s)
            settings.append(setting)
    return hash_many([fmt.password_bytes(p) for p in passwords], settings)


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
