"""Keys (docs/api.md, Keys): random_key, string_to_key(s) against OpenSSL's libdes,
TripleDES(allow_degenerate=True) against pycryptodome's DES, and KCVs over mixed key sizes."""

from __future__ import annotations

import numpy as np
import pytest
from Crypto.Cipher import DES, DES3
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades

from . import libdes

PASSWORDS = [b"", b"a", b"password", b"12345678", b"123456789", b"sixteen bytes!!!",
             b"seventeen bytes!!", b"x" * 31, b"y" * 32, b"z" * 33, b"\xe9t\xe9 \xff\x80",
             bytes(range(1, 100))]


@pytest.mark.parametrize("password", PASSWORDS)
def test_string_to_key_is_libdes(password):
    assert numbades.string_to_key(password) == libdes.string_to_key(password)
    assert numbades.string_to_2keys(password) == libdes.string_to_2keys(password)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=70).filter(lambda b: b"\0" not in b))
def test_string_to_key_any_password(password):
    assert numbades.string_to_key(password) == libdes.string_to_key(password)
    assert numbades.string_to_2keys(password) == libdes.string_to_2keys(password)


def test_string_to_key_inputs():
    assert numbades.string_to_key("pässword") == libdes.string_to_key("pässword".encode())
    assert numbades.string_to_key(bytearray(b"abc")) == libdes.string_to_key(b"abc")
    with pytest.raises(ValueError, match="NUL"):
        numbades.string_to_key(b"a\0b")
    for bad in (None, 5, ["a"]):
        with pytest.raises(TypeError):
            numbades.string_to_key(bad)
        with pytest.raises(TypeError):
            numbades.string_to_2keys(bad)


@pytest.mark.parametrize("size", [8, 16, 24])
def test_random_key(size):
    keys = {numbades.random_key(size) for _ in range(200)}
    assert len(keys) == 200
    for key in keys:
        assert len(key) == size and numbades.has_odd_parity(key)
        parts = [key[i:i + 8] for i in range(0, size, 8)]
        assert len(set(parts)) == len(parts)
        assert not any(numbades.is_weak_key(p) or numbades.is_semi_weak_key(p) for p in parts)
        if size > 8:
            DES3.adjust_key_parity(key)  # pycryptodome refuses degenerate keys
            numbades.TripleDES(key)
    assert len(numbades.random_key()) == 8
    for bad, err in ((7, ValueError), (32, ValueError), (8.0, TypeError), (True, TypeError)):
        with pytest.raises(err):
            numbades.random_key(bad)


def test_random_key_never_weak(monkeypatch):
    """A drawn weak, semi-weak or degenerate key is drawn again."""
    draws = iter([bytes.fromhex("0101010101010101"), bytes.fromhex("01FE01FE01FE01FE"),
                  bytes.fromhex("0123456789ABCDEF")])
    monkeypatch.setattr(numbades.keygen.secrets, "token_bytes", lambda n: next(draws))
    assert numbades.random_key(8) == numbades.set_odd_parity(bytes.fromhex("0123456789ABCDEF"))
    draws = iter([bytes.fromhex("0123456789ABCDEF0123456789ABCDEF"),
                  bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")])
    monkeypatch.setattr(numbades.keygen.secrets, "token_bytes", lambda n: next(draws))
    assert numbades.random_key(16) == bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")


@pytest.mark.parametrize("mode", ["ecb", "cbc"])
@pytest.mark.parametrize("layout", ["K1K1K3", "K1K2K2", "K1K1", "K1K1K1"])
def test_allow_degenerate_is_single_des(layout, mode):
    rng = np.random.default_rng(len(layout) + len(mode))
    k1, k2, k3 = (rng.bytes(8) for _ in range(3))
    key = {"K1K1K3": k1 + k1 + k3, "K1K2K2": k1 + k2 + k2, "K1K1": k1 + k1,
           "K1K1K1": k1 + k1 + k1}[layout]
    single = k3 if layout == "K1K1K3" else k1  # E_K3(D_K1(E_K1 P)) = E_K3 P; E_K1 D_K2 E_K2 = E_K1
    with pytest.raises(ValueError, match="allow_degenerate"):
        numbades.TripleDES(key)
    t = numbades.TripleDES(key, allow_degenerate=True)
    data, iv = rng.bytes(8 * 40), rng.bytes(8)
    ref = DES.new(single, DES.MODE_ECB) if mode == "ecb" else DES.new(single, DES.MODE_CBC, iv=iv)
    kw = {"iv": iv} if mode == "cbc" else {}
    assert t.encrypt(data, mode, **kw) == ref.encrypt(data)
    assert t.decrypt(t.encrypt(data, mode, **kw), mode, **kw) == data


def test_allow_degenerate_key_arrays():
    rng = np.random.default_rng(7)
    keys = rng.integers(0, 256, (5, 24), dtype=np.uint8)
    keys[2, 8:16] = keys[2, :8]  # K1 == K2: single DES under K3
    keys[4, 16:] = keys[4, 8:16]  # K2 == K3: single DES under K1
    with pytest.raises(ValueError, match="rows 2, 4"):
        numbades.TripleDESArray(keys)
    a = numbades.TripleDESArray(keys, allow_degenerate=True)
    data = rng.integers(0, 256, (5, 16), dtype=np.uint8)
    got = a.encrypt(data)
    assert got[2].tobytes() == DES.new(keys[2, 16:].tobytes(), DES.MODE_ECB).encrypt(data[2].tobytes())
    assert got[4].tobytes() == DES.new(keys[4, :8].tobytes(), DES.MODE_ECB).encrypt(data[4].tobytes())
    assert got[0].tobytes() == DES3.new(keys[0].tobytes(), DES3.MODE_ECB).encrypt(data[0].tobytes())
    assert a[2].encrypt(data[2].tobytes()) == got[2].tobytes()


def test_key_check_values_mixed_sizes():
    rng = np.random.default_rng(11)
    sizes = [16, 8, 24, 24, 8, 16, 16]
    keys = [numbades.random_key(n) for n in sizes]
    want = [(DES if len(k) == 8 else DES3).new(k, DES.MODE_ECB).encrypt(bytes(8))[:3] for k in keys]
    got = numbades.key_check_values(keys)
    assert got.shape == (len(keys), 3) and [r.tobytes() for r in got] == want
    assert numbades.key_check_values([bytearray(keys[0]), memoryview(keys[1])], 8).shape == (2, 8)
    bad = [*keys, keys[0][:8] * 2]
    with pytest.raises(ValueError, match=r"degenerate.*row 7$"):
        numbades.key_check_values(bad)
    with pytest.raises(ValueError, match="key 2 is 12 bytes"):
        numbades.key_check_values([keys[0], keys[1], rng.bytes(12)])
    with pytest.raises(TypeError, match="key 1"):
        numbades.key_check_values([keys[0], "x" * 8])
