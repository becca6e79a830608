"""Lists of str in and out in bulk: one join and one encode, then NumPy over all rows.

A batch of passwords or crypt(3) settings arrives as a Python list of str;
converting it string by string in Python (``encode``, slicing, padding)
cost three times as long as hashing it.  Here the whole list is joined with
NUL separators and encoded once (C loops inside CPython), and every row's
bytes are found and cut with NumPy.  The way back is the same in reverse:
rows of ASCII characters become one str, split once.

NUL is the separator because crypt(3) refuses it in passwords and settings:
a list holding one (or anything but str, or a lone surrogate, which UTF-8
cannot encode) is not packed, and the caller takes its one-by-one path,
which names the row at fault.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

#: ``_TOP_BYTES[k]``: the k most significant bytes of a 64-bit word set, k = 0..8.
_TOP_BYTES = np.array([((1 << 64) - 1) ^ ((1 << (64 - 8 * k)) - 1) for k in range(9)],
                      dtype=np.uint64)
#: Zero bytes after the last string: a window of 8 bytes from any start reads zeros past it.
_SPARE = 8


class Packed(NamedTuple):
    """The UTF-8 bytes of n strings, each followed by a NUL, and where each starts."""

    raw: bytes  # the strings' bytes joined with NULs, then a NUL and 8 spare zero bytes
    data: np.ndarray  # raw as a (read-only) uint8 array
    starts: np.ndarray  # (n,) int64: offset of string i in data
    lengths: np.ndarray  # (n,) int64: its length in bytes

    def window(self, start: int = 0) -> np.ndarray:
        """(n, 8) uint8: bytes ``start .. start + 7`` of each string, zero past its end.

        One gather of 64-bit words: ``data`` seen as the big-endian word at
        every byte offset (a stride of one byte), masked to each string's end.
        """
        words = np.ndarray((self.data.shape[0] - 7,), dtype=">u8", buffer=self.data, strides=(1,))
        at = np.minimum(self.starts + start, words.shape[0] - 1)  # past the end: masked
        values = words[at].astype(np.uint64) & _TOP_BYTES[np.clip(self.lengths - start, 0, 8)]
        return values.astype(">u8").view(np.uint8).reshape(-1, 8)

    def ascii(self) -> bool:
        """Whether every byte is ASCII (every string only code points below 128)."""
        return not self.data.size or int(self.data.max()) < 0x80

    def bytes_list(self) -> list[bytes]:
        """Each string's UTF-8 bytes, as a list."""
        return self.raw[:-1 - _SPARE].split(b"\0")

    def padded(self) -> np.ndarray:
        """(n,) NumPy ``S`` array of the strings' bytes, NUL-padded to the longest."""
        n = self.starts.shape[0]
        width = max(1, int(self.lengths.max(initial=0)))
        if (self.lengths == width).all():  # every string as long: the bytes as they are
            rows = self.data[:n * (width + 1)].reshape(n, width + 1)[:, :width]
        else:
            rows = self.data[np.minimum(self.starts[:, None] + np.arange(width),
                                        self.data.shape[0] - 1)]
            rows[np.arange(width) >= self.lengths[:, None]] = 0
        return np.ascontiguousarray(rows).view(f"S{width}").reshape(n)


def pack(strings: Sequence[object]) -> Packed | None:
    """The strings UTF-8 encoded in one buffer; None unless every item is a str without NUL.

    (Nor for a lone surrogate, which has no UTF-8 form; nor for no strings.)
    """
    n = len(strings)
    if n == 0:
        return None
    try:
        text = "\0".join(strings)  # type: ignore[arg-type]
        data = (text + "\0" * (1 + _SPARE)).encode("utf-8")
    except (TypeError, UnicodeEncodeError):
        return None
    size = len(data) - 1 - _SPARE
    buffer = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buffer[:size + 1] == 0)
    if ends.shape[0] != n:  # a NUL inside a string
        return None
    starts = np.empty(n, dtype=np.int64)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    return Packed(data, buffer, starts, ends - starts)


def strings(chars: np.ndarray) -> list[str]:
    """Rows of a (n, width) uint8 array of ASCII characters as str, each cut at its NULs.

    The rows may not hold a newline (the separator); NULs are dropped (a
    row's padding).
    """
    n, width = chars.shape
    if n == 0:
        return []
    lines = np.empty((n, width + 1), dtype=np.uint8)
    lines[:, :width] = chars
    lines[:, width] = ord("\n")
    flat = lines.reshape(-1)[:-1]
    if not chars.all():
        flat = flat[flat != 0]
    return str(memoryview(flat), "ascii").split("\n")
