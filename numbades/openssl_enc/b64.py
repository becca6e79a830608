"""Base64 as ``openssl enc -a`` writes it (64-character lines; ``-A``: one line), in pieces.

The writer and reader wrap a binary file object and keep at most one
partial group between calls, so a file of any size streams through.
Decoding ignores line layout (any line length, with or without ``-A``);
OpenSSL would refuse a long single line read without ``-A``.
"""

from __future__ import annotations

import binascii
from typing import BinaryIO

_LINE = 48  # bytes per 64-character line
_WHITESPACE = b" \t\r\n\v\f"


class Base64Writer:
    """A writable binary sink that base64-encodes into ``raw``; call ``close()`` to flush."""

    def __init__(self, raw: BinaryIO, single_line: bool = False):
        self._raw = raw
        self._single = single_line
        self._pending = b""

    def write(self, data: bytes | memoryview) -> int:
        """Encode ``data`` (whole groups now, the rest kept for later)."""
        n = len(data)
        buf = self._pending + bytes(data)
        group = 3 if self._single else _LINE
        cut = len(buf) // group * group
        self._pending = buf[cut:]
        if cut:
            self._raw.write(self._encode(buf[:cut]))
        return n

    def _encode(self, data: bytes) -> bytes:
        if self._single:
            return binascii.b2a_base64(data, newline=False)
        return b"".join(binascii.b2a_base64(data[i:i + _LINE])
                        for i in range(0, len(data), _LINE))

    def close(self) -> None:
        """Write the last partial line (OpenSSL ends ``-a`` output with a newline, ``-A`` not)."""
        if self._pending:
            self._raw.write(self._encode(self._pending))
            self._pending = b""


class Base64Reader:
    """A readable binary source decoding the base64 text of ``raw``."""

    def __init__(self, raw: BinaryIO):
        self._raw = raw
        self._text = b""  # base64 characters not yet decoded (fewer than 4 after a read)
        self._out = b""  # decoded bytes not yet returned
        self._eof = False

    def read(self, n: int) -> bytes:
        """Up to ``n`` decoded bytes; ``b""`` only at the end of the input."""
        while len(self._out) < n and not self._eof:
            raw = self._raw.read(max(4 * n // 3 + 4, 4096))
            if not raw:
                self._eof = True
                tail = self._text
                self._text = b""
                if tail:
                    self._out += _decode(tail + b"=" * (-len(tail) % 4))
                break
            text = self._text + raw.translate(None, _WHITESPACE)
            cut = len(text) // 4 * 4
            self._text = text[cut:]
            self._out += _decode(text[:cut])
        out, self._out = self._out[:n], self._out[n:]
        return out


def _decode(text: bytes) -> bytes:
    try:
        return binascii.a2b_base64(text)
    except binascii.Error as exc:
        raise ValueError(f"error reading input file (bad base64: {exc})") from None
