"""Checks of what the ``numbades.dask`` calls are given, all before a graph is built.

The cipher, the Dask array (type, dtype, dimensions, known chunk sizes) and
its chunking: chunk boundaries of a stream on block boundaries, each row of
a batch in one chunk (refused with the rechunk that fixes it, or rechunked
on request).  Mode, IV and padding are checked by the
public cipher objects themselves (making a streaming context validates them
without running a kernel), so their errors read exactly as ``cipher.encrypt``'s.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import dask.array as da
import numpy as np

from ..cipher import DES, TripleDES

BLOCK = 8


def check_cipher(cipher: Any) -> None:
    if not isinstance(cipher, (DES, TripleDES)):
        raise TypeError(
            f"cipher must be a numbades.DES or numbades.TripleDES, not {type(cipher).__name__}"
        )


def check_array(x: Any, ndim: int, what: str) -> da.Array:
    """``x`` as a uint8 / uint64 dask array of ``ndim`` dimensions with known chunk sizes."""
    if not isinstance(x, da.Array):
        raise TypeError(
            f"x must be a dask.array.Array, not {type(x).__name__}: call the cipher directly "
            "for in-memory data, or wrap it with dask.array.from_array(data, chunks=...)"
        )
    if x.dtype != np.uint8 and not (x.dtype.kind == "u" and x.dtype.itemsize == 8):
        raise TypeError(
            f"unsupported array dtype {x.dtype}: use uint8 (raw bytes) "
            "or uint64 (one big-endian block per element)"
        )
    if x.ndim != ndim:
        raise ValueError(f"x must be {ndim}-D ({what}), got {x.ndim}-D")
    if any(math.isnan(c) for sizes in x.chunks for c in sizes):
        raise ValueError("x has unknown chunk sizes: call x.compute_chunk_sizes() first")
    return x


def check_context(cipher: DES | TripleDES, mode: Any, iv: Any, padding: Any,
                  decrypt: bool) -> None:
    """Mode, IV, padding and the cipher's engine, as the public API checks them (no kernel runs)."""
    if decrypt:
        cipher.decryptor(mode, iv=iv, padding=padding)
    else:
        cipher.encryptor(mode, iv=iv, padding=padding)


def misaligned_boundary(chunks: tuple[int, ...], itemsize: int) -> int | None:
    """The first chunk boundary inside the array that splits a block, in bytes, or None.

    Boundaries at the very end of the array (a short last chunk, empty chunks
    after it) split nothing.
    """
    if itemsize == BLOCK:
        return None
    total = sum(chunks)
    end = 0
    for size in chunks[:-1]:
        end += size
        if end % BLOCK and end < total:
            return end
    return None


def aligned_chunks(chunks: tuple[int, ...]) -> tuple[int, ...]:
    """Byte chunks with every inner boundary moved down to a block boundary.

    Each boundary moves by at most 7 bytes (a chunk left empty by the move
    disappears), so ``x.rechunk(aligned_chunks(x.chunks[0]))`` moves at most
    7 bytes per boundary from one chunk to its neighbour.
    """
    total = sum(chunks)
    bounds, end = [], 0
    for size in chunks:
        end += size
        cut = end if end == total else end // BLOCK * BLOCK
        if cut > (bounds[-1] if bounds else 0):
            bounds.append(cut)
    sizes = tuple(b - a for a, b in itertools.pairwise([0, *bounds]))
    return sizes or (0,)


def _check_rechunk(rechunk: Any) -> None:
    if not isinstance(rechunk, bool):
        raise TypeError(f"rechunk must be a bool, not {type(rechunk).__name__}")


def whole_rows(x: da.Array, rechunk: Any) -> da.Array:
    """A 2-D ``x`` whose rows each lie in one chunk: as it is, rechunked, or refused."""
    _check_rechunk(rechunk)
    if len(x.chunks[1]) == 1:
        return x
    if rechunk:
        return x.rechunk({1: -1})
    raise ValueError(
        "each message (row) must lie in one chunk, but x's second axis is split into "
        f"{len(x.chunks[1])} chunks: rechunk first, x.rechunk({{1: -1}}), or pass rechunk=True"
    )


def block_aligned(x: da.Array, rechunk: Any) -> da.Array:
    """A 1-D ``x`` whose chunks split no block: as it is, rechunked, or refused."""
    _check_rechunk(rechunk)
    chunks = x.chunks[0]
    at = misaligned_boundary(chunks, x.dtype.itemsize)
    if at is None:
        return x
    if rechunk:
        return x.rechunk((aligned_chunks(chunks),))
    suggestion = max(BLOCK, chunks[0] // BLOCK * BLOCK)
    raise ValueError(
        f"a chunk boundary of x falls at byte {at}, inside an 8-byte block: every chunk but "
        f"the last must be a multiple of 8 bytes.  Rechunk first, e.g. "
        f"x.rechunk({suggestion}), or pass rechunk=True"
    )
