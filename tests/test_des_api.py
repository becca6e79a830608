"""DES against pycryptodome on random inputs, every engine and input kind; bad input."""

import numpy as np
import pytest
from Crypto.Cipher import DES as RefDES
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades

from .catalogue import ENGINES as VARIANTS


@settings(max_examples=30, deadline=None)
@given(key=st.binary(min_size=8, max_size=8), n=st.integers(0, 300),
       variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_matches_pycryptodome(key, n, variant, seed):
    data = np.random.default_rng(seed).bytes(8 * n)
    ref = RefDES.new(key, RefDES.MODE_ECB)
    c = numbades.DES(key, variant)
    ct = c.encrypt(data)
    assert ct == ref.encrypt(data)
    assert c.decrypt(ct) == data
    assert c.encrypt(bytearray(data)) == bytearray(ct)
    arr = np.frombuffer(data, dtype=np.uint8).reshape(-1, 8) if n else np.zeros(0, np.uint8)
    assert c.encrypt(arr).tobytes() == ct
    be = np.frombuffer(data, dtype=">u8")
    assert c.encrypt(be).tobytes() == ct
    native = be.astype(np.uint64)
    got = c.encrypt(native)
    assert got.dtype == np.uint64 and got.astype(">u8").tobytes() == ct


def test_in_place_and_out():
    key = bytes(range(8))
    data = np.random.default_rng(1).integers(0, 256, 8 * 5000, dtype=np.uint8)
    ref = RefDES.new(key, RefDES.MODE_ECB).encrypt(data.tobytes())
    for v in VARIANTS:
        buf = data.copy()
        assert numbades.DES(key, v).encrypt(buf, out=buf) is buf
        assert buf.tobytes() == ref


@pytest.mark.parametrize("variant", VARIANTS)
def test_weak_keys_are_involutions(variant):
    data = np.random.default_rng(2).bytes(8 * 100)
    for k in ("0101010101010101", "FEFEFEFEFEFEFEFE", "E0E0E0E0F1F1F1F1", "1F1F1F1F0E0E0E0E"):
        key = bytes.fromhex(k)
        assert numbades.is_weak_key(key)
        c = numbades.DES(key, variant)
        assert c.encrypt(c.encrypt(data)) == data


def test_key_helpers():
    assert numbades.has_odd_parity(numbades.set_odd_parity(b"\x00" * 8))
    assert not numbades.has_odd_parity(b"\x00" * 8)
    assert numbades.is_weak_key(b"\x00" * 8)  # parity bits ignored
    assert numbades.is_semi_weak_key(bytes.fromhex("01FE01FE01FE01FE"))
    assert not numbades.is_weak_key(bytes.fromhex("01FE01FE01FE01FE"))
    assert not numbades.is_semi_weak_key(bytes.fromhex("0123456789ABCDEF"))


@pytest.mark.parametrize(
    ("kwargs", "exc"),
    [
        ({"key": b"short"}, ValueError),
        ({"key": "8 chars!"}, TypeError),
        ({"key": b"\x00" * 8, "variant": "nope"}, ValueError),
        ({"key": b"\x00" * 8, "check_parity": True}, ValueError),
    ],
)
def test_bad_keys(kwargs, exc):
    with pytest.raises(exc):
        numbades.DES(**kwargs)


@pytest.mark.parametrize(
    ("data", "exc"),
    [
        (b"1234567", ValueError),
        (np.zeros(8, dtype=np.float64), TypeError),
        (np.zeros(8, dtype=np.int64), TypeError),
        (np.zeros(2, dtype=object), TypeError),
        ("a str!!!", TypeError),
    ],
)
def test_bad_data(data, exc):
    with pytest.raises(exc):
        numbades.DES(b"\x01" * 8).encrypt(data)


def test_bad_out_untouched():
    c = numbades.DES(b"\x01" * 8)
    out = np.full(15, 7, dtype=np.uint8)
    with pytest.raises(ValueError):
        c.encrypt(b"\x00" * 16, out=out)
    assert (out == 7).all()
    ro = np.zeros(16, dtype=np.uint8)
    ro.setflags(write=False)
    with pytest.raises(TypeError):
        c.encrypt(b"\x00" * 16, out=ro)
    with pytest.raises(TypeError):
        c.encrypt(b"\x00" * 16, out=bytes(16))
    with pytest.raises(ValueError):
        c.encrypt(b"\x00" * 16, mode="xts")
