"""One-shot ``encrypt``/``decrypt``: a whole buffer through a fresh :class:`~.stream.Stream`.

The input is validated and normalised (``buffers``) before the stream runs;
the result is built in the input's type, or written into ``out=``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import buffers, padding
from .arguments import BYTE_MODES
from .stream import Stream


def run(stream: Stream, mode: str, data: Any, out: Any, padded: str | None,
        decrypt: bool) -> Any:
    """Run ``data`` through ``stream`` (fresh, validated mode and IV); returns the result.

    ``padded`` is the padding scheme (``modes.padding``) or None.
    """
    src = buffers.as_data(data)
    if padded:
        return _run_padded(stream, src, out, padded, decrypt)
    if mode not in BYTE_MODES:
        buffers.require_whole_blocks(src, f"mode {mode!r} without padding")
    dst = buffers.output(src, src.nbytes, out)
    if mode in BYTE_MODES and not src.is_words:
        stream.feed(src.raw, dst.bytes)
    else:
        stream.whole(src.raw, dst.bytes, src.swap)
    return buffers.finish(src, dst, out)


def _run_padded(stream: Stream, src: buffers.Data, out: Any, scheme: str, decrypt: bool) -> Any:
    if src.is_words:
        raise TypeError("padding works on bytes; a uint64 array is whole blocks (padding=None)")
    raw = src.raw
    if not decrypt:
        full = raw.size // 8 * 8
        last = padding.pad_block(raw[full:].copy(), scheme, empty=raw.size == 0)
        dst = buffers.output(src, full + last.size, out)
        stream.whole(raw[:full], dst.bytes[:full])
        stream.whole(last, dst.bytes[full:])
        return buffers.finish(src, dst, out)
    buffers.require_whole_blocks(src, "padded ciphertext")
    if raw.size == 0:
        raise ValueError("padded ciphertext is at least one block (8 bytes), got 0")
    target = None
    if out is not None:
        target = buffers.writable_bytes(out)
        buffers.check_out_kind(src, out)
        if not raw.size - 8 <= target.size <= raw.size - 1:
            raise ValueError(
                f"out holds {target.size} bytes; the unpadded result of {raw.size} bytes "
                f"is {raw.size - 8} to {raw.size - 1} bytes"
            )
    plain = np.empty(raw.size, dtype=np.uint8)  # scratch: out may overlap the input
    stream.whole(raw, plain)
    n = raw.size - 8 + padding.unpadded_length(plain[-8:], scheme)  # padding first, then sizes
    if target is not None:
        if target.size != n:  # says nothing of n: no plaintext-length oracle
            raise ValueError(
                f"out holds {target.size} bytes, which is not the unpadded length; "
                "pass out=None, or an out of exactly the unpadded length"
            )
        target[:] = plain[:n]
        return out
    if src.kind == "array":
        return plain[:n].copy()
    return buffers.finish(src, buffers.Destination(plain[:n], None), None)
