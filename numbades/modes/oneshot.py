"""One-shot ``encrypt``/``decrypt``: a whole buffer through a fresh :class:`~.stream.Stream`.

The arguments are checked (``arguments``) and the input validated and
normalised (``buffers``) before the stream runs; the result is built in the
input's type, or written into ``out=``.  Small ``bytes`` in ECB take the
short path (``small``) first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engines.base import Schedule
from ..tuning import policy
from . import buffers, small
from .arguments import BYTE_MODES, check_call
from .padding import pad_block, unpadded_length
from .stream import Stream


def run(schedule: Schedule, request: policy.Request, data: Any, mode: Any, iv: Any,
        padding: Any, out: Any, decrypt: bool) -> Any:
    """``data`` through ``mode`` (``iv``, ``padding``) in one call; returns the result."""
    if type(data) is bytes and mode == "ecb" and iv is None and padding is None and out is None:
        result = small.ecb(schedule, request, data, decrypt)
        if result is not None:
            return result
    call = check_call(mode, iv, padding, decrypt)
    stream = Stream(schedule, request, call.mode, decrypt, call.iv)
    src = buffers.as_data(data)
    if call.padding:
        return _run_padded(stream, src, out, call.padding, decrypt)
    if call.mode not in BYTE_MODES:
        buffers.require_whole_blocks(src, f"mode {call.mode!r} without padding")
    dst = buffers.output(src, src.nbytes, out)
    if call.mode in BYTE_MODES and not src.is_words:
        stream.feed_bytes(src.raw, dst.bytes)
    else:
        stream.feed_block_bytes(src.raw, dst.bytes, src.swap)
    return buffers.finish(src, dst, out)


def _run_padded(stream: Stream, src: buffers.Data, out: Any, scheme: str, decrypt: bool) -> Any:
    if src.is_words:
        raise TypeError("padding works on bytes; a uint64 array is whole blocks (padding=None)")
    raw = src.raw
    if not decrypt:
        full = raw.size // 8 * 8
        last = pad_block(raw[full:].copy(), scheme, empty=raw.size == 0)
        dst = buffers.output(src, full + last.size, out)
        stream.feed_block_bytes(raw[:full], dst.bytes[:full])
        stream.feed_block_bytes(last, dst.bytes[full:])
        return buffers.finish(src, dst, out)
    buffers.require_whole_blocks(src, "padded ciphertext")
    if raw.size == 0:
        raise ValueError("padded ciphertext is at least one block (8 bytes), got 0")
    target = buffers.out_bytes(src, out)
    if target is not None and not raw.size - 8 <= target.size <= raw.size - 1:
        raise ValueError(
            f"out holds {target.size} bytes; the unpadded result of {raw.size} bytes "
            f"is {raw.size - 8} to {raw.size - 1} bytes"
        )
    plain = np.empty(raw.size, dtype=np.uint8)  # scratch: out may overlap the input
    stream.feed_block_bytes(raw, plain)
    n = raw.size - 8 + unpadded_length(plain[-8:], scheme)  # padding first, then sizes
    if target is not None and target.size != n:  # says nothing of n: no plaintext-length oracle
        raise ValueError(
            f"out holds {target.size} bytes, which is not the unpadded length; "
            "pass out=None, or an out of exactly the unpadded length"
        )
    return buffers.deliver(src, plain[:n], out, target)
