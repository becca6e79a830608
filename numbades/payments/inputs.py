"""Argument checks for ``numbades.payments``: keys, binary rows, digit strings, batch sizes.

Every check runs on the whole batch before any cipher does; a refusal is a
``TypeError`` (wrong type) or a ``ValueError`` (wrong shape, length or
value) naming the first offending rows.  Digit strings (PANs, PINs) come in
as ``str`` (a batch of one), a sequence of ``str``, or a NumPy ``U``/``S``
array, and leave as an ``(N, width)`` ``uint8`` array of digit values (0-9)
with an ``(N,)`` array of lengths, never as Python strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import pin_kernels

BYTES_LIKE = (bytes, bytearray, memoryview)
#: Row indices named in a refusal before "and N more".
_SHOWN = 5


def rows_named(rows: np.ndarray) -> str:
    """``"row 3"``, ``"rows 1, 4"`` or ``"rows 1, 2, 3, 4, 5 and 7 more"``."""
    shown = ", ".join(str(int(r)) for r in rows[:_SHOWN])
    more = f" and {rows.size - _SHOWN} more" if rows.size > _SHOWN else ""
    return f"row{'s' if rows.size > 1 else ''} {shown}{more}"


def refuse_rows(bad: np.ndarray, message: str) -> None:
    """``ValueError(message: rows ...)`` if the boolean mask ``bad`` has any row set."""
    rows = np.flatnonzero(bad)
    if rows.size:
        raise ValueError(f"{message}: {rows_named(rows)}")


def binary_rows(value: Any, width: int, name: str) -> np.ndarray:
    """A bytes-like value of ``width`` bytes, or a uint8 ``(width,)`` / ``(N, width)`` array -> (N, width).

    A single value (bytes or a 1-D array) is a batch of one.
    """
    if isinstance(value, BYTES_LIKE):
        data = bytes(value)
        if len(data) != width:
            raise ValueError(f"{name} is {width} bytes, got {len(data)}")
        return np.frombuffer(data, dtype=np.uint8).reshape(1, width).copy()
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be bytes-like or a uint8 NumPy array (N, {width}), "
                        f"not {type(value).__name__}")
    if value.dtype != np.uint8:
        raise TypeError(f"{name} must be a uint8 array (N, {width}), not {value.dtype}")
    if value.ndim == 1:
        value = value.reshape(1, -1)
    if value.ndim != 2 or value.shape[1] != width:
        raise ValueError(f"{name} has shape (N, {width}) or ({width},), got {value.shape}")
    return np.ascontiguousarray(value)


def key_rows(key: Any, name: str = "key") -> np.ndarray:
    """A double-length Triple-DES key: 16 bytes-like, uint8 ``(16,)`` (one key) or ``(N, 16)`` -> (K, 16)."""
    return binary_rows(key, 16, name)


def batch_size(name_rows: dict[str, int]) -> int:
    """The batch's N from each argument's row count: every count is N or 1 (one value for all rows)."""
    counts = {n for n in name_rows.values() if n != 1}
    if len(counts) > 1:
        shown = ", ".join(f"{k}: {v}" for k, v in name_rows.items())
        raise ValueError(f"row counts differ ({shown}): give one row per item, or one value "
                         "for every row")
    return counts.pop() if counts else 1


def rows_for(arr: np.ndarray, n: int) -> np.ndarray:
    """``arr`` (1 or n rows) as n rows (a broadcast view for one row)."""
    return np.broadcast_to(arr, (n, *arr.shape[1:])) if arr.shape[0] != n else arr


def _codes(values: Any, name: str) -> np.ndarray:
    """Character codes of digit strings as a 2-D array (N, max length), zero past each string's end."""
    if isinstance(values, str):
        values = [values]
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "US":
            raise TypeError(f"{name} must be a NumPy U or S array of digit strings, "
                            f"not dtype {values.dtype}")
        arr = values.reshape(-1) if values.ndim == 0 else values
        if arr.ndim != 1:
            raise ValueError(f"{name} must be a 1-D array of digit strings, got shape {arr.shape}")
    elif isinstance(values, Sequence) and not isinstance(values, BYTES_LIKE):
        for i, v in enumerate(values):
            if not isinstance(v, str):
                raise TypeError(f"{name} must be strings of decimal digits: item {i} is "
                                f"{type(v).__name__}")
        arr = np.array(values, dtype=str) if len(values) else np.zeros(0, "U1")
    else:
        raise TypeError(f"{name} must be a str, a sequence of str or a NumPy U/S array, "
                        f"not {type(values).__name__}")
    arr = np.ascontiguousarray(arr)
    code = np.uint32 if arr.dtype.kind == "U" else np.uint8
    width = arr.dtype.itemsize // np.dtype(code).itemsize
    if not arr.size or not width:
        return np.zeros((arr.size, 1), code)
    return arr.view(code).reshape(arr.size, width)


def digit_rows(values: Any, name: str, min_len: int, max_len: int) -> tuple[np.ndarray, np.ndarray]:
    """Strings of ``min_len``..``max_len`` decimal digits -> ((N, max_len) uint8 digits, (N,) lengths).

    Digits past a row's length are zero.  Non-digits and wrong lengths are a
    ``ValueError`` naming the rows.
    """
    codes = _codes(values, name)
    n = codes.shape[0]
    digits = np.zeros((n, max_len), dtype=np.uint8)
    lengths = np.empty(n, dtype=np.intp)
    bad = np.empty(n, dtype=np.bool_)
    pin_kernels.digits_of(codes, max_len, digits, lengths, bad)
    refuse_rows(bad, f"{name} must be decimal digits only")
    refuse_rows((lengths < min_len) | (lengths > max_len),
                f"{name} must be {min_len} to {max_len} digits")
    return digits, lengths


def choice(value: Any, allowed: tuple, name: str) -> Any:
    """``value`` if it is one of ``allowed`` (no bools for ints); else ``TypeError``/``ValueError``."""
    if isinstance(value, bool) or type(value) not in {type(a) for a in allowed}:
        raise TypeError(f"{name} must be one of {allowed}, not {type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value
