"""The table rounds in NumPy (``engines/table/numpy_rounds.py``): a cold process's first calls.

Held to the outside references the kernels are (pycryptodome, OpenSSL's
libcrypto through ctypes), directly and through the public objects with the
default table variant made to serve as it does while its kernels compile in
another process.
"""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pytest

import numbades
from numbades import cipher as cipher_module
from numbades.des import keyschedule
from numbades.des.keyschedule_ref import subkeys48
from numbades.engines import chains
from numbades.engines.registry import ENGINES
from numbades.engines.table import engine as table_engine
from numbades.engines.table import numpy_rounds
from numbades.engines.table.frame import SPTRANS, frame_schedule

from .oracle import ref_decrypt, ref_encrypt

KEYS = [bytes.fromhex("133457799bbcdff1"), bytes(range(1, 25)), bytes(range(40, 56))]
IV = bytes.fromhex("fffffffffffffffe")  # the CTR counter wraps within the call


def _cipher(key: bytes):
    return numbades.DES(key) if len(key) == 8 else numbades.TripleDES(key)


def _words(data: bytes, swap: bool) -> np.ndarray:
    """Engine words of ``data``: memory words (swap) or block values."""
    return np.frombuffer(data, np.uint64).copy() if swap else \
        np.frombuffer(data, ">u8").astype(np.uint64)


def _bytes(words: np.ndarray, swap: bool) -> bytes:
    return words.tobytes() if swap else words.astype(">u8").tobytes()


@pytest.mark.parametrize("key", KEYS, ids=lambda k: f"{len(k)}-byte")
@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("mode, chain", [("ecb", chains.ECB_ENCRYPT), ("ecb", chains.ECB_DECRYPT),
                                         ("ctr", chains.CTR), ("cbc", chains.CBC_DECRYPT)])
def test_numpy_rounds_match_pycryptodome(key, swap, mode, chain):
    data = np.random.default_rng(len(key) + chain).bytes(8 * 37)
    form = _cipher(key)._schedule.form(ENGINES["table"], chain)
    src = _words(data, swap)
    state = numpy_rounds.chain(chain, src, src, form, SPTRANS, swap,  # in place
                               int.from_bytes(IV, "big"))
    iv = None if mode == "ecb" else IV
    decrypt = chain in (chains.ECB_DECRYPT, chains.CBC_DECRYPT)
    want = (ref_decrypt if decrypt else ref_encrypt)(key, mode, iv, data)
    assert _bytes(src, swap) == want
    if mode == "ctr":
        assert state == (int.from_bytes(IV, "big") + 37) % 2**64
    elif mode == "cbc":
        assert state == int.from_bytes(data[-8:], "big")


def test_numpy_ecb_matches_libcrypto():
    name = ctypes.util.find_library("crypto")
    if name is None:
        pytest.skip("libcrypto not found")
    lib = ctypes.CDLL(name)
    if not hasattr(lib, "DES_ecb_encrypt"):
        pytest.skip("libcrypto without the DES_* API")
    key = KEYS[0]
    schedule = ctypes.create_string_buffer(128)
    lib.DES_set_key_unchecked(ctypes.c_char_p(key), schedule)
    data = np.random.default_rng(3).bytes(8 * 64)
    want = b""
    for i in range(0, len(data), 8):
        out = ctypes.create_string_buffer(8)
        lib.DES_ecb_encrypt(ctypes.c_char_p(data[i:i + 8]), out, schedule, 1)
        want += out.raw
    src = _words(data, True)
    dst = np.empty_like(src)
    numpy_rounds.ecb(src, dst, _cipher(key)._schedule.form(ENGINES["table"], chains.ECB_ENCRYPT),
                     SPTRANS, True)
    assert dst.tobytes() == want


def test_numpy_rounds_refuse_sequential_chains():
    form = _cipher(KEYS[0])._schedule.form(ENGINES["table"], chains.CBC_ENCRYPT)
    words = np.zeros(2, np.uint64)
    assert not numpy_rounds.serves(chains.CBC_ENCRYPT)
    with pytest.raises(ValueError, match="cbc-encrypt"):
        numpy_rounds.chain(chains.CBC_ENCRYPT, words, words, form, SPTRANS, False, 0)


@pytest.fixture
def compiling_aside(monkeypatch):
    """The default table variant as a cold process sees it: kernels compiling in a child."""
    engine = ENGINES[table_engine.DEFAULT]
    asked = []
    monkeypatch.setattr(engine, "_loaded", set())
    monkeypatch.setattr(engine, "_kernel_loaded", lambda kernel: False)
    monkeypatch.setattr(engine, "compiling_aside", lambda: asked.append(1) or True)
    monkeypatch.setattr(table_engine, "frame_schedule_ready", lambda: False)
    monkeypatch.setattr(cipher_module, "_schedule_loaded", [])
    monkeypatch.setattr(cipher_module, "loaded", lambda *args: False)
    monkeypatch.setattr(numpy_rounds, "calls", [], raising=False)
    for module, name in ((numpy_rounds, "ecb"), (numpy_rounds, "chain"),
                         (numpy_rounds, "frame_schedule"), (keyschedule, "round_keys48_numpy")):
        real = getattr(module, name)

        def counted(*args, _real=real, _name=name, **kwargs):
            numpy_rounds.calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return asked


@pytest.mark.parametrize("key", KEYS[:2], ids=lambda k: f"{len(k)}-byte")
def test_cold_calls_run_on_numpy_and_match_the_reference(compiling_aside, key):
    data = np.random.default_rng(5).bytes(8 * 100 + 5)
    c = _cipher(key)
    for mode in ("ecb", "ctr", "cbc"):
        iv = None if mode == "ecb" else IV
        padding = "pkcs7" if mode != "ctr" else None
        if mode == "cbc":  # CBC encryption is sequential: the kernel, only decryption on NumPy
            ct = ref_encrypt(key, mode, iv, data + bytes([3]) * 3)
            assert c.decrypt(ct, mode, iv=iv, padding=padding) == data
            continue
        plain = data if mode == "ctr" else data + bytes([3]) * 3
        ct = c.encrypt(data, mode, iv=iv, padding=padding)
        assert ct == ref_encrypt(key, mode, iv, plain)
        assert c.decrypt(ct, mode, iv=iv, padding=padding) == data
    # served by NumPy, key schedule and key form included; a compile asked for
    assert set(numpy_rounds.calls) == {"ecb", "chain", "frame_schedule", "round_keys48_numpy"}
    assert compiling_aside


def test_big_cold_calls_and_sequential_chains_use_the_kernel(compiling_aside):
    c = numbades.DES(KEYS[0], "table")
    big = bytes(8 * (table_engine.NUMPY_MAX_BLOCKS + 1))
    assert c.encrypt(big) == ref_encrypt(KEYS[0], "ecb", None, big)
    assert c.encrypt(bytes(64), "cbc", iv=IV) == ref_encrypt(KEYS[0], "cbc", IV, bytes(64))
    assert "ecb" not in numpy_rounds.calls and "chain" not in numpy_rounds.calls


def test_uncompiled_key_schedule_and_form_match_the_kernels_and_the_standard():
    rng = np.random.default_rng(11)
    for _ in range(50):
        key = rng.bytes(8)
        fast = keyschedule.round_keys48(key)
        assert fast.dtype == np.uint64
        assert list(keyschedule.round_keys48_numpy(key)) == list(fast)
        assert list(fast) == subkeys48(int.from_bytes(key, "big"))  # FIPS 46-3 in Python
        ede = np.concatenate([fast, fast[::-1], fast])
        assert np.array_equal(numpy_rounds.frame_schedule(ede), frame_schedule(ede))
