"""crypt(3) DES hashes (docs/api.md, crypt(3)) against glibc and passlib.

References: Python 3.11's own ``crypt`` module (glibc's libcrypt on Linux;
deprecated, its warning filtered here) and passlib's ``des_crypt`` and
``bsdi_crypt`` with their pure-Python backend.  glibc refuses a bad setting
by returning the token ``*0``; numbades raises ``ValueError`` there.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades
from numbades.des.crypt3 import ALPHABET

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    libc = pytest.importorskip("crypt", reason="Python 3.13 removed the crypt module")

from passlib.hash import bsdi_crypt, des_crypt

des_crypt.set_backend("builtin")
bsdi_crypt.set_backend("builtin")


def glibc(password: str | bytes, setting: str) -> str:
    """glibc's crypt(3); bytes are given as the str whose UTF-8 encoding they are, if any."""
    if isinstance(password, bytes):
        password = password.decode("utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return libc.crypt(password, setting)


# Known hashes (the FreeSec / John the Ripper test set; glibc gives the same).
KNOWN = [
    ("U*U*U*U*", "CCNf8Sbh3HDfQ"),
    ("U*U***U", "CCX.K.MFy4Ois"),
    ("", "..X8NBuQ4l6uQ"),
    ("U*U*U*U*", "_J9..CCCCXBrJUJV154M"),
]


@pytest.mark.parametrize(("password", "hashed"), KNOWN)
def test_known_hashes(password, hashed):
    assert numbades.crypt(password, hashed[:2] if len(hashed) == 13 else hashed[:9]) == hashed
    assert numbades.crypt(password, hashed) == hashed  # a whole hash as the setting
    assert numbades.crypt_verify(password, hashed)
    assert not numbades.crypt_verify("x" + password, hashed)


ASCII = st.text(st.characters(min_codepoint=1, max_codepoint=127), max_size=20)
ANY_TEXT = st.text(st.characters(min_codepoint=1, exclude_categories=("Cs",)), max_size=20)
BYTES = st.binary(max_size=20).filter(lambda b: b"\0" not in b)
SALT2 = st.text(st.sampled_from(ALPHABET), min_size=2, max_size=2)
SETTING_BSDI = st.builds(lambda c, s: "_" + c + s,
                         st.sampled_from(["/...", "1...", "5/..", "....", "z..."]),
                         st.text(st.sampled_from(ALPHABET), min_size=4, max_size=4))


@settings(max_examples=150, deadline=None)
@given(password=ANY_TEXT, salt=SALT2)
def test_traditional_matches_glibc(password, salt):
    assert numbades.crypt(password, salt) == glibc(password, salt)


@settings(max_examples=60, deadline=None)
@given(password=ANY_TEXT, setting=SETTING_BSDI)
def test_bsdi_matches_glibc(password, setting):
    assert numbades.crypt(password, setting) == glibc(password, setting)


@settings(max_examples=80, deadline=None)
@given(password=BYTES, salt=SALT2)
def test_bytes_with_the_8th_bit_match_passlib(password, salt):
    """Only the low 7 bits of each byte count (passlib's pure backend agrees)."""
    ours = numbades.crypt(password, salt)
    assert ours == des_crypt.using(salt=salt).hash(password)
    low = bytes(b & 0x7F for b in password)
    if b"\0" not in low:
        assert ours == numbades.crypt(low, salt)


@settings(max_examples=40, deadline=None)
@given(password=BYTES, setting=SETTING_BSDI.filter(lambda s: s[1:5] != "...."))
def test_bsdi_matches_passlib(password, setting):
    rounds = sum(ALPHABET.index(c) << (6 * i) for i, c in enumerate(setting[1:5]))
    want = bsdi_crypt.using(salt=setting[5:9], rounds=rounds).hash(password)
    assert numbades.crypt(password, setting) == want


def test_every_salt_character_and_crypt_many_elementwise():
    rng = np.random.default_rng(9)
    passwords = ["".join(chr(c) for c in rng.integers(32, 127, rng.integers(0, 12)))
                 for _ in range(2 * len(ALPHABET) + 3000)]
    salts = [a + b for a, b in zip(ALPHABET, ALPHABET[::-1], strict=True)]
    salts = (salts + [b + a for a, b in zip(ALPHABET, ALPHABET[7:] + ALPHABET[:7], strict=True)]
             + [ALPHABET[i % 64] + ALPHABET[(i // 64) % 64] for i in range(3000)])
    salts[-5:] = ["_J9..CCCC", "_/...zzzz", "_5/..abcd", "_J9..CCCC", "_....ab.."]
    many = numbades.crypt_many(passwords, salts)
    assert many == [glibc(p, s) for p, s in zip(passwords, salts, strict=True)]
    some = slice(0, 3000, 97)
    assert many[some] == [numbades.crypt(p, s) for p, s in
                          zip(passwords[some], salts[some], strict=True)]
    as_str = numbades.crypt_many(np.array(passwords), np.array(salts))
    assert as_str.dtype == np.dtype("U20") and as_str.tolist() == many
    raw = np.array([p.encode() for p in passwords[:3000]])
    as_bytes = numbades.crypt_many(raw, np.array([s.encode() for s in salts[:3000]]))
    assert as_bytes.dtype == np.dtype("S13")
    assert [h.decode() for h in as_bytes.tolist()] == many[:3000]
    assert numbades.crypt_many(raw[:9], np.array(salts[:9])).tolist() == [
        h.encode() for h in many[:9]]
    padded = np.array([b"ab\0cd", b"abc"], dtype="S5")  # a password ends at its first NUL
    assert numbades.crypt_many(padded, "xy").tolist() == [
        glibc(p, "xy").encode() for p in ("ab", "abc")]
    assert numbades.crypt_many(padded, "_J9..CCCC")[0].decode() == glibc("ab", "_J9..CCCC")
    assert numbades.crypt_many(passwords[:3], "ab") == [glibc(p, "ab") for p in passwords[:3]]
    assert numbades.crypt_many([], []) == []


def test_long_passwords():
    """Traditional uses the first 8 bytes; BSDi folds in every byte."""
    assert numbades.crypt("12345678abc", "ab") == numbades.crypt("12345678", "ab")
    assert numbades.crypt("12345678abc", "_J9..CCCC") != numbades.crypt("12345678", "_J9..CCCC")
    long = "x" * 100 + "y"
    assert numbades.crypt(long, "_J9..CCCC") == glibc(long, "_J9..CCCC")


def test_bad_input():
    for setting in ("a", "", "a!", "!a", "_J9..CCC", "_J9..CC!C", "_J!..CCCC", "a\u00e9"):
        assert glibc("pw", setting).startswith("*")  # glibc refuses it too
        with pytest.raises(ValueError):
            numbades.crypt("pw", setting)
    with pytest.raises(ValueError, match="invalid salt character '\\$'"):
        numbades.crypt("pw", "$1$abcdefgh")  # MD5-crypt: another algorithm, not DES
    for password, setting, err in ((12, "ab", TypeError), (None, "ab", TypeError),
                                   ("pw", b"ab", TypeError), ("pw", None, TypeError),
                                   ("a\0b", "ab", ValueError), (b"a\0", "ab", ValueError)):
        with pytest.raises(err):
            numbades.crypt(password, setting)
    with pytest.raises(ValueError, match="2 passwords but 1 salts"):
        numbades.crypt_many(["a", "b"], ["ab"])
    with pytest.raises(TypeError):
        numbades.crypt_many("ab", "ab")
    with pytest.raises(TypeError):
        numbades.crypt_many(["a", 3], "ab")
    with pytest.raises(ValueError):  # every setting is checked before any work
        numbades.crypt_many(["a", "b"], ["ab", "a!"])
    with pytest.raises(ValueError, match="invalid salt character"):
        numbades.crypt_many(np.array([b"a", b"b"]), np.array(["ab", "a\u0100"]))
    with pytest.raises(ValueError, match="NUL"):
        numbades.crypt_many(["a", "b\0"], "ab")
    with pytest.raises(TypeError):
        numbades.crypt_many(np.array([b"a"]), np.array([1]))
    with pytest.raises(ValueError):
        numbades.crypt_many(np.array([[b"a"]]), "ab")
    with pytest.raises(ValueError, match="13 characters"):
        numbades.crypt_verify("pw", "abcdef")
    with pytest.raises(ValueError, match="20 characters"):
        numbades.crypt_verify("pw", "_J9..CCCCXBrJUJV154")
    with pytest.raises(TypeError):
        numbades.crypt_verify("pw", None)
