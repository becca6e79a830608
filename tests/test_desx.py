"""DESX (docs/api.md, DESX) against OpenSSL: ``DES_xcbc_encrypt`` through ctypes and
``openssl enc -desx-cbc``; the other modes by their definitions over OpenSSL's DESX block
(one-block ``DES_xcbc_encrypt`` calls with a zero IV)."""

from __future__ import annotations

import pickle
import shutil
import subprocess

import numpy as np
import pytest

import numbades

from . import libdes

OPENSSL = shutil.which("openssl")
LEGACY = ["-provider", "legacy", "-provider", "default"]


def _block(key: bytes, block: bytes) -> bytes:
    """OpenSSL's DESX of one block: E_K(B ^ K1) ^ K2."""
    return libdes.xcbc(key, bytes(8), block, decrypt=False)


def _reference(key: bytes, mode: str, iv: bytes, data: bytes) -> bytes:
    """Encryption in ``mode`` by the mode's definition over OpenSSL's DESX block."""
    out, reg = bytearray(), iv
    if mode == "ecb":
        return b"".join(_block(key, data[i:i + 8]) for i in range(0, len(data), 8))
    if mode == "cfb8":
        for b in data:
            o = b ^ _block(key, reg)[0]
            out.append(o)
            reg = reg[1:] + bytes([o])
        return bytes(out)
    for i in range(0, len(data), 8):
        chunk = data[i:i + 8]
        ks = _block(key, reg)
        o = bytes(a ^ b for a, b in zip(chunk, ks, strict=False))
        out += o
        nxt = ((int.from_bytes(reg, "big") + 1) % 2**64).to_bytes(8, "big")
        reg = {"cfb": o, "ofb": ks, "ctr": nxt}[mode]
    return bytes(out)


def _key(seed):
    return np.random.default_rng(seed).bytes(24)


@pytest.mark.parametrize("n", [0, 8, 16, 8 * 37])
def test_cbc_is_openssl_xcbc(n):
    key, rng = _key(n), np.random.default_rng(n + 1)
    iv, data = rng.bytes(8), rng.bytes(n)
    x = numbades.DESX(key)
    want = libdes.xcbc(key, iv, data, decrypt=False)
    assert x.encrypt(data, "cbc", iv=iv) == want
    assert x.decrypt(want, "cbc", iv=iv) == data
    assert libdes.xcbc(key, iv, want, decrypt=True) == data
    e = x.encryptor("cbc", iv=iv)
    assert b"".join(e.update(data[i:i + 13]) for i in range(0, n, 13)) + e.finalize() == want
    np.testing.assert_array_equal(x.decrypt(np.frombuffer(want, ">u8"), "cbc", iv=iv),
                                  np.frombuffer(data, ">u8"))


@pytest.mark.parametrize("mode", ["ecb", "cfb", "cfb8", "ofb", "ctr"])
def test_modes_by_definition(mode):
    key, rng = _key(len(mode)), np.random.default_rng(len(mode))
    iv = None if mode == "ecb" else rng.bytes(8)
    data = rng.bytes(8 * 9 if mode == "ecb" else 8 * 9 + 5)
    x = numbades.DESX(key)
    want = _reference(key, mode, iv if iv is not None else bytes(8), data)
    assert x.encrypt(data, mode, iv=iv) == want
    assert x.decrypt(want, mode, iv=iv) == data
    d = x.decryptor(mode, iv=iv)
    assert b"".join(d.update(want[i:i + 3]) for i in range(0, len(want), 3)) + d.finalize() == data


def test_many_padding_and_in_place():
    key, rng = _key(3), np.random.default_rng(3)
    x = numbades.DESX(key)
    msgs = rng.integers(0, 256, (5, 24), dtype=np.uint8)
    ivs = rng.integers(0, 256, (5, 8), dtype=np.uint8)
    got = x.encrypt_many(msgs, "cbc", ivs=ivs)
    for i in range(5):
        assert got[i].tobytes() == libdes.xcbc(key, ivs[i].tobytes(), msgs[i].tobytes(),
                                               decrypt=False)
    np.testing.assert_array_equal(x.decrypt_many(got, "cbc", ivs=ivs), msgs)
    data = bytearray(rng.bytes(21))
    ct = x.encrypt(bytes(data), "cbc", iv=bytes(8), padding="pkcs7")
    assert ct == libdes.xcbc(key, bytes(8), bytes(data) + bytes([3]) * 3, decrypt=False)
    buf = bytearray(ct)
    x.decrypt(buf, "cbc", iv=bytes(8), out=buf)
    assert bytes(buf) == bytes(data) + bytes([3]) * 3
    big = rng.bytes(8 * 600)  # past auto's bitslice threshold: still DESX
    assert x.decrypt(x.encrypt(big)) == big
    assert x.encrypt(big)[:16] == _reference(key, "ecb", bytes(8), big[:16])


def test_openssl_enc_desx_cbc():
    if OPENSSL is None:
        pytest.skip("no openssl binary")
    key, rng = _key(9), np.random.default_rng(9)
    iv, data = rng.bytes(8), rng.bytes(45)
    cmd = [OPENSSL, "enc", "-desx-cbc", "-K", key.hex(), "-iv", iv.hex(), *LEGACY]
    p = subprocess.run([*cmd, "-e"], input=data, capture_output=True, timeout=60, check=False)
    if p.returncode and b"unsupported" in p.stderr.lower():
        pytest.skip("openssl has no desx-cbc (legacy provider missing)")
    assert p.returncode == 0, p.stderr
    x = numbades.DESX(key)
    assert x.encrypt(data, "cbc", iv=iv, padding="pkcs7") == p.stdout
    back = subprocess.run([*cmd, "-d"], input=x.encrypt(data, "cbc", iv=iv, padding="pkcs7"),
                          capture_output=True, timeout=60, check=True)
    assert back.stdout == data


def test_errors_repr_and_pickle():
    key = _key(1)
    x = numbades.DESX(key)
    assert key.hex() not in repr(x) and key[8:16].hex() not in repr(x) and "DESX" in repr(x)
    y = pickle.loads(pickle.dumps(x))
    assert y.encrypt(b"12345678") == x.encrypt(b"12345678") == _block(key, b"12345678")
    assert numbades.DESX(key, "table").encrypt(b"12345678") == x.encrypt(b"12345678")
    for bad, err in ((key[:16], ValueError), (key + b"1", ValueError), ("k" * 24, TypeError)):
        with pytest.raises(err):
            numbades.DESX(bad)
    for variant in ("bitslice", "table+unroll"):
        with pytest.raises(ValueError, match="DESX"):
            numbades.DESX(key, variant)
    odd = numbades.set_odd_parity(key[:8]) + bytes(16)  # whitening is not checked for parity
    numbades.DESX(odd, check_parity=True)
    with pytest.raises(ValueError, match="parity"):
        numbades.DESX(bytes(24), check_parity=True)
    with pytest.raises(ValueError):
        x.encrypt(b"1234567", "cbc", iv=bytes(8))
    with pytest.raises(ValueError):
        x.encrypt(b"12345678", "cbc")
