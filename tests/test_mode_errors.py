"""Every bad input of docs/api.md: the exception type and what it names.

"Every wrong type is a TypeError, every wrong length or value a ValueError ...
raised before any kernel runs; out= is never half-written."
"""

import array

import numpy as np
import pytest
from Crypto.Cipher import DES3

import numbades

from .catalogue import ANY_LENGTH_MODES, BLOCK_MODES, IV_MODES, MODES, PADDED_MODES
from .oracle import ref_encrypt

K8 = bytes.fromhex("0123456789abcdef")
K2 = bytes.fromhex("fedcba9876543210")
K3 = bytes.fromhex("89abcdef01234567")
IV = bytes(range(8))
DATA = bytes(range(32))


def _ciphers():
    return [numbades.DES(K8), numbades.TripleDES(K8 + K2), numbades.TripleDES(K8 + K2 + K3)]


def _calls(c):
    """encrypt, decrypt, encryptor and decryptor: each as f(data, mode, **kw)."""
    def stream(make):
        def run(data, mode, **kw):
            ctx = make(mode, **{k: v for k, v in kw.items() if k != "out"})
            return ctx.update(data) + ctx.finalize()
        return run
    return [c.encrypt, c.decrypt, stream(c.encryptor), stream(c.decryptor)]


def _each():
    for c in _ciphers():
        yield from _calls(c)


@pytest.mark.parametrize("mode", IV_MODES)
def test_iv_missing(mode):
    for f in _each():
        with pytest.raises(ValueError, match=r"(?i)iv"):
            f(DATA, mode)
        with pytest.raises(ValueError, match=r"(?i)iv"):
            f(DATA, mode, iv=None)


def test_iv_given_for_ecb():
    for f in _each():
        with pytest.raises(ValueError, match=r"(?i)iv|ecb"):
            f(DATA, "ecb", iv=IV)


@pytest.mark.parametrize("mode", IV_MODES)
@pytest.mark.parametrize("iv", [b"", IV[:7], IV + b"\x00", bytes(16)])
def test_iv_wrong_length(mode, iv):
    for f in _each():
        with pytest.raises(ValueError, match=r"(?i)iv|8 bytes"):
            f(DATA, mode, iv=iv)


@pytest.mark.parametrize("mode", IV_MODES)
@pytest.mark.parametrize("iv", ["01234567", 12345678, list(IV), 1.5])
def test_iv_wrong_type(mode, iv):
    for f in _each():
        with pytest.raises(TypeError, match=r"(?i)iv"):
            f(DATA, mode, iv=iv)


@pytest.mark.parametrize("mode", ["xts", "gcm", "ECB", "cfb16", "PCBC", "", "cbc "])
def test_unknown_mode(mode):
    for f in _each():
        with pytest.raises(ValueError, match=r"(?i)mode"):
            f(DATA, mode, iv=IV)


@pytest.mark.parametrize("mode", ANY_LENGTH_MODES)
def test_padding_refused_for_stream_modes(mode):
    for f in _each():
        with pytest.raises(ValueError, match=r"(?i)pad"):
            f(DATA, mode, iv=IV, padding="pkcs7")


@pytest.mark.parametrize("padding", ["pkcs5", "PKCS7", "zero", "x923", "ISO7816", ""])
@pytest.mark.parametrize("mode", PADDED_MODES)
def test_unknown_padding(mode, padding):
    kw = {} if mode == "ecb" else {"iv": IV}
    for f in _each():
        with pytest.raises(ValueError, match=r"(?i)pad"):
            f(DATA, mode, padding=padding, **kw)


@pytest.mark.parametrize("mode", BLOCK_MODES)
@pytest.mark.parametrize("dtype", [np.uint64, ">u8"])
def test_padding_with_uint64_input(mode, dtype):
    kw = {} if mode == "ecb" else {"iv": IV}
    words = np.arange(4, dtype=dtype)
    for c in _ciphers():
        for f in (c.encrypt, c.decrypt):
            with pytest.raises(TypeError, match=r"(?i)pad|uint64|byte"):
                f(words, mode, padding="pkcs7", **kw)


@pytest.mark.parametrize("mode", BLOCK_MODES)
@pytest.mark.parametrize("n", [1, 7, 9, 31])
def test_partial_block_without_padding(mode, n):
    kw = {} if mode == "ecb" else {"iv": IV}
    for c in _ciphers():
        for f in (c.encrypt, c.decrypt):
            for data in (bytes(n), np.zeros(n, np.uint8)):
                with pytest.raises(ValueError, match=r"(?i)multiple|8"):
                    f(data, mode, **kw)


@pytest.mark.parametrize("mode", BLOCK_MODES)
@pytest.mark.parametrize("n", [0, 12, 17])
def test_padded_decrypt_of_bad_length(mode, n):
    kw = {} if mode == "ecb" else {"iv": IV}
    for c in _ciphers():
        with pytest.raises(ValueError):
            c.decrypt(bytes(n), mode, padding="pkcs7", **kw)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 15, 23, 32, 48])
def test_triple_des_key_length(n):
    with pytest.raises(ValueError, match=r"(?i)key|16|24|bytes"):
        numbades.TripleDES(bytes(range(1, n + 1)))


def _flip_parity(k):
    return bytes(b ^ 1 for b in k)


@pytest.mark.parametrize("key", [
    K8 + K8,                          # K1 == K2 (16 bytes)
    K8 + K8 + K3,                     # K1 == K2
    K8 + K2 + K2,                     # K2 == K3
    K8 + K8 + K8,                     # all equal
    K8 + _flip_parity(K8),            # K1 == K2 but for parity bits
    K8 + _flip_parity(K8) + K3,       # K1 == K2 but for parity bits
    K8 + K2 + _flip_parity(K2),       # K2 == K3 but for parity bits
    _flip_parity(K8) + K8 + K2,       # K1 == K2 but for parity bits
], ids=["16-k1=k2", "24-k1=k2", "24-k2=k3", "24-all", "16-k1~k2", "24-k1~k2", "24-k2~k3",
        "24-k1~k2b"])
def test_degenerate_triple_des_keys(key):
    with pytest.raises(ValueError, match=r"(?i)key|degenerate|single|K1|K2"):
        numbades.TripleDES(key)
    with pytest.raises(ValueError):
        numbades.TripleDES(bytearray(key), "bitslice")


def test_two_key_with_k1_equal_k3_is_fine():
    assert numbades.TripleDES(K8 + K2 + K8).encrypt(DATA) == numbades.TripleDES(K8 + K2).encrypt(
        DATA)


@pytest.mark.parametrize("key", [K8.hex(), list(K8), 0x0123456789ABCDEF, None,
                                 np.frombuffer(K8, np.uint8)])
def test_des_key_types(key):
    with pytest.raises(TypeError, match=r"(?i)key"):
        numbades.DES(key)


@pytest.mark.parametrize("key", [(K8 + K2).hex(), list(K8 + K2 + K3), None, 1 << 100,
                                 np.frombuffer(K8 + K2 + K3, np.uint8)])
def test_triple_des_key_types(key):
    with pytest.raises(TypeError, match=r"(?i)key"):
        numbades.TripleDES(key)


@pytest.mark.parametrize("bad", [5, 8, 0, "0123456789abcdef", [1] * 8, None, 1.5])
def test_key_helpers_take_bytes_only(bad):
    for helper in (numbades.set_odd_parity, numbades.has_odd_parity,
                   numbades.is_weak_key, numbades.is_semi_weak_key):
        with pytest.raises(TypeError, match="bytes-like"):
            helper(bad)


def test_empty_key_is_a_value_error():
    for helper in (numbades.set_odd_parity, numbades.has_odd_parity):
        with pytest.raises(ValueError, match="empty"):
            helper(b"")


def test_parity_helpers_on_every_key_size():
    for size in (8, 16, 24):
        key = bytes(range(1, 1 + size))
        fixed = numbades.set_odd_parity(key)
        assert numbades.has_odd_parity(fixed)
        assert all(b.bit_count() % 2 == 1 for b in fixed)
        assert bytes(a & 0xFE for a in fixed) == bytes(a & 0xFE for a in key)
        if size > 8:
            assert fixed == DES3.adjust_key_parity(key)


def test_check_parity():
    good = numbades.set_odd_parity(K8 + K2 + K3)
    numbades.TripleDES(good, check_parity=True)
    with pytest.raises(ValueError, match=r"(?i)parity"):
        numbades.TripleDES(good[:-1] + bytes([good[-1] ^ 1]), check_parity=True)


@pytest.mark.parametrize("data", ["text", 12, [1, 2, 3], np.zeros(8, np.float64),
                                  np.zeros(8, np.int8), np.zeros(2, np.uint32)])
def test_data_types(data):
    for c in _ciphers():
        with pytest.raises(TypeError):
            c.encrypt(data, "cbc", iv=IV)


@pytest.mark.parametrize("mode", MODES)
def test_out_wrong_size_untouched(mode):
    kw = {} if mode == "ecb" else {"iv": IV}
    for c in _ciphers():
        for f in (c.encrypt, c.decrypt):
            for size in (len(DATA) - 8, len(DATA) - 1, len(DATA) + 1, len(DATA) + 8, 0):
                out = bytearray(b"\xa5" * size)
                with pytest.raises(ValueError, match=r"(?i)out|size|bytes"):
                    f(DATA, mode, out=out, **kw)
                assert out == bytearray(b"\xa5" * size)
                arr = np.full(size, 0xA5, np.uint8)
                with pytest.raises(ValueError, match=r"(?i)out|size|bytes"):
                    f(np.frombuffer(DATA, np.uint8), mode, out=arr, **kw)
                assert (arr == 0xA5).all()


def test_any_writable_contiguous_buffer_is_an_out():
    c = numbades.DES(K8)
    out = array.array("B", bytes(16))
    assert c.encrypt(bytes(16), out=out) is out
    assert out.tobytes() == ref_encrypt(K8, "ecb", None, bytes(16))
    with pytest.raises(TypeError, match="writable buffer"):
        c.encrypt(bytes(16), out=[0] * 16)
    with pytest.raises(ValueError, match="C-contiguous"):
        c.encrypt(bytes(16), out=memoryview(bytearray(32))[::2])


# The same mistake is the same error in every call that takes out= (docs/api.md: "every
# wrong type is a TypeError"): one message, rows of messages, rows under a key array.
def _out_calls():
    c, keys = numbades.DES(K8), numbades.DESArray([K8, K2])
    return [lambda data, out: c.encrypt(data, out=out),
            lambda data, out: c.encrypt_many(data, out=out),
            lambda data, out: keys.encrypt(data, out=out)]


@pytest.mark.parametrize("dtype", ["<u8", ">u8"])
def test_out_of_the_other_byte_order_is_a_type_error(dtype):
    data = np.arange(4, dtype=dtype).reshape(2, 2)
    for call in _out_calls():
        out = np.zeros((2, 2), np.dtype(dtype).newbyteorder())
        with pytest.raises(TypeError, match="dtype"):
            call(data, out)
        assert not out.any()


def test_out_of_another_kind_is_a_type_error():
    for call in _out_calls():
        for data, out in ((np.zeros((2, 2), np.uint64), np.zeros((2, 16), np.uint8)),
                          (np.zeros((2, 16), np.uint8), np.zeros((2, 2), np.uint64))):
            with pytest.raises(TypeError, match="dtype"):
                call(data, out)
            assert not out.any()
    c = numbades.DES(K8)
    with pytest.raises(TypeError):
        c.encrypt(bytes(32), out=np.zeros(4, np.uint64))
    with pytest.raises(TypeError):
        c.encrypt(np.zeros(4, np.uint64), out=bytearray(32))


@pytest.mark.parametrize("mode", MODES)
def test_out_read_only_untouched(mode):
    kw = {} if mode == "ecb" else {"iv": IV}
    for c in _ciphers():
        for f in (c.encrypt, c.decrypt):
            arr = np.full(len(DATA), 0xA5, np.uint8)
            arr.flags.writeable = False
            with pytest.raises(TypeError, match=r"(?i)read-?only|writ"):
                f(DATA, mode, out=arr, **kw)
            assert (arr == 0xA5).all()
            with pytest.raises(TypeError, match=r"(?i)read-?only|writ|out"):
                f(DATA, mode, out=bytes(len(DATA)), **kw)
            mv = memoryview(bytes(b"\xa5" * len(DATA)))
            with pytest.raises(TypeError, match=r"(?i)read-?only|writ"):
                f(DATA, mode, out=mv, **kw)


@pytest.mark.parametrize("mode", BLOCK_MODES)
def test_padded_out_untouched_on_bad_padding(mode):
    """Padded decryption checks the padding before the exact out size, and before copying.

    An out of a possible unpadded length (16 to 23 bytes for 24) hears of
    the padding; an impossible one is refused before any work.
    """
    kw = {} if mode == "ecb" else {"iv": IV}
    c = numbades.DES(K8)
    ct = c.encrypt(bytes(24), mode, **kw)  # decrypts to zeros: pad byte 0 is invalid
    for size, match in ((24, "out"), (15, "out"), (16, "padding"), (23, "padding"),
                        (20, "padding")):
        out = bytearray(b"\xa5" * size)
        with pytest.raises(ValueError, match=match):
            c.decrypt(ct, mode, padding="pkcs7", out=out, **kw)
        assert out == bytearray(b"\xa5" * size)


def test_padded_out_size_error_does_not_state_the_length():
    c = numbades.DES(K8)
    ct = c.encrypt(b"abc", "cbc", iv=bytes(8), padding="pkcs7")
    out = bytearray(5)  # a length the ciphertext allows (1..7), but not the right one
    with pytest.raises(ValueError) as info:
        c.decrypt(ct, "cbc", iv=bytes(8), padding="pkcs7", out=out)
    assert "3" not in str(info.value)
    assert out == bytearray(5)
    assert c.decrypt(ct, "cbc", iv=bytes(8), padding="pkcs7", out=bytearray(3)) == b"abc"


def test_cfb8_refused_by_bitslice():
    for c in (numbades.DES(K8, "bitslice"), numbades.TripleDES(K8 + K2 + K3, "bitslice")):
        for f in _calls(c)[:2]:
            with pytest.raises(ValueError, match=r"(?i)cfb-?8|bitslice"):
                f(DATA, "cfb8", iv=IV)


def test_environment_bitslice_does_not_break_cfb8(monkeypatch):
    """NUMBADES_VARIANT steers auto; it does not force an engine that lacks the mode."""
    monkeypatch.setenv("NUMBADES_VARIANT", "bitslice")
    c = numbades.DES(K8)
    data = bytes(range(40))
    assert c.encrypt(data, "cfb8", iv=bytes(8)) == ref_encrypt(K8, "cfb8", bytes(8), data)


def test_unknown_variant():
    with pytest.raises(ValueError, match=r"(?i)variant"):
        numbades.TripleDES(K8 + K2, "simd")


def test_empty_variant_variable_means_unset(monkeypatch):
    monkeypatch.setenv("NUMBADES_VARIANT", "")
    assert numbades.DES(K8).variant == "auto"


def test_repr_hides_key():
    for c in _ciphers():
        r = repr(c)
        for k in (K8, K2, K3):
            assert k.hex() not in r.lower() and str(k) not in r


@pytest.mark.parametrize("method", ["encrypt_many", "decrypt_many"])
def test_many_bad_ivs_and_dims(method):
    c = numbades.TripleDES(K8 + K2 + K3)
    m = np.zeros((4, 16), np.uint8)
    f = getattr(c, method)
    for ivs in (np.zeros((3, 8), np.uint8), np.zeros((4, 16), np.uint8), np.zeros(4, np.uint8),
                np.zeros((4, 8, 1), np.uint8), np.zeros(5, np.uint64), np.zeros((4, 2), np.uint64)):
        with pytest.raises(ValueError, match=r"(?i)iv"):
            f(m, "cbc", ivs=ivs)
    with pytest.raises(ValueError, match=r"(?i)iv"):
        f(m, "ctr")
    with pytest.raises(ValueError, match=r"(?i)iv|ecb"):
        f(m, "ecb", ivs=np.zeros((4, 8), np.uint8))
    for bad in (np.zeros(16, np.uint8), np.zeros(4, np.uint64), np.zeros((2, 2, 8), np.uint8)):
        with pytest.raises(ValueError, match=r"(?i)2-?d|dim|shape"):
            f(bad, "ecb")


@pytest.mark.parametrize("mode", IV_MODES)
def test_iv_any_bytes_like(mode):
    c = numbades.DES(K8)
    expected = ref_encrypt(K8, mode, IV, DATA)
    for iv in (bytearray(IV), memoryview(IV)):
        assert c.encrypt(DATA, mode, iv=iv) == expected
        e = c.encryptor(mode, iv=iv)
        assert e.update(DATA) + e.finalize() == expected


@pytest.mark.parametrize("data", ["text", 12, [1, 2, 3], np.zeros(8, np.float64)])
def test_update_data_types(data):
    for c in _ciphers():
        for make in (c.encryptor, c.decryptor):
            ctx = make("ctr", iv=IV)
            with pytest.raises(TypeError):
                ctx.update(data)
            with pytest.raises(TypeError):
                ctx.update_into(data, bytearray(64))
