"""Rows of decimal digits and of bytes for the card and EMV functions: checks and conversions.

Digit inputs (PANs, expiry dates, service codes, PINs, ...) arrive as one
``str`` (a batch of one), a sequence of ``str`` or a 1-D NumPy ``U``/``S``
array; they become an (N, width) uint8 array of digit values with each
row's length beside it.  Binary inputs (keys, ATCs, cryptograms, data rows)
arrive as bytes-like (a batch of one) or ``uint8`` arrays of shape (width,)
or (N, width).  Every check raises before any cipher runs, naming the bad
rows (never their values: PINs and PANs stay out of messages).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _kernels

BYTES_LIKE = (bytes, bytearray, memoryview)

#: Rows named in an error message at most.
_SHOWN = 5


def rows_named(bad: np.ndarray) -> str:
    """'row 3' / 'rows 1, 4, 9 and 12 more' for a boolean mask or index array."""
    rows = np.flatnonzero(bad) if bad.dtype == bool else np.asarray(bad)
    shown = ", ".join(str(int(r)) for r in rows[:_SHOWN])
    more = f" and {rows.size - _SHOWN} more" if rows.size > _SHOWN else ""
    return f"row{'s' if rows.size > 1 else ''} {shown}{more}"


def _strings(values: Any, name: str) -> np.ndarray:
    """A 1-D U or S array of the values (one str is a batch of one)."""
    if isinstance(values, str):
        return np.array([values])
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "US":
            raise TypeError(f"{name} must be str or a NumPy U/S array of decimal digits, "
                            f"not a {values.dtype} array")
        if values.ndim > 1:
            raise ValueError(f"{name} must be one value or a 1-D array, got {values.ndim}-D")
        return values.reshape(-1)
    if isinstance(values, BYTES_LIKE):
        raise TypeError(f"{name} must be str (decimal digits), not {type(values).__name__}")
    if isinstance(values, (list, tuple)):
        wrong = [i for i, v in enumerate(values) if not isinstance(v, str)]
        if wrong:
            raise TypeError(f"{name} must hold str values; {rows_named(np.array(wrong))} "
                            "are not str")
        return np.array(values, dtype=str) if values else np.zeros(0, "U1")
    raise TypeError(f"{name} must be str, a sequence of str or a NumPy U/S array, "
                    f"not {type(values).__name__}")


def digit_rows(values: Any, name: str, min_len: int, max_len: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """(digits, lengths): (N, max_len) uint8 digit values (0 past each row's end), (N,) int.

    Raises ValueError naming the rows whose length is outside min_len..max_len
    or that hold anything but the ASCII digits 0-9.
    """
    strings = np.ascontiguousarray(_strings(values, name))
    n = strings.shape[0]
    width = strings.dtype.itemsize // (4 if strings.dtype.kind == "U" else 1)
    codes = strings.view(np.uint32 if strings.dtype.kind == "U" else np.uint8).reshape(n, width)
    digits = np.zeros((n, max_len), np.uint8)
    lengths = np.zeros(n, np.intp)
    status = np.zeros(n, np.uint8)
    if n and width:
        wide = codes if codes.dtype == np.uint32 else codes.astype(np.uint32)
        _kernels.parse(wide, min_len, max_len, digits, lengths, status)
    elif min_len > 0:
        status[:] = _kernels.BAD_LENGTH
    if status.any():
        bad_length = status == _kernels.BAD_LENGTH
        if bad_length.any():
            want = f"{min_len}" if min_len == max_len else f"{min_len} to {max_len}"
            raise ValueError(f"{name} must be {want} digits: {rows_named(bad_length)} "
                             "of the batch are not")
        raise ValueError(f"{name} must hold only the digits 0-9: "
                         f"{rows_named(status == _kernels.NOT_DIGITS)} of the batch do not")
    return digits, lengths


def fixed_digits(values: Any, name: str, length: int) -> np.ndarray:
    """(N, length) uint8 digit values of rows that must all be ``length`` digits long."""
    return digit_rows(values, name, length, length)[0]


def byte_rows(value: Any, name: str, widths: tuple[int, ...]) -> np.ndarray:
    """(N, width) uint8 rows: bytes-like or a (width,) array is a batch of one."""
    if isinstance(value, BYTES_LIKE):
        value = np.frombuffer(bytes(value), np.uint8)
    elif isinstance(value, (list, tuple)) and all(isinstance(v, BYTES_LIKE) for v in value):
        sizes = {memoryview(v).nbytes for v in value}
        if len(sizes) > 1:
            raise ValueError(f"{name}: every row must have one length, got {sorted(sizes)}")
        width = sizes.pop() if sizes else (widths[0] if widths else 0)
        value = np.frombuffer(b"".join(bytes(v) for v in value), np.uint8).reshape(-1, width)
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be bytes-like or a uint8 NumPy array, "
                        f"not {type(value).__name__}")
    if value.dtype != np.uint8:
        raise TypeError(f"{name} must be a uint8 array, not {value.dtype}")
    if value.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D (one value) or 2-D (one per row), "
                         f"got {value.ndim}-D")
    rows = value.reshape(1, -1) if value.ndim == 1 else value
    if widths and rows.shape[1] not in widths:
        want = " or ".join(str(w) for w in widths)
        raise ValueError(f"{name} rows are {want} bytes, got {rows.shape[1]}")
    return np.ascontiguousarray(rows)


def key_rows(key: Any, name: str, widths: tuple[int, ...] = (16,)) -> np.ndarray:
    """A key for the batch as (width,) uint8, or a key per row as (N, width).

    A key array of one row is the batch's one key, as any one-row argument is.
    """
    rows = byte_rows(key, name, widths)
    is_one = isinstance(key, BYTES_LIKE) or getattr(key, "ndim", 2) == 1
    return rows[0] if is_one or rows.shape[0] == 1 else rows


def batch_size(**counts: int) -> int:
    """The batch's N: every argument has N rows or one row (broadcast to all)."""
    sizes = {c for c in counts.values() if c != 1}
    if len(sizes) > 1:
        given = ", ".join(f"{k}: {v}" for k, v in counts.items())
        raise ValueError(f"arguments have different numbers of rows ({given}); give each "
                         "argument N rows, or one value for every row")
    return sizes.pop() if sizes else 1


def spread(rows: np.ndarray, n: int) -> np.ndarray:
    """Rows of an argument for a batch of n (one row repeated, or the rows themselves)."""
    return np.broadcast_to(rows, (n, *rows.shape[1:])) if rows.shape[0] == 1 else rows


def key_count(key: np.ndarray) -> int:
    """Rows a key covers for batch_size: 1 for one key, N for a key array."""
    return 1 if key.ndim == 1 else key.shape[0]


def unpack_nibbles(data: np.ndarray) -> np.ndarray:
    """(N, k) uint8 -> (N, 2k) uint8 nibbles, high nibble first."""
    out = np.empty((data.shape[0], 2 * data.shape[1]), np.uint8)
    out[:, 0::2] = data >> 4
    out[:, 1::2] = data & 15
    return out


def decimalize(data: np.ndarray, count: int) -> np.ndarray:
    """Visa's digit extraction from (N, k) bytes: the first ``count`` decimal nibbles left
    to right, then, if too few, the nibbles A-F left to right as 0-5.  (N, count) uint8."""
    out = np.zeros((data.shape[0], count), np.uint8)
    _kernels.decimalize(np.ascontiguousarray(data, np.uint8), out)
    return out


def as_strings(digits: np.ndarray, lengths: np.ndarray | None = None) -> np.ndarray:
    """(N, k) digit values -> N strings (a NumPy U array); row i cut to lengths[i] digits."""
    n, k = digits.shape
    codes = digits.astype(np.uint32) + 48
    if lengths is not None:
        codes[np.arange(k) >= lengths[:, None]] = 0
    return np.ascontiguousarray(codes).view(np.dtype(f"U{max(k, 1)}")).reshape(n) if k \
        else np.full(n, "", "U1")


_NOTHING = np.zeros((1, 1), np.uint8)


def entries(value: np.ndarray | int) -> np.ndarray:
    """One intp entry per row, or one for every row."""
    return np.ascontiguousarray(np.asarray(value, np.intp).reshape(-1))


def join(n: int, width: int, a: np.ndarray, a_start: np.ndarray | int,
         a_len: np.ndarray | int, b: np.ndarray = _NOTHING, b_len: np.ndarray | int = 0,
         c: np.ndarray = _NOTHING, c_len: np.ndarray | int = 0, *,
         lead: np.ndarray | int = 0, fill: int = 0) -> np.ndarray:
    """(n, width) bytes of packed digits: ``lead`` fill nibbles, a[i, a_start:][:a_len],
    b[i, :b_len], c[i, :c_len], fill nibbles to the end.

    Digit arrays have n rows or one (serving every row); starts and lengths
    are per row or one for all, and the caller keeps them inside the rows.
    """
    out = np.empty((n, width), np.uint8)
    if n:
        _kernels.join(entries(lead), np.ascontiguousarray(a), entries(a_start),
                      entries(a_len), np.ascontiguousarray(b), entries(b_len),
                      np.ascontiguousarray(c), entries(c_len), fill, out)
    return out


_LOW_BITS = np.uint64(0x0101010101010101)
_HIGH_BITS = np.uint64(0xFEFEFEFEFEFEFEFE)
_FOLDS = ((np.uint64(4), np.uint64(0x0F0F0F0F0F0F0F0F)),
          (np.uint64(2), np.uint64(0x3333333333333333)),
          (np.uint64(1), np.uint64(0x5555555555555555)))


def odd_parity(keys: np.ndarray) -> np.ndarray:
    """(N, 8k) uint8 keys with each byte's low bit set so that it has odd parity.

    Eight bytes at a time: each byte's upper seven bits fold (xor) into its
    low bit, within the byte, and the parity bit is the complement of that.
    """
    words = np.ascontiguousarray(keys).view(np.uint64)
    upper = words & _HIGH_BITS
    folded = upper.copy()
    for shift, mask in _FOLDS:
        folded ^= (folded >> shift) & mask
    return (upper | ((folded & _LOW_BITS) ^ _LOW_BITS)).view(np.uint8).reshape(keys.shape)
