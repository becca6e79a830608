"""Arrays of keys: ``DESArray`` and ``TripleDESArray`` (row i under key i), and key check values.

Keys are an ``(N, 8)`` (DES) or ``(N, 16)``/``(N, 24)`` (Triple-DES) uint8
array, a sequence of N bytes-like keys of one length, or for DES an ``(N,)``
uint64 array; they are checked once, as a whole array (a refusal names the
offending rows), and kept as 64-bit key values (one column per key set).
``encrypt``/``decrypt`` take a uint8 ``(N, L)`` array (one message per key),
a uint64 ``(N,)`` or ``(N, B)`` array, or one message for every key (bytes,
or a single row), in ``ecb``, ``cbc``, ``cfb``, ``ofb`` or ``ctr`` with
``ivs`` one IV per key; calls go to ``modes.key_rows``.  The full contract
is in the numbades documentation (docs/api.md in the source tree, "Key
arrays").
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .cipher import DES, TripleDES
from .modes import key_rows
from .modes.memory import is_u64, plain_array
from .tuning import policy

Keys = Any  # (N, 8|16|24) uint8 array, a sequence of bytes-like keys, or (DES) an (N,) uint64 array

_PARITY_BITS = np.uint64(0x0101010101010101)
_ODD = np.array([b.bit_count() & 1 for b in range(256)], dtype=bool)
#: Row indices named in a refusal before "and N more".
_SHOWN = 5


def _rows_named(rows: np.ndarray) -> str:
    shown = ", ".join(str(int(r)) for r in rows[:_SHOWN])
    more = f" and {rows.size - _SHOWN} more" if rows.size > _SHOWN else ""
    return f"row{'s' if rows.size > 1 else ''} {shown}{more}"


def _key_bytes_rows(keys: Any, widths: tuple[int, ...], what: str) -> np.ndarray:
    """Keys as an (N, width) uint8 array; ``TypeError``/``ValueError`` naming what is wrong."""
    want = " or ".join(str(w) for w in widths)
    if isinstance(keys, np.ndarray):
        arr = plain_array(keys, "keys")
        if is_u64(arr.dtype):
            if widths != (8,):
                raise TypeError(
                    f"{what} keys are a (N, {want}) uint8 array or a sequence of bytes "
                    "(a uint64 array holds single-DES keys)"
                )
            if arr.ndim != 1:
                raise ValueError(f"a uint64 key array is 1-D (N,), got shape {arr.shape}")
            return np.ascontiguousarray(arr.astype(">u8")).view(np.uint8).reshape(-1, 8)
        if arr.dtype != np.uint8:
            raise TypeError(f"unsupported key array dtype {arr.dtype}: use uint8 (N, {want})"
                            + (" or uint64 (N,)" if widths == (8,) else ""))
        if arr.ndim != 2 or arr.shape[1] not in widths:
            raise ValueError(f"a {what} key array has shape (N, {want}), got {arr.shape}")
        return np.ascontiguousarray(arr)
    if isinstance(keys, (bytes, bytearray, memoryview, str)) or not isinstance(keys, Sequence):
        raise TypeError(
            f"keys must be a uint8 NumPy array or a sequence of bytes-like keys, not "
            f"{type(keys).__name__} (for one key use numbades.{'DES' if what == 'DES' else 'TripleDES'})"
        )
    for i, key in enumerate(keys):
        if not isinstance(key, (bytes, bytearray, memoryview)):
            raise TypeError(f"key {i} must be bytes-like, not {type(key).__name__}")
    lengths = [memoryview(k).nbytes for k in keys]
    bad = [i for i, n in enumerate(lengths) if n not in widths or n != lengths[0]]
    if bad:
        raise ValueError(
            f"{what} keys are {want} bytes, all the same length: key {bad[0]} is "
            f"{lengths[bad[0]]} bytes" + (f", key 0 is {lengths[0]}" if lengths[0] in widths else "")
        )
    width = lengths[0] if keys else widths[-1]
    return np.frombuffer(b"".join(bytes(k) for k in keys), dtype=np.uint8).reshape(-1, width)


def _check_parity(key_bytes: np.ndarray) -> None:
    bad = np.flatnonzero(~_ODD[key_bytes].all(axis=1))
    if bad.size:
        raise ValueError(f"keys without odd parity (check_parity=True): {_rows_named(bad)}")


def _strip(words: np.ndarray) -> np.ndarray:
    return words & ~_PARITY_BITS


def _ede_words(key_bytes: np.ndarray) -> np.ndarray:
    """(N, 16|24) key bytes -> (N, 3) uint64 key values K1, K2, K3 (K3 = K1 for 16 bytes)."""
    words = key_bytes.view(">u8").astype(np.uint64)
    if words.shape[1] == 2:
        words = np.column_stack([words, words[:, 0]])
    return words


def _refuse_degenerate(words: np.ndarray, rows: np.ndarray) -> None:
    """``ValueError`` naming ``rows[i]`` for each (K1, K2, K3) row i with K1 == K2 or K2 == K3."""
    k1, k2, k3 = (_strip(words[:, i]) for i in range(3))
    bad = np.flatnonzero((k1 == k2) | (k2 == k3))
    if bad.size:
        raise ValueError(
            "degenerate Triple-DES keys: K1 == K2 or K2 == K3 (ignoring parity) is "
            f"single DES: {_rows_named(rows[bad])}"
        )


class _KeyArray:
    """What DESArray and TripleDESArray share: rows of key values and the calls."""

    _words: np.ndarray  # (N, 1) for DES, (N, 3) K1, K2, K3 for EDE, uint64 key values
    _key_size: int
    _request: policy.Request
    _check_parity: bool

    def __len__(self) -> int:
        return self._words.shape[0]

    @property
    def variant(self) -> str:
        """The engine name asked for (``auto``: a table variant for few keys, bitslice for many)."""
        return self._request.label

    @property
    def key_size(self) -> int:
        """Bytes per key: 8 (DES), 16 or 24 (Triple-DES)."""
        return self._key_size

    @property
    def block_size(self) -> int:
        return 8

    def _key(self, index: int) -> bytes:
        """Key ``index`` (an int, negative from the end) as bytes; ``IndexError`` past the end."""
        index = operator.index(index)  # TypeError for slices, floats, ...
        words = self._words[index, : -(-self._key_size // 8)]
        return words.astype(">u8").tobytes()[: self._key_size]

    def encrypt(self, data: Any, mode: str = "ecb", *, ivs: np.ndarray | None = None,
                out: np.ndarray | None = None) -> np.ndarray:
        """Encrypt row i of ``data`` under key i (or one message under every key).

        ``ivs`` gives one IV (first counter for CTR) per key: uint8 (N, 8) or
        uint64 (N,); refused for ECB.  Modes: ``ecb``, ``cbc`` (whole blocks),
        ``cfb``, ``ofb``, ``ctr`` (any length).
        """
        return key_rows.run(self._words, self._request, data, mode, ivs, out, decrypt=False)

    def decrypt(self, data: Any, mode: str = "ecb", *, ivs: np.ndarray | None = None,
                out: np.ndarray | None = None) -> np.ndarray:
        """Decrypt row i of ``data`` under key i (or one message under every key)."""
        return key_rows.run(self._words, self._request, data, mode, ivs, out, decrypt=True)

    def key_check_values(self, length: int = 3) -> np.ndarray:
        """(N, length) uint8: the first ``length`` bytes of each key's encryption of a zero block."""
        return key_check_values(self, length)


class DESArray(_KeyArray):
    """N single-DES keys: ``encrypt``/``decrypt`` process row i under key i.

    ``keys`` is an (N, 8) uint8 array, a sequence of N 8-byte bytes-like
    keys, or an (N,) uint64 array (each element a key read big-endian).
    Parity bits are ignored unless ``check_parity=True``, which refuses keys
    whose bytes do not all have odd parity, naming the first rows.
    ``a[i]`` is key i's ``numbades.DES``.
    """

    def __init__(self, keys: Keys, variant: str = "auto", *, check_parity: bool = False):
        key_bytes = _key_bytes_rows(keys, (8,), "DES")
        if check_parity:
            _check_parity(key_bytes)
        self._request = policy.resolve(variant)
        self._check_parity = check_parity
        self._key_size = 8
        self._words = np.ascontiguousarray(key_bytes.view(">u8").astype(np.uint64))

    def __getitem__(self, index: int) -> DES:
        return DES(self._key(index), self._request.name if self._request.forced else "auto",
                   check_parity=self._check_parity)

    def __repr__(self) -> str:  # never shows key material
        return f"numbades.DESArray(<{len(self)} keys>, variant={self.variant!r})"


class TripleDESArray(_KeyArray):
    """N Triple-DES (EDE) keys: ``encrypt``/``decrypt`` process row i under key i.

    ``keys`` is an (N, 16) or (N, 24) uint8 array or a sequence of N keys
    of one length (16: K3 = K1).  Degenerate keys (K1 == K2 or K2 == K3,
    ignoring parity) are refused, naming the first rows, as ``TripleDES``
    refuses one, unless ``allow_degenerate=True`` (such a row is then single
    DES).  ``a[i]`` is key i's ``numbades.TripleDES``.
    """

    def __init__(self, keys: Keys, variant: str = "auto", *, check_parity: bool = False,
                 allow_degenerate: bool = False):
        key_bytes = _key_bytes_rows(keys, (16, 24), "TripleDES")
        if check_parity:
            _check_parity(key_bytes)
        words = _ede_words(key_bytes)
        if not allow_degenerate:
            _refuse_degenerate(words, np.arange(words.shape[0]))
        self._request = policy.resolve(variant)
        self._check_parity = check_parity
        self._allow_degenerate = allow_degenerate
        self._key_size = key_bytes.shape[1]
        self._words = np.ascontiguousarray(words.reshape(-1, 3))

    def __getitem__(self, index: int) -> TripleDES:
        return TripleDES(self._key(index), self._request.name if self._request.forced else "auto",
                         check_parity=self._check_parity,
                         allow_degenerate=self._allow_degenerate)

    def __repr__(self) -> str:  # never shows key material
        return (f"numbades.TripleDESArray(<{len(self)} keys>, key_size={self.key_size}, "
                f"variant={self.variant!r})")


_ZERO_BLOCK = np.zeros(8, dtype=np.uint8)


def key_check_values(keys: Keys | _KeyArray, length: int = 3) -> np.ndarray:
    """Key check values: the first ``length`` bytes of E_K(0) for each key, as (N, length) uint8.

    ``keys`` takes what ``DESArray`` takes (8-byte keys) or what
    ``TripleDESArray`` takes (16- or 24-byte keys), or one of those objects,
    or a sequence of bytes-like keys mixing 8-, 16- and 24-byte keys (as
    payment key files do; degenerate Triple-DES keys are refused, naming
    their indices).  ``length`` is 1..8 (3 is the usual KCV, 2 or 4 in some
    systems).
    """
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"length must be an int, not {type(length).__name__}")
    if not 1 <= length <= 8:
        raise ValueError(f"length must be 1 to 8 bytes of the encrypted block, got {length}")
    if not isinstance(keys, _KeyArray):
        widths = _widths(keys)
        if widths is not None and len(set(widths)) > 1:
            return _mixed_key_check_values(keys, widths, length)
        width = widths[0] if widths else 8
        if width not in (8, 16, 24):
            raise ValueError(
                "key check values take 8-, 16- or 24-byte keys (a uint8 array of shape "
                f"(N, 8), (N, 16) or (N, 24), or bytes-like keys); got {_described(keys)}"
            )
        keys = TripleDESArray(keys) if width in (16, 24) else DESArray(keys)
    return np.ascontiguousarray(keys.encrypt(_ZERO_BLOCK)[:, :length])


def _widths(keys: Any) -> list[int] | None:
    """Bytes per key of a key-array argument (one entry for an array); None when it cannot tell."""
    if isinstance(keys, np.ndarray):
        if keys.dtype != np.uint8:
            return [8]  # a uint64 array of DES keys, or a dtype DESArray refuses
        return [keys.shape[1] if keys.ndim == 2 else 0]  # 0: no key width at all
    if isinstance(keys, Sequence) and not isinstance(keys, (bytes, bytearray, str)):
        for i, key in enumerate(keys):
            if not isinstance(key, (bytes, bytearray, memoryview)):
                raise TypeError(f"key {i} must be bytes-like, not {type(key).__name__}")
        return [memoryview(k).nbytes for k in keys]
    return None


def _mixed_key_check_values(keys: Sequence, widths: list[int], length: int) -> np.ndarray:
    """KCVs of a list mixing 8-, 16- and 24-byte keys: single DES and Triple-DES in two calls."""
    bad = [i for i, n in enumerate(widths) if n not in (8, 16, 24)]
    if bad:
        raise ValueError(f"keys are 8, 16 or 24 bytes: key {bad[0]} is {widths[bad[0]]} bytes")
    single = np.array([n == 8 for n in widths])
    out = np.empty((len(widths), length), dtype=np.uint8)
    des_rows, ede_rows = np.flatnonzero(single), np.flatnonzero(~single)
    des = DESArray([keys[i] for i in des_rows])
    # 16-byte keys as K1 || K2 || K1, so that one TripleDESArray holds every Triple-DES key.
    ede = [bytes(keys[i]) + (bytes(keys[i])[:8] if widths[i] == 16 else b"") for i in ede_rows]
    _refuse_degenerate(_ede_words(np.frombuffer(b"".join(ede), np.uint8).reshape(-1, 24)),
                       ede_rows)
    out[des_rows] = des.encrypt(_ZERO_BLOCK)[:, :length]
    out[ede_rows] = TripleDESArray(ede).encrypt(_ZERO_BLOCK)[:, :length]
    return out


def _described(keys: Any) -> str:
    if isinstance(keys, np.ndarray):
        return f"shape {keys.shape}"
    return f"a {memoryview(keys[0]).nbytes}-byte key 0"
