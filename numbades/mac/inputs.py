"""Argument checks for ``numbades.mac``: keys, messages, tag length, padding, IV, tags.

Everything is checked here, before any cipher runs; the errors are the
library's usual ``TypeError`` (wrong type) and ``ValueError`` (wrong length
or value).
"""

from __future__ import annotations

from typing import Any

import numpy as np

BYTES_LIKE = (bytes, bytearray, memoryview)
ALGORITHMS = ("cbc", "retail", "cmac")


def check_length(length: Any) -> int:
    """The tag length: an int from 4 to 8 (bytes of the last block kept)."""
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"length must be an int, not {type(length).__name__}")
    if not 4 <= length <= 8:
        raise ValueError(f"length must be 4 to 8 bytes, got {length}")
    return length


def check_padding(padding: Any) -> int:
    """An ISO/IEC 9797-1 padding method number: 1, 2 or 3."""
    if isinstance(padding, bool) or not isinstance(padding, int):
        raise TypeError(f"padding must be an int (ISO/IEC 9797-1 method 1, 2 or 3), "
                        f"not {type(padding).__name__}")
    if padding not in (1, 2, 3):
        raise ValueError(f"padding must be ISO/IEC 9797-1 method 1, 2 or 3, got {padding}")
    return padding


def block_bytes(value: Any, name: str) -> bytes:
    """An 8-byte bytes-like value (an IV, a seed) as bytes."""
    if not isinstance(value, BYTES_LIKE):
        raise TypeError(f"{name} must be bytes-like (8 bytes), not {type(value).__name__}")
    value = bytes(value)
    if len(value) != 8:
        raise ValueError(f"{name} must be 8 bytes, got {len(value)}")
    return value


def check_iv(iv: Any) -> bytes:
    """``iv=None`` is the zero block, as ISO/IEC 9797-1 starts."""
    return bytes(8) if iv is None else block_bytes(iv, "iv")


def one_key(key: Any, sizes: tuple[int, ...], what: str) -> bytes:
    """One key as bytes, of one of ``sizes``."""
    key = bytes(key)
    if len(key) not in sizes:
        want = ", ".join(str(s) for s in sizes[:-1]) + f" or {sizes[-1]}" if len(sizes) > 1 \
            else str(sizes[0])
        raise ValueError(f"a {what} key is {want} bytes, got {len(key)}")
    return key


def key_rows(key: Any, sizes: tuple[int, ...], what: str) -> np.ndarray | None:
    """An (N, width) uint8 key array, or None when ``key`` is one bytes-like key."""
    if isinstance(key, BYTES_LIKE):
        return None
    if isinstance(key, np.ndarray) and key.ndim == 1 and key.dtype == np.uint8:
        return None
    if isinstance(key, (list, tuple)):
        if not all(isinstance(k, BYTES_LIKE) for k in key):
            raise TypeError("a sequence of keys must hold bytes-like keys")
        widths = {memoryview(k).nbytes for k in key}
        if len(widths) > 1:
            raise ValueError(f"keys in one array must have one length, got {sorted(widths)}")
        width = widths.pop() if widths else sizes[0]
        key = np.frombuffer(b"".join(bytes(k) for k in key), np.uint8).reshape(-1, width)
    if not isinstance(key, np.ndarray):
        raise TypeError(f"key must be bytes-like or an (N, key bytes) uint8 array, "
                        f"not {type(key).__name__}")
    if key.dtype != np.uint8:
        raise TypeError(f"a key array must be uint8, not {key.dtype}")
    want = ", ".join(str(s) for s in sizes)
    if key.ndim != 2 or key.shape[1] not in sizes:
        raise ValueError(f"a {what} key array has shape (N, {want}), got {key.shape}")
    return np.ascontiguousarray(key)


def message(data: Any, name: str = "data") -> np.ndarray:
    """Messages as uint8: 1-D for one message, 2-D (N, L) for N equal-length messages."""
    if isinstance(data, BYTES_LIKE):
        if isinstance(data, memoryview) and not data.c_contiguous:
            data = data.tobytes()
        return np.frombuffer(data, np.uint8) if memoryview(data).nbytes else np.zeros(0, np.uint8)
    if isinstance(data, np.ndarray):
        if type(data) is not np.ndarray and isinstance(data, (np.matrix, np.ma.MaskedArray)):
            raise TypeError(f"{name} must be a plain uint8 array, not {type(data).__name__}")
        if data.dtype != np.uint8:
            raise TypeError(f"{name} arrays must be uint8 (raw bytes), not {data.dtype}")
        if data.ndim not in (1, 2):
            raise ValueError(f"{name} must be 1-D (one message) or 2-D (one message per row), "
                             f"got {data.ndim}-D")
        return np.asarray(data)
    raise TypeError(f"{name} must be bytes-like or a uint8 NumPy array, "
                    f"not {type(data).__name__}")


def tag_bytes(tag: Any, length: int) -> bytes:
    """A tag to verify: bytes-like of exactly ``length`` bytes."""
    if not isinstance(tag, BYTES_LIKE):
        raise TypeError(f"the tag must be bytes-like, not {type(tag).__name__}")
    tag = bytes(tag)
    if len(tag) != length:
        raise ValueError(f"the tag must be {length} bytes, got {len(tag)}")
    return tag
