"""numbades.openssl_enc against the real ``openssl enc`` (OpenSSL 3), both directions.

Every expected value comes from the ``openssl`` command: files it makes are
decrypted here, files made here are decrypted by it, and ``-P`` prints the
key and IV it derives.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from numbades import openssl_enc as oe

OPENSSL = shutil.which("openssl")
pytestmark = pytest.mark.skipif(OPENSSL is None, reason="the openssl command is not installed")
LEGACY = ["-provider", "legacy", "-provider", "default"]
ALL_NAMES = oe.names()


def openssl(*args: str, data: bytes = b"", check: bool = True) -> subprocess.CompletedProcess:
    """``openssl enc`` with the legacy provider (single DES needs it), stdin -> stdout."""
    proc = subprocess.run([OPENSSL, "enc", *LEGACY, *args], input=data, capture_output=True,
                          check=False,
                          timeout=60)
    if check and proc.returncode != 0:
        raise AssertionError(f"openssl enc {' '.join(args)} failed: {proc.stderr.decode()}")
    return proc


def payload(n: int, seed: int = 0) -> bytes:
    return np.random.default_rng(seed + n).integers(0, 256, n, dtype=np.uint8).tobytes()


def openssl_keys(*args: str) -> dict[str, bytes]:
    """What ``openssl enc -P`` prints: salt, key, iv."""
    out = openssl(*args, "-P").stdout.decode()
    keys = {}
    for line in out.splitlines():
        name, _, value = line.partition("=")
        keys[name.strip()] = bytes.fromhex(value.strip())
    return keys


# -- key derivation -------------------------------------------------------------------

@pytest.mark.parametrize("md", ["md5", "sha1", "sha256", "sha512", "sha3-256"])
def test_evp_bytes_to_key_matches_openssl(md):
    salt = bytes.fromhex("0102030405060708")
    want = openssl_keys("-des-ede3-cbc", "-pass", "pass:secret", "-S", salt.hex(), "-md", md)
    key, iv = oe.evp_bytes_to_key(b"secret", salt, 24, 8, md)
    assert (key, iv) == (want["key"], want["iv"])


def test_evp_bytes_to_key_without_salt_matches_openssl():
    want = openssl_keys("-des-ede-cbc", "-pass", "pass:pw", "-nosalt", "-md", "md5")
    assert oe.evp_bytes_to_key("pw", None, 16, 8, "md5") == (want["key"], want["iv"])


@pytest.mark.parametrize(("iterations", "md"), [(1, "sha256"), (1000, "sha1"), (10000, "sha256")])
def test_pbkdf2_matches_openssl(iterations, md):
    salt = bytes(range(8))
    want = openssl_keys("-des-ede3-cbc", "-pass", "pass:pw", "-S", salt.hex(), "-pbkdf2",
                        "-iter", str(iterations), "-md", md)
    assert oe.pbkdf2("pw", salt, 24, 8, md, iterations) == (want["key"], want["iv"])


def test_pbkdf2_nosalt_matches_openssl():
    want = openssl_keys("-des-cbc", "-pass", "pass:pw", "-nosalt", "-pbkdf2")
    assert oe.pbkdf2("pw", None, 8, 8) == (want["key"], want["iv"])


def test_kdf_bad_arguments():
    with pytest.raises(ValueError, match="salt must be 8 bytes"):
        oe.evp_bytes_to_key(b"pw", b"short", 8, 8)
    with pytest.raises(ValueError, match="unknown message digest"):
        oe.evp_bytes_to_key(b"pw", None, 8, 8, "nosuchmd")
    with pytest.raises(TypeError):
        oe.pbkdf2(123, None, 8, 8)
    with pytest.raises(ValueError, match="iterations"):
        oe.pbkdf2(b"pw", None, 8, 8, iterations=0)


# -- every cipher name, both directions ----------------------------------------------

@pytest.mark.parametrize("name", ALL_NAMES)
@pytest.mark.parametrize("size", [0, 1, 61])
def test_every_cipher_both_directions(name, size):
    data = payload(size)
    ours = oe.encrypt(data, "pw", cipher=name)
    assert openssl("-d", f"-{name}", "-pass", "pass:pw", data=ours).stdout == data
    theirs = openssl("-e", f"-{name}", "-pass", "pass:pw", data=data).stdout
    assert oe.decrypt(theirs, "pw", cipher=name) == data


@pytest.mark.parametrize("name", ["des-cbc", "des-ede3-ofb"])
def test_same_salt_same_bytes_as_openssl(name):
    data = payload(100)
    theirs = openssl("-e", f"-{name}", "-pass", "pass:pw", "-S", "00112233445566", data=data)
    ours = oe.encrypt(data, "pw", cipher=name, salt=bytes.fromhex("0011223344556600"))
    assert ours == theirs.stdout  # -S: no Salted__ header, as OpenSSL 3 writes


@pytest.mark.parametrize(
    "flags",
    [
        ("-nosalt",),
        ("-md", "md5"),
        ("-nosalt", "-md", "md5"),
        ("-md", "sha1"),
        ("-pbkdf2",),
        ("-pbkdf2", "-iter", "1"),
        ("-iter", "2000", "-md", "sha512"),
        ("-a",),
        ("-a", "-A"),
        ("-pbkdf2", "-a", "-nosalt"),
    ],
)
@pytest.mark.parametrize("size", [0, 1, 47, 48, 49, 700])
def test_derivation_and_base64_options(flags, size):
    options: dict = {}
    args = list(flags)
    while args:
        flag = args.pop(0)
        if flag == "-nosalt":
            options["nosalt"] = True
        elif flag == "-md":
            options["md"] = args.pop(0)
        elif flag == "-pbkdf2":
            options["pbkdf2"] = True
        elif flag == "-iter":
            options["iterations"] = int(args.pop(0))
        elif flag == "-a":
            options["base64"] = True
        elif flag == "-A":
            options["single_line"] = True
    data = payload(size, 7)
    common = ["-des-ede3-cbc", "-pass", "pass:pw", *flags]
    ours = oe.encrypt(data, "pw", **options)
    assert openssl("-d", *common, data=ours).stdout == data
    theirs = openssl("-e", *common, data=data).stdout
    assert oe.decrypt(theirs, "pw", **options) == data
    if "-nosalt" in flags:  # deterministic: the very bytes OpenSSL writes
        assert ours == theirs


@pytest.mark.parametrize("name", ["des-ecb", "des-ede3-cbc", "des-cfb8"])
def test_raw_key_and_iv_nopad(name):
    spec = oe.lookup(name)
    key = payload(spec.key_len, 3)
    iv = payload(8, 4) if spec.iv_len else None
    data = payload(64, 5)
    args = [f"-{name}", "-K", key.hex(), "-nopad"] + (["-iv", iv.hex()] if iv else [])
    theirs = openssl("-e", *args, data=data).stdout
    assert oe.encrypt(data, key=key, iv=iv, cipher=name, padding=False) == theirs
    assert oe.decrypt(theirs, key=key, iv=iv, cipher=name, padding=False) == data


def test_degenerate_triple_des_key_runs_as_openssl_does():
    k1, k3 = payload(8, 1), payload(8, 2)
    key = k1 + k1 + k3  # K1 == K2: single DES under K3
    iv = bytes(8)
    data = payload(40)
    theirs = openssl("-e", "-des-ede3-cbc", "-K", key.hex(), "-iv", iv.hex(), data=data).stdout
    assert oe.encrypt(data, key=key, iv=iv) == theirs
    assert oe.decrypt(theirs, key=key, iv=iv) == data


def test_arrays_in_arrays_out():
    data = np.arange(24, dtype=np.uint8)
    ct = oe.encrypt(data, "pw", nosalt=True)
    assert isinstance(ct, np.ndarray) and ct.dtype == np.uint8
    assert openssl("-d", "-des-ede3-cbc", "-pass", "pass:pw", "-nosalt",
                   data=ct.tobytes()).stdout == data.tobytes()
    blocks = np.array([0x0123456789ABCDEF], dtype=np.uint64)
    ct = oe.encrypt(blocks, "pw", nosalt=True)
    want = openssl("-e", "-des-ede3-cbc", "-pass", "pass:pw", "-nosalt",
                   data=bytes.fromhex("0123456789abcdef")).stdout
    assert ct.tobytes() == want


# -- errors as openssl gives them -------------------------------------------------------

def test_wrong_password_is_bad_decrypt():
    theirs = openssl("-e", "-des-ede3-cbc", "-pass", "pass:right", data=payload(1000)).stdout
    with pytest.raises(oe.BadDecrypt, match="bad decrypt"):
        oe.decrypt(theirs, "wrong")
    assert "bad decrypt" in openssl("-d", "-des-ede3-cbc", "-pass", "pass:wrong", data=theirs,
                                    check=False).stderr.decode()


@pytest.mark.parametrize(("cut", "message"), [(0, "error reading input file"),
                                              (10, "error reading input file"),
                                              (16, "bad decrypt"), (37, "bad decrypt")])
def test_truncated_input(cut, message):
    theirs = openssl("-e", "-des-ede3-cbc", "-pass", "pass:pw", data=payload(64)).stdout
    proc = openssl("-d", "-des-ede3-cbc", "-pass", "pass:pw", data=theirs[:cut], check=False)
    assert proc.returncode != 0 and message in proc.stderr.decode()
    with pytest.raises(oe.EncError, match=message):
        oe.decrypt(theirs[:cut], "pw")


def test_bad_magic():
    with pytest.raises(oe.EncError, match="bad magic number"):
        oe.decrypt(payload(32), "pw")


def test_nopad_partial_block_is_bad_encrypt():
    with pytest.raises(oe.EncError, match="bad encrypt"):
        oe.encrypt(b"abc", "pw", padding=False)


def test_bad_arguments_before_any_work():
    with pytest.raises(ValueError, match="unknown cipher"):
        oe.encrypt(b"", "pw", cipher="aes-128-cbc")
    with pytest.raises(ValueError, match="key must be 24 bytes"):
        oe.encrypt(b"", key=bytes(8), iv=bytes(8))
    with pytest.raises(ValueError, match="iv undefined"):
        oe.encrypt(b"", key=bytes(24))
    with pytest.raises(ValueError, match="takes no iv"):
        oe.encrypt(b"", "pw", cipher="des-ecb", iv=bytes(8))
    with pytest.raises(ValueError, match="password or a key"):
        oe.encrypt(b"")
    with pytest.raises(TypeError):
        oe.encrypt("text", "pw")
    with pytest.raises(TypeError):
        oe.encrypt(np.zeros(3, np.int32), "pw")
