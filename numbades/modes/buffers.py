"""Input checks and conversions shared by the cipher objects: the one place input is normalised.

Everything is validated here before any kernel runs, so bad input raises a
clear ``TypeError``/``ValueError`` and ``out=`` is never half-written.  The
kernels are unchecked: they trust that what they get is a 1-D, C-contiguous
array of exactly the length they are told, so every rule that protects them
lives in this module:

- NumPy subclasses are viewed as plain ``ndarray`` before anything else
  (``np.memmap`` and other plain subclasses work exactly like the base
  class); ``np.matrix`` and masked arrays, whose shapes or values do not mean
  what the bytes mean, are refused.
- ``out=`` that overlaps the input without being exactly the input (in
  place) is served through a scratch buffer, then copied.
- ``out=`` has the result's representation: the input's dtype (byte order
  included) for arrays, raw bytes for byte input.

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


@dataclass
class Data:
    """A validated input: its memory as contiguous bytes, plus how to give back the result."""

    raw: np.ndarray  # 1-D uint8 over the input's memory (a copy if it was not contiguous)
    swap: bool  # words of raw are block values byte-swapped
    kind: str  # "bytes", "bytearray", "memoryview", "array"
    template: Any  # the input as a plain ndarray (shape, dtype) when kind == "array"

    @property
    def nbytes(self) -> int:
        return self.raw.size

    @property
    def is_words(self) -> bool:
        """A uint64 array: whole blocks by construction, no byte-level view."""
        return self.kind == "array" and self.template.dtype.itemsize == 8

    def block_bytes(self) -> np.ndarray:
        """The blocks' bytes in FIPS order (a copy for native uint64 arrays)."""
        if self.swap == _LITTLE:  # memory already holds block bytes
            return self.raw
        return self.raw.view(self.template.dtype).astype(">u8").view(np.uint8)


def _buffer_bytes(mv: memoryview) -> np.ndarray:
    """A memoryview's bytes as a 1-D uint8 array: a view when contiguous, else a copy."""
    if not mv.c_contiguous:
        return np.frombuffer(mv.tobytes(), dtype=np.uint8)
    return np.frombuffer(mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv,
                         dtype=np.uint8)


def as_data(data: Any) -> Data:
    """Check the type of ``data`` and view its memory as bytes."""
    if isinstance(data, np.ndarray):
        arr = plain_array(data, "data")
        if arr.dtype == np.uint8:
            return Data(np.ascontiguousarray(arr).reshape(-1), _LITTLE, "array", arr)
        if is_u64(arr.dtype):
            raw = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
            return Data(raw, not arr.dtype.isnative, "array", arr)
        raise TypeError(
            f"unsupported array dtype {arr.dtype}: use uint8 (raw bytes) "
            "or uint64 (one big-endian block per element)"
        )
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = _buffer_bytes(memoryview(data))
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
        arr = _buffer_bytes(mv)
    if not arr.flags.writeable:
        raise TypeError(f"{name} is read-only")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    return arr.reshape(-1).view(np.uint8)


def check_out_kind(data: Data, out: Any) -> None:
    """``out`` must hold the result in the input's representation (``TypeError`` if not).

    A uint64 input needs a uint64 ``out`` of the same byte order (another
    order would hold every block value byte-swapped); byte input needs byte
    output (a uint8 array or a byte buffer).
    """
    if data.is_words:
        if not isinstance(out, np.ndarray) or out.dtype != data.template.dtype:
            what = f"dtype {out.dtype.str}" if isinstance(out, np.ndarray) else type(out).__name__
            raise TypeError(
                f"out ({what}) must be a uint64 array of the data's dtype "
                f"{data.template.dtype.str}: blocks of another byte order or kind would "
                "hold different values"
            )
    elif isinstance(out, np.ndarray) and out.dtype != np.uint8:
        raise TypeError(
            f"out (dtype {out.dtype.str}) must hold bytes for byte input: "
            "use a uint8 array or a byte buffer"
        )


def read_only(src: np.ndarray) -> np.ndarray:
    """``src`` as a read-only view: how every kernel receives its input.

    Numba compiles one version of a kernel per argument type, and a
    read-only array (the view of a ``bytes`` input) is another type than a
    writable one.  Handing every input over read-only gives each kernel one
    signature, so it compiles (and loads from the cache) once, whatever the
    input kind.  Kernels never write their input, and read-only does not let
    Numba assume it does not alias the output, so in-place calls stay right.
    """
    if not src.flags.writeable:
        return src
    view = src.view()
    view.flags.writeable = False
    return view


def same_memory(a: np.ndarray, b: np.ndarray) -> bool:
    """Two 1-D contiguous arrays over exactly the same bytes (an in-place call)."""
    return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
            and a.nbytes == b.nbytes)


@dataclass
class Destination:
    """Where a kernel writes a result, and what the call returns.

    ``bytes`` is what the kernels fill.  When ``out`` partly overlaps the
    input, ``bytes`` is scratch and :meth:`commit` copies it into ``out``,
    so no input byte is overwritten before it has been read.
    """

    bytes: np.ndarray  # 1-D uint8, C-contiguous: where the kernels write
    result: Any  # the new array to return, or out, or None (build from bytes by kind)
    target: np.ndarray | None = None  # out's bytes when ``bytes`` is scratch

    def commit(self) -> None:
        if self.target is not None:
            self.target[:] = self.bytes


#: From this size a ``bytes``/``bytearray`` result is written in place (below it a
#: copy is cheaper than making the object by hand).
IN_PLACE_RESULT_BYTES = 64 * 1024


class _Memory:
    """``__array_interface__`` of raw memory, so NumPy can view it without copying."""

    def __init__(self, address: int, nbytes: int):
        self.__array_interface__ = {
            "data": (address, False), "shape": (nbytes,), "typestr": "|u1", "version": 3}


def _fresh_bytes_object(kind: str, nbytes: int) -> tuple[Any, np.ndarray] | None:
    """A new, uninitialised ``bytes`` or ``bytearray`` and a writable view of its buffer.

    This is how C code builds a ``bytes`` (``PyBytes_FromStringAndSize(NULL,
    n)``, then fill): the object is new and referenced only here until it is
    returned, so writing it first is safe.  It saves a copy of the whole
    result (and the pages of a second buffer).  None on Pythons other than
    CPython, where the result is copied instead.
    """
    if sys.implementation.name != "cpython":
        return None
    import ctypes

    api = ctypes.pythonapi
    if kind == "bytearray":
        new, as_string = api.PyByteArray_FromStringAndSize, api.PyByteArray_AsString
    else:
        new, as_string = api.PyBytes_FromStringAndSize, api.PyBytes_AsString
    new.restype, new.argtypes = ctypes.py_object, (ctypes.c_void_p, ctypes.c_ssize_t)
    as_string.restype, as_string.argtypes = ctypes.c_void_p, (ctypes.py_object,)
    obj = new(None, nbytes)
    return obj, np.asarray(_Memory(as_string(obj), nbytes))


def output(data: Data, nbytes: int, out: Any) -> Destination:
    """Destination of a result ``nbytes`` long.

    Without ``out`` a fresh result of the input's kind is made: a plain
    ndarray of the input's shape and dtype when the size is unchanged, else
    1-D; for byte input of ``IN_PLACE_RESULT_BYTES`` and up, the final
    ``bytes``/``bytearray`` itself, so the result is never copied.
    """
    if out is None:
        if data.kind == "array":
            if nbytes == data.nbytes:
                result = np.empty(data.template.shape, data.template.dtype)
            else:
                result = np.empty(nbytes // data.template.dtype.itemsize, data.template.dtype)
            return Destination(result.reshape(-1).view(np.uint8), result)
        if nbytes >= IN_PLACE_RESULT_BYTES:
            made = _fresh_bytes_object("bytearray" if data.kind == "bytearray" else "bytes",
                                       nbytes)
            if made is not None:
                obj, view = made
                return Destination(view, memoryview(obj) if data.kind == "memoryview" else obj)
        return Destination(np.empty(nbytes, dtype=np.uint8), None)
    arr = writable_bytes(out)
    check_out_kind(data, out)
    if arr.size != nbytes:
        raise ValueError(f"out holds {arr.size} bytes, the result needs {nbytes}")
    if np.may_share_memory(arr, data.raw) and not same_memory(arr, data.raw):
        return Destination(np.empty(nbytes, dtype=np.uint8), out, arr)
    return Destination(arr, out)


def finish(data: Data, dst: Destination, out: Any) -> Any:
    """Commit the result and return it as the input's type (or ``out``)."""
    dst.commit()
    if out is not None:
        return out
    if dst.result is not None:  # an array, or a bytes-like object written in place
        return dst.result
    if data.kind == "bytearray":
        return bytearray(dst.bytes.data)
    if data.kind == "memoryview":
        return memoryview(dst.bytes.tobytes())
    return dst.bytes.tobytes()


# ------------------------------------------------------------------ key arrays


@dataclass
class Rows:
    """Input of a key-array call: one message per key, or one message for every key.

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


def _padded_words(arr: np.ndarray, blocks: int) -> np.ndarray:
    """uint8 rows (r, n) as (r, blocks) words, zero-padded to whole blocks (a copy if needed)."""
    if arr.shape[1] == 8 * blocks:
        return np.ascontiguousarray(arr).view(np.uint64)
    padded = np.zeros((arr.shape[0], 8 * blocks), dtype=np.uint8)
    padded[:, :arr.shape[1]] = arr
    return padded.view(np.uint64)


def key_rows_data(data: Any, rows: int) -> Rows:
    """Check ``data`` of a key-array call with ``rows`` keys.

    uint8 (rows, n) arrays are one message per key; bytes-like input, uint8
    (n,) and (1, n) arrays one message for every key (result (rows, n));
    uint64 (rows,) arrays one block per key, (rows, b) one message per key
    and (1, b) one message for every key.
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        arr = _buffer_bytes(memoryview(data))
    elif isinstance(data, np.ndarray):
        arr = plain_array(data, "data")
    else:
        raise TypeError(
            "data must be a uint8/uint64 NumPy array or bytes-like (one message for every "
            f"key), not {type(data).__name__}"
        )
    if arr.dtype == np.uint8:
        swap, dtype = _LITTLE, np.dtype(np.uint8)
    elif is_u64(arr.dtype):
        swap, dtype = not arr.dtype.isnative, arr.dtype
    else:
        raise TypeError(
            f"unsupported data dtype {arr.dtype}: use uint8 (raw bytes) "
            "or uint64 (one big-endian block per element)"
        )
    if arr.ndim not in (1, 2):
        raise ValueError(f"data must be 1-D or 2-D (rows, bytes or blocks), got {arr.ndim}-D")
    words_per_item = 1 if dtype.itemsize == 8 else 0
    if arr.ndim == 1 and words_per_item:  # one block per key
        if arr.shape[0] != rows:
            raise ValueError(
                f"a 1-D uint64 data array holds one block per key: shape ({rows},) for "
                f"{rows} keys, got {arr.shape} (one message for every key: shape (1, blocks))"
            )
        return Rows(np.ascontiguousarray(arr).view(np.uint64).reshape(rows, 1), None, swap,
                    (rows,), dtype, 8)
    if arr.ndim == 1 or (arr.shape[0] == 1 and rows != 1):  # one message for every key
        message = arr.reshape(-1)
        row_bytes = message.size * dtype.itemsize
        blocks = -(-row_bytes // 8)
        own = np.zeros(8 * blocks, dtype=np.uint8)
        own[:row_bytes] = message.view(np.uint8)
        return Rows(None, own.view(np.uint64), swap, (rows, message.size), dtype, row_bytes)
    if arr.shape[0] != rows:
        raise ValueError(f"data has {arr.shape[0]} rows for {rows} keys (one message per key)")
    row_bytes = arr.shape[1] * dtype.itemsize
    raw = np.ascontiguousarray(arr).view(np.uint8).reshape(rows, row_bytes)
    return Rows(_padded_words(raw, -(-row_bytes // 8)), None, swap, arr.shape, dtype, row_bytes)


@dataclass
class RowsDestination:
    """Where a key-array kernel writes, what the call returns, and what is left to copy."""

    words: np.ndarray  # (rows, blocks) uint64, C-contiguous: where the kernels write
    result: np.ndarray  # returned (out, or a new array)
    target: np.ndarray | None  # result's bytes as (rows, row_bytes) when words is scratch

    def commit(self) -> None:
        if self.target is not None:
            self.target[:] = self.words.view(np.uint8)[:, :self.target.shape[1]]


def key_rows_output(rows: Rows, out: Any) -> RowsDestination:
    """The destination of a key-array result, ``out`` checked (``TypeError``/``ValueError``).

    Scratch is used (and copied at the end) when rows end in a partial
    block, or when ``out`` overlaps the input without being it.
    """
    n = rows.shape[0]
    if out is None:
        result = np.empty(rows.shape, rows.dtype)
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a NumPy array, not {type(out).__name__}")
        result = plain_array(out, "out")
        if result.dtype != rows.dtype:
            raise TypeError(
                f"out (dtype {result.dtype.str}) must have the result's dtype {rows.dtype.str}"
            )
        if result.shape != rows.shape:
            raise ValueError(f"out must have the result's shape {rows.shape}, got {result.shape}")
        if not result.flags.writeable:
            raise TypeError("out is read-only")
        if not result.flags.c_contiguous:
            raise ValueError("out must be C-contiguous")
        result = out
    target = plain_array(result, "out").view(np.uint8).reshape(n, rows.row_bytes)
    whole = rows.row_bytes % 8 == 0
    if whole and rows.words is None:  # broadcast: the message is a private copy
        return RowsDestination(target.view(np.uint64), result, None)
    if whole and (not np.may_share_memory(target, rows.words)
                  or same_memory(target.reshape(-1), rows.words.reshape(-1).view(np.uint8))):
        return RowsDestination(target.view(np.uint64), result, None)
    if rows.words is not None and not np.may_share_memory(rows.words, target) and not whole:
        return RowsDestination(rows.words, result, target)  # the padded copy is ours
    return RowsDestination(np.empty((n, rows.blocks), dtype=np.uint64), result, target)
