"""Key arrays (docs/api.md, Key arrays): row i under key i against a pycryptodome loop; KCVs.

Every engine path is covered: the table variant (few keys, and forced) and
bitslice with one key per lane (many keys, and forced), across the policy
threshold and the awkward sizes of a 2048-lane pass.
"""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from Crypto.Cipher import DES, DES3

import numbades
from numbades.des.keybits import ROUND_KEY_BITS
from numbades.des.keyschedule_ref import subkeys48
from numbades.tuning import policy

from .catalogue import MANY_MODES as MODES
from .oracle import pycryptodome

THRESHOLD = policy.KEY_ROWS_BITSLICE_MIN_ROWS
LONG = policy.KEY_ROWS_BITSLICE_MIN_ROWS_LONG


def test_auto_picks_by_rows_and_blocks():
    auto = policy.resolve("auto")
    ecb = numbades.engines.chains.ECB_ENCRYPT
    assert policy.pick_key_rows(auto, ecb, THRESHOLD - 1, 1) != "bitslice"
    assert policy.pick_key_rows(auto, ecb, THRESHOLD, 1) == "bitslice"
    assert policy.pick_key_rows(auto, ecb, LONG - 1, 2) != "bitslice"
    assert policy.pick_key_rows(auto, ecb, LONG, 2) == "bitslice"


def test_round_key_bits_are_the_key_schedule():
    rng = random.Random(5)
    for _ in range(50):
        key = rng.getrandbits(64)
        for r, k in enumerate(subkeys48(key)):
            bits = [(key >> (64 - n)) & 1 for n in ROUND_KEY_BITS[r]]
            assert int("".join(map(str, bits)), 2) == k


def _keys(rng, n, size):
    """n random keys of ``size`` bytes that pycryptodome's DES3 accepts."""
    keys = rng.integers(0, 256, (n, size), dtype=np.uint8)
    if size > 8:
        k = keys.reshape(n, -1, 8) & 0xFE
        k3 = k[:, 2] if size == 24 else k[:, 0]
        bad = (k[:, 0] == k[:, 1]).all(1) | (k[:, 1] == k3).all(1)
        keys[bad, 8] ^= 0x10
    return keys


@functools.cache
def _case(n, size, nbytes, mode, seed=0):
    rng = np.random.default_rng([n, size, nbytes, seed])
    keys = _keys(rng, n, size)
    data = rng.integers(0, 256, (n, nbytes), dtype=np.uint8)
    ivs = rng.integers(0, 256, (n, 8), dtype=np.uint8)
    if mode == "ctr" and n > 1:
        ivs[1] = 0xFF  # this row's counter wraps around 2**64
    enc, dec = [], []
    for i in range(n):
        iv = None if mode == "ecb" else ivs[i].tobytes()
        enc.append(pycryptodome(keys[i].tobytes(), mode, iv).encrypt(data[i].tobytes()))
        dec.append(pycryptodome(keys[i].tobytes(), mode, iv).decrypt(data[i].tobytes()))
    as_rows = lambda parts: np.frombuffer(b"".join(parts), np.uint8).reshape(n, nbytes)
    return keys, data, ivs, as_rows(enc), as_rows(dec)


def _array(keys, variant="auto"):
    cls = numbades.DESArray if keys.shape[1] == 8 else numbades.TripleDESArray
    return cls(keys, variant)


def _kw(mode, ivs):
    return {} if mode == "ecb" else {"ivs": ivs}


@pytest.mark.parametrize("n", sorted({1, THRESHOLD - 1, THRESHOLD, LONG - 1, LONG, 63, 65, 2047,
                                       2048, 2049}))
@pytest.mark.parametrize("size", [8, 24])
def test_rows_match_a_loop_of_pycryptodome_ciphers(n, size):
    """Every mode both ways under auto, for N on both sides of the threshold and of a pass."""
    for mode in MODES:
        keys, data, ivs, enc, dec = _case(n, size, 16, mode)
        a = _array(keys)
        np.testing.assert_array_equal(a.encrypt(data, mode, **_kw(mode, ivs)), enc)
        np.testing.assert_array_equal(a.decrypt(data, mode, **_kw(mode, ivs)), dec)


@pytest.mark.parametrize("variant", ["table+unroll+risc2+ptr", "bitslice"])
@pytest.mark.parametrize("size", [8, 16, 24])
@pytest.mark.parametrize("mode", MODES)
def test_forced_engines(variant, size, mode):
    keys, data, ivs, enc, dec = _case(70, size, 40, mode)
    a = _array(keys, variant)
    assert a.variant == variant
    np.testing.assert_array_equal(a.encrypt(data, mode, **_kw(mode, ivs)), enc)
    np.testing.assert_array_equal(a.decrypt(data, mode, **_kw(mode, ivs)), dec)


@pytest.mark.parametrize("n", [5, 300])
def test_input_kinds_and_ivs(n):
    keys, data, ivs, enc, _ = _case(n, 8, 24, "cbc")
    a = numbades.DESArray(keys)
    words = data.view(">u8").astype(np.uint64)  # (n, 3) block values
    iv64 = ivs.view(">u8").reshape(-1).astype(np.uint64)
    want64 = enc.view(">u8").astype(np.uint64)
    np.testing.assert_array_equal(a.encrypt(words, "cbc", ivs=iv64), want64)
    big = data.view(">u8")
    got = a.encrypt(big, "cbc", ivs=ivs)
    assert got.dtype == big.dtype and np.array_equal(got.astype(np.uint64), want64)
    # (N,) uint64: one block per key; keys as (N,) uint64 and as a list of bytes
    one = words[:, 0].copy()
    want = np.array([DES.new(k.tobytes(), DES.MODE_ECB).encrypt(int(b).to_bytes(8, "big"))
                     for k, b in zip(keys, one, strict=True)], dtype=object)
    want = np.array([int.from_bytes(w, "big") for w in want], dtype=np.uint64)
    for k in (keys.view(">u8").reshape(-1), keys.view(">u8").reshape(-1).astype("<u8"),
              [bytes(k) for k in keys], [memoryview(bytearray(k)) for k in keys]):
        np.testing.assert_array_equal(numbades.DESArray(k).encrypt(one), want)


def test_one_message_under_every_key():
    keys, _, ivs, _, _ = _case(100, 24, 8, "ctr")
    msg = b"a message of 29 bytes, CTR!!"
    want = np.array([np.frombuffer(pycryptodome(k.tobytes(), "ctr", iv.tobytes()).encrypt(msg),
                                   np.uint8) for k, iv in zip(keys, ivs, strict=True)])
    a = numbades.TripleDESArray(keys)
    for data in (msg, bytearray(msg), memoryview(msg), np.frombuffer(msg, np.uint8),
                 np.frombuffer(msg, np.uint8).reshape(1, -1)):
        got = a.encrypt(data, "ctr", ivs=ivs)
        assert got.shape == (100, len(msg)) and got.dtype == np.uint8
        np.testing.assert_array_equal(got, want)
    block = np.array([[0x0123456789ABCDEF]], dtype=np.uint64)
    got = a.encrypt(block)
    assert got.shape == (100, 1)
    for i in (0, 99):
        assert int(got[i, 0]).to_bytes(8, "big") == DES3.new(
            keys[i].tobytes(), DES3.MODE_ECB).encrypt(bytes.fromhex("0123456789abcdef"))


@pytest.mark.parametrize("n", [10, 200])
@pytest.mark.parametrize("mode", ["cfb", "ofb", "ctr"])
def test_stream_modes_take_any_length(n, mode):
    keys, data, ivs, enc, dec = _case(n, 16, 13, mode)
    a = numbades.TripleDESArray(keys)
    np.testing.assert_array_equal(a.encrypt(data, mode, ivs=ivs), enc)
    np.testing.assert_array_equal(a.decrypt(data, mode, ivs=ivs), dec)


@pytest.mark.parametrize("n", [10, 200])
def test_out_in_place_and_overlapping(n):
    keys, data, ivs, enc, _ = _case(n, 8, 16, "cbc")
    a = numbades.DESArray(keys)
    out = np.empty_like(data)
    assert a.encrypt(data, "cbc", ivs=ivs, out=out) is out
    np.testing.assert_array_equal(out, enc)
    buf = data.copy()
    assert a.encrypt(buf, "cbc", ivs=ivs, out=buf) is buf  # in place
    np.testing.assert_array_equal(buf, enc)
    wide = np.zeros(data.size + 8, np.uint8)
    wide[:data.size] = data.reshape(-1)
    src = wide[:data.size].reshape(n, 16)
    dst = wide[8:].reshape(n, 16)  # one block ahead of the input: partial overlap
    a.encrypt(src, "cbc", ivs=ivs, out=dst)
    np.testing.assert_array_equal(dst, enc)
    class Sub(np.ndarray):
        pass

    sub_out = np.empty_like(data).view(Sub)
    assert a.encrypt(data.view(Sub), "cbc", ivs=ivs.view(Sub), out=sub_out) is sub_out
    np.testing.assert_array_equal(np.asarray(sub_out), enc)


def test_bad_out_is_refused_before_any_work():
    keys, data, ivs, _, _ = _case(5, 8, 16, "cbc")
    a = numbades.DESArray(keys)
    for out, err in ((bytearray(80), TypeError), (np.empty((5, 16), np.uint16), TypeError),
                     (np.empty((5, 8), np.uint8), ValueError),
                     (np.empty((5, 32), np.uint8)[:, ::2], ValueError)):
        with pytest.raises(err):
            a.encrypt(data, "cbc", ivs=ivs, out=out)
    ro = np.zeros_like(data)
    ro.setflags(write=False)
    with pytest.raises(TypeError, match="read-only"):
        a.encrypt(data, "cbc", ivs=ivs, out=ro)
    words = data.view(">u8")
    with pytest.raises(TypeError, match="dtype"):  # the other byte order would hold other values
        a.encrypt(words, "cbc", ivs=ivs, out=np.empty(words.shape, "<u8"))
    with pytest.raises(TypeError, match="masked"):
        a.encrypt(np.ma.masked_array(data), "cbc", ivs=ivs)


def test_bad_data_ivs_and_modes():
    keys, data, ivs, _, _ = _case(5, 8, 16, "cbc")
    a = numbades.DESArray(keys)
    with pytest.raises(ValueError, match="rows"):
        a.encrypt(data[:4], "cbc", ivs=ivs)
    with pytest.raises(ValueError, match="multiple of the 8-byte block"):
        a.encrypt(data[:, :12], "cbc", ivs=ivs)
    with pytest.raises(ValueError, match="one block per key"):
        a.encrypt(np.zeros(4, np.uint64))
    with pytest.raises(TypeError):
        a.encrypt(data.astype(np.int64))
    with pytest.raises(TypeError):
        a.encrypt("text")
    with pytest.raises(ValueError, match="2-D"):
        a.encrypt(data.reshape(5, 2, 8))
    with pytest.raises(ValueError, match="needs ivs"):
        a.encrypt(data, "cbc")
    with pytest.raises(ValueError, match="ECB takes no ivs"):
        a.encrypt(data, "ecb", ivs=ivs)
    with pytest.raises(ValueError, match="shape"):
        a.encrypt(data, "cbc", ivs=ivs[:4])
    with pytest.raises(ValueError, match="not available"):
        a.encrypt(data, "cfb8", ivs=ivs)
    with pytest.raises(ValueError, match="unknown mode"):
        a.encrypt(data, "gcm")
    with pytest.raises(TypeError):
        a.encrypt(data, 3)


def test_keys_are_checked_per_row():
    good = _keys(np.random.default_rng(3), 10, 24)
    bad = good.copy()
    bad[[4, 7], 8:16] = bad[[4, 7], 0:8] ^ 0x01  # K2 == K1 up to parity
    with pytest.raises(ValueError, match=r"degenerate.*rows 4, 7$"):
        numbades.TripleDESArray(bad)
    two = good[:, :16].copy()
    two[2, 8:16] = two[2, :8]
    with pytest.raises(ValueError, match=r"row 2$"):
        numbades.TripleDESArray(two)
    keys = np.array([numbades.set_odd_parity(bytes(k)) for k in good[:, :8]])
    keys = np.frombuffer(b"".join(keys), np.uint8).reshape(10, 8).copy()
    numbades.DESArray(keys, check_parity=True)
    keys[[1, 3, 5, 6, 8, 9], 0] ^= 1
    with pytest.raises(ValueError, match=r"parity.*rows 1, 3, 5, 6, 8 and 1 more"):
        numbades.DESArray(keys, check_parity=True)
    numbades.DESArray(keys)  # parity is ignored by default
    for keys, err in ((np.zeros((3, 9), np.uint8), ValueError), (np.zeros((3, 8), np.int8), TypeError),
                      (b"12345678" * 3, TypeError), ("keys", TypeError), (12, TypeError),
                      ([b"12345678", "12345678"], TypeError), ([b"12345678", b"1234567"], ValueError),
                      (np.zeros((3, 1), np.uint64), ValueError)):
        with pytest.raises(err):
            numbades.DESArray(keys)
    with pytest.raises(TypeError):
        numbades.TripleDESArray(np.zeros(3, np.uint64))
    with pytest.raises(ValueError):
        numbades.TripleDESArray([bytes(16), bytes(24)])
    with pytest.raises(ValueError):
        numbades.DESArray(np.zeros((3, 8), np.uint8), variant="nope")


def test_len_indexing_and_repr():
    keys = _keys(np.random.default_rng(4), 6, 16)
    a = numbades.TripleDESArray(keys, "bitslice")
    assert len(a) == 6 and a.key_size == 16
    one = a[-1]
    assert isinstance(one, numbades.TripleDES) and one.variant == "bitslice"
    assert one.encrypt(bytes(8)) == DES3.new(keys[5].tobytes(), DES3.MODE_ECB).encrypt(bytes(8))
    assert keys[0].tobytes().hex() not in repr(a) and "6 keys" in repr(a)
    with pytest.raises(IndexError):
        a[6]
    with pytest.raises(TypeError):
        a[1:3]
    d = numbades.DESArray(keys[:, :8])
    assert d[2].encrypt(b"12345678") == DES.new(keys[2, :8].tobytes(), DES.MODE_ECB).encrypt(
        b"12345678")
    empty = numbades.DESArray(np.zeros((0, 8), np.uint8))
    assert len(empty) == 0 and empty.encrypt(np.zeros((0, 8), np.uint8)).shape == (0, 8)


# Published values: E_K(0) for K = 0123456789ABCDEF is D5D44FF720683D0D and for
# the all-zero-bits key 0101010101010101 it is 8CA64DE9C1B123A7 (the DES validation
# values of NBS SP 500-20 and Rivest's test); the two-key Triple-DES key
# 0123456789ABCDEF FEDCBA9876543210 has the KCV 08D7B4, the example used
# throughout payment-HSM documentation.
PUBLISHED_KCVS = [
    ("0123456789ABCDEF", "D5D44F"),
    ("0101010101010101", "8CA64D"),
    ("0123456789ABCDEFFEDCBA9876543210", "08D7B4"),
    ("0123456789ABCDEFFEDCBA98765432100123456789ABCDEF", "08D7B4"),
]


@pytest.mark.parametrize(("key", "kcv"), PUBLISHED_KCVS)
def test_published_key_check_values(key, kcv):
    got = numbades.key_check_values([bytes.fromhex(key)])
    assert got.shape == (1, 3) and got[0].tobytes().hex().upper() == kcv


@pytest.mark.parametrize("n", [3, 2049])
@pytest.mark.parametrize("size", [8, 16, 24])
def test_key_check_values_match_a_loop(n, size):
    keys = _keys(np.random.default_rng(n + size), n, size)
    want = np.array([np.frombuffer(pycryptodome(k.tobytes(), "ecb").encrypt(bytes(8))[:4],
                                   np.uint8) for k in keys])
    np.testing.assert_array_equal(numbades.key_check_values(keys, length=4), want)
    np.testing.assert_array_equal(numbades.key_check_values([bytes(k) for k in keys])[:, :3],
                                  want[:, :3])
    arr = _array(keys)
    np.testing.assert_array_equal(arr.key_check_values(2), want[:, :2])
    if size == 8:
        np.testing.assert_array_equal(
            numbades.key_check_values(keys.view(">u8").reshape(-1), 4), want)


def test_key_check_values_bad_input():
    for length, err in ((0, ValueError), (9, ValueError), (3.0, TypeError), (True, TypeError)):
        with pytest.raises(err):
            numbades.key_check_values([bytes(8)], length)
    with pytest.raises(TypeError):
        numbades.key_check_values(b"12345678")
    with pytest.raises(ValueError, match="degenerate"):
        numbades.key_check_values([bytes(16)])


def test_key_check_values_name_every_key_width():
    """8-, 16- and 24-byte keys are all accepted, so a refusal names all three (issue 39, item 5)."""
    for keys in (np.zeros((2, 32), np.uint8), np.zeros((2, 12), np.uint8), np.zeros(16, np.uint8),
                 [bytes(32)], [bytes(5), bytes(5)]):
        with pytest.raises(ValueError, match=r"8-, 16- or 24-byte keys.*\(N, 8\), \(N, 16\) or "
                                             r"\(N, 24\)"):
            numbades.key_check_values(keys)


def test_key_arrays_do_not_wait_for_bitslice(monkeypatch):
    """Many keys while bitslice is not compiled: a table variant serves (issue 39, item 1)."""
    from numbades.engines.registry import KEY_ROWS_ENGINES
    from numbades.tuning import warmup

    bitslice = KEY_ROWS_ENGINES["bitslice"]
    monkeypatch.setenv("NUMBADES_BACKGROUND_COMPILE", "1")
    monkeypatch.setattr(bitslice, "key_rows_ready", lambda: False)
    asked = []  # as if another process were compiling it: nothing started here
    monkeypatch.setattr(warmup, "claim_compile_lock", lambda name: asked.append(name))

    def must_not_run(*args):
        raise AssertionError("key rows went to the bitslice engine while it was not compiled")

    monkeypatch.setattr(bitslice, "key_rows", must_not_run)
    keys = _keys(np.random.default_rng(39), LONG, 16)
    want = np.array([np.frombuffer(pycryptodome(k.tobytes(), "ecb").encrypt(bytes(8))[:3],
                                   np.uint8) for k in keys])
    np.testing.assert_array_equal(numbades.key_check_values(keys), want)
    data = np.random.default_rng(1).integers(0, 256, (LONG, 16), dtype=np.uint8)
    ivs = np.zeros((LONG, 8), np.uint8)
    got = numbades.TripleDESArray(keys).encrypt(data, "cbc", ivs=ivs)
    for i in (0, LONG - 1):
        assert got[i].tobytes() == pycryptodome(keys[i].tobytes(), "cbc", bytes(8)).encrypt(
            data[i].tobytes())
    assert asked and set(asked) == {"bitslice"}
