"""Dispatch: which engine ``auto`` picks, saved choices, forced engines, threads."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from Crypto.Cipher import DES as RefDES

import numbades
from numbades.engines import chains
from numbades.engines import registry as _engines
from numbades.engines.bitslice.cpu import target
from numbades.engines.bitslice.layout.transpose import BLOCKS
from numbades.tuning import machine as _machine
from numbades.tuning import policy
from numbades.tuning import saved_choice as _saved_choice

THRESHOLD = policy.BITSLICE_THRESHOLD_BLOCKS
AUTO = policy.Request("auto", forced=False)
INDEPENDENT = chains.ECB_ENCRYPT  # independent blocks of one stream
SEQUENTIAL = chains.CBC_ENCRYPT  # one block after another


@pytest.fixture(autouse=True)
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(_saved_choice.ENV_DIR, str(tmp_path))
    monkeypatch.delenv("NUMBADES_VARIANT", raising=False)
    _saved_choice.forget_loaded()
    yield tmp_path
    _saved_choice.forget_loaded()


@pytest.fixture
def engines_used(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every engine ``pick`` hands out during a test."""
    seen: list[str] = []
    real = policy.pick

    def spy(*args, **kwargs) -> str:
        engine = real(*args, **kwargs)
        seen.append(engine)
        return engine

    monkeypatch.setattr(policy, "pick", spy)
    return seen


def test_auto_by_size_and_mode():
    assert policy.pick(AUTO, INDEPENDENT, THRESHOLD - 1) == _engines.DEFAULT_TABLE_VARIANT
    assert policy.pick(AUTO, INDEPENDENT, THRESHOLD) == _engines.BITSLICE
    assert policy.pick(AUTO, SEQUENTIAL, 10**6) == _engines.DEFAULT_TABLE_VARIANT
    for v in numbades.variants():
        forced = policy.Request(v, forced=True)
        assert policy.pick(forced, INDEPENDENT, 1) == v
        assert policy.pick(forced, SEQUENTIAL, 10**6) == v


@pytest.mark.parametrize(
    ("mode", "decrypt", "engine"),
    [
        ("ecb", False, "bitslice"),
        ("ecb", True, "bitslice"),
        ("ctr", False, "bitslice"),
        ("cbc", True, "bitslice"),
        ("cfb", True, "bitslice"),
        ("cbc", False, "table"),
        ("cfb", False, "table"),
        ("ofb", False, "table"),
        ("ofb", True, "table"),
        ("cfb8", False, "table"),
    ],
)
def test_modes_reach_the_expected_engine(engines_used, mode, decrypt, engine):
    c = numbades.DES(b"\x13\x34\x57\x79\x9b\xbc\xdf\xf1")
    data = bytes(8 * 4 * THRESHOLD)
    iv = None if mode == "ecb" else bytes(8)
    (c.decrypt if decrypt else c.encrypt)(data, mode, iv=iv)
    assert engines_used and set(engines_used) == {engine}


def test_saved_choice_steers_auto(engines_used):
    _saved_choice.save_choices({"small": "table+unroll", "medium": "table+risc2+ptr",
                                "large": "bitslice"})
    _saved_choice.forget_loaded()
    assert policy.pick(AUTO, INDEPENDENT, 1) == "table+unroll"
    assert policy.pick(AUTO, INDEPENDENT, 64 * 1024 // 8) == "table+risc2+ptr"
    assert policy.pick(AUTO, INDEPENDENT, 1 << 20) == "bitslice"
    # a saved bitslice cannot serve a sequential mode: the default table variant does
    assert policy.pick(AUTO, SEQUENTIAL, 1 << 20) == _engines.DEFAULT_TABLE_VARIANT
    key = b"\x01\x23\x45\x67\x89\xab\xcd\xef"
    data = np.random.default_rng(3).bytes(1024)
    assert numbades.DES(key).encrypt(data) == RefDES.new(key, RefDES.MODE_ECB).encrypt(data)


def test_environment_variable_overrides_auto(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("NUMBADES_VARIANT", "table+unroll+ptr")
    assert numbades.DES(bytes(8)).variant == "table+unroll+ptr"
    monkeypatch.setenv("NUMBADES_VARIANT", "nonsense")
    with pytest.raises(ValueError, match="NUMBADES_VARIANT"):
        numbades.DES(bytes(8))


def test_forced_bitslice_serves_sequential_modes_and_refuses_cfb8():
    key = b"\x0e\x32\x92\x32\xea\x6d\x0d\x73"
    iv = b"\x87\x87\x87\x87\x87\x87\x87\x87"
    data = np.random.default_rng(4).bytes(8 * 37 + 3)
    c = numbades.DES(key, variant="bitslice")
    for mode, ref in [("cbc", RefDES.new(key, RefDES.MODE_CBC, iv=iv)),
                      ("cfb", RefDES.new(key, RefDES.MODE_CFB, iv=iv, segment_size=64)),
                      ("ofb", RefDES.new(key, RefDES.MODE_OFB, iv=iv))]:
        msg = data[: 8 * 37] if mode == "cbc" else data
        assert c.encrypt(msg, mode, iv=iv) == ref.encrypt(msg)
    with pytest.raises(ValueError, match="cfb8"):
        c.encrypt(data, "cfb8", iv=iv)
    with pytest.raises(ValueError, match="cfb8"):
        c.encryptor("cfb8", iv=iv)


THREADED_CHILD = """
import numba, numpy as np, numbades
from numbades.engines.bitslice import threads
from numbades.engines.bitslice.cpu import target
from numbades.engines.bitslice.layout.transpose import BLOCKS
from Crypto.Cipher import DES
assert numba.config.NUMBA_NUM_THREADS == 2
key, iv = bytes.fromhex("10316e028c8f3b4a"), bytes.fromhex("0123456789abcdef")
n = 2 * threads.MIN_PASSES_PER_THREAD * BLOCKS + 5
data = np.random.default_rng(5).integers(0, 256, 8 * n, dtype=np.uint8)
for count in (1, 2):
    numba.set_num_threads(count)
    assert len(threads.split(n, BLOCKS)) == count
    c = numbades.DES(key, variant="bitslice")
    raw = data.tobytes()
    assert c.encrypt(data).tobytes() == DES.new(key, DES.MODE_ECB).encrypt(raw)
    ctr = DES.new(key, DES.MODE_CTR, nonce=b"", initial_value=int.from_bytes(iv, "big"))
    assert c.encrypt(data, "ctr", iv=iv).tobytes() == ctr.encrypt(raw)
    assert c.decrypt(data, "cbc", iv=iv).tobytes() == DES.new(key, DES.MODE_CBC, iv=iv).decrypt(raw)
    cfb = DES.new(key, DES.MODE_CFB, iv=iv, segment_size=64)
    assert c.decrypt(data, "cfb", iv=iv).tobytes() == cfb.decrypt(raw)
    buf = data.copy()  # in place: every range chains from a block another range overwrites
    c.decrypt(buf, "cbc", iv=iv, out=buf)
    assert buf.tobytes() == DES.new(key, DES.MODE_CBC, iv=iv).decrypt(raw)
    rows = data[: 8 * 2 * BLOCKS * 3].reshape(2 * BLOCKS, 24)
    ivs = np.arange(2 * BLOCKS, dtype=np.uint64)
    got = c.encrypt_many(rows, "cbc", ivs=ivs)
    for i in (0, BLOCKS - 1, BLOCKS, 2 * BLOCKS - 1):
        want = DES.new(key, DES.MODE_CBC, iv=int(ivs[i]).to_bytes(8, "big")).encrypt(rows[i].tobytes())
        assert got[i].tobytes() == want, i
print("ok")
"""


def test_thread_count_changes_nothing():
    """One and two Numba threads give pycryptodome's answer in every multi-core path.

    In a child started with two Numba threads, whatever this machine has.
    """
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    result = subprocess.run([sys.executable, "-c", THREADED_CHILD], capture_output=True,
                            text=True, env=env, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "ok"


@pytest.mark.parametrize("variant", ["table+unroll", "bitslice"])
def test_one_cipher_shared_by_threads(variant):
    """Kernels run without the GIL; one cipher object serves concurrent calls correctly."""
    from concurrent.futures import ThreadPoolExecutor

    key = b"\x7c\xa1\x10\x45\x4a\x1a\x6e\x57"
    c = numbades.DES(key, variant=variant)
    rng = np.random.default_rng(6)
    messages = [rng.bytes(8 * int(n)) for n in rng.integers(1, 3 * BLOCKS, 8)]
    iv = bytes(range(8))
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda m: c.encrypt(m, "ctr", iv=iv), messages))
    for m, g in zip(messages, got, strict=True):
        ref = RefDES.new(key, RefDES.MODE_CTR, nonce=b"", initial_value=int.from_bytes(iv, "big"))
        assert g == ref.encrypt(m)


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="reads the kernel's CPU flags")
def test_host_avx512_detection_agrees_with_the_kernels_cpu_flags():
    flags = next(
        line.split(":", 1)[1].split()
        for line in Path("/proc/cpuinfo").read_text().splitlines()
        if line.startswith("flags")
    )
    assert _machine.has_avx512() == ("avx512f" in flags)


def test_default_threshold_follows_the_compile_target_not_the_host():
    # Numba builds for NUMBA_CPU_FEATURES when set: an AVX2 build on an AVX-512
    # host runs 256-bit passes, so it gets the AVX2 threshold (the AVX2-build
    # subprocess test in test_circuit_choice checks that case end to end).
    features = target.target_features()
    # the engine reports the width it was built for, and the policy reads it there
    assert _engines.ENGINES["bitslice"].vector_bits == (512 if "+avx512f" in features else 256)
    expected = 256 if "+avx512f" in features else 384
    assert expected == THRESHOLD
