"""encrypt_many / decrypt_many (docs/api.md, Many messages): row i vs pycryptodome with ivs[i]."""

import functools

import numpy as np
import pytest

import numbades

from .catalogue import MANY_MODES as MODES
from .catalogue import TABLE
from .oracle import random_key, ref_decrypt, ref_encrypt

VARIANTS = ["auto", "bitslice", TABLE[7]]


def _cipher(key, variant="auto"):
    return numbades.DES(key, variant) if len(key) == 8 else numbades.TripleDES(key, variant)


@functools.cache
def _case(ksize, m, nblocks, mode):
    """Key, messages (uint8 (m, 8*nblocks)), ivs (uint8 (m, 8)) and the reference rows."""
    rng = np.random.default_rng(1000 * ksize + 10 * m + nblocks)
    key = random_key(rng, ksize)
    msgs = rng.integers(0, 256, (m, 8 * nblocks), dtype=np.uint8)
    ivs = rng.integers(0, 256, (m, 8), dtype=np.uint8)
    if mode == "ctr" and m > 2:
        ivs[1] = 0xFF  # this row's counter wraps around 2**64
    enc, dec = [], []
    for i in range(m):
        iv = None if mode == "ecb" else ivs[i].tobytes()
        enc.append(ref_encrypt(key, mode, iv, msgs[i].tobytes()))
        dec.append(ref_decrypt(key, mode, iv, msgs[i].tobytes()))
    enc = np.frombuffer(b"".join(enc), np.uint8).reshape(m, -1)
    dec = np.frombuffer(b"".join(dec), np.uint8).reshape(m, -1)
    return key, msgs, ivs, enc, dec


def _u64(a):
    """uint8 (m, 8k) -> uint64 (m, k) of big-endian block values."""
    return a.view(">u8").astype(np.uint64)


def _iv_kw(mode, ivs, kind):
    if mode == "ecb":
        return {}
    return {"ivs": ivs if kind == "u8" else ivs.view(">u8").reshape(-1).astype(np.uint64)}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("m", "nblocks"), [(1, 5), (3, 4), (2049, 3)])
@pytest.mark.parametrize("ksize", [8, 16, 24])
def test_rows_match_pycryptodome(variant, mode, m, nblocks, ksize):
    key, msgs, ivs, enc, dec = _case(ksize, m, nblocks, mode)
    c = _cipher(key, variant)
    for iv_kind in ("u8", "u64"):
        kw = _iv_kw(mode, ivs, iv_kind)
        got = c.encrypt_many(msgs, mode, **kw)
        assert got.dtype == np.uint8 and got.shape == msgs.shape
        bad = np.flatnonzero((got != enc).any(axis=1))
        assert bad.size == 0, f"rows {bad[:10]} differ ({iv_kind} ivs)"
        got = c.decrypt_many(msgs, mode, **kw)
        bad = np.flatnonzero((got != dec).any(axis=1))
        assert bad.size == 0, f"decrypt rows {bad[:10]} differ ({iv_kind} ivs)"
    kw = _iv_kw(mode, ivs, "u64")
    words = _u64(msgs)
    for arr in (words, words.astype(">u8")):
        got = c.encrypt_many(arr, mode, **kw)
        assert got.dtype == arr.dtype and got.shape == arr.shape
        assert np.array_equal(got.astype(">u8").view(np.uint8).reshape(m, -1), enc)
        got = c.decrypt_many(arr, mode, **kw)
        assert np.array_equal(got.astype(">u8").view(np.uint8).reshape(m, -1), dec)


@pytest.mark.parametrize("mode", MODES)
def test_row_equals_single_call_api(mode):
    """Row i equals encrypt(messages[i], mode, iv=ivs[i]) (and both equal the reference)."""
    key, msgs, ivs, enc, _ = _case(24, 3, 4, mode)
    c = _cipher(key)
    for i in range(3):
        kw = {} if mode == "ecb" else {"iv": ivs[i].tobytes()}
        assert c.encrypt(msgs[i].tobytes(), mode, **kw) == enc[i].tobytes()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", ["auto", "bitslice"])
def test_out_and_in_place(mode, variant):
    key, msgs, ivs, enc, dec = _case(8, 2049, 3, mode)
    c = _cipher(key, variant)
    kw = _iv_kw(mode, ivs, "u8")
    out = np.zeros_like(msgs)
    assert c.encrypt_many(msgs, mode, out=out, **kw) is out
    assert np.array_equal(out, enc)
    buf = msgs.copy()
    assert c.decrypt_many(buf, mode, out=buf, **kw) is buf
    assert np.array_equal(buf, dec)
    words = _u64(msgs)
    out = np.zeros_like(words)
    assert c.encrypt_many(words, mode, out=out, **kw) is out
    assert np.array_equal(out.astype(">u8").view(np.uint8).reshape(msgs.shape), enc)


def test_zero_block_messages():
    c = numbades.DES(bytes(range(8)))
    msgs = np.zeros((4, 0), np.uint8)
    got = c.encrypt_many(msgs, "cbc", ivs=np.zeros((4, 8), np.uint8))
    assert got.shape == (4, 0) and got.dtype == np.uint8


KEY = bytes.fromhex("0123456789abcdef")
M8 = np.zeros((3, 16), np.uint8)
IVS = np.zeros((3, 8), np.uint8)


@pytest.mark.parametrize("method", ["encrypt_many", "decrypt_many"])
@pytest.mark.parametrize(("args", "kwargs", "exc", "match"), [
    ((np.zeros(16, np.uint8), "cbc"), {"ivs": IVS[:1]}, ValueError, r"(?i)2-?d|shape|dim"),
    ((np.zeros(2, np.uint64), "cbc"), {"ivs": IVS[:1]}, ValueError, r"(?i)2-?d|shape|dim"),
    ((np.zeros((2, 2, 8), np.uint8), "cbc"), {"ivs": IVS[:2]}, ValueError,
     r"(?i)2-?d|shape|dim"),
    ((np.zeros((3, 12), np.uint8), "cbc"), {"ivs": IVS}, ValueError, r"(?i)multiple|8"),
    ((np.zeros((3, 2), np.float64), "cbc"), {"ivs": IVS}, TypeError, r"(?i)dtype|uint"),
    ((np.zeros((3, 16), np.uint32), "cbc"), {"ivs": IVS}, TypeError, r"(?i)dtype|uint"),
    ((b"\x00" * 48, "cbc"), {"ivs": IVS}, TypeError, r"(?i)array|2-?d|messages"),
    ((M8, "cbc"), {}, ValueError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": IVS[:2]}, ValueError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": np.zeros((4, 8), np.uint8)}, ValueError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": np.zeros((3, 7), np.uint8)}, ValueError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": np.zeros(24, np.uint8)}, ValueError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": np.zeros(2, np.uint64)}, ValueError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": np.zeros((3, 1), np.uint64)}, ValueError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": np.zeros((3, 8), np.float32)}, TypeError, r"(?i)iv"),
    ((M8, "cbc"), {"ivs": b"\x00" * 24}, TypeError, r"(?i)iv"),
    ((M8, "ecb"), {"ivs": IVS}, ValueError, r"(?i)iv|ecb"),
    ((M8, "cfb8"), {"ivs": IVS}, ValueError, r"(?i)mode|cfb8"),
    ((M8, "xts"), {"ivs": IVS}, ValueError, r"(?i)mode|xts"),
    ((M8, "cbc"), {"ivs": IVS, "out": np.zeros((3, 8), np.uint8)}, ValueError, r"(?i)out|size"),
])
def test_bad_input(method, args, kwargs, exc, match):
    c = numbades.DES(KEY)
    out = kwargs.get("out")
    sentinel = None if out is None else out.copy()
    with pytest.raises(exc, match=match):
        getattr(c, method)(*args, **kwargs)
    if out is not None:
        assert np.array_equal(out, sentinel)


def test_read_only_out_refused_untouched():
    c = numbades.TripleDES(KEY + bytes.fromhex("fedcba9876543210"))
    out = np.full_like(M8, 0xA5)
    out.flags.writeable = False
    with pytest.raises(TypeError, match=r"(?i)read-?only|writ"):
        c.encrypt_many(M8, "cbc", ivs=IVS, out=out)
    assert (out == 0xA5).all()
    small = np.full((3, 8), 0xA5, np.uint8)
    with pytest.raises(ValueError):
        c.decrypt_many(M8, "ctr", ivs=IVS, out=small)
    assert (small == 0xA5).all()


@pytest.mark.parametrize("mode", MODES)
def test_big_endian_ivs_and_strided_messages(mode):
    key, msgs, ivs, enc, _ = _case(24, 2049, 3, mode)
    c = _cipher(key)
    kw = {} if mode == "ecb" else {"ivs": ivs.view(">u8").reshape(-1).copy()}  # '>u8' values
    assert np.array_equal(c.encrypt_many(msgs, mode, **kw), enc)
    # a row-strided view is still a 2-D array of messages
    kw = {} if mode == "ecb" else {"ivs": ivs[::2]}
    got = c.encrypt_many(msgs[::2], mode, **kw)
    assert np.array_equal(got, enc[::2])
