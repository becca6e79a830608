"""MACs (``numbades.mac``): ns per byte over many messages, key arrays and one long message.

The ``Ecb`` figure beside them is the bitslice DES-ECB rate on the same
bytes (issue 36 asks the one-key MACs for >= 0.8x of it), one core.
"""

from __future__ import annotations

import numpy as np

from . import KEY8, library, one_numba_thread, require, seconds_per_call

MESSAGES, MESSAGE_BYTES = 100_000, 64
LONG = 8 * 1024 * 1024
KEY16 = bytes.fromhex("0123456789abcdeffedcba9876543210")

_inputs: dict[str, np.ndarray] = {}


def _messages() -> np.ndarray:
    if "rows" not in _inputs:
        rng = np.random.default_rng(36)
        _inputs["rows"] = rng.integers(0, 256, (MESSAGES, MESSAGE_BYTES), dtype=np.uint8)
        _inputs["keys8"] = rng.integers(0, 256, (MESSAGES, 8), dtype=np.uint8)
        _inputs["keys16"] = rng.integers(0, 256, (MESSAGES, 16), dtype=np.uint8)
        _inputs["long"] = rng.integers(0, 256, LONG, dtype=np.uint8)
    return _inputs["rows"]


def _mac():
    numbades = library()
    require(hasattr(numbades, "mac"), "numbades.mac")
    one_numba_thread()
    return numbades.mac


class ManyMessages:
    """10**5 messages of 64 bytes, one key (``ecb``: DES-ECB on the same bytes): ns/byte."""

    params = (("cbc", "retail", "cmac", "ecb"),)
    param_names = ("algorithm",)

    def setup(self, algorithm: str) -> None:
        mac = _mac()
        rows = _messages()
        if algorithm == "ecb":
            des = library().DES(KEY8)
            flat = rows.reshape(-1)
            self.call = lambda: des.encrypt(flat)
        else:
            key = KEY16 if algorithm == "retail" else KEY8
            fn = getattr(mac, algorithm)
            self.call = lambda: fn(key, rows)
        self.call()

    def track_ns_per_byte(self, algorithm: str) -> float:
        return seconds_per_call(self.call) / (MESSAGES * MESSAGE_BYTES) * 1e9

    track_ns_per_byte.unit = "ns/B"


class KeyArrays:
    """10**5 keys, one 64-byte message each (row i under key i): ns/byte."""

    params = (("cbc", "retail", "cmac"),)
    param_names = ("algorithm",)

    def setup(self, algorithm: str) -> None:
        mac = _mac()
        rows = _messages()
        keys = _inputs["keys16"] if algorithm == "retail" else _inputs["keys8"]
        fn = getattr(mac, algorithm)
        self.call = lambda: fn(keys, rows)
        self.call()

    def track_ns_per_byte(self, algorithm: str) -> float:
        return seconds_per_call(self.call) / (MESSAGES * MESSAGE_BYTES) * 1e9

    track_ns_per_byte.unit = "ns/B"


class LongMessage:
    """One 8 MiB message, ``mac.cbc`` with a DES key (the sequential table-engine path): ns/byte."""

    def setup(self) -> None:
        mac = _mac()
        _messages()
        long = _inputs["long"]
        self.call = lambda: mac.cbc(KEY8, long, iv=bytes(8))
        self.call()

    def track_ns_per_byte(self) -> float:
        return seconds_per_call(self.call) / LONG * 1e9

    track_ns_per_byte.unit = "ns/B"
