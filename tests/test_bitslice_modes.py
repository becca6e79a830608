"""The bitsliced chains (numbades.engines.bitslice.mode_kernels) against pycryptodome."""

from __future__ import annotations

import numpy as np
import pytest
from Crypto.Cipher import DES, DES3

from numbades.des.keyschedule_ref import subkeys48
from numbades.engines import chains
from numbades.engines.bitslice import mode_kernels as bm
from numbades.engines.bitslice.engine import ENGINE
from numbades.engines.bitslice.rounds import lane_rounds as bs

#: The chain codes by the names these tests use.
CHAIN = {**{chains.name(c): c for c in chains.NAMES}, "ecb": chains.ECB_ENCRYPT}

W = bs.LANES
P = 64 * W  # blocks per pass
SIZES = [0, 1, 63, 64, 65, P - 1, P, P + 1, 2 * P + 7, 3 * P]  # both parities: in place and not
U64 = (1 << 64) - 1


def _schedule(key: bytes) -> list[int]:
    """Round keys in application order: DES (8-byte key) or 3DES-EDE (24 bytes)."""
    if len(key) == 8:
        return subkeys48(int.from_bytes(key, "big"))
    k1, k2, k3 = (subkeys48(int.from_bytes(key[i:i + 8], "big")) for i in (0, 8, 16))
    return k1 + k2[::-1] + k3


def _kp(key: bytes, decrypt: bool = False) -> np.ndarray:
    rk = _schedule(key)
    return bs.key_planes(np.array(rk[::-1] if decrypt else rk, dtype=np.uint64))


def _new(key: bytes, *args, **kw):
    return (DES if len(key) == 8 else DES3).new(key, *args, **kw)


def _to_words(raw: bytes, swap: bool) -> np.ndarray:
    """swap=True: raw little-endian memory words; False: block values."""
    return np.frombuffer(raw, dtype="<u8" if swap else ">u8").astype(np.uint64)


def _from_words(words: np.ndarray, swap: bool) -> bytes:
    return words.astype("<u8" if swap else ">u8").tobytes()


def _call(fn, raw: bytes, kp: np.ndarray, arg: int, swap: bool, in_place: bool) -> bytes:
    src = _to_words(raw, swap)
    dst = src if in_place else np.empty_like(src)
    fn(src, dst, kp, arg, swap)
    return _from_words(dst, swap)


@pytest.fixture(scope="module")
def rng() -> np.random.Generator:
    return np.random.default_rng(20240602)


def _key(rng: np.random.Generator, tdes: bool) -> bytes:
    return DES3.adjust_key_parity(rng.bytes(24)) if tdes else rng.bytes(8)


@pytest.mark.parametrize("tdes", [False, True])
@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_ctr(rng, n, swap, tdes):
    key = _key(rng, tdes)
    raw = rng.bytes(8 * n)
    c0 = int(rng.integers(0, 2**63)) * 2 + 1
    want = _new(key, DES.MODE_CTR, nonce=b"", initial_value=c0).encrypt(raw)
    assert _call(bm.ctr, raw, _kp(key), c0, swap, in_place=n % 2 == 1) == want


@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("c0", [U64, U64 - 5, U64 - P + 3, 2**32 - 1])
def test_ctr_wraps_around_2_64(rng, c0, swap):
    key = rng.bytes(8)
    n = P + 9
    raw = rng.bytes(8 * n)
    counters = np.array([(c0 + i) & U64 for i in range(n)], dtype=">u8").tobytes()
    keystream = DES.new(key, DES.MODE_ECB).encrypt(counters)
    want = bytes(a ^ b for a, b in zip(raw, keystream, strict=True))
    assert _call(bm.ctr, raw, _kp(key), c0, swap, in_place=False) == want


@pytest.mark.parametrize("tdes", [False, True])
@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_cbc_decrypt(rng, n, swap, tdes):
    key = _key(rng, tdes)
    iv = rng.bytes(8)
    raw = rng.bytes(8 * n)
    want = _new(key, DES.MODE_CBC, iv=iv).decrypt(raw)
    got = _call(bm.cbc_decrypt, raw, _kp(key, decrypt=True), int.from_bytes(iv, "big"), swap,
                in_place=n % 2 == 1)
    assert got == want


@pytest.mark.parametrize("tdes", [False, True])
@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_cfb_decrypt(rng, n, swap, tdes):
    key = _key(rng, tdes)
    iv = rng.bytes(8)
    raw = rng.bytes(8 * n)
    want = _new(key, DES.MODE_CFB, iv=iv, segment_size=64).decrypt(raw)
    got = _call(bm.cfb_decrypt, raw, _kp(key), int.from_bytes(iv, "big"), swap,
                in_place=n % 2 == 0)
    assert got == want


@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("fn", ["ctr", "cbc", "cfb"])
def test_large_single_stream(rng, fn, in_place):
    key = rng.bytes(8)
    iv = rng.bytes(8)
    n = 300_003
    raw = rng.bytes(8 * n)
    ivi = int.from_bytes(iv, "big")
    if fn == "ctr":
        want = DES.new(key, DES.MODE_CTR, nonce=b"", initial_value=ivi).encrypt(raw)
        got = _call(bm.ctr, raw, _kp(key), ivi, True, in_place)
    elif fn == "cbc":
        want = DES.new(key, DES.MODE_CBC, iv=iv).decrypt(raw)
        got = _call(bm.cbc_decrypt, raw, _kp(key, decrypt=True), ivi, True, in_place)
    else:
        want = DES.new(key, DES.MODE_CFB, iv=iv, segment_size=64).decrypt(raw)
        got = _call(bm.cfb_decrypt, raw, _kp(key), ivi, True, in_place)
    assert got == want


def _reference_many(key: bytes, msgs: list[bytes], ivs: list[int], mode: str) -> list[bytes]:
    out = []
    for raw, iv in zip(msgs, ivs, strict=True):
        ivb = iv.to_bytes(8, "big")
        if mode == "ecb":
            out.append(_new(key, DES.MODE_ECB).encrypt(raw))
        elif mode == "ctr":
            out.append(_new(key, DES.MODE_CTR, nonce=b"", initial_value=iv).encrypt(raw))
        elif mode == "ofb":
            out.append(_new(key, DES.MODE_OFB, iv=ivb).encrypt(raw))
        else:
            name, direction = mode.split("-")
            if name == "cbc":
                c = _new(key, DES.MODE_CBC, iv=ivb)
            else:
                c = _new(key, DES.MODE_CFB, iv=ivb, segment_size=64)
            out.append(c.encrypt(raw) if direction == "encrypt" else c.decrypt(raw))
    return out


MODES = ["cbc-encrypt", "cbc-decrypt", "cfb-encrypt", "cfb-decrypt", "ofb", "ctr", "ecb"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("m", "n", "swap", "tdes", "in_place"),
    [
        (1, 1, True, False, False),
        (3, 17, False, True, True),
        (3, 0, True, False, False),
        (0, 5, True, False, False),
        (P + 5, 11, True, False, True),
        (40, 9, False, False, False),
    ],
)
def test_many(rng, mode, m, n, swap, tdes, in_place):
    key = _key(rng, tdes)
    msgs = [rng.bytes(8 * n) for _ in range(m)]
    ivs = [int(x) for x in rng.integers(0, 2**64, m, dtype=np.uint64, endpoint=False)]
    if mode == "ctr" and m:
        ivs[0] = U64 - 3  # counters wrap inside a message
    want = _reference_many(key, msgs, ivs, mode)
    src = np.array([_to_words(x, swap) for x in msgs], dtype=np.uint64).reshape(m, n)
    dst = src if in_place else np.empty_like(src)
    decrypt = mode in ("cbc-decrypt",)
    ENGINE.many(CHAIN[mode], src, dst, _kp(key, decrypt=decrypt), np.array(ivs, dtype=np.uint64),
                swap)
    got = [_from_words(dst[i], swap) for i in range(m)]
    assert got == want


def test_many_matches_single_stream(rng):
    """Row i of many(..., "cbc-decrypt") == cbc_decrypt of message i alone."""
    key = rng.bytes(8)
    m, n = 5, 300
    src = rng.integers(0, 2**64, (m, n), dtype=np.uint64, endpoint=False)
    ivs = rng.integers(0, 2**64, m, dtype=np.uint64, endpoint=False)
    kp = _kp(key, decrypt=True)
    got = np.empty_like(src)
    bm.many(src, got, kp, ivs, chains.CBC_DECRYPT, True)
    for i in range(m):
        one = np.empty(n, dtype=np.uint64)
        bm.cbc_decrypt(src[i], one, kp, int(ivs[i]), True)
        assert np.array_equal(got[i], one)
