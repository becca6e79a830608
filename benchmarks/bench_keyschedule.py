"""Key-schedule rate: cipher objects built per second, as a user builds them."""

from __future__ import annotations

from . import KEY24, library, per_second, require

KEYS = tuple(bytes([i]) * 8 for i in range(1, 255, 2))


class KeySchedule:
    """``numbades.DES(key)`` / ``numbades.TripleDES(key)`` constructions per second."""

    def setup(self) -> None:
        numbades = library()

        self.numbades = numbades
        numbades.DES(KEYS[0])  # compile / load the key-schedule kernel

    def track_des_keys_per_second(self) -> float:
        des, keys, it = self.numbades.DES, KEYS, iter(range(1 << 62))
        return per_second(lambda: des(keys[next(it) % len(keys)]))

    track_des_keys_per_second.unit = "keys/s"

    def track_3des_keys_per_second(self) -> float:
        require(hasattr(self.numbades, "TripleDES"), "TripleDES")
        tdes = self.numbades.TripleDES
        tdes(KEY24)
        return per_second(lambda: tdes(KEY24))

    track_3des_keys_per_second.unit = "keys/s"
