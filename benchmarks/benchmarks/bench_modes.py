"""Modes of operation, Triple-DES and multi-message CBC at 1 MiB (ns per byte, one core)."""

from __future__ import annotations

import numpy as np

from . import (
    IV,
    KEY8,
    KEY24,
    LARGE,
    data,
    library,
    ns_per_byte,
    one_numba_thread,
    require,
    unsupported,
)

MODES = ("ecb", "cbc", "cfb", "ofb", "ctr", "cfb8")
DIRECTIONS = ("encrypt", "decrypt")



def _prepare(cipher: object, direction: str, mode: str, nbytes: int):
    """A no-argument call running ``direction`` in ``mode`` over ``nbytes``, warmed up.

    Skips (n/a) when the library does not have ``mode``; the warm call is the
    full-size call itself, because ``auto`` picks its engine by size.
    """
    fn = getattr(cipher, direction)
    src = data(nbytes)
    dst = np.empty_like(src)
    kwargs = {"mode": mode} if mode == "ecb" else {"mode": mode, "iv": IV}
    try:
        fn(src[:64], out=dst[:64], **kwargs)  # is the mode there at all?
    except Exception as exc:
        if not unsupported(exc):
            raise
        require(False, f"{type(cipher).__name__} mode {mode!r} ({exc})")
    fn(src, out=dst, **kwargs)  # compile / load from cache what the timed call runs
    return lambda: fn(src, out=dst, **kwargs)


class DesModes:
    """Single DES in each mode, both directions, engine ``auto``."""

    params = (MODES, DIRECTIONS)
    param_names = ("mode", "direction")

    def setup(self, mode: str, direction: str) -> None:
        numbades = library()

        one_numba_thread()
        self.call = _prepare(numbades.DES(KEY8), direction, mode, LARGE)

    def track_des(self, mode: str, direction: str) -> float:
        return ns_per_byte(self.call, LARGE)

    track_des.unit = "ns/byte"


class TripleDesModes:
    """Triple-DES (EDE, three keys), ECB and CBC, both directions."""

    params = (("ecb", "cbc"), DIRECTIONS)
    param_names = ("mode", "direction")

    def setup(self, mode: str, direction: str) -> None:
        numbades = library()

        require(hasattr(numbades, "TripleDES"), "TripleDES")
        one_numba_thread()
        self.call = _prepare(numbades.TripleDES(KEY24), direction, mode, LARGE)

    def track_3des(self, mode: str, direction: str) -> float:
        return ns_per_byte(self.call, LARGE)

    track_3des.unit = "ns/byte"


class EncryptMany:
    """CBC over many independent 4 KiB messages in one call (``encrypt_many``)."""

    params = ((64, 1024), ("4 KiB",))
    param_names = ("messages", "message_size")

    def setup(self, messages: int, message_size: str) -> None:
        numbades = library()

        cipher = numbades.DES(KEY8)
        require(hasattr(cipher, "encrypt_many"), "encrypt_many")
        one_numba_thread()
        self.nbytes = messages * 4096
        block = data(self.nbytes).reshape(messages, 4096)
        ivs = np.frombuffer(IV * messages, dtype=np.uint8).reshape(messages, 8)
        # The full call: auto switches engine at a message count.
        cipher.encrypt_many(block, mode="cbc", ivs=ivs)
        self.call = lambda: cipher.encrypt_many(block, mode="cbc", ivs=ivs)

    def track_cbc_many(self, messages: int, message_size: str) -> float:
        return ns_per_byte(self.call, self.nbytes)

    track_cbc_many.unit = "ns/byte"
