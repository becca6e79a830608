"""crypt(3)'s DES-based hashes: ``crypt``, ``crypt_many``, ``crypt_verify``, ``crypt_verify_many``.

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
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .des import crypt3 as fmt
from .modes.crypt3 import Rows, first_bytes, hash_many, hash_one, hash_traditional, rows_of
from .modes.texts import pack, strings

Password = str | bytes | bytearray | memoryview

#: Batches of up to this many hashes (lists of passwords) take ``crypt``'s short path one
#: by one: below it, building the batch's arrays costs more than the hashes.
FEW_HASHES = 32


def crypt(password: Password, salt_or_setting: str) -> str:
    """The crypt(3) hash of ``password``: a 2-character salt, ``_CCCCSSSS``, or a whole hash.

    A whole hash as the setting gives the hash to compare with (see
    :func:`crypt_verify`).  ``TypeError`` for a password that is not str or
    bytes-like and a setting that is not str; ``ValueError`` for a NUL in
    the password and for a setting glibc refuses (too short, characters
    outside ``./0-9A-Za-z``).
    """
    setting = fmt.parse_setting(salt_or_setting)
    if type(password) is str and "\0" not in password:  # the common case, without a call
        return hash_one(password.encode("utf-8"), setting)
    return hash_one(fmt.password_bytes(password), setting)


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
        if n == 0:
            return rows_of([], np.zeros(0, dtype=np.intp))
        chars = np.ascontiguousarray(salts).view(
            np.uint32 if salts.dtype.kind == "U" else np.uint8).reshape(n, -1)
        two = np.zeros((n, 2), dtype=np.uint8)
        if chars.shape[1] >= 2 and (chars.dtype == np.uint8 or chars[:, :2].max(initial=0) < 256):
            two[:] = chars[:, :2]  # else left NUL: invalid, and found one by one below
        values = fmt.traditional_salts(two)
        if values is None or _refused_after_salt(chars[:, 2:]):
            # BSDi settings or a bad setting: one by one (which names it)
            return rows_of(*_distinct_settings(
                [v.decode("latin-1") if isinstance(v, bytes) else v for v in salts.tolist()]))
        prefixes = np.zeros((n, 9), dtype=np.uint8)
        prefixes[:, :2] = two
        return Rows(np.zeros(n, dtype=bool), np.full(n, fmt.TRADITIONAL_COUNT), values,
                    prefixes, np.full(n, 2))
    salts = _sequence(salts, "salts")
    if len(salts) != n:
        raise ValueError(f"{n} passwords but {len(salts)} salts")
    two = _two_character_salts(salts)
    if two is not None:  # the common case: salts of 2 characters, then NumPy
        return _rows(two, n)
    packed = pack(salts)
    if packed is not None and packed.ascii():  # str, no NUL: the array path, in bulk
        return _rows(packed.padded(), n)
    return rows_of(*_distinct_settings(salts))


def _two_character_salts(salts: Sequence[Any]) -> np.ndarray | None:
    """An ``S2`` array of the salts if every one is a str of 2 ASCII characters, else None.

    One join: with a NUL after each, 2-character salts put a NUL at every
    third byte and nowhere else.
    """
    try:
        data = "\0".join(salts).encode("ascii")  # type: ignore[arg-type]
    except (TypeError, UnicodeEncodeError):
        return None
    n = len(salts)
    if len(data) != 3 * n - 1:
        return None
    rows = np.frombuffer(data + b"\0", dtype=np.uint8).reshape(n, 3)
    if rows[:, 2].any() or not rows[:, :2].all():
        return None
    return np.ascontiguousarray(rows[:, :2]).view("S2").reshape(n)


def _distinct_settings(salts: Sequence[Any]) -> tuple[list[fmt.Setting], np.ndarray]:
    """The distinct settings of a sequence of str, parsed, and each row's index into them.

    Errors name the first row at fault.
    """
    for row, salt in enumerate(salts):
        if type(salt) is not str:
            raise TypeError(f"salt {row} must be a str, not {type(salt).__name__}")
    index: dict[str, int] = {}
    which = np.fromiter((index.setdefault(s, len(index)) for s in salts), dtype=np.intp,
                        count=len(salts))
    settings = []
    for text in index:
        try:
            settings.append(fmt.parse_setting(text))
        except ValueError as exc:
            row = next(i for i, s in enumerate(salts) if s == text)
            raise ValueError(f"salt {row}: {exc}") from None
    return settings, which


def _refused_after_salt(codes: np.ndarray) -> bool:
    """Whether any setting's characters after its 2-character salt are ones glibc refuses.

    ``codes`` is (rows, characters) of a NUL-padded S or U array: a NUL ends
    a setting, any character after a NUL is refused (an embedded NUL).
    """
    if codes.size == 0:
        return False
    nul = codes == 0
    refused = fmt.REFUSED_CODES[np.minimum(codes, 255)] & ~nul
    return bool(refused.any() or (codes > 255).any() or (nul[:, :-1] & ~nul[:, 1:]).any())


def _passwords(passwords: Any) -> tuple[np.ndarray, Callable[[], list[bytes]]]:
    """(rows, 8) first bytes, and how to get the whole passwords as bytes (for BSDi), lazily.

    A list of str (or a ``U`` array) is encoded in bulk (``modes.texts.pack``);
    anything else in it goes one by one, which names a bad row.
    """
    if isinstance(passwords, np.ndarray):
        if passwords.ndim != 1:
            raise ValueError(f"passwords must be 1-D, got {passwords.ndim}-D")
        if passwords.dtype.kind == "S":  # fixed width, NUL-padded: a password ends at a NUL
            if passwords.shape[0] == 0:
                return np.zeros((0, 8), dtype=np.uint8), list
            width = passwords.dtype.itemsize
            raw = np.zeros((passwords.shape[0], max(width, 8)), dtype=np.uint8)
            raw[:, :width] = np.ascontiguousarray(passwords).view(np.uint8).reshape(-1, width)
            nul = raw == 0
            if (nul[:, :-1] & ~nul[:, 1:]).any():  # a byte after a NUL: cut there
                raw[np.logical_or.accumulate(nul, axis=1)] = 0
            return raw[:, :8], lambda: [p.split(b"\0")[0] for p in passwords.tolist()]
        passwords = passwords.tolist()
    packed = pack(_sequence(passwords, "passwords"))
    if packed is not None:
        return packed.window(), packed.bytes_list
    data = _password_list(passwords)
    return first_bytes(data), lambda: data


def _password_list(passwords: Any) -> list[bytes]:
    """A list or tuple of passwords as bytes, each checked; errors name the row."""
    passwords = _sequence(passwords, "passwords")
    try:
        data = [p.encode("utf-8") if type(p) is str else fmt.password_bytes(p) for p in passwords]
    except TypeError:
        row = next(i for i, p in enumerate(passwords)
                   if not isinstance(p, (str, bytes, bytearray, memoryview)))
        raise TypeError(f"password {row} must be str or bytes-like, not "
                        f"{type(passwords[row]).__name__}") from None
    except ValueError:  # a NUL in a bytes-like password
        data = [p.encode("utf-8") if type(p) is str else bytes(p) for p in passwords]
    if b"\0" in b"".join(data):
        bad = next(i for i, p in enumerate(data) if b"\0" in p)
        raise ValueError(f"password {bad} contains a NUL byte, which crypt(3) cannot take")
    return data


def crypt_many(passwords: Sequence[Password] | np.ndarray,
               salts: Sequence[str] | str | np.ndarray) -> list[str] | np.ndarray:
    """``[crypt(p, s) for p, s in zip(passwords, salts)]`` in one batch.

    Bitsliced (2048 hashes per pass) from ``policy.CRYPT3_BITSLICE_MIN_ROWS``
    hashes of one count up, on the table engine below that (lists of up to
    ``FEW_HASHES`` passwords one by one, on ``crypt``'s path).

    ``passwords`` is a list or tuple of str or bytes (the result is a list
    of str), or a 1-D NumPy array of bytes (dtype ``S``; a password ends at
    its first NUL, as NumPy pads with NULs) or of str (dtype ``U``), for
    which the result is an array of the same kind (``S20``/``U20``, or 13
    characters when every setting is traditional).  ``salts`` is one salt
    or setting for all, or one per password (a list, or a str/bytes array).
    Every password and setting is checked before any hash is computed.
    """
    if (isinstance(passwords, (list, tuple)) and len(passwords) <= FEW_HASHES
            and isinstance(salts, (str, list, tuple))):
        data = _password_list(passwords)  # a few: one by one on the short path
        return [hash_one(d, s) for d, s in zip(data, _setting_list(salts, len(data)),
                                              strict=True)]
    fast = _traditional_batch(passwords, salts)
    if fast is not None:
        return fast
    first8, whole = _passwords(passwords)
    rows = _rows(salts, first8.shape[0])
    chars = hash_many(first8, whole() if rows.extended.any() else None, rows)
    extended = rows.extended.any() or (isinstance(salts, str) and salts.startswith("_"))
    width = 9 + fmt.HASH_CHARS if extended else 2 + fmt.HASH_CHARS
    if not isinstance(passwords, np.ndarray):
        return strings(chars[:, :width])
    hashes = np.ascontiguousarray(chars[:, :width]).view(f"S{width}").reshape(-1)
    return hashes if passwords.dtype.kind == "S" else hashes.astype(f"U{width}")


def _password_bytes(passwords: Any) -> tuple[np.ndarray, int] | None:
    """Passwords as (bytes, width) for ``hash_traditional``, or None (the general path).

    An ``S`` array as it is (rows of ``width`` bytes; a password ends at its
    first NUL); a list or tuple of str (or a ``U`` array) joined with NULs
    and encoded once (width 0: the kernel finds the NULs).
    """
    if isinstance(passwords, np.ndarray):
        if passwords.ndim != 1 or passwords.dtype.kind not in "SU" or not passwords.size:
            return None
        if passwords.dtype.kind == "S":
            data = np.ascontiguousarray(passwords).view(np.uint8).reshape(-1)
            return data, passwords.dtype.itemsize
        passwords = passwords.tolist()
    if not isinstance(passwords, (list, tuple)) or not passwords:
        return None
    try:
        data = ("\0".join(passwords) + "\0").encode("utf-8")  # type: ignore[arg-type]
    except (TypeError, UnicodeEncodeError):
        return None
    return np.frombuffer(data, dtype=np.uint8), 0


def _salt_chars(salts: Any, n: int) -> np.ndarray | None:
    """(n, 2 or more) uint8 salt characters if every setting may be a 2-character salt, else None.

    ``traditional_rows`` checks the characters (2 of the alphabet, then
    NULs); a list or tuple of str is joined with NULs and encoded once.
    """
    if isinstance(salts, str):
        if len(salts) != 2 or not salts.isascii():
            return None
        return np.frombuffer((salts * n).encode("ascii"), dtype=np.uint8).reshape(n, 2)
    if isinstance(salts, np.ndarray):
        if (salts.ndim != 1 or salts.dtype.kind != "S" or salts.shape[0] != n
                or salts.dtype.itemsize < 2):
            return None
        return np.ascontiguousarray(salts).view(np.uint8).reshape(n, -1)
    if not isinstance(salts, (list, tuple)) or len(salts) != n:
        return None
    try:
        data = "\0".join(salts).encode("ascii")  # type: ignore[arg-type]
    except (TypeError, UnicodeEncodeError):
        return None
    if len(data) != 3 * n - 1:  # not 2 characters each (or a NUL in one: found in the pass)
        return None
    return np.frombuffer(data + b"\0", dtype=np.uint8).reshape(n, 3)


def _traditional_batch(passwords: Any, salts: Any) -> list[str] | np.ndarray | None:
    """``crypt_many`` of 2-character salts in three passes, or None for the general path.

    The common case, kept free of per-row Python and NumPy work: bytes in
    (``_password_bytes``, ``_salt_chars``), one pass for keys and salts, the
    engine, one pass for the hash characters, and the result made at once
    (an array view, or one str split).  Anything else (BSDi settings, a bad
    row, bytes in a list) returns None before any hash is computed.
    """
    given = _password_bytes(passwords)
    if given is None:
        return None
    n = len(passwords)
    salt_chars = _salt_chars(salts, n)
    if salt_chars is None:
        return None
    listed = not isinstance(passwords, np.ndarray)
    out = np.empty((n, 3 + fmt.HASH_CHARS if listed else 2 + fmt.HASH_CHARS), dtype=np.uint8)
    if hash_traditional(*given, salt_chars, out) >= 0:
        return None
    if listed:
        return str(memoryview(out.reshape(-1)[:-1]), "ascii").split("\n")
    hashes = out.view(f"S{2 + fmt.HASH_CHARS}").reshape(n)
    return hashes if passwords.dtype.kind == "S" else hashes.astype(f"U{2 + fmt.HASH_CHARS}")


def _setting_list(salts: str | Sequence[str], n: int) -> list[fmt.Setting]:
    """Each row's parsed setting: one for all, or a list or tuple of n."""
    if isinstance(salts, str):
        return [fmt.parse_setting(salts)] * n
    if len(salts) != n:
        raise ValueError(f"{n} passwords but {len(salts)} salts")
    settings = []
    for row, salt in enumerate(salts):
        if type(salt) is not str:
            raise TypeError(f"salt {row} must be a str, not {type(salt).__name__}")
        try:
            settings.append(fmt.parse_setting(salt))  # cached per distinct setting
        except ValueError as exc:
            raise ValueError(f"salt {row}: {exc}") from None
    return settings


def crypt_verify(password: Password, hashed: str) -> bool:
    """Whether ``password`` hashes to ``hashed`` (a traditional or BSDi DES crypt hash).

    The comparison takes the same time wherever the hashes differ
    (``hmac.compare_digest``).  A ``hashed`` that is not a well-formed DES
    crypt hash (13 characters, or ``_`` and 19 for BSDi, from the crypt(3)
    alphabet), such as a locked entry (``*``, ``!...``) or another
    algorithm's hash (``$1$...``), matches no password: False.
    ``TypeError`` for a password that is not str or bytes-like or a
    ``hashed`` that is not a str; ``ValueError`` for a NUL in the password.
    """
    data = fmt.password_bytes(password)
    setting = fmt.hash_setting(hashed)
    if setting is None:
        return False
    computed = hash_one(data, setting)
    return hmac.compare_digest(computed.encode("ascii"), hashed.encode("ascii"))


def _hash_texts(hashes: Any) -> list[str]:
    """The hashes as str: a list or tuple of str, or a 1-D str/bytes NumPy array."""
    if isinstance(hashes, np.ndarray):
        if hashes.ndim != 1:
            raise ValueError(f"hashes must be 1-D, got {hashes.ndim}-D")
        if hashes.dtype.kind not in "SU":
            raise TypeError(f"a hashes array holds str or bytes, not {hashes.dtype}")
        texts = hashes.tolist()
        return [h.decode("latin-1") for h in texts] if hashes.dtype.kind == "S" else texts
    hashes = _sequence(hashes, "hashes")
    for row, h in enumerate(hashes):
        if type(h) is not str:
            raise TypeError(f"hash {row} must be a str, not {type(h).__name__}")
    return list(hashes)


def crypt_verify_many(passwords: Password | Sequence[Password] | np.ndarray,
                      hashes: Sequence[str] | np.ndarray) -> np.ndarray:
    """``[crypt_verify(p, h) for p, h in zip(passwords, hashes)]`` as a bool array, in one batch.

    ``passwords`` is one password (str or bytes-like) checked against every
    hash, or one per hash: a list or tuple, or a 1-D ``S``/``U`` array, as
    long as ``hashes``.  ``hashes`` is a list or tuple of str or a 1-D
    ``S``/``U`` array.  Each row is compared in constant time
    (``hmac.compare_digest``); a hash that is not a well-formed DES crypt
    hash (a locked entry, another algorithm) gives False.  Errors name the
    row and come before any hash is computed.
    """
    texts = _hash_texts(hashes)
    n = len(texts)
    if isinstance(passwords, (str, bytes, bytearray, memoryview)):
        one = fmt.password_bytes(passwords)
        first8 = np.repeat(first_bytes([one]), n, axis=0)
        whole: Callable[[], list[bytes]] = lambda: [one] * n
    else:
        first8, whole = _passwords(passwords)
        if first8.shape[0] != n:
            raise ValueError(f"{first8.shape[0]} passwords but {n} hashes")
    settings = [fmt.hash_setting(h) for h in texts]
    at = np.array([i for i, s in enumerate(settings) if s is not None], dtype=np.intp)
    result = np.zeros(n, dtype=bool)
    if at.size == 0:
        return result
    if at.size <= FEW_HASHES:  # a few: one by one on the short path
        every = whole()
        for i in at.tolist():
            computed = hash_one(every[i], settings[i])
            result[i] = hmac.compare_digest(computed.encode("ascii"), texts[i].encode("ascii"))
        return result
    rows = rows_of([settings[i] for i in at.tolist()], np.arange(at.size))
    picked = None
    if rows.extended.any():
        every = whole()
        picked = [every[i] for i in at.tolist()]
    chars = hash_many(first8[at], picked, rows)
    for j, i in enumerate(at.tolist()):
        given = texts[i].encode("ascii")
        result[i] = hmac.compare_digest(chars[j, :len(given)].tobytes(), given)
    return result
