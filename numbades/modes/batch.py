"""Many equal-length messages in one call: ``encrypt_many`` / ``decrypt_many``.

Equal-length independent messages, one per row of a 2-D array, each with
its own IV.  CBC, CFB and OFB encryption are sequential within a message but
parallel across messages: the bitslice engine encrypts block *j* of up to
``64 * LANES`` messages in one pass.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..engines import chains
from ..engines.base import Schedule
from ..engines.registry import ENGINES
from ..tuning import policy
from . import buffers
from .arguments import MANY_MODES, check_mode

_LITTLE = sys.byteorder == "little"


def _messages(data: Any, name: str = "data") -> tuple[np.ndarray, bool]:
    """A 2-D uint8/uint64 array as (messages, blocks) words, and the swap flag."""
    if not isinstance(data, np.ndarray):
        raise TypeError(f"{name} must be a 2-D uint8 or uint64 NumPy array, "
                        f"not {type(data).__name__}")
    data = buffers.plain_array(data, name)
    if data.ndim != 2:
        raise ValueError(f"{name} must be 2-D (messages, bytes or blocks), got {data.ndim}-D")
    if data.dtype == np.uint8:
        if data.shape[1] % 8:
            raise ValueError(
                f"each message is {data.shape[1]} bytes, not a multiple of the 8-byte block"
            )
        words = np.ascontiguousarray(data).view(np.uint64)
        return words, _LITTLE
    if data.dtype.kind == "u" and data.dtype.itemsize == 8:
        return np.ascontiguousarray(data).view(np.uint64), not data.dtype.isnative
    raise TypeError(f"unsupported {name} dtype {data.dtype}: use uint8 or uint64")


def ivs_of(mode: str, ivs: Any, m: int) -> np.ndarray:
    """One IV per message (or key-array row) as block values, shape (m,)."""
    if mode == "ecb":
        if ivs is not None:
            raise ValueError("ECB takes no ivs")
        return np.zeros(m, dtype=np.uint64)
    if ivs is None:
        raise ValueError(f"mode {mode!r} needs ivs: one 8-byte IV per message")
    if not isinstance(ivs, np.ndarray):
        raise TypeError(f"ivs must be a uint8 (m, 8) or uint64 (m,) array, not {type(ivs).__name__}")
    ivs = buffers.plain_array(ivs, "ivs")
    if ivs.dtype == np.uint8:
        if ivs.shape != (m, 8):
            raise ValueError(f"ivs must have shape ({m}, 8) for {m} messages, got {ivs.shape}")
        return np.ascontiguousarray(ivs).view(">u8").reshape(m).astype(np.uint64)
    if ivs.dtype.kind == "u" and ivs.dtype.itemsize == 8:
        if ivs.shape != (m,):
            raise ValueError(f"ivs must have shape ({m},) for {m} messages, got {ivs.shape}")
        return ivs.astype(np.uint64)
    raise TypeError(f"unsupported ivs dtype {ivs.dtype}: use uint8 (m, 8) or uint64 (m,)")


def run(schedule: Schedule, request: policy.Request, data: Any, mode: Any, ivs: Any, out: Any,
        decrypt: bool) -> np.ndarray:
    """Row i of the result is row i of ``data`` through ``mode`` with IV ``ivs[i]``."""
    mode = check_mode(mode, MANY_MODES, "for many messages")
    chain = chains.of(mode, decrypt)
    policy.check_serves(request, chain)
    src, swap = _messages(data)
    iv_values = ivs_of(mode, ivs, src.shape[0])
    scratch = False
    if out is None:
        result = np.empty(data.shape, data.dtype)
        dst = result.view(np.uint64).reshape(src.shape)
    else:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a NumPy array, not {type(out).__name__}")
        target = buffers.writable_bytes(out)
        if out.shape != data.shape or out.dtype != data.dtype:
            raise ValueError(f"out must have data's shape {data.shape} and dtype "
                             f"{data.dtype}, got {out.shape} {out.dtype}")
        result = out
        dst = target.view(np.uint64).reshape(src.shape)
        if np.may_share_memory(dst, src) and not buffers.same_memory(dst, src):
            dst = np.empty_like(src)  # partial overlap: scratch, copied at the end
            scratch = True
    engine = ENGINES[policy.pick(request, chain, src.size, src.shape[0])]
    engine.many(chain, buffers.read_only(src), dst, schedule.form(engine, chain), iv_values, swap)
    if scratch:
        target.view(np.uint64)[:] = dst.reshape(-1)
    return result
