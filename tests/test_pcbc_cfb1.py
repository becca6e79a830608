"""Modes ``pcbc`` and ``cfb1`` (docs/api.md, Modes) against OpenSSL: ``DES_pcbc_encrypt``,
``DES_cfb_encrypt`` / ``DES_ede3_cfb_encrypt`` with numbits=1 through ctypes, ``openssl enc
-des-cfb1`` / ``-des-ede3-cfb1``; Triple-DES PCBC by its definition over pycryptodome's DES3."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from Crypto.Cipher import DES3
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades

from . import libdes
from .oracle import random_key

OPENSSL = shutil.which("openssl")
LEGACY = ["-provider", "legacy", "-provider", "default"]


def _cipher(key):
    return numbades.DES(key) if len(key) == 8 else numbades.TripleDES(key)


def _pcbc_reference(key: bytes, iv: bytes, data: bytes) -> bytes:
    """PCBC encryption: C_i = E(P_i ^ P_{i-1} ^ C_{i-1}), P_0 ^ C_0 = IV (libdes's rule)."""
    if len(key) == 8:
        return libdes.pcbc(key, iv, data, decrypt=False)
    ecb, chain, out = DES3.new(key, DES3.MODE_ECB), int.from_bytes(iv, "big"), b""
    for i in range(0, len(data), 8):
        p = int.from_bytes(data[i:i + 8], "big")
        c = ecb.encrypt((p ^ chain).to_bytes(8, "big"))
        out += c
        chain = p ^ int.from_bytes(c, "big")
    return out


def _chunks(ctx, data, step):
    return b"".join(ctx.update(data[i:i + step]) for i in range(0, len(data), step)) + ctx.finalize()


@pytest.mark.parametrize("size", [8, 16, 24])
def test_pcbc(size):
    rng = np.random.default_rng(size)
    key, iv = random_key(rng, size), rng.bytes(8)
    c = _cipher(key)
    for n in (0, 8, 16, 8 * 45):
        data = rng.bytes(n)
        want = _pcbc_reference(key, iv, data)
        assert c.encrypt(data, "pcbc", iv=iv) == want
        assert c.decrypt(want, "pcbc", iv=iv) == data
        if size == 8:
            assert libdes.pcbc(key, iv, want, decrypt=True) == data
        assert _chunks(c.encryptor("pcbc", iv=iv), data, 11) == want
        assert _chunks(c.decryptor("pcbc", iv=iv), want, 5) == data
        words = np.frombuffer(data, ">u8")
        np.testing.assert_array_equal(c.encrypt(words, "pcbc", iv=iv), np.frombuffer(want, ">u8"))
    data = rng.bytes(21)
    padded = c.encrypt(data, "pcbc", iv=iv, padding="pkcs7")
    assert padded == _pcbc_reference(key, iv, data + bytes([3]) * 3)
    assert c.decrypt(padded, "pcbc", iv=iv, padding="pkcs7") == data


@pytest.mark.parametrize("size", [8, 16, 24])
def test_cfb1_is_openssl(size):
    rng = np.random.default_rng(size + 100)
    key, iv = random_key(rng, size), rng.bytes(8)
    c = _cipher(key)
    for n in (0, 1, 7, 8, 9, 40):
        data = rng.bytes(n)
        want = libdes.cfb1(key, iv, data, decrypt=False)
        assert c.encrypt(data, "cfb1", iv=iv) == want
        assert c.decrypt(want, "cfb1", iv=iv) == data
        assert libdes.cfb1(key, iv, want, decrypt=True) == data
        assert _chunks(c.encryptor("cfb1", iv=iv), data, 3) == want
        assert _chunks(c.decryptor("cfb1", iv=iv), want, 7) == data
    data = rng.bytes(64)
    np.testing.assert_array_equal(  # uint64 input: whole blocks, the same bytes
        c.encrypt(np.frombuffer(data, ">u8"), "cfb1", iv=iv).astype(">u8").tobytes(),
        np.frombuffer(libdes.cfb1(key, iv, data, decrypt=False), np.uint8).tobytes())


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=24), st.integers(1, 9))
def test_cfb1_streaming_any_split(data, step):
    key, iv = bytes.fromhex("0123456789ABCDEF"), bytes(range(8))
    want = libdes.cfb1(key, iv, data, decrypt=False)
    assert _chunks(numbades.DES(key).encryptor("cfb1", iv=iv), data, step) == want


@pytest.mark.parametrize(("name", "size"), [("des-cfb1", 8), ("des-ede3-cfb1", 24)])
def test_openssl_enc_cfb1(name, size):
    if OPENSSL is None:
        pytest.skip("no openssl binary")
    rng = np.random.default_rng(size + 7)
    key, iv, data = random_key(rng, size), rng.bytes(8), rng.bytes(37)
    cmd = [OPENSSL, "enc", f"-{name}", "-K", key.hex(), "-iv", iv.hex(), *LEGACY]
    p = subprocess.run([*cmd, "-e"], input=data, capture_output=True, timeout=60, check=True)
    c = _cipher(key)
    assert c.encrypt(data, "cfb1", iv=iv) == p.stdout
    back = subprocess.run([*cmd, "-d"], input=p.stdout, capture_output=True, timeout=60, check=True)
    assert c.decrypt(p.stdout, "cfb1", iv=iv) == back.stdout == data


def test_desx_pcbc_and_cfb1():
    """DESX in both modes, by the modes' definitions over OpenSSL's DESX block."""
    rng = np.random.default_rng(3)
    key, iv, data = rng.bytes(24), rng.bytes(8), rng.bytes(32)
    x = numbades.DESX(key)

    def block(b: bytes) -> bytes:
        return libdes.xcbc(key, bytes(8), b, decrypt=False)

    chain, want = int.from_bytes(iv, "big"), b""
    for i in range(0, 32, 8):
        p = int.from_bytes(data[i:i + 8], "big")
        c = block((p ^ chain).to_bytes(8, "big"))
        want += c
        chain = p ^ int.from_bytes(c, "big")
    assert x.encrypt(data, "pcbc", iv=iv) == want
    assert x.decrypt(want, "pcbc", iv=iv) == data
    reg, bits = int.from_bytes(iv, "big"), []
    for n in range(8 * 5):
        bit = (data[n // 8] >> (7 - n % 8)) & 1
        o = bit ^ (block(reg.to_bytes(8, "big"))[0] >> 7)
        bits.append(o)
        reg = ((reg << 1) | o) & (2**64 - 1)
    want = bytes(sum(b << (7 - j) for j, b in enumerate(bits[k:k + 8])) for k in range(0, 40, 8))
    assert x.encrypt(data[:5], "cfb1", iv=iv) == want
    assert x.decrypt(want, "cfb1", iv=iv) == data[:5]


def test_errors():
    c = numbades.DES(bytes(range(8)))
    for mode in ("pcbc", "cfb1"):
        with pytest.raises(ValueError, match="needs an iv"):
            c.encrypt(bytes(8), mode)
        with pytest.raises(ValueError, match="8 bytes"):
            c.encrypt(bytes(8), mode, iv=bytes(7))
        with pytest.raises(ValueError, match="bitslice"):
            numbades.DES(bytes(8), "bitslice").encrypt(bytes(8), mode, iv=bytes(8))
        with pytest.raises(ValueError, match="many"):
            c.encrypt_many(np.zeros((2, 8), np.uint8), mode, ivs=np.zeros(2, np.uint64))
        with pytest.raises(ValueError):
            numbades.DESArray(np.zeros((2, 8), np.uint8)).encrypt(bytes(8), mode,
                                                                  ivs=np.zeros(2, np.uint64))
    with pytest.raises(ValueError, match="multiple of the 8-byte block"):
        c.encrypt(bytes(9), "pcbc", iv=bytes(8))
    with pytest.raises(ValueError, match="no padding"):
        c.encrypt(bytes(9), "cfb1", iv=bytes(8), padding="pkcs7")
    e = c.encryptor("pcbc", iv=bytes(8))
    e.update(bytes(5))
    with pytest.raises(ValueError, match="multiple of 8"):
        e.finalize()
