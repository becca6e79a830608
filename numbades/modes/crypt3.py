"""crypt(3) hashes in batch: passwords to DES keys, salted DES on the engine, hashes encoded.

Settings and passwords are checked (``des.crypt3``) before any kernel runs.
Keys: traditional hashes take each password's first 8 bytes; BSDi hashes
fold every further 8 bytes in with one DES encryption per group, done for
all passwords of a step at once through a key-per-row engine
(``policy.pick_key_rows``).  Hashes with the same iteration count and salt
width run in one call of the crypt(3) engine (``policy.pick_crypt3``).
Per-hash Python work is kept to building the inputs and the result
strings: settings are parsed once per distinct setting and everything else
is NumPy over all rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..des import crypt3 as fmt
from ..des.keybits import passes
from ..engines import chains
from ..engines.base import read_only
from ..engines.registry import CRYPT3_ENGINES, KEY_ROWS_ENGINES
from ..tuning import policy

_AUTO = policy.Request("auto", forced=False)


def key_values(first8: np.ndarray) -> np.ndarray:
    """(rows, 8) uint8 password bytes (zero-padded) as DES keys: each byte shifted left one bit."""
    return (np.ascontiguousarray(first8, dtype=np.uint8) << 1).view(">u8").astype(
        np.uint64).reshape(-1)


def first_bytes(passwords: Sequence[bytes], start: int = 0) -> np.ndarray:
    """Bytes start .. start+7 of each password, zero-padded, as a (rows, 8) uint8 array."""
    joined = b"".join(p[start:start + 8].ljust(8, b"\0") for p in passwords)
    return np.frombuffer(joined, dtype=np.uint8).reshape(-1, 8)


def _fold(keys: np.ndarray, passwords: Sequence[bytes], rows: np.ndarray) -> None:
    """BSDi: key = E_key(key) ^ next 8 bytes << 1, for every further 8 bytes (in place)."""
    groups = np.array([max(1, -(-len(passwords[i]) // 8)) for i in rows], dtype=np.int64)
    for step in range(1, int(groups.max(initial=1))):
        live = rows[groups > step]
        words = np.ascontiguousarray(keys[live].reshape(-1, 1))
        engine = KEY_ROWS_ENGINES[policy.pick_key_rows(_AUTO, chains.ECB_ENCRYPT, live.size)]
        out = np.empty_like(words)
        # the input read-only, as every caller hands it (one kernel signature: no compile)
        engine.key_rows(chains.ECB_ENCRYPT, read_only(words), out, words, passes(1, False),
                        np.zeros(live.size, dtype=np.uint64), False)
        keys[live] = out.reshape(-1) ^ key_values(first_bytes([passwords[i] for i in live],
                                                              8 * step))


def hash_one(password: bytes, setting: fmt.Setting) -> str:
    """crypt(3) of one checked password (bytes) and parsed setting, as the hash string.

    The short path of ``crypt`` and ``crypt_verify``: no per-row arrays
    beyond the engine's one-element inputs, the hash encoded in Python.
    """
    key = (int.from_bytes(password[:8].ljust(8, b"\0"), "big") << 1) & fmt.KEY_BITS
    if setting.extended and len(password) > 8:
        keys = np.array([key], dtype=np.uint64)
        _fold(keys, [password], np.zeros(1, dtype=np.intp))
        key = int(keys[0])
    engine = CRYPT3_ENGINES[policy.pick_crypt3(1)]
    v = engine.crypt3_one(key - ((key >> 63) << 64), setting.salt, setting.count)  # as int64
    p = fmt.PAIRS  # the hash characters, 12 bits at a time: this path is mostly call overhead
    return (setting.prefix + p[v >> 52] + p[(v >> 40) & 4095] + p[(v >> 28) & 4095]
            + p[(v >> 16) & 4095] + p[(v >> 4) & 4095] + fmt.ALPHABET[(v << 2) & 63])


class Rows(NamedTuple):
    """What to compute for each row: the setting's parts as arrays (see ``des.crypt3``)."""

    extended: np.ndarray  # (rows,) bool: BSDi
    counts: np.ndarray  # (rows,) int64 iterations
    salts: np.ndarray  # (rows,) uint64, 12 or 24 bits
    prefixes: np.ndarray  # (rows, 9) uint8: the setting characters the hash repeats
    widths: np.ndarray  # (rows,) int64: 2 or 9 of them


def rows_of(settings: Sequence[fmt.Setting], which: np.ndarray) -> Rows:
    """Per-row arrays from distinct parsed settings and each row's index into them."""
    prefixes = np.zeros((len(settings), 9), dtype=np.uint8)
    for i, s in enumerate(settings):
        prefixes[i, :len(s.prefix)] = np.frombuffer(s.prefix.encode("ascii"), np.uint8)
    return Rows(np.array([s.extended for s in settings], dtype=bool)[which],
                np.array([s.count for s in settings], dtype=np.int64)[which],
                np.array([s.salt for s in settings], dtype=np.uint64)[which],
                prefixes[which],
                np.array([len(s.prefix) for s in settings], dtype=np.int64)[which])


def hash_many(first8: np.ndarray, passwords: Sequence[bytes] | None,
              rows: Rows) -> np.ndarray:
    """crypt(3) of each row as (rows, 20) uint8 characters, NUL-padded after the hash.

    ``first8`` is (rows, 8) uint8: each password's first bytes, zero-padded;
    ``passwords`` (the whole passwords as bytes) is needed only when a row
    is BSDi.  Row i's hash is 13 (traditional) or 20 (BSDi) characters.
    """
    n = first8.shape[0]
    chars = np.zeros((n, 9 + fmt.HASH_CHARS), dtype=np.uint8)
    if n == 0:
        return chars
    keys = key_values(first8)
    extended = bool(rows.extended.any())
    if extended:
        assert passwords is not None
        _fold(keys, passwords, np.flatnonzero(rows.extended))
    values = np.empty(n, dtype=np.uint64)
    # One engine call per (salt width, count): one for a file of traditional hashes.
    if not extended:
        engine = CRYPT3_ENGINES[policy.pick_crypt3(n)]
        values[:] = engine.crypt3(keys, rows.salts, fmt.TRADITIONAL_COUNT, False)
    else:
        kind = rows.counts * 2 + rows.extended
        for k in np.unique(kind).tolist():
            at = np.flatnonzero(kind == k)
            engine = CRYPT3_ENGINES[policy.pick_crypt3(at.size)]
            values[at] = engine.crypt3(keys[at], rows.salts[at], k // 2, bool(k % 2))
    chars[:, :9] = rows.prefixes  # NUL after a 2-character prefix, overwritten below
    fmt.encode_into(values, chars, rows.widths)
    return chars


def hash_traditional(data: np.ndarray, width: int, salt_chars: np.ndarray,
                     out: np.ndarray) -> int:
    """Traditional crypt(3) of a batch into ``out`` (rows, 13 or 14) uint8; -1, or a bad row.

    The fast path of a batch of 2-character salts: one pass builds every
    key and salt (``des.crypt3.traditional_rows``: the arguments are its,
    ``data`` and ``salt_chars`` made read-only here; one row per salt), one
    engine call, one pass writes the hashes (``des.crypt3.encode_traditional``).
    Nothing is computed if a row is bad: it is returned for the caller's
    row-by-row check.
    """
    n = salt_chars.shape[0]
    keys, salts = np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64)
    salt_chars = read_only(salt_chars)
    bad = fmt.traditional_rows(read_only(data), width, salt_chars, keys, salts)
    if bad < 0 and n:
        engine = CRYPT3_ENGINES[policy.pick_crypt3(n)]
        fmt.encode_traditional(engine.crypt3(keys, salts, fmt.TRADITIONAL_COUNT, False),
                               salt_chars, out)
    return bad
