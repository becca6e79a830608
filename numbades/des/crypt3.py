"""The crypt(3) DES formats: settings, salts, password keys and the hash encoding.

Two formats, both DES on an all-zero block with a salt that swaps
E-expansion output bits (salt bit ``i`` swaps bits ``i`` and ``i + 24``):

- **traditional** (Seventh Edition Unix, glibc): a 2-character salt (12
  bits), 25 iterations; the key is the password's first 8 bytes, each
  shifted left one bit (so only its low 7 bits count); the hash is the salt
  and 11 characters, 13 in all;
- **BSDi extended** (``_`` + 4 characters of iteration count + 4 of salt,
  24 bits each, least significant character first; a count of 0 runs
  once, as in glibc): every byte of the
  password counts, 8 at a time: the key starts as the first 8 bytes shifted
  left, then for each further group of 8 it becomes E_key(key) XOR the
  group shifted left; the hash is the 9-character setting and 11 characters.

The 64-bit result is written as 11 characters of 6 bits each, most
significant first (the last has two zero bits appended), in the alphabet
``./0-9A-Za-z``; counts and salts use the same alphabet.

Everything here is plain Python and NumPy but the encoding loop; the DES
work is the engines'.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

_INLINED_SOURCES_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # see tools/stamp_kernel_sources.py

#: The crypt(3) alphabet: character value 0 is ".", 63 is "z".
ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_ALPHABET_BYTES = np.frombuffer(ALPHABET.encode("ascii"), dtype=np.uint8).copy()

#: Iterations of traditional crypt(3).
TRADITIONAL_COUNT = 25
#: Characters of the encoded 64-bit result.
HASH_CHARS = 11


class Setting(NamedTuple):
    """A parsed salt or setting: what to compute and how the result starts."""

    extended: bool  # BSDi "_" format
    count: int  # DES iterations
    salt: int  # 12 (traditional) or 24 (extended) bits
    prefix: str  # the setting's characters the hash repeats


def _decode(chars: str, what: str, setting: str) -> int:
    value = 0
    for i, c in enumerate(chars):
        if c not in _VALUE:
            raise ValueError(
                f"invalid {what} character {c!r} in setting {setting!r}: "
                f"crypt(3) uses only {ALPHABET!r}"
            )
        value |= _VALUE[c] << (6 * i)
    return value


_CHAR_VALUES = np.full(256, -1, dtype=np.int16)
_CHAR_VALUES[np.frombuffer(ALPHABET.encode("ascii"), dtype=np.uint8)] = np.arange(64)


def traditional_salts(first_two: np.ndarray) -> np.ndarray | None:
    """(rows, 2) uint8 characters of 2-character salts as 12-bit values; None if any is invalid.

    The vectorised form of :func:`parse_setting` for traditional salts (a
    NUL, i.e. a salt too short, is invalid).
    """
    values = _CHAR_VALUES[first_two]
    if values.size and values.min() < 0:
        return None
    return values[:, 0].astype(np.uint64) | (values[:, 1].astype(np.uint64) << np.uint64(6))


#: Characters glibc's crypt(3) (libxcrypt) refuses anywhere in a setting, beyond the ones
#: outside printable ASCII (space, control characters, anything above ``~``).
REFUSED = "!*:;\\"
_REFUSED_ANYWHERE = re.compile(r"[^\x21-\x7e]|[!*:;\\]")
#: The same rule over character codes, for settings in NumPy arrays: True where refused.
REFUSED_CODES = np.ones(256, dtype=bool)
REFUSED_CODES[0x21:0x7F] = False
REFUSED_CODES[[ord(c) for c in REFUSED]] = True


def parse_setting(setting: str) -> Setting:
    """A 2-character salt or a ``_CCCCSSSS`` setting (a whole hash is fine: the rest is ignored).

    The rule is glibc's (libxcrypt's): the salt (2 characters) or the count
    and salt (``_`` and 8) are from the crypt(3) alphabet, and no character
    of the whole setting is a space, a control or non-ASCII character or one
    of ``!*:;\\``.  ``TypeError`` unless ``setting`` is a str; ``ValueError``
    for anything glibc refuses (it returns a failure token starting ``*``).
    """
    if not isinstance(setting, str):
        raise TypeError(f"salt or setting must be a str, not {type(setting).__name__}")
    return _checked(setting)


@lru_cache(maxsize=8192)
def _checked(setting: str) -> Setting:
    bad = _REFUSED_ANYWHERE.search(setting)
    if bad is not None:
        raise ValueError(
            f"invalid character {bad.group()!r} in setting {setting!r}: crypt(3) refuses "
            "spaces, control and non-ASCII characters and any of " + " ".join(REFUSED)
            + " anywhere in a setting"
        )
    return _parse(setting[:9] if setting.startswith("_") else setting[:2])  # what counts


def hash_setting(hashed: str) -> Setting | None:
    """The setting of a well-formed DES crypt(3) hash, or None if ``hashed`` is not one.

    Well-formed: 13 characters (traditional) or ``_`` and 19 (BSDi), all
    from the crypt(3) alphabet.  Anything else (a locked entry such as
    ``*`` or ``!...``, another algorithm's ``$1$...``) cannot be the hash
    of any password.  ``TypeError`` unless ``hashed`` is a str.
    """
    if not isinstance(hashed, str):
        raise TypeError(f"a crypt(3) hash is a str, not {type(hashed).__name__}")
    extended = hashed.startswith("_")
    body = hashed[1:] if extended else hashed
    if len(body) != (8 if extended else 2) + HASH_CHARS or body.strip(ALPHABET):
        return None
    return _parse(hashed[:9] if extended else hashed[:2])


@lru_cache(maxsize=8192)
def _parse(setting: str) -> Setting:
    if setting.startswith("_"):
        if len(setting) < 9:
            raise ValueError(
                f"a BSDi setting is '_', 4 count and 4 salt characters; got {setting!r}"
            )
        count = _decode(setting[1:5], "count", setting)
        salt = _decode(setting[5:9], "salt", setting)
        # A count of 0 ("_....") runs one iteration, as glibc's crypt(3) does.
        return Setting(True, max(count, 1), salt, setting[:9])
    if len(setting) < 2:
        raise ValueError(f"a traditional crypt(3) salt is 2 characters; got {setting!r}")
    return Setting(False, TRADITIONAL_COUNT, _decode(setting[:2], "salt", setting), setting[:2])


def password_bytes(password: object) -> bytes:
    """The password's bytes: a str is encoded as UTF-8 (as Python's ``crypt`` module did).

    ``TypeError`` for anything but str and bytes-like; ``ValueError`` for a
    NUL byte (C's crypt(3), and libdes's string-to-key, would silently stop
    there).
    """
    if isinstance(password, str):
        data = password.encode("utf-8")
    elif isinstance(password, (bytes, bytearray, memoryview)):
        data = bytes(password)
    else:
        raise TypeError(f"password must be str or bytes-like, not {type(password).__name__}")
    if b"\0" in data:
        raise ValueError("password contains a NUL byte, which a C string (crypt(3), libdes) cannot hold")
    return data


#: A password's first 8 bytes as a DES key: the big-endian value shifted left one bit and
#: masked with this (each byte's top bit is lost; its low bit, parity, is zero).
KEY_BITS = 0xFEFEFEFEFEFEFEFE



#: Every 12-bit value as its two characters, most significant first.
PAIRS = tuple(a + b for a in ALPHABET for b in ALPHABET)


@njit(nogil=True, cache=True)
def _encode(values, alphabet, chars, offsets):
    for i in range(values.shape[0]):
        v = values[i]
        at = offsets[i]
        for k in range(HASH_CHARS - 1):  # 6 bits at a time from the top
            chars[i, at + k] = alphabet[(v >> np.uint64(58 - 6 * k)) & np.uint64(63)]
        chars[i, at + HASH_CHARS - 1] = alphabet[(v << np.uint64(2)) & np.uint64(63)]


def encode_into(values: np.ndarray, chars: np.ndarray, offsets: np.ndarray) -> None:
    """Write result i's 11 characters into ``chars[i, offsets[i]:offsets[i] + 11]`` (uint8 ASCII)."""
    _encode(np.ascontiguousarray(values, dtype=np.uint64), _ALPHABET_BYTES, chars,
            np.ascontiguousarray(offsets, dtype=np.int64))



@njit(nogil=True, cache=True)
def _traditional_rows(data, width, salt_chars, values, keys, salts):
    n = salt_chars.shape[0]
    at = 0
    for i in range(n):
        a = values[salt_chars[i, 0]]
        b = values[salt_chars[i, 1]]
        if a < 0 or b < 0:
            return i
        for j in range(2, salt_chars.shape[1]):  # nothing may follow the 2 characters
            if salt_chars[i, j] != 0:
                return i
        salts[i] = np.uint64(a) | (np.uint64(b) << np.uint64(6))
        if width:
            at = i * width
        end = at + width if width else data.shape[0]
        key = np.uint64(0)
        j = 0
        while at + j < end and data[at + j] != 0:  # a NUL ends the password
            if j < 8:  # byte j, shifted left one bit (its top bit lost), big-endian
                key |= np.uint64((data[at + j] << 1) & 0xFE) << np.uint64(56 - 8 * j)
            elif width:
                break
            j += 1
        keys[i] = key
        if not width:
            if at + j == end:  # fewer separators than rows
                return n
            at += j + 1
    if not width and at != data.shape[0]:  # more: a NUL inside a password
        return n
    return -1


def traditional_rows(data: np.ndarray, width: int, salt_chars: np.ndarray, keys: np.ndarray,
                     salts: np.ndarray) -> int:
    """Keys and 12-bit salts of a traditional batch in one pass; -1, or the row at fault.

    Password ``i`` is ``data[i * width:(i + 1) * width]`` up to its first NUL
    (an ``S`` array's bytes), or, with ``width`` 0, the ``i``-th of the
    NUL-terminated passwords filling ``data`` (read-only uint8); its key
    (``keys[i]``) is its first 8 bytes shifted left one bit.  Salt ``i`` is
    row ``i`` of ``salt_chars`` (read-only (rows, 2 or more) uint8): two
    characters of the crypt(3) alphabet, then only NULs.  At a row whose
    salt is not that the pass stops and returns the row; joined passwords
    that are not one per row return the row count.  Either way the caller
    then checks row by row, which names the fault.
    """
    return _traditional_rows(data, width, salt_chars, _CHAR_VALUES, keys, salts)


@njit(nogil=True, cache=True)
def _encode_traditional(values, salt_chars, alphabet, out):
    for i in range(values.shape[0]):
        v = values[i]
        out[i, 0] = salt_chars[i, 0]
        out[i, 1] = salt_chars[i, 1]
        for k in range(HASH_CHARS - 1):  # 6 bits at a time from the top
            out[i, 2 + k] = alphabet[(v >> np.uint64(58 - 6 * k)) & np.uint64(63)]
        out[i, 1 + HASH_CHARS] = alphabet[(v << np.uint64(2)) & np.uint64(63)]
        if out.shape[1] > 2 + HASH_CHARS:  # a separator after each hash
            out[i, 2 + HASH_CHARS] = 10


def encode_traditional(values: np.ndarray, salt_chars: np.ndarray, out: np.ndarray) -> None:
    """Traditional hashes into ``out`` (rows, 13 or 14) uint8: salt, 11 characters, then ``\\n``.

    ``values`` are the (rows,) uint64 DES results, ``salt_chars`` the
    read-only salt characters given to :func:`traditional_rows`; a 14th
    column gets a newline, the separator of a list's one split.
    """
    _encode_traditional(values, salt_chars, _ALPHABET_BYTES, out)
