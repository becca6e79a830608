"""Streaming contexts (docs/api.md, Streaming): encryptor()/decryptor() vs pycryptodome."""

import numpy as np
import pytest
from Crypto.Util.Padding import pad
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades

from .catalogue import BLOCK_MODES as PADDED
from .catalogue import MODES, TABLE
from .oracle import random_key, ref_decrypt, ref_encrypt

KEY_SIZES = [8, 16, 24]


def _cipher(key, variant="auto"):
    return numbades.DES(key, variant) if len(key) == 8 else numbades.TripleDES(key, variant)


def _split(data, cuts):
    points = sorted({min(c, len(data)) for c in cuts})
    pieces, last = [], 0
    for p in [*points, len(data)]:
        pieces.append(data[last:p])
        last = p
    return pieces


@st.composite
def stream_cases(draw):
    mode = draw(st.sampled_from(MODES))
    padding = draw(st.sampled_from([None, "pkcs7"])) if mode in PADDED else None
    ksize = draw(st.sampled_from(KEY_SIZES))
    if mode in PADDED and padding is None:
        n = 8 * draw(st.integers(0, 40))
    else:
        n = draw(st.integers(0, 330))
    cuts = draw(st.lists(st.integers(0, n), max_size=8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    key, iv = random_key(rng, ksize), rng.bytes(8)
    return mode, padding, key, None if mode == "ecb" else iv, rng.bytes(n), cuts


def _reference(mode, padding, key, iv, data):
    return ref_encrypt(key, mode, iv, pad(data, 8) if padding else data)


@settings(max_examples=120, deadline=None)
@given(case=stream_cases(), variant=st.sampled_from(["auto", TABLE[3], "bitslice"]),
       kind=st.sampled_from(["bytes", "u8", "memoryview"]))
def test_chunks_equal_one_shot(case, variant, kind):
    mode, padding, key, iv, data, cuts = case
    if mode == "cfb8" and variant == "bitslice":
        variant = "auto"
    c = _cipher(key, variant)
    expected = _reference(mode, padding, key, iv, data)

    def conv(b):
        return {"bytes": b, "u8": np.frombuffer(b, np.uint8), "memoryview": memoryview(b)}[kind]

    e = c.encryptor(mode, iv=iv, padding=padding)
    parts = [e.update(conv(p)) for p in _split(data, cuts)]
    assert all(type(p) is bytes for p in parts)
    assert b"".join(parts) + e.finalize() == expected

    d = c.decryptor(mode, iv=iv, padding=padding)
    parts = [d.update(conv(p)) for p in _split(expected, cuts)]
    assert b"".join(parts) + d.finalize() == data

    # the streaming result also equals the one-shot call
    assert c.encrypt(data, mode, iv=iv, padding=padding) == expected


@settings(max_examples=60, deadline=None)
@given(case=stream_cases(), buffer=st.sampled_from(["bytearray", "u8"]))
def test_update_into(case, buffer):
    mode, padding, key, iv, data, cuts = case
    c = _cipher(key)
    expected = _reference(mode, padding, key, iv, data)
    for ctx, src, want in ((c.encryptor(mode, iv=iv, padding=padding), data, expected),
                           (c.decryptor(mode, iv=iv, padding=padding), expected, data)):
        got = b""
        for p in _split(src, cuts):
            size = len(p) + 7
            buf = bytearray(b"\xa5" * size) if buffer == "bytearray" else np.full(size, 0xA5,
                                                                                 np.uint8)
            n = ctx.update_into(p, buf)
            assert isinstance(n, int) and 0 <= n <= size
            got += bytes(buf[:n])
            assert bytes(buf[n:]) == b"\xa5" * (size - n)  # nothing written past the count
        assert got + ctx.finalize() == want


@pytest.mark.parametrize("mode", MODES)
def test_already_finalized(mode):
    assert issubclass(numbades.AlreadyFinalized, ValueError)
    c = _cipher(bytes.fromhex("0123456789abcdeffedcba987654321089abcdef01234567"))
    iv = None if mode == "ecb" else bytes(8)
    for make in (c.encryptor, c.decryptor):
        ctx = make(mode, iv=iv)
        ctx.update(bytes(16))
        ctx.finalize()
        with pytest.raises(numbades.AlreadyFinalized):
            ctx.update(bytes(8))
        with pytest.raises(numbades.AlreadyFinalized):
            ctx.update_into(bytes(8), bytearray(15))
        with pytest.raises(numbades.AlreadyFinalized):
            ctx.finalize()
        with pytest.raises(ValueError):  # it is a ValueError
            ctx.update(b"")


@pytest.mark.parametrize("mode", PADDED)
@pytest.mark.parametrize("n", [1, 7, 9, 15, 17])
def test_unpadded_partial_block_refused_at_finalize(mode, n):
    c = numbades.DES(bytes.fromhex("0123456789abcdef"))
    iv = None if mode == "ecb" else bytes(8)
    for make in (c.encryptor, c.decryptor):
        ctx = make(mode, iv=iv)
        ctx.update(bytes(n))  # accepted: the total is only known at finalize()
        with pytest.raises(ValueError, match=r"(?i)multiple|8|block"):
            ctx.finalize()


@pytest.mark.parametrize("mode", PADDED)
@pytest.mark.parametrize("ksize", [8, 24])
@pytest.mark.parametrize("last", [
    b"\x00" * 8,                               # pad byte 0
    b"ABCDEFG\x09",                            # pad byte 9 > block
    b"ABCDEF\x01\x02",                         # pad says 2, previous byte 1
    b"ABCD\x03\x04\x04\x04",                   # pad says 4, one byte wrong
    b"\x10" * 8,                               # 16
])
def test_bad_padding_refused(mode, ksize, last):
    rng = np.random.default_rng(ksize)
    key = random_key(rng, ksize)
    iv = None if mode == "ecb" else rng.bytes(8)
    ct = ref_encrypt(key, mode, iv, rng.bytes(16) + last)
    c = _cipher(key)
    with pytest.raises(ValueError, match=r"(?i)pad"):
        d = c.decryptor(mode, iv=iv, padding="pkcs7")
        d.update(ct[:10])
        d.update(ct[10:])
        d.finalize()
    with pytest.raises(ValueError, match=r"(?i)pad"):
        c.decrypt(ct, mode, iv=iv, padding="pkcs7")
    # a good last block passes (the reference's own padding)
    ok = ref_encrypt(key, mode, iv, pad(b"ABC", 8))
    d = c.decryptor(mode, iv=iv, padding="pkcs7")
    assert d.update(ok) + d.finalize() == b"ABC"


@pytest.mark.parametrize("mode", PADDED)
def test_padded_decrypt_of_partial_or_empty_refused(mode):
    c = numbades.DES(bytes.fromhex("0123456789abcdef"))
    iv = None if mode == "ecb" else bytes(8)
    for ct in (b"", bytes(12)):
        d = c.decryptor(mode, iv=iv, padding="pkcs7")
        d.update(ct)
        with pytest.raises(ValueError):
            d.finalize()


@pytest.mark.parametrize("mode", MODES)
def test_update_into_bad_buffer_raises_before_writing(mode):
    key = bytes.fromhex("0123456789abcdef")
    iv = None if mode == "ecb" else bytes(range(8))
    c = numbades.DES(key)
    data = bytes(range(24))
    for make in (c.encryptor, c.decryptor):
        ctx = make(mode, iv=iv)
        small = bytearray(b"\xa5" * (len(data) + 6))
        with pytest.raises(ValueError, match=r"(?i)small|len|bytes|buffer|out"):
            ctx.update_into(data, small)
        assert small == bytearray(b"\xa5" * (len(data) + 6))
        small_arr = np.full(len(data) + 6, 0xA5, np.uint8)
        with pytest.raises(ValueError):
            ctx.update_into(data, small_arr)
        assert (small_arr == 0xA5).all()
        with pytest.raises(TypeError, match=r"(?i)read-?only|writ"):
            ctx.update_into(data, bytes(len(data) + 7))
        ro = np.full(len(data) + 7, 0xA5, np.uint8)
        ro.flags.writeable = False
        with pytest.raises(TypeError, match=r"(?i)read-?only|writ"):
            ctx.update_into(data, ro)
        assert (ro == 0xA5).all()
        # the refused calls consumed nothing: the context still gives the reference
        ref = (ref_encrypt if make == c.encryptor else ref_decrypt)(key, mode, iv, data)
        assert ctx.update(data) + ctx.finalize() == ref


def test_context_is_independent_of_later_cipher_use():
    key = bytes.fromhex("0123456789abcdeffedcba9876543210")
    c = numbades.TripleDES(key)
    iv = bytes(range(8))
    data = bytes(range(200))
    e = c.encryptor("cbc", iv=iv, padding="pkcs7")
    first = e.update(data[:50])
    c.encrypt(bytes(64), "cbc", iv=bytes(8))  # one-shot calls do not disturb the context
    e2 = c.encryptor("cbc", iv=bytes(8))
    e2.update(bytes(8))
    rest = e.update(data[50:]) + e.finalize()
    assert first + rest == ref_encrypt(key, "cbc", iv, pad(data, 8))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", ["auto", "bitslice"])
def test_large_chunks_and_uint64_chunks(mode, variant):
    """Chunks past the batch engine's thresholds, and uint64 block arrays given to update()."""
    if mode == "cfb8" and variant == "bitslice":
        variant = "auto"
    rng = np.random.default_rng(9)
    key, iv = random_key(rng, 24), None if mode == "ecb" else rng.bytes(8)
    data = rng.bytes(8 * 5000)
    expected = ref_encrypt(key, mode, iv, data)
    c = _cipher(key, variant)
    cuts = [8 * 3, 8 * 1030, 8 * 1031 + (3 if mode not in PADDED else 0), 8 * 3100, 8 * 5000]
    for make, src, want in ((c.encryptor, data, expected), (c.decryptor, expected, data)):
        ctx = make(mode, iv=iv)
        got = b"".join(ctx.update(p) for p in _split(src, cuts)) + ctx.finalize()
        assert got == want
        ctx = make(mode, iv=iv)
        words = np.frombuffer(src, ">u8")
        pieces = [words[:1], words[1:1500].astype(np.uint64), words[1500:]]
        got = b"".join(ctx.update(p) for p in pieces) + ctx.finalize()
        assert got == want


@pytest.mark.parametrize("ksize", KEY_SIZES)
def test_ctr_stream_wraps_at_2_64(ksize):
    rng = np.random.default_rng(ksize + 100)
    key = random_key(rng, ksize)
    start = 2**64 - 2
    counters = b"".join(((start + i) % 2**64).to_bytes(8, "big") for i in range(6))
    data = rng.bytes(45)
    stream = ref_encrypt(key, "ecb", None, counters)
    expected = bytes(a ^ b for a, b in zip(data, stream, strict=False))
    e = _cipher(key).encryptor("ctr", iv=start.to_bytes(8, "big"))
    got = b"".join(e.update(data[i:i + 3]) for i in range(0, len(data), 3)) + e.finalize()
    assert got == expected
