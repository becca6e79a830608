"""2-D rows: many messages in one call (``encrypt_many``, key arrays), their IVs and ``out=``.

Row i is one message: under IV i (``encrypt_many``), or under key i (key
arrays, which also take one message for every key).  Everything is checked
here before any kernel runs, as ``buffers`` does for one flat message: the
kernels get (rows, blocks) C-contiguous uint64 words, the IVs as block
values, and a destination that never partly overlaps the input (scratch,
copied at the end, when ``out`` does).
"""

from __future__ import annotations

import mmap
from dataclasses import dataclass
from typing import Any

import numpy as np

from .memory import buffer_bytes, is_u64, partly_overlap, plain_array, swap_of, writable_array


@dataclass
class Rows:
    """Checked rows: one message per row, or one message for every row.

    ``words`` is the (rows, blocks) uint64 array the kernels read (a view of
    the input, or a zero-padded copy when rows end in a partial block), or
    None when one ``message`` (a private (blocks,) copy) is broadcast.
    """

    words: np.ndarray | None
    message: np.ndarray | None
    swap: bool
    shape: tuple[int, ...]  # the result's
    dtype: np.dtype  # the result's
    row_bytes: int  # bytes of each result row (the last block may be partial)

    @property
    def blocks(self) -> int:
        return -(-self.row_bytes // 8)


def _checked_dtype(arr: np.ndarray) -> np.dtype:
    if arr.dtype != np.uint8 and not is_u64(arr.dtype):
        raise TypeError(
            f"unsupported data dtype {arr.dtype}: use uint8 (raw bytes) "
            "or uint64 (one big-endian block per element)"
        )
    return arr.dtype


def _whole_rows(arr: np.ndarray) -> Rows:
    """A 2-D uint8/uint64 array whose rows are whole blocks, as (rows, blocks) words."""
    row_bytes = arr.shape[1] * arr.dtype.itemsize
    words = np.ascontiguousarray(arr).view(np.uint8).reshape(arr.shape[0], row_bytes)
    return Rows(words.view(np.uint64), None, swap_of(arr.dtype), arr.shape, arr.dtype, row_bytes)


def messages(data: Any) -> Rows:
    """``encrypt_many``'s data: a 2-D uint8 (messages, bytes) or uint64 (messages, blocks) array."""
    if not isinstance(data, np.ndarray):
        raise TypeError("data must be a 2-D uint8 or uint64 NumPy array, "
                        f"not {type(data).__name__}")
    arr = plain_array(data, "data")
    _checked_dtype(arr)
    if arr.ndim != 2:
        raise ValueError(f"data must be 2-D (messages, bytes or blocks), got {arr.ndim}-D")
    if arr.dtype == np.uint8 and arr.shape[1] % 8:
        raise ValueError(
            f"each message is {arr.shape[1]} bytes, not a multiple of the 8-byte block"
        )
    return _whole_rows(arr)


def key_rows(data: Any, rows: int, whole_blocks: bool, mode: str) -> Rows:
    """Data of a key-array call with ``rows`` keys.

    uint8 (rows, n) arrays are one message per key; bytes-like input, uint8
    (n,) and (1, n) arrays one message for every key (result (rows, n));
    uint64 (rows,) arrays one block per key, (rows, b) one message per key
    and (1, b) one message for every key.  ``whole_blocks``: ``mode``
    takes only whole blocks.
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        arr = buffer_bytes(memoryview(data))
    elif isinstance(data, np.ndarray):
        arr = plain_array(data, "data")
    else:
        raise TypeError(
            "data must be a uint8/uint64 NumPy array or bytes-like (one message for every "
            f"key), not {type(data).__name__}"
        )
    dtype = _checked_dtype(arr)
    if arr.ndim not in (1, 2):
        raise ValueError(f"data must be 1-D or 2-D (rows, bytes or blocks), got {arr.ndim}-D")
    if arr.ndim == 1 and dtype.itemsize == 8:  # one block per key
        if arr.shape[0] != rows:
            raise ValueError(
                f"a 1-D uint64 data array holds one block per key: shape ({rows},) for "
                f"{rows} keys, got {arr.shape} (one message for every key: shape (1, blocks))"
            )
        words = np.ascontiguousarray(arr).view(np.uint64).reshape(rows, 1)
        return Rows(words, None, swap_of(dtype), (rows,), dtype, 8)
    broadcast = arr.ndim == 1 or (arr.shape[0] == 1 and rows != 1)
    if not broadcast and arr.shape[0] != rows:
        raise ValueError(f"data has {arr.shape[0]} rows for {rows} keys (one message per key)")
    row_bytes = arr.shape[-1] * dtype.itemsize
    if whole_blocks and row_bytes % 8:
        raise ValueError(
            f"each message is {row_bytes} bytes, not a multiple of the 8-byte block "
            f"({mode} takes whole blocks)"
        )
    if broadcast:
        own = np.zeros(8 * -(-row_bytes // 8), dtype=np.uint8)
        own[:row_bytes] = arr.reshape(-1).view(np.uint8)
        return Rows(None, own.view(np.uint64), swap_of(dtype), (rows, arr.shape[-1]), dtype,
                    row_bytes)
    if row_bytes % 8 == 0:
        return _whole_rows(arr)
    padded = np.zeros((rows, 8 * -(-row_bytes // 8)), dtype=np.uint8)  # partial last block
    padded[:, :row_bytes] = arr
    return Rows(padded.view(np.uint64), None, swap_of(dtype), arr.shape, dtype, row_bytes)


#: Below this many words ``np.zeros`` is as cheap as fresh pages.
_SMALL_WORDS = 1 << 12


def _zero_words(m: int) -> np.ndarray:
    """``m`` zero uint64 words, writable; ECB's IVs, which the kernels carry but never read.

    Large ones are fresh anonymous pages, zero without being written: from
    the heap, ``np.zeros`` wrote every word (a million keys' ECB spent 8% of
    its time there, and evicted the inputs from the caches).
    """
    if m < _SMALL_WORDS:
        return np.zeros(m, dtype=np.uint64)
    return np.frombuffer(mmap.mmap(-1, 8 * m), dtype=np.uint64)


def ivs(mode: str, ivs: Any, m: int) -> np.ndarray:
    """One IV per row (message or key) as block values, shape (m,); zeros for ECB."""
    if mode == "ecb":
        if ivs is not None:
            raise ValueError("ECB takes no ivs")
        return _zero_words(m)
    if ivs is None:
        raise ValueError(f"mode {mode!r} needs ivs: one 8-byte IV per message")
    if not isinstance(ivs, np.ndarray):
        raise TypeError(f"ivs must be a uint8 (m, 8) or uint64 (m,) array, not {type(ivs).__name__}")
    ivs = plain_array(ivs, "ivs")
    if ivs.dtype == np.uint8:
        if ivs.shape != (m, 8):
            raise ValueError(f"ivs must have shape ({m}, 8) for {m} messages, got {ivs.shape}")
        return np.ascontiguousarray(ivs).view(">u8").reshape(m).astype(np.uint64)
    if is_u64(ivs.dtype):
        if ivs.shape != (m,):
            raise ValueError(f"ivs must have shape ({m},) for {m} messages, got {ivs.shape}")
        return ivs.astype(np.uint64)
    raise TypeError(f"unsupported ivs dtype {ivs.dtype}: use uint8 (m, 8) or uint64 (m,)")


@dataclass
class Destination:
    """Where a rows kernel writes, what the call returns, and what is left to copy."""

    words: np.ndarray  # (rows, blocks) uint64, C-contiguous: where the kernels write
    result: np.ndarray  # returned (out, or a new array)
    target: np.ndarray | None  # result's bytes as (rows, row_bytes) when words is scratch

    def source(self, rows: Rows) -> np.ndarray:
        """What the kernel reads: the rows, or the one message copied into ``words`` (in place)."""
        if rows.words is not None:
            return rows.words
        self.words[:] = rows.message
        return self.words

    def finish(self) -> np.ndarray:
        """Copy scratch into ``out`` if one was used; the result."""
        if self.target is not None:
            self.target[:] = self.words.view(np.uint8)[:, :self.target.shape[1]]
        return self.result


def output(rows: Rows, out: Any) -> Destination:
    """The destination of a rows result, ``out`` checked (``TypeError``/``ValueError``).

    ``out`` is an array of the result's dtype (``TypeError`` otherwise: a
    uint64 array of the other byte order would hold other values) and
    shape.  Scratch is used (and copied at the end) when rows end in a
    partial block, or when ``out`` overlaps the input without being it.
    """
    n = rows.shape[0]
    if out is None:
        result = np.empty(rows.shape, rows.dtype)
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a NumPy array, not {type(out).__name__}")
        plain = plain_array(out, "out")
        if plain.dtype != rows.dtype:
            raise TypeError(
                f"out (dtype {plain.dtype.str}) must have the result's dtype {rows.dtype.str}"
            )
        if plain.shape != rows.shape:
            raise ValueError(f"out must have the result's shape {rows.shape}, got {plain.shape}")
        writable_array(plain, "out")
        result = out
    target = plain_array(result, "out").view(np.uint8).reshape(n, rows.row_bytes)
    whole = rows.row_bytes % 8 == 0
    if whole and (rows.words is None or not partly_overlap(target, rows.words)):
        return Destination(target.view(np.uint64), result, None)
    if rows.words is not None and not whole and not np.may_share_memory(rows.words, target):
        return Destination(rows.words, result, target)  # the padded copy is ours
    return Destination(np.empty((n, rows.blocks), dtype=np.uint64), result, target)
