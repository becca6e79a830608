"""Every mode and key size against pycryptodome on random inputs (docs/api.md, Modes/Data).

pycryptodome mapping: cfb -> MODE_CFB segment_size=64, cfb8 -> segment_size=8,
ctr -> MODE_CTR nonce=b"" initial_value=int(iv) (see tests/oracle.py).
"""

import numpy as np
import pytest
from Crypto.Cipher import DES as RefDES
from Crypto.Util.Padding import pad, unpad
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades

from .catalogue import (
    ANY_LENGTH_MODES,
    ENGINE_MODES,
    ENGINES,
    EVERY_MODE,
    MANY_MODES,
    MODES,
    PADDED_MODES,
    TABLE,
)
from .catalogue import BYTE_MODES as ANY_LENGTH
from .oracle import pycryptodome, random_key, ref_decrypt, ref_encrypt

KEY_SIZES = [8, 16, 24]
# auto, bitslice and three table variants spread over the family (all 12 get the CAVP files)
VARIANTS = ["auto", "bitslice", TABLE[0], TABLE[5], TABLE[-1]]
KINDS = ["bytes", "bytearray", "memoryview", "u8", "u8-2d", "u64", "u64-be"]


def _cipher(key, variant="auto"):
    return numbades.DES(key, variant) if len(key) == 8 else numbades.TripleDES(key, variant)


def _kw(mode, iv):
    return {} if mode == "ecb" else {"iv": iv}


def _as_kind(data: bytes, kind: str):
    if kind == "bytes":
        return data
    if kind == "bytearray":
        return bytearray(data)
    if kind == "memoryview":
        return memoryview(data)
    if kind == "u8":
        return np.frombuffer(data, np.uint8).copy()
    if kind == "u8-2d":
        return np.frombuffer(data, np.uint8).reshape(-1, 8 if len(data) % 8 == 0 else 1).copy()
    if kind == "u64":
        return np.frombuffer(data, ">u8").astype(np.uint64)
    if kind == "u64-be":
        return np.frombuffer(data, ">u8").copy()
    raise AssertionError(kind)


def _raw(x) -> bytes:
    """The bytes a result stands for (uint64 elements read big-endian)."""
    if isinstance(x, np.ndarray) and x.dtype.itemsize == 8:
        return x.astype(">u8").tobytes()
    if isinstance(x, np.ndarray):
        return x.tobytes()
    return bytes(x)


def _same_kind(got, like):
    assert type(got) is type(like), (type(got), type(like))
    if isinstance(like, np.ndarray):
        assert got.shape == like.shape and got.dtype == like.dtype, (got.shape, got.dtype)


@st.composite
def cases(draw, modes=MODES, max_blocks=40):
    mode = draw(st.sampled_from(modes))
    ksize = draw(st.sampled_from(KEY_SIZES))
    if mode in ANY_LENGTH:
        n = draw(st.one_of(st.integers(0, 9), st.integers(0, 8 * max_blocks + 7)))
    else:
        n = 8 * draw(st.integers(0, max_blocks))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    return mode, random_key(rng, ksize), rng.bytes(8), rng.bytes(n)


@settings(max_examples=120, deadline=None)
@given(case=cases(), variant=st.sampled_from(VARIANTS), kind=st.sampled_from(KINDS))
def test_matches_pycryptodome(case, variant, kind):
    mode, key, iv, data = case
    if kind.startswith("u64"):  # whole blocks only
        data = data[: len(data) // 8 * 8]
    iv = None if mode == "ecb" else iv
    c = _cipher(key, variant)
    if mode == "cfb8" and variant == "bitslice":
        with pytest.raises(ValueError, match=r"(?i)cfb-?8|bitslice"):
            c.encrypt(data, mode, iv=iv)
        return
    expected = ref_encrypt(key, mode, iv, data)
    x = _as_kind(data, kind)
    ct = c.encrypt(x, mode, iv=iv)
    _same_kind(ct, x)
    assert _raw(ct) == expected
    y = _as_kind(expected, kind)
    pt = c.decrypt(y, mode, iv=iv)
    _same_kind(pt, y)
    assert _raw(pt) == data
    assert ref_decrypt(key, mode, iv, expected) == data  # the reference agrees with itself


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("mode", MODES)
def test_every_mode_and_input_kind(mode, kind):
    """The full mode x input-kind x key-size matrix, deterministically (hypothesis samples it)."""
    rng = np.random.default_rng(MODES.index(mode))
    for ksize in KEY_SIZES:
        key, iv = random_key(rng, ksize), None if mode == "ecb" else rng.bytes(8)
        c = _cipher(key)
        for n in (0, 8, 24, 8 * 1100) if kind.startswith("u64") or mode not in ANY_LENGTH else (
                0, 1, 7, 8, 13, 8 * 1100 + 5):
            data = rng.bytes(n)
            expected = ref_encrypt(key, mode, iv, data)
            x = _as_kind(data, kind)
            ct = c.encrypt(x, mode, iv=iv)
            _same_kind(ct, x)
            assert _raw(ct) == expected, (ksize, n)
            y = _as_kind(expected, kind)
            pt = c.decrypt(y, mode, iv=iv)
            _same_kind(pt, y)
            assert _raw(pt) == data, (ksize, n)


@settings(max_examples=60, deadline=None)
@given(case=cases(), variant=st.sampled_from(VARIANTS),
       kind=st.sampled_from(["bytearray", "u8", "u8-2d", "u64", "u64-be"]))
def test_out_and_in_place(case, variant, kind):
    mode, key, iv, data = case
    if mode == "cfb8" and variant == "bitslice":
        return
    if kind.startswith("u64"):  # whole blocks only
        data = data[: len(data) // 8 * 8]
    kw = _kw(mode, iv)
    c = _cipher(key, variant)
    expected = ref_encrypt(key, mode, kw.get("iv"), data)
    x = _as_kind(data, kind)
    out = _as_kind(bytes(len(data)), kind)
    assert c.encrypt(x, mode, out=out, **kw) is out
    assert _raw(out) == expected
    assert _raw(x) == data  # input untouched
    # out= may be data: in place, both ways
    assert c.encrypt(x, mode, out=x, **kw) is x
    assert _raw(x) == expected
    assert c.decrypt(x, mode, out=x, **kw) is x
    assert _raw(x) == data
    # a bytearray out for bytes input
    buf = bytearray(len(data))
    assert c.encrypt(data, mode, out=buf, **kw) is buf
    assert bytes(buf) == expected


@settings(max_examples=60, deadline=None)
@given(case=cases(modes=("ecb", "cbc")), n=st.integers(0, 100), variant=st.sampled_from(VARIANTS),
       kind=st.sampled_from(["bytes", "bytearray", "memoryview", "u8", "u8-2d"]))
def test_pkcs7_padding(case, n, variant, kind):
    mode, key, iv, data = case
    data = (data * 3)[:n] if data else bytes(range(n))
    kw = _kw(mode, iv)
    c = _cipher(key, variant)
    padded = pad(data, 8)
    expected = ref_encrypt(key, mode, kw.get("iv"), padded)
    assert len(expected) == 8 * (len(data) // 8 + 1)
    x = _as_kind(data, kind)
    ct = c.encrypt(x, mode, padding="pkcs7", **kw)
    assert _raw(ct) == expected
    if isinstance(x, np.ndarray):  # uint8 arrays come back 1-D
        assert ct.dtype == np.uint8 and ct.shape == (len(expected),)
    else:
        assert type(ct) is type(x)
    y = _as_kind(expected, kind)
    pt = c.decrypt(y, mode, padding="pkcs7", **kw)
    assert _raw(pt) == data
    if isinstance(y, np.ndarray):
        assert pt.dtype == np.uint8 and pt.shape == (len(data),)
    else:
        assert type(pt) is type(y)
    assert unpad(ref_decrypt(key, mode, kw.get("iv"), expected), 8) == data
    out = bytearray(len(expected))
    assert c.encrypt(data, mode, padding="pkcs7", out=out, **kw) is out
    assert bytes(out) == expected
    out = bytearray(len(data))  # decryption's result is the stripped plaintext
    assert c.decrypt(expected, mode, padding="pkcs7", out=out, **kw) is out
    assert bytes(out) == data


@pytest.mark.parametrize("ksize", KEY_SIZES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_ctr_wraps_at_2_64(ksize, variant):
    rng = np.random.default_rng(ksize)
    key = random_key(rng, ksize)
    ecb = pycryptodome(key, "ecb")  # the counter blocks through plain ECB
    for start, nblocks, tail in [(2**64 - 3, 5, 0), (2**64 - 3, 4, 3), (2**64 - 1000, 3000, 5)]:
        iv = start.to_bytes(8, "big")
        counters = b"".join(((start + i) % 2**64).to_bytes(8, "big") for i in range(nblocks + 1))
        data = rng.bytes(8 * nblocks + tail)
        stream = ecb.encrypt(counters)[: len(data)]
        expected = bytes(a ^ b for a, b in zip(data, stream, strict=True))
        c = _cipher(key, variant)
        assert c.encrypt(data, "ctr", iv=iv) == expected, (start, nblocks, tail)
        assert c.decrypt(expected, "ctr", iv=iv) == data


def test_triple_des_is_ede():
    """TripleDES(K1|K2|K3) is E_K3(D_K2(E_K1(.))) and 16 bytes mean K3 = K1 (numbades DES only)."""
    rng = np.random.default_rng(7)
    k1, k2, k3 = rng.bytes(8), rng.bytes(8), rng.bytes(8)
    data = rng.bytes(8 * 50)
    d1, d2, d3 = numbades.DES(k1), numbades.DES(k2), numbades.DES(k3)
    assert numbades.TripleDES(k1 + k2 + k3).encrypt(data) == d3.encrypt(
        d2.decrypt(d1.encrypt(data)))
    assert numbades.TripleDES(k1 + k2).encrypt(data) == d1.encrypt(d2.decrypt(d1.encrypt(data)))
    assert numbades.TripleDES(k1 + k2 + k3).decrypt(data) == d1.decrypt(
        d2.encrypt(d3.decrypt(data)))


def test_triple_des_with_equal_keys_is_refused():
    """K1 = K2 = K3 would be single DES (E_K(D_K(E_K(x))) = E_K(x)): TripleDES refuses it."""
    k = bytes.fromhex("0123456789abcdef")
    for key in (k * 3, k * 2):
        with pytest.raises(ValueError):
            numbades.TripleDES(key)
    # single DES with that key is what such a "TripleDES" would compute
    data = bytes(range(64))
    assert numbades.DES(k).encrypt(data) == RefDES.new(k, RefDES.MODE_ECB).encrypt(data)


# Large inputs: past the 1024-block "auto" threshold and around the 64 x 32 = 2048
# block batch of the bitsliced engine, for the modes whose blocks are independent.
LARGE = [(m, d) for m in ("ctr", "cbc", "cfb", "ecb") for d in ("decrypt", "encrypt")
         if m in ("ctr", "ecb") or d == "decrypt"]


@pytest.mark.parametrize("nblocks", [1023, 1024, 2047, 2048, 2049, 4097])
@pytest.mark.parametrize(("mode", "direction"), LARGE)
@pytest.mark.parametrize("variant", ["auto", "bitslice"])
def test_large_batches(nblocks, mode, direction, variant):
    rng = np.random.default_rng(nblocks)
    tail = 5 if mode in ANY_LENGTH else 0
    for ksize in KEY_SIZES:
        key = random_key(rng, ksize)
        iv = None if mode == "ecb" else rng.bytes(8)
        data = rng.bytes(8 * nblocks + tail)
        ref = ref_encrypt if direction == "encrypt" else ref_decrypt
        expected = ref(key, mode, iv, data)
        c = _cipher(key, variant)
        got = getattr(c, direction)(data, mode, iv=iv)
        assert got == expected, (ksize, nblocks, mode, direction)
        if not tail:
            arr = np.frombuffer(data, ">u8").astype(np.uint64)
            got = getattr(c, direction)(arr, mode, iv=iv)
            assert got.astype(">u8").tobytes() == expected


@pytest.mark.parametrize("mode", ["cbc", "cfb", "ofb"])
def test_large_sequential_encrypt(mode):
    """Sequential encryption on a long stream, auto (table kernel) and bitslice (batch of one)."""
    rng = np.random.default_rng(11)
    for ksize in (8, 24):
        key, iv = random_key(rng, ksize), rng.bytes(8)
        data = rng.bytes(8 * 2100 + (3 if mode != "cbc" else 0))
        expected = ref_encrypt(key, mode, iv, data)
        for variant in ("auto", "bitslice"):
            c = _cipher(key, variant)
            assert c.encrypt(data, mode, iv=iv) == expected, (ksize, variant)
            assert c.decrypt(expected, mode, iv=iv) == data, (ksize, variant)


@pytest.mark.parametrize(("mode", "direction"), [*LARGE, ("ofb", "encrypt"), ("cfb", "encrypt"),
                                                 ("cbc", "encrypt")])
@pytest.mark.parametrize("variant", ["auto", "bitslice", TABLE[2]])
def test_large_in_place(mode, direction, variant):
    """out=data on inputs spanning several batches (CBC/CFB decryption read the ciphertext)."""
    rng = np.random.default_rng(3)
    for ksize in (8, 24):
        key, iv = random_key(rng, ksize), None if mode == "ecb" else rng.bytes(8)
        data = rng.bytes(8 * 4099)
        expected = (ref_encrypt if direction == "encrypt" else ref_decrypt)(key, mode, iv, data)
        c = _cipher(key, variant)
        for buf in (bytearray(data), np.frombuffer(data, ">u8").astype(np.uint64),
                    np.frombuffer(data, np.uint8).reshape(-1, 8).copy()):
            assert getattr(c, direction)(buf, mode, iv=iv, out=buf) is buf
            assert _raw(buf) == expected, (ksize, type(buf))


@pytest.mark.parametrize("mode", MODES)
def test_non_contiguous_and_fortran_input(mode):
    """Any-shape uint8/uint64 arrays: read in logical (C) order, result has the input's shape."""
    rng = np.random.default_rng(4)
    key, iv = random_key(rng, 24), None if mode == "ecb" else rng.bytes(8)
    c = _cipher(key)
    base = rng.integers(0, 256, (16, 48), dtype=np.uint8)
    for x in (base[:, ::2], base[::2, :16], np.asfortranarray(base[:, :24]), base.T[:8]):
        data = np.ascontiguousarray(x).tobytes()
        got = c.encrypt(x, mode, iv=iv)
        assert got.shape == x.shape and got.dtype == np.uint8
        assert np.ascontiguousarray(got).tobytes() == ref_encrypt(key, mode, iv, data)
    words = rng.integers(0, 2**63, (10, 6), dtype=np.uint64)
    for x in (words[:, ::2], np.asfortranarray(words), words.T):
        data = np.ascontiguousarray(x).astype(">u8").tobytes()
        got = c.decrypt(x, mode, iv=iv)
        assert got.shape == x.shape and got.dtype == np.uint64
        assert np.ascontiguousarray(got).astype(">u8").tobytes() == ref_decrypt(key, mode, iv,
                                                                                 data)


def test_keys_as_any_bytes_like():
    rng = np.random.default_rng(6)
    key = random_key(rng, 24)
    data = rng.bytes(64)
    expected = ref_encrypt(key, "ecb", None, data)
    for k in (key, bytearray(key), memoryview(key)):
        assert numbades.TripleDES(k).encrypt(data) == expected
    # parity bits are ignored
    flipped = bytes(b ^ 1 for b in key)
    assert numbades.TripleDES(flipped).encrypt(data) == expected


def test_the_catalogue_is_the_librarys():
    """The tests' lists of modes and engines (tests/catalogue.py) are the library's."""
    from numbades.modes import arguments

    assert set(EVERY_MODE) == set(arguments.MODES)
    assert set(PADDED_MODES) == set(arguments.PADDED_MODES)
    assert set(ANY_LENGTH_MODES) == set(arguments.BYTE_MODES)
    assert set(MANY_MODES) == set(arguments.MANY_MODES)
    assert list(ENGINES) == numbades.variants()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("key_size", [8, 24])
def test_ctr_on_every_engine(engine, key_size):
    rng = np.random.default_rng(key_size)
    key = random_key(rng, key_size)
    iv = (2**64 - 5).to_bytes(8, "big")  # wraps within the message
    for n in (5, 8 * 300 + 3):
        data = rng.bytes(n)
        c = _cipher(key, engine)
        assert c.encrypt(data, "ctr", iv=iv) == ref_encrypt(key, "ctr", iv, data)
        assert c.decrypt(data, "ctr", iv=iv) == ref_encrypt(key, "ctr", iv, data)


@pytest.mark.parametrize(("engine", "mode"), [p for p in ENGINE_MODES if p[0] != "auto"])
def test_every_engine_and_mode_against_the_oracle(engine, mode):
    rng = np.random.default_rng(len(engine) * 7 + len(mode))
    key, iv = random_key(rng, 16), rng.bytes(8)
    data = rng.bytes(8 * 70 + (5 if mode in ANY_LENGTH else 0))
    c = _cipher(key, engine)
    ct = c.encrypt(data, mode, **_kw(mode, iv))
    assert ct == ref_encrypt(key, mode, iv, data)
    assert c.decrypt(ct, mode, **_kw(mode, iv)) == data
