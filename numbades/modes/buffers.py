"""Flat buffers: one message's input and ``out=`` (``encrypt``/``decrypt``, streaming updates).

Everything is validated here before any kernel runs, so bad input raises a
clear ``TypeError``/``ValueError`` and ``out=`` is never half-written.  The
kernels are unchecked: they trust that what they get is a 1-D, C-contiguous
array of exactly the length they are told, so every rule that protects them
on this path lives in this module (2-D rows have theirs in ``rows``; what
both share, plain arrays and byte order, is in ``memory``):

- NumPy subclasses are viewed as plain ``ndarray`` before anything else
  (``np.memmap`` and other plain subclasses work exactly like the base
  class); ``np.matrix`` and masked arrays, whose shapes or values do not mean
  what the bytes mean, are refused.
- ``out=`` that overlaps the input without being exactly the input (in
  place) is served through a scratch buffer, then copied.
- ``out=`` has the result's representation: the input's dtype (byte order
  included) for arrays, raw bytes for byte input.

A call is ``as_data`` (the input), ``output`` (where the result goes), the
stream, then ``finish``; a result whose length is known only once it is
computed (padded decryption) is made in scratch and handed over by
``deliver`` into ``out_bytes``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from .memory import (
    LITTLE,
    buffer_bytes,
    is_u64,
    partly_overlap,
    plain_array,
    swap_of,
    writable_bytes,
)


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
        if self.swap == LITTLE:  # memory already holds block bytes
            return self.raw
        return self.raw.view(self.template.dtype).astype(">u8").view(np.uint8)


def as_data(data: Any) -> Data:
    """Check the type of ``data`` and view its memory as bytes."""
    if isinstance(data, np.ndarray):
        arr = plain_array(data, "data")
        if arr.dtype == np.uint8:
            return Data(np.ascontiguousarray(arr).reshape(-1), LITTLE, "array", arr)
        if is_u64(arr.dtype):
            raw = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
            return Data(raw, swap_of(arr.dtype), "array", arr)
        raise TypeError(
            f"unsupported array dtype {arr.dtype}: use uint8 (raw bytes) "
            "or uint64 (one big-endian block per element)"
        )
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = buffer_bytes(memoryview(data))
        kind = "memoryview" if isinstance(data, memoryview) else type(data).__name__
        return Data(raw, LITTLE, kind, None)
    raise TypeError(
        f"data must be bytes, bytearray, memoryview or a uint8/uint64 NumPy array, "
        f"not {type(data).__name__}"
    )


def require_whole_blocks(data: Data, why: str) -> None:
    if data.nbytes % 8:
        raise ValueError(f"data is {data.nbytes} bytes, not a multiple of the 8-byte block ({why})")


def _check_out_kind(data: Data, out: Any) -> None:
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


def out_bytes(data: Data, out: Any) -> np.ndarray | None:
    """``out``'s bytes, checked to be writable and of the result's kind (None without ``out``)."""
    if out is None:
        return None
    target = writable_bytes(out)
    _check_out_kind(data, out)
    return target


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
    arr = out_bytes(data, out)
    if arr.size != nbytes:
        raise ValueError(f"out holds {arr.size} bytes, the result needs {nbytes}")
    if partly_overlap(arr, data.raw):
        return Destination(np.empty(nbytes, dtype=np.uint8), out, arr)
    return Destination(arr, out)


def finish(data: Data, dst: Destination, out: Any) -> Any:
    """Commit the result and return it as the input's type (or ``out``)."""
    dst.commit()
    if out is not None:
        return out
    if dst.result is not None:  # an array, or a bytes-like object written in place
        return dst.result
    return _as_input_kind(data, dst.bytes)


def deliver(data: Data, result: np.ndarray, out: Any, target: np.ndarray | None) -> Any:
    """Hand over a result made in scratch: copied into ``out`` (``target``, its
    bytes from :func:`out_bytes`, exactly as long), or returned as the input's type."""
    if target is not None:
        target[:] = result
        return out
    return _as_input_kind(data, result)


def _as_input_kind(data: Data, result: np.ndarray) -> Any:
    """A new object of the input's kind holding ``result``'s bytes (a 1-D array for arrays)."""
    if data.kind == "array":
        return result.copy()
    if data.kind == "bytearray":
        return bytearray(result.data)
    if data.kind == "memoryview":
        return memoryview(result.tobytes())
    return result.tobytes()
