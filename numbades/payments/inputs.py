"""Argument checks of ``numbades.payments``: keys, byte rows, digit strings, batch sizes.

One module for every payment job (DUKPT, PIN blocks, cards, EMV), one error
style: every check runs on the whole batch before any cipher does, a refusal
is a ``TypeError`` (wrong type) or a ``ValueError`` (wrong shape, length or
value), and a refusal about rows names the rows (``rows 1, 4 and 7 more``),
never their values: PINs and PANs stay out of messages.

Binary values (keys, KSNs, PIN blocks, ATCs, data rows, cryptograms) are
bytes-like (a batch of one), a sequence of bytes-like (one per row) or a
``uint8`` array of shape ``(width,)`` (one) or ``(N, width)``; they leave as
``(N, width)`` arrays.  Digit strings (PANs, PINs, expiry dates, ...) are one
``str``, a sequence of ``str``, a 1-D NumPy ``U``/``S`` array, or a digit
array: integers 0-9 of shape ``(N, L)`` (a value a row; ``(1, L)`` serves
every row), a row shorter than ``L`` ending in ``-1`` padding (a 1-D
integer array is refused: it may hold numbers, not digits); they leave as an
``(N, max_len)`` ``uint8`` array of digit values (0 past each row's end)
with an ``(N,)`` array of lengths, never as Python strings.  An argument
of one row serves every row of the batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _kernels

BYTES_LIKE = (bytes, bytearray, memoryview)
#: Rows named in a refusal before "and N more".
_SHOWN = 5


def rows_named(bad: np.ndarray) -> str:
    """``"row 3"``, ``"rows 1, 4"`` or ``"rows 1, 2, 3, 4, 5 and 7 more"``: a mask or indices."""
    rows = np.flatnonzero(bad) if bad.dtype == np.bool_ else np.asarray(bad)
    shown = ", ".join(str(int(r)) for r in rows[:_SHOWN])
    more = f" and {rows.size - _SHOWN} more" if rows.size > _SHOWN else ""
    return f"row{'s' if rows.size > 1 else ''} {shown}{more}"


def refuse_rows(bad: np.ndarray, message: str) -> None:
    """``ValueError("message: rows ...")`` if the boolean mask ``bad`` has any row set."""
    if bad.any():
        raise ValueError(f"{message}: {rows_named(bad)}")


def _joined(value: list | tuple, name: str) -> np.ndarray:
    """A sequence of bytes-like rows of one length -> (N, width) uint8."""
    sizes = {memoryview(v).nbytes for v in value}
    if len(sizes) > 1:
        raise ValueError(f"{name}: every row must have one length, got {sorted(sizes)}")
    return np.frombuffer(b"".join(bytes(v) for v in value), np.uint8).reshape(
        len(value), sizes.pop() if sizes else 0)


def byte_rows(value: Any, name: str, widths: tuple[int, ...]) -> np.ndarray:
    """(N, width) uint8 rows, ``width`` one of ``widths`` (any width if empty).

    Bytes-like or a (width,) array is a batch of one.
    """
    if isinstance(value, BYTES_LIKE):
        value = np.frombuffer(bytes(value), np.uint8)
    elif isinstance(value, (list, tuple)) and all(isinstance(v, BYTES_LIKE) for v in value):
        value = _joined(value, name)
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be bytes-like or a uint8 NumPy array, "
                        f"not {type(value).__name__}")
    if value.dtype != np.uint8:
        raise TypeError(f"{name} must be a uint8 array, not a {value.dtype} array")
    if value.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D (one value) or 2-D (one per row), "
                         f"got shape {value.shape}")
    rows = value.reshape(1, -1) if value.ndim == 1 else value
    if widths and rows.shape[1] not in widths:
        want = " or ".join(str(w) for w in widths)
        raise ValueError(f"{name} rows are {want} bytes, got {rows.shape[1]} "
                         f"(shape {value.shape})")
    return np.ascontiguousarray(rows)


def key_rows(key: Any, name: str = "key", widths: tuple[int, ...] = (16,)) -> np.ndarray:
    """Keys as (K, width) uint8: K = 1 for one key for the batch, else a key per row."""
    return byte_rows(key, name, widths)


def batch_size(**counts: int) -> int:
    """The batch's N from each argument's row count: every count is N or 1 (one for all)."""
    sizes = {c for c in counts.values() if c != 1}
    if len(sizes) > 1:
        given = ", ".join(f"{k}: {v}" for k, v in counts.items())
        raise ValueError(f"row counts differ ({given}): give each argument N rows, or one "
                         "value for every row")
    return sizes.pop() if sizes else 1


def spread(rows: np.ndarray, n: int) -> np.ndarray:
    """An argument's rows (1 or n) as n rows: a broadcast view for one row."""
    return np.broadcast_to(rows, (n, *rows.shape[1:])) if rows.shape[0] != n else rows


def _from_digit_array(rows: np.ndarray, name: str) -> np.ndarray:
    """An ``(N, L)`` integer array of digits (a value a row) as an ``S<L>`` array.

    Each row holds the values 0-9, then ``-1`` padding if it is shorter
    than ``L``.  The characters are ``'0'``-``'9'``, padding becomes NUL (a
    string's end), and anything else becomes a character that is no digit,
    so the string checks refuse that row by number as for any other bad
    string (a ``-1`` inside a row is a NUL inside a string: refused too).
    """
    if rows.shape[1] == 0:
        return np.zeros(rows.shape[0], "S1")
    valid = (rows >= 0) & (rows <= 9)
    pad = rows == -1 if rows.dtype.kind == "i" else np.zeros(rows.shape, np.bool_)
    chars = np.where(valid, rows + 48, np.where(pad, 0, 255)).astype(np.uint8)
    return np.ascontiguousarray(chars).view(f"S{rows.shape[1]}").reshape(-1)


def _strings(values: Any, name: str) -> np.ndarray:
    """A C-contiguous 1-D U or S array of the values (one str is a batch of one)."""
    if isinstance(values, str):
        return np.array([values])
    if isinstance(values, np.ndarray):
        if values.dtype.kind in "iu" and values.ndim == 2:
            return _from_digit_array(values, name)
        if values.dtype.kind not in "US":  # a 1-D integer array may be numbers: refused
            raise TypeError(f"{name} must be str, a NumPy U/S array of decimal digits or a "
                            f"2-D integer array of digits 0-9 (a row per value), not a "
                            f"{values.ndim}-D {values.dtype} array")
        if values.ndim > 1:
            raise ValueError(f"{name} must be one value or a 1-D array, got shape "
                             f"{values.shape}")
        return np.ascontiguousarray(values.reshape(-1))
    if isinstance(values, BYTES_LIKE):
        raise TypeError(f"{name} must be str (decimal digits), not {type(values).__name__}")
    if isinstance(values, (list, tuple)):
        wrong = np.array([not isinstance(v, str) for v in values], np.bool_)
        if wrong.any():
            raise TypeError(f"{name} must hold str values; {rows_named(wrong)} "
                            f"{'are' if wrong.sum() > 1 else 'is'} not str")
        return np.array(values, dtype=str) if values else np.zeros(0, "U1")
    raise TypeError(f"{name} must be str, a sequence of str, a NumPy U/S array or an "
                    f"integer array of digits, not {type(values).__name__}")


def codes(values: Any, name: str) -> np.ndarray:
    """Digit strings as their NUL-padded character codes: (N, W) uint32 (U) or uint8 (S).

    Only the type is checked here; ``check_digits`` checks what a kernel
    read from these codes.
    """
    strings = _strings(values, name)
    code = np.uint32 if strings.dtype.kind == "U" else np.uint8
    width = strings.dtype.itemsize // np.dtype(code).itemsize
    n = strings.shape[0]
    return strings.view(code).reshape(n, width) if width else np.zeros((n, 1), code)


def check_digits(lengths: np.ndarray, bad: np.ndarray, name: str, min_len: int,
                 max_len: int) -> None:
    """Refuse (``ValueError`` naming the rows) lengths outside min_len..max_len, then rows
    holding anything but the digits 0-9 (``bad``)."""
    want = f"{min_len}" if min_len == max_len else f"{min_len} to {max_len}"
    if lengths.size and (lengths.min() < min_len or lengths.max() > max_len):  # two reductions
        refuse_rows((lengths < min_len) | (lengths > max_len), f"{name} must be {want} digits")
    refuse_rows(bad, f"{name} must hold only the digits 0-9")


def check_read(chars: np.ndarray, lengths: np.ndarray, bad: np.ndarray, name: str,
               min_len: int, max_len: int) -> None:
    """``check_digits`` of what a kernel read from ``chars`` (1 or N rows): a one-row
    argument, which served every row, is named as row 0.  In an empty batch no kernel
    ran: the argument itself is checked."""
    rows = chars.shape[0]
    if rows and lengths.size:
        check_digits(lengths[:rows], bad[:rows], name, min_len, max_len)
    elif rows:
        digits_from(chars, name, min_len, max_len)


def digit_rows(values: Any, name: str, min_len: int, max_len: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Strings of ``min_len``..``max_len`` decimal digits -> ((N, max_len) uint8, (N,) lengths).

    A row's length runs to its last character (NumPy's ``str_len``); digits
    past it are zero.  Wrong lengths, then anything but the digits 0-9
    (an embedded NUL included), are a ``ValueError`` naming the rows.
    """
    return digits_from(codes(values, name), name, min_len, max_len)


def digits_from(chars: np.ndarray, name: str, min_len: int, max_len: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """``digit_rows`` of character codes (as ``codes`` gives them)."""
    n = chars.shape[0]
    digits = np.zeros((n, max_len), np.uint8)
    lengths = np.empty(n, np.intp)
    bad = np.empty(n, np.bool_)
    _kernels.digits_of(chars, max_len, digits, lengths, bad)
    check_digits(lengths, bad, name, min_len, max_len)
    return digits, lengths


def fixed_digits(values: Any, name: str, length: int) -> np.ndarray:
    """(N, length) uint8 digit values of rows that must all be ``length`` digits long."""
    return digit_rows(values, name, length, length)[0]


def choice(value: Any, allowed: tuple, name: str) -> Any:
    """``value`` if it is one of ``allowed`` (no bools for ints); else ``TypeError``/``ValueError``."""
    if isinstance(value, bool) or type(value) not in {type(a) for a in allowed}:
        raise TypeError(f"{name} must be one of {allowed}, not {type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value
