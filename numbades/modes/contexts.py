"""Streaming contexts: what ``encryptor(mode, iv=...)`` / ``decryptor(...)`` return.

The shape of ``cryptography``'s cipher contexts: ``update(data) -> bytes``,
``update_into(data, out) -> int`` and ``finalize() -> bytes``.  A context
carries the chaining state (a :class:`~.stream.Stream`) and, for ECB and
CBC, the bytes of a block not yet complete, so a file processed in chunks
of any size gives the same bytes as one call on the whole.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engines.base import Schedule
from ..tuning import policy
from . import buffers
from .arguments import BYTE_MODES, check_call
from .memory import writable_bytes
from .padding import pad_block, unpadded_length
from .stream import Stream


class AlreadyFinalized(ValueError):
    """A streaming context was used after ``finalize()``."""


class CipherContext:
    """One message's encryption or decryption, fed in chunks (see ``encryptor``)."""

    def __init__(self, stream: Stream, mode: str, padded: str | None, decrypt: bool):
        self._stream = stream
        self._mode = mode
        self._padded = padded  # the padding scheme (modes.padding), or None
        self._empty = True  # nothing fed yet (zeros padding pads an empty message)
        self._decrypt = decrypt
        self._blockwise = mode not in BYTE_MODES
        self._pending = np.empty(0, dtype=np.uint8)  # ECB/CBC: bytes of an unfinished block
        self._finalized = False

    def __repr__(self) -> str:
        state = "finalized" if self._finalized else "open"
        what = "decryptor" if self._decrypt else "encryptor"
        return f"<numbades {what} mode={self._mode!r} {state}>"

    def _check_open(self) -> None:
        if self._finalized:
            raise AlreadyFinalized("this context was finalized; start a new one")

    def _emit_size(self, n: int) -> int:
        """Bytes an update of n bytes produces now."""
        if not self._blockwise:
            return n
        total = self._pending.size + n
        if self._decrypt and self._padded:  # hold back the last block: it has the padding
            return (total - 1) // 8 * 8 if total else 0
        return total // 8 * 8

    def _process(self, src: np.ndarray, dst: np.ndarray) -> None:
        """Consume src, writing exactly ``len(dst) == _emit_size(len(src))`` bytes."""
        self._empty = self._empty and src.size == 0
        if not self._blockwise:
            self._stream.feed_bytes(src, dst)
            return
        emit = dst.size
        if emit == 0:
            self._pending = np.concatenate([self._pending, src])
            return
        p = self._pending.size
        at = 0
        if p:
            first = np.concatenate([self._pending, src[:8 - p]])
            self._stream.feed_block_bytes(first, dst[:8])
            src = src[8 - p:]
            at = 8
        self._stream.feed_block_bytes(src[:emit - at], dst[at:emit])
        self._pending = src[emit - at:].copy()

    def update(self, data: Any) -> bytes:
        """Process a chunk; returns the output bytes it completes."""
        self._check_open()
        src = buffers.as_data(data).block_bytes()
        dst = np.empty(self._emit_size(src.size), dtype=np.uint8)
        self._process(src, dst)
        return dst.tobytes()

    def update_into(self, data: Any, out: Any) -> int:
        """Like ``update``, writing into ``out`` (at least ``len(data) + 7`` bytes); returns the count."""
        self._check_open()
        src = buffers.as_data(data).block_bytes()
        buf = writable_bytes(out)
        if buf.size < src.size + 7:
            raise ValueError(
                f"out holds {buf.size} bytes; update_into needs len(data) + 7 = {src.size + 7}"
            )
        if np.may_share_memory(src, buf):
            src = src.copy()
        n = self._emit_size(src.size)
        self._process(src, buf[:n])
        return n

    def finalize(self) -> bytes:
        """Finish the message: emits (encrypt) or checks and strips (decrypt) the padding."""
        self._check_open()
        self._finalized = True
        pending, self._pending = self._pending, np.empty(0, dtype=np.uint8)
        if not self._blockwise:
            return b""
        if not self._padded:
            if pending.size:
                raise ValueError(
                    f"{self._mode} without padding needs a multiple of 8 bytes; "
                    f"{pending.size} bytes are left over"
                )
            return b""
        if not self._decrypt:
            last = pad_block(pending, self._padded, self._empty)
            self._stream.feed_block_bytes(last, last)
            return last.tobytes()
        if pending.size != 8:
            raise ValueError(
                "padded ciphertext must be a non-empty multiple of 8 bytes "
                f"({pending.size} bytes are left over)"
            )
        plain = np.empty(8, dtype=np.uint8)
        self._stream.feed_block_bytes(pending, plain)
        return plain[:unpadded_length(plain, self._padded)].tobytes()


def open_context(schedule: Schedule, request: policy.Request, mode: Any, iv: Any, padding: Any,
                 decrypt: bool) -> CipherContext:
    """A context for one message, its arguments checked (``arguments.check_call``)."""
    call = check_call(mode, iv, padding, decrypt)
    stream = Stream(schedule, request, call.mode, decrypt, call.iv)
    return CipherContext(stream, call.mode, call.padding, decrypt)
