"""One message under one key, whole or in pieces: the ``MAC`` object behind ``mac.new``.

The object keeps the CBC chaining value and holds back the last 1 to 8
bytes (the last block is padded, or for retail and CMAC treated apart, only
when the message ends).  Padding method 3 starts with the message length,
so with it the message is kept whole until ``digest``.  ``digest`` does not
change the state: more ``update`` calls may follow.
"""

from __future__ import annotations

import copy
import hmac
from typing import Any

import numpy as np

from ..cipher import DES, TripleDES
from . import inputs
from . import padding as pads
from .keyed import cipher_for


def _chain(cipher: DES | TripleDES, blocks: Any, h: bytes) -> bytes:
    """The last CBC block of ``blocks`` (whole blocks) from chaining value ``h``."""
    if len(blocks) == 0:
        return h
    return bytes(cipher.encrypt(blocks, "cbc", iv=h)[-8:])


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(8, "big")


class MAC:
    """A MAC over one message fed in pieces: ``update``, ``digest``, ``hexdigest``, ``verify``.

    Made by ``numbades.mac.new(algorithm, key, ...)``; ``update(a).update(b)``
    gives the tag of ``a + b``.  ``repr()`` never shows key material.
    """

    block_size = 8

    def __init__(self, algorithm: str, key: Any, *, iv: Any = None, padding: Any = None,
                 length: Any = 8):
        if not isinstance(algorithm, str):
            raise TypeError(f"algorithm must be a str, not {type(algorithm).__name__}")
        if algorithm not in inputs.ALGORITHMS:
            raise ValueError(f"algorithm must be one of {', '.join(inputs.ALGORITHMS)}, "
                             f"got {algorithm!r}")
        self.digest_size = inputs.check_length(length)
        if not isinstance(key, inputs.BYTES_LIKE):
            raise TypeError(f"key must be bytes-like (one key), not {type(key).__name__}")
        if algorithm == "cmac":
            if padding is not None or iv is not None:
                raise ValueError("cmac takes no padding and no iv (SP 800-38B pads itself)")
        elif algorithm == "retail" and iv is not None:
            raise ValueError("retail takes no iv (ISO/IEC 9797-1 algorithm 3 starts from zero)")
        self.algorithm = algorithm
        self._padding = 0 if algorithm == "cmac" else inputs.check_padding(
            1 if padding is None else padding)
        self._h = inputs.check_iv(iv)
        if algorithm == "retail":
            key = inputs.one_key(key, (16, 24), "retail MAC")
            self._key_size = len(key)
            self._cipher = DES(key[:8])
            self._out = (DES(key[8:16]), DES(key[16:] or key[:8]))
        else:
            key = inputs.one_key(key, (8, 16, 24), algorithm.upper())
            self._key_size = len(key)
            self._cipher = cipher_for(key)
            if algorithm == "cmac":
                ell = np.frombuffer(self._cipher.encrypt(bytes(8)), np.uint8).reshape(1, 8)
                self._subkeys = tuple(k.tobytes() for k in pads.cmac_subkeys(ell))
        self._pending = b""
        self._total = 0
        self._whole: bytearray | None = bytearray() if self._padding == 3 else None

    def __repr__(self) -> str:  # never shows key material
        pad = f", padding={self._padding}" if self._padding else ""
        return (f"numbades.mac.MAC({self.algorithm!r}, key_size={self._key_size}{pad}, "
                f"length={self.digest_size})")

    def update(self, data: Any) -> MAC:
        """Feed more of the message (bytes-like or a 1-D uint8 array); returns the object."""
        m = inputs.message(data)
        if m.ndim != 1:
            raise ValueError("update takes one message (bytes or a 1-D uint8 array), "
                             "not a 2-D array: for one tag per row call the mac functions")
        self._total += m.size
        if self._whole is not None:
            self._whole += m.tobytes()
            return self
        have = len(self._pending) + m.size
        if have <= 8:
            self._pending += m.tobytes()
            return self
        run = (have - 1) // 8 * 8  # bytes to chain now; 1 to 8 stay behind
        used = 0
        if self._pending:
            used = 8 - len(self._pending)
            self._h = _chain(self._cipher, self._pending + m[:used].tobytes(), self._h)
            run -= 8
        self._h = _chain(self._cipher, m[used:used + run], self._h)
        self._pending = m[used + run:].tobytes()
        return self

    def digest(self) -> bytes:
        """The tag of everything fed so far (``length`` bytes); the object stays usable."""
        if self._whole is not None:  # method 3: length block, then method 1
            whole = bytes(self._whole)
            n = len(whole)
            blocks = pads.length_block(n) + whole + bytes(pads.pad_size(n, 1))
            h = _chain(self._cipher, np.frombuffer(blocks, np.uint8), self._h)
        elif self.algorithm == "cmac":
            k1, k2 = self._subkeys
            if self._total and len(self._pending) == 8:
                last = _xor(self._pending, k1)
            else:
                last = _xor(pads.tail_block(self._pending, self._total, 2), k2)
            h = _chain(self._cipher, last, self._h)
        else:
            last = pads.tail_block(self._pending, self._total, self._padding)
            h = _chain(self._cipher, last, self._h)
        if self.algorithm == "retail":
            middle, outer = self._out
            h = outer.encrypt(middle.decrypt(h))
        return h[: self.digest_size]

    def hexdigest(self) -> str:
        """``digest()`` as lower-case hex."""
        return self.digest().hex()

    def verify(self, tag: Any) -> None:
        """Raise ``ValueError`` unless ``tag`` is this message's tag (compared in constant time)."""
        tag = inputs.tag_bytes(tag, self.digest_size)
        if not hmac.compare_digest(tag, self.digest()):
            raise ValueError("MAC check failed")

    def hexverify(self, hex_tag: str) -> None:
        """``verify`` for a hex string."""
        if not isinstance(hex_tag, str):
            raise TypeError(f"hex_tag must be a str, not {type(hex_tag).__name__}")
        self.verify(bytes.fromhex(hex_tag))

    def copy(self) -> MAC:
        """An independent copy of the state (to tag several messages sharing a prefix)."""
        twin = copy.copy(self)
        if self._whole is not None:
            twin._whole = bytearray(self._whole)
        return twin
