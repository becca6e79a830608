"""Interoperation with the real ``openssl enc`` command, both ways.

numbades encrypt -> openssl decrypt and openssl encrypt -> numbades decrypt, with
OpenSSL's PKCS#7 padding (``padding="pkcs7"``) and with ``-nopad``.  Single DES
lives in OpenSSL 3's legacy provider.
"""

import functools
import shutil
import subprocess

import numpy as np
import pytest

import numbades

from .oracle import random_key

OPENSSL = shutil.which("openssl")
LEGACY = ["-provider", "legacy", "-provider", "default"]

# openssl cipher name -> (numbades mode, key bytes)
CIPHERS = {
    "des-ecb": ("ecb", 8),
    "des-cbc": ("cbc", 8),
    "des-cfb": ("cfb", 8),
    "des-cfb8": ("cfb8", 8),
    "des-ofb": ("ofb", 8),
    "des-ede": ("ecb", 16),
    "des-ede-cbc": ("cbc", 16),
    "des-ede-cfb": ("cfb", 16),
    "des-ede-ofb": ("ofb", 16),
    "des-ede3": ("ecb", 24),
    "des-ede3-cbc": ("cbc", 24),
    "des-ede3-cfb": ("cfb", 24),
    "des-ede3-cfb8": ("cfb8", 24),
    "des-ede3-ofb": ("ofb", 24),
}
LENGTHS = [0, 1, 7, 8, 9, 16, 23, 64, 1001, 8 * 1100]


def _openssl(name, key, iv, data, *, decrypt, nopad):
    if OPENSSL is None:
        pytest.skip("no openssl binary")
    mode, ksize = CIPHERS[name]
    if ksize == 8:
        _need_legacy()
    cmd = [OPENSSL, "enc", "-d" if decrypt else "-e", f"-{name}", "-K", key.hex()]
    if mode != "ecb":
        cmd += ["-iv", iv.hex()]
    if nopad:
        cmd.append("-nopad")
    if ksize == 8:
        cmd += LEGACY
    p = subprocess.run(cmd, input=data, capture_output=True, check=False, timeout=60)
    assert p.returncode == 0, (cmd, p.stderr.decode(errors="replace"))
    return p.stdout


@functools.cache
def _legacy_ok():
    p = subprocess.run([OPENSSL, "enc", "-e", "-des-cbc", "-K", "00" * 8, "-iv", "00" * 8,
                        *LEGACY], input=b"", capture_output=True, check=False, timeout=60)
    return p.returncode == 0, p.stderr.decode(errors="replace").strip()


def _need_legacy():
    ok, err = _legacy_ok()
    if not ok:
        pytest.skip(f"openssl has no legacy provider for single DES: {err[:200]}")


def _cipher(key, variant="auto"):
    return numbades.DES(key, variant) if len(key) == 8 else numbades.TripleDES(key, variant)


def _params():
    for name, (mode, _) in CIPHERS.items():
        for n in LENGTHS:
            if mode in ("ecb", "cbc"):
                yield pytest.param(name, n, False, id=f"{name}-{n}-pad")
                if n % 8 == 0:
                    yield pytest.param(name, n, True, id=f"{name}-{n}-nopad")
            else:  # stream-like modes: openssl never pads them
                yield pytest.param(name, n, True, id=f"{name}-{n}")


@pytest.mark.parametrize(("name", "n", "nopad"), list(_params()))
def test_both_ways(name, n, nopad):
    mode, ksize = CIPHERS[name]
    rng = np.random.default_rng(n * 31 + ksize)
    key, iv, data = random_key(rng, ksize), rng.bytes(8), rng.bytes(n)
    kw = {} if mode == "ecb" else {"iv": iv}
    padding = None if nopad or mode not in ("ecb", "cbc") else "pkcs7"
    c = _cipher(key)

    ours = c.encrypt(data, mode, padding=padding, **kw)
    assert _openssl(name, key, iv, ours, decrypt=True, nopad=nopad) == data

    theirs = _openssl(name, key, iv, data, decrypt=False, nopad=nopad)
    assert c.decrypt(theirs, mode, padding=padding, **kw) == data
    assert ours == theirs


@pytest.mark.parametrize("name", ["des-cbc", "des-ede3-cbc", "des-ede3-cfb", "des-ofb"])
@pytest.mark.parametrize("variant", ["bitslice", "table+unroll+risc2+ptr"])
def test_other_engines(name, variant):
    mode, ksize = CIPHERS[name]
    rng = np.random.default_rng(ksize)
    key, iv, data = random_key(rng, ksize), rng.bytes(8), rng.bytes(8 * 2100 + 3)
    nopad = mode != "cbc"
    theirs = _openssl(name, key, iv, data, decrypt=False, nopad=nopad)
    c = _cipher(key, variant)
    padding = None if nopad else "pkcs7"
    assert c.encrypt(data, mode, iv=iv, padding=padding) == theirs
    assert c.decrypt(theirs, mode, iv=iv, padding=padding) == data


def test_streaming_against_openssl():
    key = random_key(np.random.default_rng(5), 24)
    iv = bytes(range(8))
    data = bytes(range(256)) * 5 + b"tail"
    theirs = _openssl("des-ede3-cbc", key, iv, data, decrypt=False, nopad=False)
    e = numbades.TripleDES(key).encryptor("cbc", iv=iv, padding="pkcs7")
    ours = b"".join(e.update(data[i:i + 77]) for i in range(0, len(data), 77)) + e.finalize()
    assert ours == theirs
