"""Input checks and conversions shared by the cipher objects.

Everything is validated here before any kernel runs, so bad input raises a
clear ``TypeError``/``ValueError`` and ``out=`` is never half-written.

Kernels see 1-D uint64 *words*.  For byte input (and big-endian uint64
arrays) a word's memory holds the 8 block bytes, so on a little-endian
machine the word is the block value byte-swapped (``swap=True``); a native
uint64 array holds block values directly (``swap=False``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

_LITTLE = sys.byteorder == "little"


@dataclass
class Data:
    """A validated input: its memory as contiguous bytes, plus how to give back the result."""

    raw: np.ndarray  # 1-D uint8 over the input's memory (a copy if it was not contiguous)
    swap: bool  # words of raw are block values byte-swapped
    kind: str  # "bytes", "bytearray", "memoryview", "array"
    template: Any  # the original array (shape, dtype) when kind == "array"

    @property
    def nbytes(self) -> int:
        return self.raw.size

    @property
    def is_words(self) -> bool:
        """A uint64 array: whole blocks by construction, no byte-level view."""
        return self.kind == "array" and self.template.dtype.itemsize == 8

    def words(self) -> np.ndarray:
        """The whole input as uint64 words (length must be a multiple of 8)."""
        return aligned_words(self.raw)

    def block_bytes(self) -> np.ndarray:
        """The blocks' bytes in FIPS order (a copy for native uint64 arrays)."""
        if self.swap == _LITTLE:  # memory already holds block bytes
            return self.raw
        return self.raw.view(self.template.dtype).astype(">u8").view(np.uint8)


def aligned_words(raw: np.ndarray) -> np.ndarray:
    """uint64 view of a uint8 array whose length is a multiple of 8 (copied if misaligned).

    Misaligned views would compile (and cache) a second version of every
    kernel; a copy is cheaper.
    """
    words = raw.view(np.uint64)
    return words if words.flags.aligned else raw.copy().view(np.uint64)


def as_data(data: Any) -> Data:
    """Check the type of ``data`` and view its memory as bytes."""
    if isinstance(data, np.ndarray):
        if data.dtype == np.uint8:
            return Data(np.ascontiguousarray(data).reshape(-1), _LITTLE, "array", data)
        if data.dtype.kind == "u" and data.dtype.itemsize == 8:
            raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
            return Data(raw, not data.dtype.isnative, "array", data)
        raise TypeError(
            f"unsupported array dtype {data.dtype}: use uint8 (raw bytes) "
            "or uint64 (one big-endian block per element)"
        )
    if isinstance(data, (bytes, bytearray, memoryview)):
        mv = memoryview(data)
        raw = np.frombuffer(mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv,
                            dtype=np.uint8)
        if not raw.flags.c_contiguous:
            raw = np.ascontiguousarray(raw)
        kind = "memoryview" if isinstance(data, memoryview) else type(data).__name__
        return Data(raw, _LITTLE, kind, None)
    raise TypeError(
        f"data must be bytes, bytearray, memoryview or a uint8/uint64 NumPy array, "
        f"not {type(data).__name__}"
    )


def require_whole_blocks(data: Data, why: str) -> None:
    if data.nbytes % 8:
        raise ValueError(f"data is {data.nbytes} bytes, not a multiple of the 8-byte block ({why})")


def writable_bytes(out: Any, name: str = "out") -> np.ndarray:
    """``out`` as a writable 1-D uint8 view of its memory, or a clear error."""
    if isinstance(out, np.ndarray):
        arr = out
        if arr.dtype != np.uint8 and not (arr.dtype.kind == "u" and arr.dtype.itemsize == 8):
            raise TypeError(f"unsupported {name} dtype {arr.dtype}: use uint8 or uint64")
    elif isinstance(out, (bytearray, memoryview)):
        mv = memoryview(out)
        if mv.readonly:
            raise TypeError(f"{name} is read-only")
        if not mv.c_contiguous:
            raise ValueError(f"{name} must be C-contiguous")
        arr = np.frombuffer(mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv,
                            dtype=np.uint8)
    else:
        raise TypeError(
            f"{name} must be a writable buffer or NumPy array, not {type(out).__name__}"
        )
    if not arr.flags.writeable:
        raise TypeError(f"{name} is read-only")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    return arr.reshape(-1).view(np.uint8)


def output(data: Data, nbytes: int, out: Any) -> tuple[np.ndarray, Any]:
    """Destination bytes of the result (``nbytes`` long) and the object to return.

    Without ``out`` a fresh result of the input's kind is made: the input's
    shape and dtype when the size is unchanged, else 1-D.
    """
    if out is None:
        if data.kind == "array":
            if nbytes == data.nbytes:
                result = np.empty_like(data.template, order="C")
            else:
                result = np.empty(nbytes // data.template.dtype.itemsize, data.template.dtype)
            return result.reshape(-1).view(np.uint8), result
        return np.empty(nbytes, dtype=np.uint8), None
    arr = writable_bytes(out)
    if arr.size != nbytes:
        raise ValueError(f"out holds {arr.size} bytes, the result needs {nbytes}")
    return arr, out


def finish(data: Data, dst: np.ndarray, result: Any, out: Any) -> Any:
    """The return value: the input's type (or ``out``)."""
    if out is not None:
        return out
    if data.kind == "array":
        return result
    if data.kind == "bytearray":
        return bytearray(dst.data)
    if data.kind == "memoryview":
        return memoryview(dst.tobytes())
    return dst.tobytes()
