"""The outside reference every mode test compares with: pycryptodome, set up as numbades runs.

Mapping: ``cfb`` is CFB with 64-bit segments, ``cfb8`` CFB with 8-bit
segments, ``ctr`` a full-width 64-bit big-endian counter starting at the IV.
"""

from __future__ import annotations


def pycryptodome(key: bytes, mode: str, iv: bytes | None = None):
    """A fresh pycryptodome cipher doing what numbades does for (key, mode, iv).

    cfb -> CFB with 64-bit segments, cfb8 -> CFB with 8-bit segments, ctr -> a
    full-width 64-bit big-endian counter starting at ``iv``.
    """
    from Crypto.Cipher import DES, DES3

    mod = DES if len(key) == 8 else DES3
    if mode == "ecb":
        return mod.new(key, mod.MODE_ECB)
    if mode == "cbc":
        return mod.new(key, mod.MODE_CBC, iv=iv)
    if mode == "cfb":
        return mod.new(key, mod.MODE_CFB, iv=iv, segment_size=64)
    if mode == "cfb8":
        return mod.new(key, mod.MODE_CFB, iv=iv, segment_size=8)
    if mode == "ofb":
        return mod.new(key, mod.MODE_OFB, iv=iv)
    if mode == "ctr":
        return mod.new(key, mod.MODE_CTR, nonce=b"", initial_value=int.from_bytes(iv, "big"))
    raise ValueError(mode)


def ref_encrypt(key: bytes, mode: str, iv: bytes | None, data: bytes) -> bytes:
    return pycryptodome(key, mode, iv).encrypt(data)


def ref_decrypt(key: bytes, mode: str, iv: bytes | None, data: bytes) -> bytes:
    return pycryptodome(key, mode, iv).decrypt(data)


def random_key(rng, size: int) -> bytes:
    """A random key of ``size`` bytes that pycryptodome's DES3 accepts (not degenerate)."""
    from Crypto.Cipher import DES3

    while True:
        key = rng.bytes(size)
        if size == 8:
            return key
        try:
            DES3.adjust_key_parity(key)
        except ValueError:
            continue
        return key
