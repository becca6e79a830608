"""Per-call cost of small messages: ``encrypt(bytes)`` on a reused cipher object, auto engine."""

from __future__ import annotations

from . import KEY8, KEY24, library, seconds_per_call

CASES = {"DES-ECB 8 B": ("DES", 8), "DES-ECB 16 B": ("DES", 16), "3DES-ECB 16 B": ("TripleDES", 16)}


class SmallCalls:
    """One ECB call on a few bytes, ``bytes`` in and out: microseconds per call (validation,
    dispatch and the kernel together; what a caller encrypting single records pays)."""

    params = (tuple(CASES),)
    param_names = ("call",)

    def setup(self, call: str) -> None:
        numbades = library()

        cipher, nbytes = CASES[call]
        self.cipher = getattr(numbades, cipher)(KEY8 if cipher == "DES" else KEY24)
        self.data = bytes(nbytes)
        self.cipher.encrypt(self.data)  # compile / load

    def track_call(self, call: str) -> float:
        encrypt, data = self.cipher.encrypt, self.data
        return seconds_per_call(lambda: encrypt(data)) * 1e6

    track_call.unit = "us/call"
