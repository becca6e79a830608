"""Input checks and conversions shared by the cipher objects.

Everything is validated here before any kernel runs, so bad input raises a
clear ``TypeError``/``ValueError`` and ``out=`` is never half-written.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

_LITTLE = sys.byteorder == "little"


@dataclass
class Blocks:
    """A validated input: contiguous raw words plus how to give back the result."""

    words: np.ndarray  # 1-D uint64 view of the input's bytes (a copy if not contiguous)
    swap: bool  # words need a byte swap to read as block values
    kind: str  # "bytes", "bytearray", "memoryview", "array"
    template: Any  # original array (for shape and dtype) when kind == "array"


def as_blocks(data: Any) -> Blocks:
    """Check ``data`` and view it as 8-byte words."""
    if isinstance(data, np.ndarray):
        if data.dtype == np.uint8:
            raw = np.ascontiguousarray(data).reshape(-1)
            if raw.size % 8:
                raise ValueError(f"data is {raw.size} bytes, not a multiple of the 8-byte block")
            return Blocks(raw.view(np.uint64), _LITTLE, "array", data)
        if data.dtype.kind == "u" and data.dtype.itemsize == 8:
            native = data.dtype.isnative
            raw = np.ascontiguousarray(data).reshape(-1).view(np.uint64)
            return Blocks(raw, not native, "array", data)
        raise TypeError(
            f"unsupported array dtype {data.dtype}: use uint8 (raw bytes) "
            "or uint64 (one big-endian block per element)"
        )
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = np.frombuffer(memoryview(data).cast("B") if isinstance(data, memoryview) else data,
                            dtype=np.uint8)
        if raw.size % 8:
            raise ValueError(f"data is {raw.size} bytes, not a multiple of the 8-byte block")
        kind = type(data).__name__ if not isinstance(data, memoryview) else "memoryview"
        return Blocks(raw.view(np.uint64), _LITTLE, kind, None)
    raise TypeError(
        f"data must be bytes, bytearray, memoryview or a uint8/uint64 NumPy array, "
        f"not {type(data).__name__}"
    )


def output_words(blocks: Blocks, out: Any) -> tuple[np.ndarray, Any]:
    """Destination words and the object to return, validating ``out=``."""
    n = blocks.words.size
    if out is None:
        if blocks.kind == "array":
            result = np.empty_like(blocks.template, order="C")
            return result.reshape(-1).view(np.uint64), result
        buf = np.empty(n, dtype=np.uint64)
        return buf, None
    if isinstance(out, np.ndarray):
        arr = out
    elif isinstance(out, (bytearray, memoryview)):
        mv = memoryview(out)
        if mv.readonly:
            raise TypeError("out is read-only")
        arr = np.frombuffer(mv.cast("B") if mv.format != "B" else mv, dtype=np.uint8)
    else:
        raise TypeError(f"out must be a writable buffer or NumPy array, not {type(out).__name__}")
    if not arr.flags.writeable:
        raise TypeError("out is read-only")
    if not arr.flags.c_contiguous:
        raise ValueError("out must be C-contiguous")
    if arr.nbytes != 8 * n:
        raise ValueError(f"out holds {arr.nbytes} bytes, the result needs {8 * n}")
    if arr.dtype != np.uint8 and not (arr.dtype.kind == "u" and arr.dtype.itemsize == 8):
        raise TypeError(f"unsupported out dtype {arr.dtype}")
    return arr.reshape(-1).view(np.uint64), out


def finish(blocks: Blocks, dst: np.ndarray, result: Any, out: Any) -> Any:
    """The return value: the input's type, shape and dtype (or ``out``)."""
    if out is not None:
        return out
    if blocks.kind == "array":
        return result
    data = dst.view(np.uint8).tobytes()
    if blocks.kind == "bytearray":
        return bytearray(data)
    if blocks.kind == "memoryview":
        return memoryview(data)
    return data
