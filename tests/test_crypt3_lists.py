"""crypt_many on Python lists of str, converted in bulk (``modes.texts``), against glibc.

Reference: Python 3.11's ``crypt`` module (glibc's libcrypt), which encodes a
str password as UTF-8 as numbades does.  Every batch here is longer than
``unix_crypt.FEW_HASHES``, so it takes the batch path (the bulk conversion),
not the one-by-one short path.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numbades
from numbades.des.crypt3 import ALPHABET
from numbades.engines.registry import CRYPT3_ENGINES
from numbades.modes import texts
from numbades.unix_crypt import FEW_HASHES

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    libc = pytest.importorskip("crypt", reason="Python 3.13 removed the crypt module")


def glibc(password: str, setting: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return libc.crypt(password, setting)


def _salts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [ALPHABET[a] + ALPHABET[b] for a, b in rng.integers(0, 64, (n, 2))]


ODD = ["", "a", "\u00e9", "\u00e9t\u00e9\u00e9t\u00e9", "\u65e5\u672c\u8a9e\u30d1\u30b9",
       "\U0001f600" * 3, "x" * 100, "12345678", "1234567", "123456789", "\x7f\x01 ~",
       "pass word", "\u00ff" * 8]


def test_non_ascii_empty_long_and_mixed_lengths_match_glibc():
    rng = np.random.default_rng(11)
    alphabet = "ab\u00e9\u20ac\U0001f600 ~"
    passwords = ODD + ["".join(rng.choice(list(alphabet), rng.integers(0, 20)))
                       for _ in range(3 * FEW_HASHES)]
    salts = _salts(len(passwords), 12)
    assert numbades.crypt_many(passwords, salts) == [
        glibc(p, s) for p, s in zip(passwords, salts, strict=True)]
    # one setting for all, BSDi (every byte counts), and a tuple
    assert numbades.crypt_many(tuple(passwords), "_J9..CCCC") == [
        glibc(p, "_J9..CCCC") for p in passwords]


def test_settings_lists_of_mixed_kinds_match_glibc():
    """Salts, whole hashes and BSDi settings in one list of str (the bulk salt path and its
    fallback)."""
    passwords = [f"pw{i}\u00e9" * (i % 4) for i in range(2 * FEW_HASHES)]
    salts = _salts(len(passwords), 13)
    mixed = [s if i % 3 else glibc("x", s) for i, s in enumerate(salts)]  # 2 or 13 characters
    assert numbades.crypt_many(passwords, mixed) == [
        glibc(p, s) for p, s in zip(passwords, mixed, strict=True)]
    mixed[5] = "_J9..CCCC"
    assert numbades.crypt_many(passwords, mixed) == [
        glibc(p, s) for p, s in zip(passwords, mixed, strict=True)]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.text(st.characters(min_codepoint=1, exclude_categories=("Cs",)),
                        max_size=12), min_size=FEW_HASHES + 1, max_size=3 * FEW_HASHES))
def test_any_list_of_str_matches_glibc(passwords):
    salts = _salts(len(passwords), len(passwords))
    assert numbades.crypt_many(passwords, salts) == [
        glibc(p, s) for p, s in zip(passwords, salts, strict=True)]


def test_verify_many_takes_lists_of_str_in_bulk():
    passwords = ODD * 4
    hashes = [glibc(p, s) for p, s in zip(passwords, _salts(len(passwords), 14), strict=True)]
    assert numbades.crypt_verify_many(passwords, hashes).all()
    assert not numbades.crypt_verify_many(["!" + p for p in passwords], hashes).any()


def _must_not_run(*args):
    raise AssertionError("an engine ran before the input was checked")


@pytest.fixture
def no_engine(monkeypatch):
    for engine in CRYPT3_ENGINES.values():
        monkeypatch.setattr(engine, "crypt3", _must_not_run)
        monkeypatch.setattr(engine, "crypt3_one", _must_not_run)


@pytest.mark.usefixtures("no_engine")
def test_bad_rows_are_named_before_any_work():
    n = 2 * FEW_HASHES
    good = ["pw"] * n
    for row, bad, err, text in ((40, 3, TypeError, "password 40 must be str or bytes-like"),
                                (41, None, TypeError, "password 41 must be str"),
                                (42, "a\0b", ValueError, "password 42 contains a NUL"),
                                (43, b"a\0", ValueError, "password 43 contains a NUL")):
        passwords = list(good)
        passwords[row] = bad
        with pytest.raises(err, match=text):
            numbades.crypt_many(passwords, "ab")
    passwords = list(good)
    passwords[7] = "\ud800"  # a lone surrogate: no UTF-8 form, as in str.encode
    with pytest.raises(UnicodeEncodeError):
        numbades.crypt_many(passwords, "ab")
    salts = _salts(n, 15)
    for row, bad, err, text in ((30, b"ab", TypeError, "salt 30 must be a str"),
                                (31, "a\u00e9", ValueError, "salt 31: invalid character"),
                                (32, "a", ValueError, "salt 32: a traditional"),
                                (33, "a\0", ValueError, "salt 33: invalid character"),
                                (34, "_J9..CCC", ValueError, "salt 34: a BSDi setting")):
        bad_salts = list(salts)
        bad_salts[row] = bad
        with pytest.raises(err, match=text):
            numbades.crypt_many(good, bad_salts)
    bad_salts = list(salts)
    bad_salts[20:22] = ["a", "bcd"]  # as long in all as two 2-character salts
    with pytest.raises(ValueError, match="salt 20: a traditional"):
        numbades.crypt_many(good, bad_salts)


def test_pack_and_unpack():
    words = ["", "\u00e9", "abcdefghij", "a\U0001f600", "12345678"]
    packed = texts.pack(words)
    encoded = [w.encode() for w in words]
    assert packed.bytes_list() == encoded
    assert packed.lengths.tolist() == [len(b) for b in encoded]
    for start in (0, 8, 16):
        assert packed.window(start).tobytes() == b"".join(
            b[start:start + 8].ljust(8, b"\0") for b in encoded)
    assert packed.padded().tolist() == encoded and not packed.ascii()
    assert texts.pack(["ab", "cd"]).padded().dtype == np.dtype("S2")
    for refused in ([], ["a", 1], ["a", b"b"], ["a\0"], ["\udc80"]):
        assert texts.pack(refused) is None
    rows = np.frombuffer(b"abc\0\0defgh", np.uint8).reshape(2, 5)
    assert texts.strings(rows) == ["abc", "defgh"]
    assert texts.strings(np.zeros((0, 13), np.uint8)) == []


def test_byte_and_str_arrays_of_traditional_salts_match_passlib_and_glibc():
    """The one-pass path of 2-character salts (``unix_crypt._traditional_batch``) on arrays."""
    from passlib.hash import des_crypt

    rng = np.random.default_rng(16)
    n = 3 * FEW_HASHES
    raw = np.array([bytes(rng.integers(1, 256, rng.integers(0, 12)).astype(np.uint8))
                    for _ in range(n)])  # the 8th bit set in some bytes, 0 to 11 bytes
    salts = _salts(n, 17)
    expected = [des_crypt.using(salt=s).hash(p) for p, s in zip(raw.tolist(), salts, strict=True)]
    for salt_array in (np.array([s.encode() for s in salts]), np.array(salts, dtype="S5")):
        out = numbades.crypt_many(raw, salt_array)
        assert out.dtype == np.dtype("S13")
        assert [h.decode() for h in out.tolist()] == expected
    words = [p.decode("latin-1") for p in raw[:20].tolist() if b"\0" not in p] + ["\u00e9t\u00e9"] * 20
    as_str = numbades.crypt_many(np.array(words), "x.")
    assert as_str.dtype == np.dtype("U13")
    assert as_str.tolist() == [glibc(w, "x.") for w in words]
    bad = np.array([s.encode() for s in salts])
    bad[7] = b"a:"
    with pytest.raises(ValueError, match="salt 7: invalid character"):
        numbades.crypt_many(raw, bad)


def test_bitslice_salt_swaps_of_both_widths_match_glibc(monkeypatch):
    """Every salt bit swaps its E bits on the bitslice engine: random 12- and 24-bit salts."""
    from numbades.tuning import policy

    monkeypatch.setenv("NUMBADES_VARIANT", "bitslice")
    monkeypatch.setattr(policy, "_crypt3_preference", [])  # read once per process: again here
    rng = np.random.default_rng(18)
    n = 3 * FEW_HASHES
    passwords = [f"p{i}\u00e9{i * 7919}" for i in range(n)]
    bsdi = ["_" + "".join(ALPHABET[c] for c in rng.integers(0, 64, 8)) for _ in range(n)]
    bsdi = [s[:1] + "1..." + s[5:] for s in bsdi]  # 1 iteration: quick in glibc too
    for settings_ in (_salts(n, 19), bsdi):
        assert numbades.crypt_many(passwords, settings_) == [
            glibc(p, s) for p, s in zip(passwords, settings_, strict=True)]
