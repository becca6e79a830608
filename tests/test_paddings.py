"""ISO/IEC 9797-1 paddings for encrypt/decrypt (docs/api.md, Modes): ``iso7816`` (method 2)
against pycryptodome's ``Crypto.Util.Padding``, ``zeros`` (method 1) against its definition
over pycryptodome's cipher; one-shot and streaming, ECB and CBC, DES and Triple-DES."""

from __future__ import annotations

import numpy as np
import pytest
from Crypto.Util.Padding import pad, unpad
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades

from .oracle import random_key, ref_decrypt, ref_encrypt


def _zeros(data: bytes) -> bytes:
    """ISO/IEC 9797-1 method 1: zero bytes up to a positive multiple of 8."""
    return data + bytes(-len(data) % 8) if data else bytes(8)


PAD = {"iso7816": lambda d: pad(d, 8, "iso7816"), "zeros": _zeros,
       "pkcs7": lambda d: pad(d, 8, "pkcs7")}


def _cipher(size, seed):
    key = random_key(np.random.default_rng(seed), size)
    return key, (numbades.DES(key) if size == 8 else numbades.TripleDES(key))


@pytest.mark.parametrize("scheme", ["iso7816", "zeros"])
@pytest.mark.parametrize("mode", ["ecb", "cbc"])
@pytest.mark.parametrize("size", [8, 16, 24])
def test_one_shot_and_streaming(scheme, mode, size):
    key, c = _cipher(size, [size, len(mode), len(scheme)])
    iv = bytes(range(8)) if mode == "cbc" else None
    for n in (0, 1, 7, 8, 9, 16, 23, 100):
        data = bytes((i * 7 + n) & 0xFF for i in range(n))
        want = ref_encrypt(key, mode, iv, PAD[scheme](data))
        got = c.encrypt(data, mode, iv=iv, padding=scheme)
        assert got == want, n
        e = c.encryptor(mode, iv=iv, padding=scheme)
        assert b"".join(e.update(data[i:i + 3]) for i in range(0, n, 3)) + e.finalize() == want
        plain = data if scheme == "iso7816" else PAD[scheme](data)  # zeros stay
        assert c.decrypt(got, mode, iv=iv, padding=scheme) == plain
        d = c.decryptor(mode, iv=iv, padding=scheme)
        assert b"".join(d.update(got[i:i + 5]) for i in range(0, len(got), 5)) + d.finalize() == plain
        if scheme == "iso7816":
            assert unpad(ref_decrypt(key, mode, iv, got), 8, "iso7816") == data


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=40), st.sampled_from(["iso7816", "zeros", "pkcs7"]))
def test_any_message(data, scheme):
    key = bytes.fromhex("0123456789ABCDEFFEDCBA98765432100123456789ABCDEF")[:16]
    c = numbades.TripleDES(key)
    iv = b"\x01" * 8
    ct = c.encrypt(np.frombuffer(data, np.uint8), "cbc", iv=iv, padding=scheme)
    assert ct.tobytes() == ref_encrypt(key, "cbc", iv, PAD[scheme](data))
    back = c.decrypt(bytearray(ct.tobytes()), "cbc", iv=iv, padding=scheme)
    assert bytes(back) == (_zeros(data) if scheme == "zeros" else data)


def test_bad_iso7816_padding_is_refused_uniformly():
    key, c = _cipher(8, 1)
    for last in (bytes(8), b"\x80" + bytes(6) + b"\x01", b"abcdefg\x81", b"abc\x80\x00\x00\x00\x02"):
        ct = ref_encrypt(key, "ecb", None, b"12345678" + last)
        with pytest.raises(ValueError, match=r"^bad ISO/IEC 7816-4 padding \(wrong key"):
            c.decrypt(ct, padding="iso7816")
        d = c.decryptor(padding="iso7816")
        d.update(ct)
        with pytest.raises(ValueError, match="ISO/IEC 7816-4"):
            d.finalize()
    ct = ref_encrypt(key, "ecb", None, b"1234567\x80")
    assert c.decrypt(ct, padding="iso7816") == b"1234567"
    out = np.zeros(7, np.uint8)
    assert c.decrypt(ct, padding="iso7816", out=out) is out and out.tobytes() == b"1234567"


def test_padding_errors():
    _key, c = _cipher(8, 2)
    for bad in ("ISO7816", "x923", "iso9797"):
        with pytest.raises(ValueError, match="unknown padding"):
            c.encrypt(b"abc", padding=bad)
    with pytest.raises(ValueError, match="no padding"):
        c.encrypt(b"abc", "ctr", iv=bytes(8), padding="zeros")
    with pytest.raises(TypeError):
        c.encrypt(np.zeros(2, np.uint64), padding="iso7816")
    with pytest.raises(ValueError, match="not a multiple of the 8-byte block"):
        c.decrypt(b"1234567", padding="zeros")
    out = np.zeros(8, np.uint8)
    with pytest.raises(ValueError):  # zeros: the ciphertext's length exactly
        c.decrypt(bytes(16), padding="zeros", out=out)
    assert not out.any()
