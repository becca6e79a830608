"""Key set-up cost: microseconds per cipher object, built as a user builds them."""

from __future__ import annotations

from . import library, require, seconds_per_call

# Distinct keys, cycled, so that no per-key cache can hide the schedule.  For
# Triple-DES K1, K2 and K3 differ outside the parity bits (not degenerate).
DES_KEYS = tuple(bytes([i]) * 8 for i in range(1, 251, 2))
TDES_KEYS = tuple(
    bytes([i]) * 8 + bytes([i + 2]) * 8 + bytes([i + 4]) * 8 for i in range(1, 251, 2)
)


class KeySchedule:
    """``numbades.DES(key)`` / ``numbades.TripleDES(key)`` constructions: microseconds per key."""

    params = (("DES", "TripleDES"),)
    param_names = ("cipher",)

    def setup(self, cipher: str) -> None:
        numbades = library()

        require(hasattr(numbades, cipher), f"numbades.{cipher}")
        self.make = getattr(numbades, cipher)
        self.keys = DES_KEYS if cipher == "DES" else TDES_KEYS
        self.make(self.keys[0])  # compile / load the key-schedule kernel

    def track_key_setup(self, cipher: str) -> float:
        make, keys, n = self.make, self.keys, len(self.keys)
        counter = iter(range(1 << 62))
        return seconds_per_call(lambda: make(keys[next(counter) % n])) * 1e6

    track_key_setup.unit = "us/key"


class KeySetupFirstBlock:
    """A new key's whole cost up to its first block: construction, the engine's key form
    (table: (Ku, Kt) words; bitslice: key planes) and one 8-byte ECB block; microseconds per key."""

    params = (("DES", "TripleDES"), ("table", "bitslice"))
    param_names = ("cipher", "engine")

    def setup(self, cipher: str, engine: str) -> None:
        numbades = library()

        require(hasattr(numbades, cipher), f"numbades.{cipher}")
        require(engine in numbades.variants(), f"engine {engine}")
        self.make = getattr(numbades, cipher)
        self.keys = DES_KEYS if cipher == "DES" else TDES_KEYS
        self.block = bytes(8)
        self.make(self.keys[0], variant=engine).encrypt(self.block)  # compile / load

    def track_key_setup_and_first_block(self, cipher: str, engine: str) -> float:
        make, keys, n, block = self.make, self.keys, len(self.keys), self.block
        counter = iter(range(1 << 62))
        return seconds_per_call(
            lambda: make(keys[next(counter) % n], variant=engine).encrypt(block)) * 1e6

    track_key_setup_and_first_block.unit = "us/key"
