"""Rows as messages: a 2-D array, one independent message per row, one IV per row.

Each chunk of rows goes through ``encrypt_many``/``decrypt_many`` in its own
task, so every mode (CBC, CFB and OFB encryption included) is parallel
across chunks of rows.  A message must lie whole in one chunk: the byte (or
block) axis is one chunk.  The IVs follow the rows' chunks.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

from ..cipher import DES, TripleDES
from . import graph, inputs, tasks
from .threads import check_numba_threads

#: Modes of ``encrypt_many`` (CFB-8 is one cipher call per byte and has no batch path).
MANY_MODES = ("ecb", "cbc", "cfb", "ofb", "ctr")


def crypt_many(cipher: DES | TripleDES, x: Any, mode: Any, ivs: Any, rechunk: Any,
               numba_threads: Any, decrypt: bool) -> da.Array:
    """Validate everything, then build the graph (see ``numbades.dask.encrypt_many``)."""
    inputs.check_cipher(cipher)
    x = inputs.check_array(x, 2, "messages x bytes or blocks")
    any_iv = None if mode == "ecb" else bytes(8)
    inputs.check_context(cipher, mode, any_iv, None, decrypt)  # mode, engine
    if mode not in MANY_MODES:
        raise ValueError(f"mode {mode!r} is not available for many messages; "
                         f"choose one of {MANY_MODES}")
    if x.dtype == np.uint8 and x.shape[1] % inputs.BLOCK:
        raise ValueError(
            f"each message is {x.shape[1]} bytes, not a multiple of the 8-byte block"
        )
    threads = check_numba_threads(numba_threads)
    ivs = _check_ivs(mode, ivs, x.shape[0])
    x = inputs.whole_rows(x, rechunk)
    return _build(cipher, x, mode, ivs, threads, decrypt)


def _check_ivs(mode: str, ivs: Any, messages: int) -> Any:
    """IVs as a NumPy or dask array of one IV per message (None for ECB)."""
    if mode == "ecb":
        if ivs is not None:
            raise ValueError("ECB takes no ivs")
        return None
    if ivs is None:
        raise ValueError(f"mode {mode!r} needs ivs: one 8-byte IV per message")
    if not isinstance(ivs, (np.ndarray, da.Array)):
        raise TypeError(f"ivs must be a NumPy or dask array, uint8 (m, 8) or uint64 (m,), "
                        f"not {type(ivs).__name__}")
    if ivs.dtype == np.uint8:
        want = (messages, 8)
    elif ivs.dtype.kind == "u" and ivs.dtype.itemsize == 8:
        want = (messages,)
    else:
        raise TypeError(f"unsupported ivs dtype {ivs.dtype}: use uint8 (m, 8) or uint64 (m,)")
    if ivs.shape != want:
        raise ValueError(f"ivs must have shape {want} for {messages} messages, got {ivs.shape}")
    return ivs


def _build(cipher: DES | TripleDES, x: da.Array, mode: str, ivs: Any, threads: int | None,
           decrypt: bool) -> da.Array:
    key = graph.shared_cipher(cipher)
    dependencies: list = [x, key]
    if isinstance(ivs, np.ndarray):
        ivs = da.from_array(ivs, chunks=-1)
    if ivs is not None:
        ivs = ivs.rechunk((x.chunks[0], *((8,),) * (ivs.ndim - 1)))
        dependencies.append(ivs)
    what = "decrypt-many" if decrypt else "encrypt-many"
    name = graph.layer_name(what, x.name, key.key, mode, None if ivs is None else ivs.name,
                            threads)
    layer = {}
    for r in range(len(x.chunks[0])):
        chunk_ivs = None if ivs is None else (ivs.name, r, *(0,) * (ivs.ndim - 1))
        layer[(name, r, 0)] = (tasks.crypt_rows, key.key, (x.name, r, 0), mode, decrypt,
                               chunk_ivs, threads)
    return graph.array(name, layer, dependencies, x.chunks, x.dtype)
