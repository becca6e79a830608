"""Key arrays and crypt(3): nanoseconds per key-block and microseconds per hash, one core."""

from __future__ import annotations

import numpy as np

from . import library, one_numba_thread, require, seconds_per_call

KEYS = 1 << 16
HASHES = 1 << 14
ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class KeyArrayEcb:
    """One block under each of 65536 keys (``DESArray`` / ``TripleDESArray``): ns per key."""

    params = (("DESArray", "TripleDESArray"), ("auto", "table"))
    param_names = ("cipher", "variant")

    def setup(self, cipher: str, variant: str) -> None:
        numbades = library()
        require(hasattr(numbades, cipher), f"numbades.{cipher}")
        one_numba_thread()
        rng = np.random.default_rng(7)
        width = 8 if cipher == "DESArray" else 24
        keys = rng.integers(0, 256, (KEYS, width), dtype=np.uint8)
        # random 24-byte keys: K1 == K2 or K2 == K3 has probability ~2**-55
        self.array = getattr(numbades, cipher)(keys, variant)
        self.blocks = rng.integers(0, 2**63, KEYS, dtype=np.uint64)
        self.out = np.empty_like(self.blocks)
        self.array.encrypt(self.blocks, out=self.out)

    def track_ecb_one_block_per_key(self, cipher: str, variant: str) -> float:
        return seconds_per_call(lambda: self.array.encrypt(self.blocks, out=self.out)) / KEYS * 1e9

    track_ecb_one_block_per_key.unit = "ns/key"


class CryptMany:
    """Traditional DES crypt(3) over 16384 passwords with random salts: us per hash."""

    params = (("arrays", "lists"),)
    param_names = ("input",)

    def setup(self, kind: str) -> None:
        numbades = library()
        require(hasattr(numbades, "crypt_many"), "numbades.crypt_many")
        one_numba_thread()
        rng = np.random.default_rng(8)
        words = [bytes(rng.integers(33, 127, 8).astype(np.uint8)) for _ in range(HASHES)]
        salts = [ALPHABET[a] + ALPHABET[b] for a, b in rng.integers(0, 64, (HASHES, 2))]
        if kind == "arrays":
            self.args = (np.array(words), np.array([s.encode() for s in salts]))
        else:
            self.args = ([w.decode() for w in words], salts)
        self.crypt_many = numbades.crypt_many
        self.crypt_many(*self.args)

    def track_crypt_many(self, kind: str) -> float:
        return seconds_per_call(lambda: self.crypt_many(*self.args)) / HASHES * 1e6

    track_crypt_many.unit = "us/hash"


def _alternating(first, second, repeats: int = 5) -> float:
    """Median over ``repeats`` rounds of (time of ``first``) / (time of ``second``), run in turn."""
    ratios = []
    for _ in range(repeats):
        ratios.append(seconds_per_call(first, 0.1, 1) / seconds_per_call(second, 0.1, 1))
    return float(np.median(ratios))


class IssueRatios:
    """Issue 35's ratios, side by side in one process (smaller is better; target <= 1.43).

    ``ecb_per_key_over_one_key``: one block under each of 65536 keys
    (``DESArray``, bitslice) over the same blocks under one key (``DES``,
    bitslice); ``crypt_lists_over_arrays``: ``crypt_many`` on lists of str
    over the same hashes from ``S`` arrays.  The target, >= 0.7x the rate,
    is a ratio of times <= 1 / 0.7.
    """

    def setup(self) -> None:
        numbades = library()
        require(hasattr(numbades, "DESArray") and hasattr(numbades, "crypt_many"),
                "numbades.DESArray and numbades.crypt_many")
        one_numba_thread()
        rng = np.random.default_rng(9)
        keys = rng.integers(0, 256, (KEYS, 8), dtype=np.uint8)
        self.blocks = rng.integers(0, 2**63, KEYS, dtype=np.uint64)
        self.out = np.empty_like(self.blocks)
        self.per_key = numbades.DESArray(keys, "bitslice")
        self.one_key = numbades.DES(bytes(keys[0]), variant="bitslice")
        words = [bytes(rng.integers(33, 127, 8).astype(np.uint8)) for _ in range(HASHES)]
        salts = [ALPHABET[a] + ALPHABET[b] for a, b in rng.integers(0, 64, (HASHES, 2))]
        self.arrays = (np.array(words), np.array([s.encode() for s in salts]))
        self.lists = ([w.decode() for w in words], salts)
        self.crypt_many = numbades.crypt_many
        self.per_key.encrypt(self.blocks, out=self.out)
        self.one_key.encrypt(self.blocks, out=self.out)
        self.crypt_many(*self.arrays)
        self.crypt_many(*self.lists)

    def track_ecb_per_key_over_one_key(self) -> float:
        return _alternating(lambda: self.per_key.encrypt(self.blocks, out=self.out),
                            lambda: self.one_key.encrypt(self.blocks, out=self.out))

    track_ecb_per_key_over_one_key.unit = "x"

    def track_crypt_lists_over_arrays(self) -> float:
        return _alternating(lambda: self.crypt_many(*self.lists),
                            lambda: self.crypt_many(*self.arrays))

    track_crypt_lists_over_arrays.unit = "x"
