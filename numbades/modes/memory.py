"""What flat buffers and 2-D rows share: plain arrays, byte order, writable views of memory.

Kernels see uint64 *words*.  A word read from memory that holds a block's
8 bytes (byte input, big-endian uint64 arrays) is the block value
byte-swapped on a little-endian machine (``swap=LITTLE``); a native uint64
array holds block values directly (``swap=False``).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

#: Words read from block bytes are byte-swapped block values (``swap`` for byte input).
LITTLE = sys.byteorder == "little"

#: ndarray subclasses whose elements or shape mean something the bytes do not.
_REFUSED_SUBCLASSES = (np.matrix, np.ma.MaskedArray)


def plain_array(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` as a base-class ``ndarray`` view, or ``TypeError`` for refused subclasses.

    Subclass methods (``reshape`` keeping ``np.matrix`` 2-D, masked values)
    would otherwise change what a "flat view" is under the kernels' feet.
    """
    if type(arr) is np.ndarray:
        return arr
    if isinstance(arr, _REFUSED_SUBCLASSES):
        kind = "np.matrix" if isinstance(arr, np.matrix) else "a masked array"
        hint = "np.asarray(x)" if isinstance(arr, np.matrix) else "x.filled(...)"
        raise TypeError(
            f"{name} is {kind}, which numbades does not take: pass {hint} (a plain ndarray)"
        )
    return arr.view(np.ndarray)


def is_u64(dtype: np.dtype) -> bool:
    """A 64-bit unsigned dtype of either byte order (one block per element)."""
    return dtype.kind == "u" and dtype.itemsize == 8


def swap_of(dtype: np.dtype) -> bool:
    """``swap`` for words over an array of ``dtype`` (uint8 or uint64 of either order)."""
    return LITTLE if dtype.itemsize == 1 else not dtype.isnative


def buffer_bytes(mv: memoryview) -> np.ndarray:
    """A memoryview's bytes as a 1-D uint8 array: a view when contiguous, else a copy."""
    if not mv.c_contiguous:
        return np.frombuffer(mv.tobytes(), dtype=np.uint8)
    return np.frombuffer(mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv,
                         dtype=np.uint8)


def writable_array(arr: np.ndarray, name: str) -> np.ndarray:
    """A plain ``arr`` that a kernel may write: ``TypeError`` if read-only, ``ValueError`` if strided."""
    if not arr.flags.writeable:
        raise TypeError(f"{name} is read-only")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    return arr


def writable_bytes(out: Any, name: str = "out") -> np.ndarray:
    """``out`` as a writable 1-D uint8 view of its memory, or a clear error.

    Takes a uint8 or uint64 array (of any plain subclass) or any object with
    a writable, C-contiguous buffer (bytearray, memoryview, ``array.array``).
    """
    if isinstance(out, np.ndarray):
        arr = plain_array(out, name)
        if arr.dtype != np.uint8 and not is_u64(arr.dtype):
            raise TypeError(f"unsupported {name} dtype {arr.dtype}: use uint8 or uint64")
    elif isinstance(out, bytes):
        raise TypeError(f"{name} is bytes, which is read-only: use a bytearray or an array")
    else:
        try:
            mv = memoryview(out)
        except TypeError:
            raise TypeError(
                f"{name} must be a NumPy array or an object with a writable buffer "
                f"(bytearray, memoryview, array.array), not {type(out).__name__}"
            ) from None
        if mv.readonly:
            raise TypeError(f"{name} is read-only")
        if not mv.c_contiguous:
            raise ValueError(f"{name} must be C-contiguous")
        arr = buffer_bytes(mv)
    return writable_array(arr, name).reshape(-1).view(np.uint8)


def same_memory(a: np.ndarray, b: np.ndarray) -> bool:
    """Two contiguous arrays over exactly the same bytes (an in-place call)."""
    return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and a.nbytes == b.nbytes)


def partly_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """``a`` and ``b`` may share memory without being the same bytes: a result needs scratch."""
    return bool(np.may_share_memory(a, b)) and not same_memory(a, b)
