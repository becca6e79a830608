"""numbades.mac against outside references only.

Oracles: OpenSSL's ``DES_cbc_cksum`` and ``DES_quad_cksum`` from
libcrypto.so.3 (through ctypes), psec's ISO/IEC 9797-1 algorithms 1 and 3,
pycryptodome's and pyca/cryptography's CMAC, and SP 800-38B's published
three-key TDEA CMAC examples.  Batches and key arrays are checked against
a loop of single calls (themselves checked against the oracles).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numbades import mac
from numbades.mac import keyed

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

KEY16 = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")


def _libcrypto() -> ctypes.CDLL:
    lib = ctypes.CDLL(ctypes.util.find_library("crypto") or "libcrypto.so.3")
    lib.DES_set_key_unchecked.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    lib.DES_cbc_cksum.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_long,
                                  ctypes.c_void_p, ctypes.c_char_p]
    lib.DES_cbc_cksum.restype = ctypes.c_uint32
    lib.DES_quad_cksum.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_long,
                                   ctypes.c_int, ctypes.c_char_p]
    lib.DES_quad_cksum.restype = ctypes.c_uint32
    return lib


LIB = _libcrypto()


def openssl_cbc_cksum(key: bytes, data: bytes, iv: bytes) -> tuple[bytes, int]:
    schedule = ctypes.create_string_buffer(128)
    LIB.DES_set_key_unchecked(key, schedule)
    out = ctypes.create_string_buffer(8)
    ret = LIB.DES_cbc_cksum(data, out, len(data), schedule, iv)
    return out.raw, ret


def openssl_quad_cksum(data: bytes, seed: bytes, outputs: int) -> tuple[bytes, int]:
    out = ctypes.create_string_buffer(32)
    ret = LIB.DES_quad_cksum(data, out, len(data), outputs, seed)
    return out.raw[: 8 * outputs], ret


def psec_cbc(key: bytes, data: bytes, padding: int, length: int = 8) -> bytes:
    import psec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return psec.mac.generate_cbc_mac(key, data, padding, length)


def psec_retail(key: bytes, data: bytes, padding: int, length: int = 8) -> bytes:
    import psec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return psec.mac.generate_retail_mac(key[:8], key[8:16], data, padding, length)


def pycryptodome_cmac(key: bytes, data: bytes) -> bytes:
    from Crypto.Cipher import DES, DES3
    from Crypto.Hash import CMAC

    return CMAC.new(key, data, ciphermod=DES if len(key) == 8 else DES3).digest()


def pyca_cmac(key: bytes, data: bytes) -> bytes:
    from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
    from cryptography.hazmat.primitives.cmac import CMAC

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = CMAC(TripleDES(key))
        c.update(data)
        return c.finalize()


def tdes_key(draw_bytes: bytes) -> bytes:
    """A Triple-DES key pycryptodome accepts (not degenerate): flip a byte until it is."""
    from Crypto.Cipher import DES3

    key = bytearray(draw_bytes)
    while True:
        try:
            DES3.adjust_key_parity(bytes(key))
            return bytes(key)
        except ValueError:
            key[8] ^= 0x55


keys = st.sampled_from([8, 16, 24]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
messages = st.binary(max_size=40)


# -- one message, against the oracles -------------------------------------------------------

def test_cbc_cksum_libdes_vector():
    key, iv = bytes.fromhex("0123456789abcdef"), bytes.fromhex("fedcba9876543210")
    data = b"7654321 Now is the time for "
    ref, ret = openssl_cbc_cksum(key, data, iv)
    assert ref.hex() == "1d269397f7fe62b4" and ret == 0xF7FE62B4
    assert mac.cbc(key, data, iv=iv) == ref


@settings(max_examples=40, deadline=None)
@given(key=st.binary(min_size=8, max_size=8), iv=st.binary(min_size=8, max_size=8),
       data=st.binary(min_size=1, max_size=70))
def test_cbc_equals_openssl_des_cbc_cksum(key, iv, data):
    assert mac.cbc(key, data, iv=iv) == openssl_cbc_cksum(key, data, iv)[0]


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=50), seed=st.binary(min_size=8, max_size=8),
       outputs=st.integers(1, 4))
def test_quad_cksum_equals_openssl(data, seed, outputs):
    ref, ret = openssl_quad_cksum(data, seed, outputs)
    got = mac.quad_cksum(data, seed, outputs=outputs)
    assert got == ref
    assert int.from_bytes(got[-8:-4], "little") == ret


def test_quad_cksum_large_values_and_rows():
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 256, (5, 33), dtype=np.uint8)
    rows[0] = 0xFF
    seed = b"\xff" * 8
    got = mac.quad_cksum(rows, seed, outputs=4)
    assert got.shape == (5, 32)
    for row, tag in zip(rows, got, strict=True):
        assert tag.tobytes() == openssl_quad_cksum(row.tobytes(), seed, 4)[0]


def test_psec_documented_example():
    assert mac.cbc(KEY16, bytes.fromhex("1234567890ABCDEF"), padding=2).hex() == "925b1737ef681ad3"


@pytest.mark.parametrize("padding", [1, 2, 3])
@settings(max_examples=15, deadline=None)
@given(key=keys, data=messages, length=st.integers(4, 8))
def test_cbc_equals_psec_algorithm_1(padding, key, data, length):
    if len(key) > 8:
        key = tdes_key(key)
    assert mac.cbc(key, data, padding=padding, length=length) == psec_cbc(key, data, padding,
                                                                           length)


@pytest.mark.parametrize("padding", [1, 2, 3])
@settings(max_examples=15, deadline=None)
@given(key=st.binary(min_size=16, max_size=16), data=messages, length=st.integers(4, 8))
def test_retail_equals_psec_algorithm_3(padding, key, data, length):
    assert mac.retail(key, data, padding=padding, length=length) == psec_retail(
        key, data, padding, length)


@settings(max_examples=15, deadline=None)
@given(key=st.binary(min_size=24, max_size=24), data=messages)
def test_retail_24_byte_key_is_cbc_then_ede_on_the_last_block(key, data):
    """psec has no three-key form: the reference is pycryptodome's DES-CBC under K1 over all
    blocks but the last, then that last block through DES3-EDE under K1 || K2 || K3."""
    from Crypto.Cipher import DES, DES3

    key = tdes_key(key)
    padded = data + bytes(-len(data) % 8) if data else bytes(8)
    head = DES.new(key[:8], DES.MODE_CBC, iv=bytes(8)).encrypt(padded[:-8])[-8:] or bytes(8)
    last = bytes(a ^ b for a, b in zip(head, padded[-8:], strict=True))
    assert mac.retail(key, data) == DES3.new(key, DES3.MODE_ECB).encrypt(last)


def test_retail_with_equal_halves_is_cbc_mac():
    key = bytes.fromhex("0123456789abcdef")
    assert mac.retail(key * 2, b"hello world") == mac.cbc(key, b"hello world")


@settings(max_examples=30, deadline=None)
@given(key=keys, data=messages)
def test_cmac_equals_pycryptodome_and_pyca(key, data):
    if len(key) > 8:
        key = tdes_key(key)
    assert mac.cmac(key, data) == pycryptodome_cmac(key, data)
    if len(key) > 8:
        assert mac.cmac(key, data) == pyca_cmac(key, data)


@pytest.mark.parametrize(("nbytes", "tag"), [
    (0, "b7a688e122ffaf95"), (8, "8e8f293136283797"),
    (20, "743ddbe0ce2dc2ed"), (32, "33e6b1092400eae5"),
])
def test_cmac_sp800_38b_three_key_examples(nbytes, tag):
    key = bytes.fromhex("8aa83bf8cbda1062" "0bc1bf19fbb6cd58" "bc313d4a371ca8b5")
    msg = bytes.fromhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
    assert mac.cmac(key, msg[:nbytes]).hex() == tag


def test_cbc_padding_1_empty_message_is_one_zero_block():
    from Crypto.Cipher import DES

    key = bytes.fromhex("133457799bbcdff1")
    assert mac.cbc(key, b"") == DES.new(key, DES.MODE_ECB).encrypt(bytes(8))
    assert mac.cbc(key, b"") == psec_cbc(key, b"", 1)


# -- batches and key arrays equal a loop of single calls --------------------------------------

ALGORITHMS = [
    (mac.cbc, {"padding": 1}), (mac.cbc, {"padding": 2, "iv": b"\x01" * 8}),
    (mac.cbc, {"padding": 3}), (mac.retail, {"padding": 1}), (mac.retail, {"padding": 2}),
    (mac.retail, {"padding": 3}), (mac.cmac, {}),
]


def batch_cases(test):
    """Each algorithm, a few random batches (0 to 150 rows of 0 to 20 bytes), each key size."""
    test = given(n=st.integers(0, 150), length=st.integers(0, 20),
                 width=st.sampled_from([8, 16, 24]), seed=st.integers(0, 2**32 - 1))(test)
    return pytest.mark.parametrize(("fn", "kw"), ALGORITHMS)(
        settings(max_examples=4, deadline=None)(test))


def _key_for(fn, width: int, rng) -> bytes:
    width = max(width, 16) if fn is mac.retail else width
    return tdes_key(rng.bytes(width)) if width > 8 else rng.bytes(width)


@batch_cases
def test_many_messages_equal_single_calls(fn, kw, n, length, width, seed):
    rng = np.random.default_rng(seed)
    key = _key_for(fn, width, rng)
    rows = rng.integers(0, 256, (n, length), dtype=np.uint8)
    tags = fn(key, rows, **kw, length=6)
    assert tags.shape == (n, 6) and tags.dtype == np.uint8
    for row, tag in zip(rows, tags, strict=True):
        assert tag.tobytes() == fn(key, row.tobytes(), **kw, length=6)


@batch_cases
def test_key_arrays_equal_single_calls(fn, kw, n, length, width, seed):
    rng = np.random.default_rng(seed)
    key_rows = np.array([list(_key_for(fn, width, rng)) for _ in range(n)], np.uint8)
    key_rows = key_rows.reshape(n, -1) if n else np.zeros((0, 16 if fn is mac.retail else width),
                                                         np.uint8)
    rows = rng.integers(0, 256, (n, length), dtype=np.uint8)
    tags = fn(key_rows, rows, **kw)
    assert tags.shape == (n, 8)
    for key, row, tag in zip(key_rows, rows, tags, strict=True):
        assert tag.tobytes() == fn(key.tobytes(), row.tobytes(), **kw)
    one = rows[0].tobytes() if n else b"abc"
    every = fn(key_rows, one, **kw)  # one message under every key
    assert every.shape == (n, 8)
    for key, tag in zip(key_rows, every, strict=True):
        assert tag.tobytes() == fn(key.tobytes(), one, **kw)


@pytest.mark.parametrize(("fn", "width", "chunked"),
                         [(mac.cbc, 8, False), (mac.retail, 16, True), (mac.retail, 24, False),
                          (mac.cmac, 16, True)])
def test_a_full_bitslice_pass_and_more(fn, width, chunked, monkeypatch):
    """2050 messages (one pass of 2048 lanes and two more), one key and a key per row;
    ``chunked``: in chunks of one pass (2048 rows, then 2), as long messages go."""
    if chunked:
        monkeypatch.setattr(keyed, "CHUNK_BYTES", 1)
    rng = np.random.default_rng(width)
    rows = rng.integers(0, 256, (2050, 67), dtype=np.uint8)  # 9 blocks: 8 gathered in registers
    key = tdes_key(rng.bytes(width)) if width > 8 else rng.bytes(width)
    tags = fn(key, rows)
    key_rows = rng.integers(0, 256, (2050, width), dtype=np.uint8)
    if width > 8:  # not degenerate
        key_rows[:, 8:16] ^= 0x55 * (key_rows[:, :8] == key_rows[:, 8:16]).astype(np.uint8)
    per_key = fn(key_rows, rows)
    for i in (0, 1, 2047, 2048, 2049):
        assert tags[i].tobytes() == fn(key, rows[i].tobytes())
        assert per_key[i].tobytes() == fn(key_rows[i].tobytes(), rows[i].tobytes())
    if fn is mac.retail and width == 16:
        for i in (0, 2049):
            assert tags[i].tobytes() == psec_retail(key, rows[i].tobytes(), 1)
    if fn is mac.retail and width == 24:  # K'': DES-CBC under K, then D under K', E under K''
        from Crypto.Cipher import DES

        for i in (0, 2049):
            k = key_rows[i].tobytes()
            h = DES.new(k[:8], DES.MODE_CBC, iv=bytes(8)).encrypt(rows[i].tobytes() + bytes(5))
            want = DES.new(k[16:], DES.MODE_ECB).encrypt(
                DES.new(k[8:16], DES.MODE_ECB).decrypt(h[-8:]))
            assert per_key[i].tobytes() == want
    if fn is mac.cmac:
        for i in (0, 2049):
            assert per_key[i].tobytes() == pycryptodome_cmac(key_rows[i].tobytes(),
                                                              rows[i].tobytes())


# -- streaming objects ------------------------------------------------------------------------

@pytest.mark.parametrize(("algorithm", "key", "kw"), [
    ("cbc", KEY16, {"padding": 1}), ("cbc", KEY16[:8], {"padding": 3, "iv": b"\x07" * 8}),
    ("retail", KEY16, {"padding": 2}), ("cmac", KEY16 + KEY16[:8][::-1], {}),
])
@settings(max_examples=10, deadline=None)
@given(data=st.binary(max_size=60), cuts=st.lists(st.integers(0, 60), max_size=4))
def test_streaming_equals_one_shot(algorithm, key, kw, data, cuts):
    one_shot = getattr(mac, algorithm)(key, data, **kw)
    m = mac.new(algorithm, key, **kw)
    start = 0
    for cut in [*sorted(cuts), len(data)]:
        cut = min(cut, len(data))
        m.update(data[start:cut])
        start = max(start, cut)
    assert m.digest() == one_shot
    assert m.hexdigest() == one_shot.hex()
    m.verify(one_shot)
    m.hexverify(one_shot.hex())
    m.update(b"more")
    assert m.digest() == getattr(mac, algorithm)(key, data + b"more", **kw)


def test_streaming_copy_verify_repr():
    m = mac.new("retail", KEY16, padding=1, length=4)
    m.update(b"prefix-")
    twin = m.copy()
    m.update(b"one")
    twin.update(b"two")
    assert m.digest() == psec_retail(KEY16, b"prefix-one", 1, 4)
    assert twin.digest() == psec_retail(KEY16, b"prefix-two", 1, 4)
    with pytest.raises(ValueError, match="MAC check failed"):
        m.verify(twin.digest())
    with pytest.raises(ValueError, match="4 bytes"):
        m.verify(m.digest() + b"\0")
    with pytest.raises(TypeError):
        m.verify(m.digest().hex())
    for obj in (m, mac.new("cmac", KEY16), mac.new("cbc", KEY16[:8])):
        text = repr(obj)
        assert KEY16.hex() not in text.lower() and KEY16[:8].hex() not in text.lower()
        assert "numbades.mac.MAC(" in text


# -- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "error"), [
    (lambda: mac.cbc(b"k" * 7, b"x"), ValueError),
    (lambda: mac.retail(b"k" * 8, b"x"), ValueError),
    (lambda: mac.cmac(b"k" * 32, b"x"), ValueError),
    (lambda: mac.cbc("k" * 8, b"x"), TypeError),
    (lambda: mac.cbc(b"k" * 8, "text"), TypeError),
    (lambda: mac.cbc(b"k" * 8, np.zeros(8, np.uint16)), TypeError),
    (lambda: mac.cbc(b"k" * 8, np.zeros((2, 2, 8), np.uint8)), ValueError),
    (lambda: mac.cbc(b"k" * 8, b"x", length=3), ValueError),
    (lambda: mac.cbc(b"k" * 8, b"x", length=9), ValueError),
    (lambda: mac.cmac(b"k" * 8, b"x", length=8.0), TypeError),
    (lambda: mac.retail(KEY16, b"x", length=True), TypeError),
    (lambda: mac.cbc(b"k" * 8, b"x", padding=4), ValueError),
    (lambda: mac.cbc(b"k" * 8, b"x", padding="2"), TypeError),
    (lambda: mac.cbc(b"k" * 8, b"x", iv=b"short"), ValueError),
    (lambda: mac.cbc(b"k" * 8, b"x", iv=8), TypeError),
    (lambda: mac.cbc(b"k" * 16, b"x"), ValueError),  # degenerate Triple-DES key
    (lambda: mac.cbc(np.zeros((3, 12), np.uint8), b"x"), ValueError),
    (lambda: mac.cbc(np.zeros((3, 8), np.int8), b"x"), TypeError),
    (lambda: mac.cmac(np.zeros((3, 8), np.uint8), np.zeros((4, 8), np.uint8)), ValueError),
    (lambda: mac.cmac(np.tile(np.frombuffer(b"k" * 16, np.uint8), (2, 1)), b"x"), ValueError),
    (lambda: mac.quad_cksum(b"x", b"seed"), ValueError),
    (lambda: mac.quad_cksum(b"x", b"s" * 8, outputs=5), ValueError),
    (lambda: mac.quad_cksum(b"x", b"s" * 8, outputs="1"), TypeError),
    (lambda: mac.new("hmac", KEY16), ValueError),
    (lambda: mac.new("cmac", KEY16, padding=2), ValueError),
    (lambda: mac.new("retail", KEY16, iv=bytes(8)), ValueError),
    (lambda: mac.new("cbc", np.zeros((2, 8), np.uint8)), TypeError),
    (lambda: mac.new("cbc", KEY16).update(np.zeros((2, 8), np.uint8)), ValueError),
])
def test_bad_input(call, error):
    with pytest.raises(error):
        call()


def test_empty_batches():
    assert mac.cbc(KEY16, np.zeros((0, 16), np.uint8)).shape == (0, 8)
    assert mac.retail(np.zeros((0, 16), np.uint8), b"abc", length=4).shape == (0, 4)
    assert mac.cmac(np.zeros((0, 8), np.uint8), np.zeros((0, 5), np.uint8)).shape == (0, 8)
    assert mac.quad_cksum(np.zeros((0, 5), np.uint8), bytes(8)).shape == (0, 8)


@pytest.mark.parametrize("width", [8, 24])
def test_bitslice_cbc_mac_kernel_with_an_iv_and_a_table_engine(width, monkeypatch):
    """Many messages under one key (the bitslice CBC-MAC kernel) against OpenSSL or
    pycryptodome row by row, and against the same call with NUMBADES_VARIANT=table
    (encrypt_many on a table engine)."""
    from Crypto.Cipher import DES3

    rng = np.random.default_rng(width + 1)
    key = tdes_key(rng.bytes(width)) if width > 8 else rng.bytes(width)
    iv = rng.bytes(8)
    # 9 blocks (a tile of 8 gathered 8 x 8 words at a time, then one); a last group of 13
    rows = rng.integers(0, 256, (2061, 72), dtype=np.uint8)
    tags = mac.cbc(key, rows, iv=iv)
    for i in (0, 1000, 2047, 2048, 2055, 2056, 2060):
        if width == 8:
            want = openssl_cbc_cksum(key, rows[i].tobytes(), iv)[0]
        else:
            want = DES3.new(key, DES3.MODE_CBC, iv=iv).encrypt(rows[i].tobytes())[-8:]
        assert tags[i].tobytes() == want
    cmacs = mac.cmac(key, rows)  # whole blocks: the kernel chains all but the last in place
    for i in (0, 2048, 2060):
        assert cmacs[i].tobytes() == pycryptodome_cmac(key, rows[i].tobytes())
    monkeypatch.setenv("NUMBADES_VARIANT", "table")
    assert (mac.cbc(key, rows[:300], iv=iv) == tags[:300]).all()
    assert (mac.cmac(key, rows[:300]) == cmacs[:300]).all()


def test_kernels_split_over_threads(monkeypatch):
    """The CBC-MAC kernels over three threads' ranges of whole groups (forced, whatever the
    machine's thread count) give psec's retail MACs, one key and a key per row, and the
    tags of one thread."""
    from numbades.engines.bitslice import threads

    rng = np.random.default_rng(3)
    rows = rng.integers(0, 256, (3 * 2048 + 5, 16), dtype=np.uint8)
    key = tdes_key(rng.bytes(16))
    key_rows = rng.integers(0, 256, (rows.shape[0], 16), dtype=np.uint8)
    monkeypatch.setattr(threads.numba, "get_num_threads", lambda: 3)
    assert len(threads.split(rows.shape[0], 2048, 1)) == 3
    tags, per_key = mac.retail(key, rows, padding=2), mac.retail(key_rows, rows, padding=2)
    for i in (0, 2047, 2048, 4095, 4096, 6148):
        assert tags[i].tobytes() == psec_retail(key, rows[i].tobytes(), 2)
        assert per_key[i].tobytes() == psec_retail(key_rows[i].tobytes(), rows[i].tobytes(), 2)
    monkeypatch.setattr(threads.numba, "get_num_threads", lambda: 1)
    assert (mac.retail(key, rows, padding=2) == tags).all()
    assert (mac.retail(key_rows, rows, padding=2) == per_key).all()


def test_mac_batches_do_not_wait_for_bitslice(monkeypatch):
    """Many messages and many keys while the bitslice kernels are not compiled: the CBC paths
    that are ready serve (a table variant here), one background compile is asked for, and
    the tags are the oracles'."""
    from Crypto.Cipher import DES3

    from numbades.engines.registry import ENGINES
    from numbades.tuning import warmup

    bitslice = ENGINES["bitslice"]
    monkeypatch.setenv("NUMBADES_BACKGROUND_COMPILE", "1")
    monkeypatch.delenv("NUMBADES_VARIANT", raising=False)
    monkeypatch.setattr(warmup, "_children", {})
    for ready in ("cbc_mac_ready", "key_rows_ready", "crypt3_ready"):
        monkeypatch.setattr(bitslice, ready, lambda: False)
    monkeypatch.setattr(bitslice, "ready", lambda chain: False)
    asked = []  # as if another process were compiling it: nothing started here
    monkeypatch.setattr(warmup, "claim_compile_lock", lambda name: asked.append(name))

    def must_not_run(*args, **kwargs):
        raise AssertionError("a MAC batch went to bitslice while it was not compiled")

    for name in ("cbc_mac", "cbc_mac_lanes"):
        monkeypatch.setattr(keyed, name, must_not_run)
    for name in ("many", "key_rows", "ecb", "chain"):
        monkeypatch.setattr(bitslice, name, must_not_run)
    rng = np.random.default_rng(36)
    key = tdes_key(rng.bytes(16))
    rows = rng.integers(0, 256, (300, 16), dtype=np.uint8)  # whole blocks: cmac's own path
    key_rows = rng.integers(0, 256, (300, 16), dtype=np.uint8)
    key_rows[:, 8] ^= 0x55 * (key_rows[:, 0] == key_rows[:, 8]).astype(np.uint8)
    tags = {"cbc": mac.cbc(key, rows), "retail": mac.retail(key, rows),
            "cmac": mac.cmac(key, rows), "cbc keys": mac.cbc(key_rows, rows),
            "retail keys": mac.retail(key_rows, rows), "cmac keys": mac.cmac(key_rows, rows)}
    for i in (0, 299):
        m, k = rows[i].tobytes(), key_rows[i].tobytes()
        assert tags["cbc"][i].tobytes() == DES3.new(key, DES3.MODE_CBC, iv=bytes(8)).encrypt(m)[8:]
        assert tags["retail"][i].tobytes() == psec_retail(key, m, 1)
        assert tags["cmac"][i].tobytes() == pycryptodome_cmac(key, m)
        assert tags["cbc keys"][i].tobytes() == psec_cbc(k, m, 1)
        assert tags["retail keys"][i].tobytes() == psec_retail(k, m, 1)
        assert tags["cmac keys"][i].tobytes() == pyca_cmac(k, m)
    assert asked and set(asked) == {"bitslice"}
