"""crypt(3) hashes in batch: passwords to DES keys, salted DES on the engine, hashes encoded.

Settings and passwords are checked (``des.crypt3``) before any kernel runs.
Keys: traditional hashes take each password's first 8 bytes; BSDi hashes
fold every further 8 bytes in with one DES encryption per group, done for
all passwords of a step at once through a key-per-row engine
(``policy.pick_key_rows``).  Hashes with the same iteration count and salt
width run in one call of the crypt(3) engine (``policy.pick_crypt3``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..des import crypt3 as fmt
from ..des.keybits import passes
from ..engines import chains
from ..engines.registry import CRYPT3_ENGINES, KEY_ROWS_ENGINES
from ..tuning import policy

_AUTO = policy.Request("auto", forced=False)


def _first_keys(passwords: Sequence[bytes]) -> np.ndarray:
    """Each password's first 8 bytes (zero-padded), shifted left one bit, as key values."""
    raw = np.frombuffer(b"".join(p[:8].ljust(8, b"\0") for p in passwords), dtype=np.uint8)
    return (raw << 1).view(">u8").astype(np.uint64).reshape(-1)


def _fold(keys: np.ndarray, passwords: Sequence[bytes], rows: np.ndarray) -> None:
    """BSDi: key = E_key(key) ^ next 8 bytes << 1, for every further 8 bytes (in place)."""
    groups = np.array([max(1, -(-len(passwords[i]) // 8)) for i in rows], dtype=np.int64)
    for step in range(1, int(groups.max(initial=1))):
        live = rows[groups > step]
        words = keys[live].reshape(-1, 1)
        engine = KEY_ROWS_ENGINES[policy.pick_key_rows(_AUTO, chains.ECB_ENCRYPT, live.size)]
        out = np.empty_like(words)
        engine.key_rows(chains.ECB_ENCRYPT, words, out, np.ascontiguousarray(words),
                        passes(1, False), np.zeros(live.size, dtype=np.uint64), False)
        chunk = _first_keys([passwords[i][8 * step:] for i in live])
        keys[live] = out.reshape(-1) ^ chunk


def hash_many(passwords: Sequence[bytes], settings: Sequence[fmt.Setting]) -> list[str]:
    """The crypt(3) hash of each (password, setting) pair, both already checked."""
    n = len(passwords)
    if n == 0:
        return []
    keys = _first_keys(passwords)
    extended = np.array([s.extended for s in settings], dtype=bool)
    if extended.any():
        _fold(keys, passwords, np.flatnonzero(extended))
    counts = np.array([s.count for s in settings], dtype=np.int64)
    salts = np.array([s.salt for s in settings], dtype=np.uint64)
    values = np.empty(n, dtype=np.uint64)
    engine = CRYPT3_ENGINES[policy.pick_crypt3()]
    # One engine call per (salt width, count): one for a file of traditional hashes.
    for wide, count in sorted({(bool(e), int(c)) for e, c in zip(extended, counts, strict=True)}):
        rows = np.flatnonzero((extended == wide) & (counts == count))
        values[rows] = engine.crypt3(keys[rows], salts[rows], count, wide)
    text = fmt.encode_values(values).tobytes().decode("ascii")
    return [s.prefix + text[fmt.HASH_CHARS * i: fmt.HASH_CHARS * (i + 1)]
            for i, s in enumerate(settings)]
