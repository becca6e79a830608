"""Fast first calls and cheap small calls (issue 17): background compiles, warm-up, short paths.

Compilation is slow, so the checks that need an empty Numba cache run in
child processes with a private ``NUMBA_CACHE_DIR``; the rest check, in this
process, that warm-up compiles exactly the signatures real calls use and
that the short paths give the general path's results and errors.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest
from Crypto.Cipher import DES as RefDES

import numbades
from numbades.engines import chains
from numbades.engines.jit import loaded
from numbades.engines.registry import ENGINES
from numbades.modes import buffers, small
from numbades.tuning import warmup

KEY = bytes.fromhex("0123456789abcdef")


def _child(code: str, cache: str, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "NUMBA_CACHE_DIR": cache, **env}
    full.pop("NUMBADES_BACKGROUND_COMPILE", None)  # the library default: on
    full.update(env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=full, timeout=900, check=False)


BACKGROUND_CHILD = """
import os
import numbades
from Crypto.Cipher import DES
from numbades.engines import chains
from numbades.engines.registry import ENGINES
from numbades.tuning import policy, warmup
key, data = bytes.fromhex("0123456789abcdef"), bytes(range(256)) * 16  # 4 KiB: auto's bitslice size


def locked():
    fd = warmup.claim_compile_lock("bitslice")
    if fd is None:
        return True
    os.close(fd)
    return False


c = numbades.DES(key)
ready_before = ENGINES["bitslice"].ready(chains.ECB_ENCRYPT)
assert c.encrypt(data) == DES.new(key, DES.MODE_ECB).encrypt(data)
started = sorted(warmup._children)
# on an empty cache the table kernel compiles aside too, and NumPy served the call
table_here = len(ENGINES["table"]._kernels.ecb.signatures)
held = locked()  # the compiling child holds the lock
warmup.wait_for_background()
free = not locked()  # and the system dropped it when the child ended
picked = policy.pick(c._request, chains.ECB_ENCRYPT, len(data) // 8)
assert c.encrypt(data) == DES.new(key, DES.MODE_ECB).encrypt(data)
print(ready_before, "+".join(started) or "-", held if started else "no-child", free, picked,
      "+".join(sorted(warmup._children)) or "-", table_here)
"""


def test_auto_serves_cold_calls_and_compiles_bitslice_in_the_background(tmp_path):
    cache = str(tmp_path / "numba")
    first = _child(BACKGROUND_CHILD, cache)
    assert first.returncode == 0, first.stderr[-3000:]
    # not compiled: the call was served (by NumPy, compiling nothing here) while one child
    # compiled bitslice and one the default table variant, then bitslice serves
    assert first.stdout.split() == ["False", "bitslice+table", "True", "True", "bitslice",
                                    "bitslice+table", "0"]
    second = _child(BACKGROUND_CHILD, cache)
    assert second.returncode == 0, second.stderr[-3000:]
    # a later process finds the kernels in the cache: nothing to compile, nothing started
    assert second.stdout.split() == ["True", "-", "no-child", "True", "bitslice", "-", "0"]


LOCKED_CHILD = """
import sys
from numba.core.registry import CPUDispatcher
import numbades
from Crypto.Cipher import DES
from numbades.engines import chains
from numbades.engines.registry import ENGINES
from numbades.tuning import warmup
key, data = bytes.fromhex("0123456789abcdef"), bytes(range(256)) * 16
c = numbades.DES(key)
for _ in range(3):
    assert c.encrypt(data) == DES.new(key, DES.MODE_ECB).encrypt(data)
bitslice_compiled = [name for name, module in sys.modules.items()
                     if name.startswith("numbades.engines.bitslice") and module is not None
                     for obj in vars(module).values()
                     if isinstance(obj, CPUDispatcher) and obj.signatures]
print(ENGINES["bitslice"].ready(chains.ECB_ENCRYPT), sorted(warmup._children), bitslice_compiled)
"""


def test_one_background_compile_at_a_time_across_processes(tmp_path, monkeypatch):
    """A process that finds another's compile running starts none of its own, and still serves."""
    cache, mine = str(tmp_path / "numba"), str(tmp_path / "numbades")
    monkeypatch.setenv("NUMBA_CACHE_DIR", cache)  # the lock is named for what it fills
    monkeypatch.setenv("NUMBADES_CACHE_DIR", mine)
    held = warmup.claim_compile_lock("bitslice")  # as another process's compiling child holds it
    assert held is not None and held >= 0
    try:
        assert warmup.claim_compile_lock("bitslice") is None
        run = _child(LOCKED_CHILD, cache, NUMBADES_CACHE_DIR=mine)
        assert run.returncode == 0, run.stderr[-3000:]
        # nothing compiled bitslice (not even its key planes) or started for it; the default
        # table variant compiles aside (the cache is empty), NumPy serving meanwhile
        assert run.stdout.split() == ["False", "['table']", "[]"]
    finally:
        os.close(held)
    again = warmup.claim_compile_lock("bitslice")
    assert again is not None and again >= 0
    os.close(again)


def test_background_compiles_can_be_turned_off(monkeypatch):
    monkeypatch.setattr(warmup, "_children", {})  # whatever earlier tests started
    monkeypatch.setenv(warmup.ENV_BACKGROUND, "0")
    assert not warmup.background_enabled()
    assert warmup.ready_or_started("bitslice", chains.ECB_ENCRYPT)
    assert "bitslice" not in warmup._children
    monkeypatch.setenv(warmup.ENV_BACKGROUND, "1")
    assert warmup.background_enabled()
    assert warmup.ready_or_started("table", chains.ECB_ENCRYPT)  # quick engines always serve


class _Running:
    """A stand-in for a compiling child process: still running."""

    returncode = None

    def poll(self):
        return None


def test_a_kernel_serves_once_cached_while_the_compile_goes_on(monkeypatch):
    """The window closes kernel by kernel: asked (at most every RECHECK_SECONDS) while the
    child runs, a kernel already in the cache serves, and no second child starts."""
    monkeypatch.setenv(warmup.ENV_BACKGROUND, "1")
    monkeypatch.setattr(warmup, "_children", {"bitslice": _Running()})
    monkeypatch.setattr(warmup, "_last_miss", {})
    clock = [100.0]
    monkeypatch.setattr(warmup.time, "monotonic", lambda: clock[0])
    asked = []

    def cached():
        asked.append(clock[0])
        return clock[0] >= 101.0

    assert not warmup.ready_or_started("bitslice", chains.CTR, cached)
    clock[0] += warmup.RECHECK_SECONDS / 2
    assert not warmup.ready_or_started("bitslice", chains.CTR, cached)  # not asked again yet
    assert asked == [100.0]
    clock[0] = 101.0
    assert warmup.ready_or_started("bitslice", chains.CTR, cached)
    assert asked == [100.0, 101.0] and list(warmup._children) == ["bitslice"]


def test_the_group_a_call_needs_compiles_first():
    groups = [group for group, _ in warmup.engine_groups("bitslice", "crypt3")]
    assert groups[0] == "crypt3"
    assert groups[1:] == [g for g, _ in warmup.engine_groups("bitslice") if g != "crypt3"]
    engine = ENGINES["bitslice"]
    assert {engine.compile_group_of(chain) for chain in (chains.ECB_ENCRYPT, chains.CTR,
            chains.CBC_DECRYPT, chains.CFB_DECRYPT, chains.OFB)} <= set(groups)


def test_compile_parts_cover_every_group_once():
    """``numbades compile`` on several processes splits bitslice into parts: every group in one."""
    groups = [group for group, _ in warmup.engine_groups("bitslice")]
    parts = warmup.compile_parts("bitslice", 2)
    assert len(parts) > 1 and sorted(g for part in parts for g in part) == sorted(groups)
    assert warmup.compile_parts("bitslice", 1) == [None]  # one process: the whole engine
    assert warmup.compile_parts("table", 2) == [None]


def _kernels(engine) -> list:
    """Every Numba dispatcher an engine's calls can reach."""
    from numba.core.registry import CPUDispatcher

    modules = [m for name, m in sys.modules.items()
               if name.startswith("numbades.engines") and m is not None]
    return [obj for m in modules for obj in vars(m).values() if isinstance(obj, CPUDispatcher)]


@pytest.mark.parametrize("name", ["table", "table+unroll+risc2+ptr", "bitslice"])
def test_warm_up_compiles_exactly_what_calls_use(name):
    """After warm-up, calls of every mode and input kind compile nothing new."""
    engine = ENGINES[name]
    warmup.warm_up([name])  # what `numbades compile` and the background child run
    before = {k: len(k.signatures) for k in _kernels(engine)}
    for cipher in (numbades.DES(KEY, name), numbades.TripleDES(bytes(range(24)), name)):
        for data in (bytes(8 * 600), np.zeros(600, np.uint64), np.zeros(600, ">u8"),
                     bytearray(8 * 600)):
            for mode in ("ecb", "cbc", "cfb", "ofb", "ctr"):
                iv = None if mode == "ecb" else bytes(8)
                cipher.encrypt(data, mode, iv=iv)
                cipher.decrypt(data, mode, iv=iv)
            if name != "bitslice":
                cipher.encrypt(data, "cfb8", iv=bytes(8))
                for mode in ("pcbc", "cfb1"):  # engines/table/whitened.py
                    cipher.encrypt(data, mode, iv=bytes(8))
                    cipher.decrypt(data, mode, iv=bytes(8))
        cipher.encrypt_many(np.zeros((300, 16), np.uint8), "cbc", ivs=np.zeros(300, np.uint64))
        cipher.encrypt(bytes(16))  # the short path
    if name == "table":  # DESX: the whitened kernels, on the default table variant only
        desx = numbades.DESX(bytes(range(24)))
        for mode in ("ecb", "cbc", "cfb8", "cfb1", "ctr"):
            iv = None if mode == "ecb" else bytes(8)
            desx.decrypt(desx.encrypt(bytes(8 * 600), mode, iv=iv), mode, iv=iv)
    rng = np.random.default_rng(7)
    for width in (8, 24):  # key arrays: a key per row
        keys = rng.integers(0, 256, (300, width), dtype=np.uint8)
        if width == 24:
            keys[:, 8:16] ^= 0x80  # never a degenerate Triple-DES key
        array = (numbades.DESArray if width == 8 else numbades.TripleDESArray)(keys, name)
        for data in (np.zeros((300, 24), np.uint8), np.zeros(300, np.uint64), bytes(8)):
            array.encrypt(data)
            array.decrypt(data, "cbc", ivs=np.zeros(300, np.uint64))
    if name == "bitslice":  # crypt(3) runs on bitslice
        numbades.crypt_many(["pass", "word"], ["ab", "cd"])
        numbades.crypt("pass", "_J9..abcd")
    after = {k: len(k.signatures) for k in _kernels(engine)}
    grown = [k.py_func.__qualname__ for k in before if after[k] != before[k]]
    assert grown == []
    assert all(engine.ready(chain) for chain in chains.NAMES if engine.serves(chain))


def test_loaded_never_compiles():
    @numba.njit
    def never_called(x):
        return x + 1

    signature = (numba.int64,)
    assert not loaded(never_called, signature)  # not compiled, no cache: and still not compiled
    assert never_called.signatures == []
    never_called(1)
    assert loaded(never_called, signature)


#: The table engines' kernel groups, in compile order (``TableEngine.compile_groups``).
GROUPS = ["ecb", "chain", "cfb8", "whitened", "key"]


def test_compile_command(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "numbades", "compile", "--engines", "table,table+ptr",
                          "--jobs", "2", "--quiet"], capture_output=True, text=True, env=env,
                         timeout=900, check=False)
    assert run.returncode == 0, run.stderr
    # Run from a checkout with the package also installed (as CI does), compile warns
    # that the installed copy was not warmed; the summary is the rest.
    lines = [line for line in run.stdout.splitlines() if not line.startswith("warning: ")]
    assert lines[0].startswith("numbades compile - ")
    assert [line.split()[0] for line in lines[1:3]] == ["table", "table+ptr"]
    for line, groups in ((lines[1], [*GROUPS, "crypt3"]), (lines[2], GROUPS)):  # CPU per group
        assert [part.split()[0] for part in line.split(" s cpu: ")[1].split(", ")] == groups
    assert lines[3].startswith("helpers") and "payments" in lines[3]  # the public face's own
    assert lines[4].startswith("total") and "2 process(es)" in lines[4]
    assert lines[5] == f"kernels cached in {tmp_path.resolve()}"  # the directory it filled
    assert lines[6].startswith("compile CPU seconds by kernel group")
    assert lines[7].startswith("  table variants (2): ") and "key rows" in lines[7]
    assert any(tmp_path.rglob("*.nbi")), "nothing was written to the cache"
    bad = subprocess.run([sys.executable, "-m", "numbades", "compile", "--engines", "nope"],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert bad.returncode == 2 and "unknown engine" in bad.stderr


def _helpers() -> float:
    return 0.0


def test_compile_pool_starts_the_longest_tasks_first():
    """``numbades compile``'s pool: bitslice's big part first, then the helpers with the
    default table variant (whose kernels they call), then crypt(3), then the other tables."""
    names = ["table", "table+ptr", "table+unroll", "bitslice"]
    order = sorted(names, key=lambda n: not warmup.ENGINES[n].slow_to_compile)
    tasks = warmup.pool_tasks(order, 2, ("helpers", _helpers))
    big, crypt3 = warmup.compile_parts("bitslice", 2)
    assert tasks == [(["bitslice"], big, None), (["table"], None, ("helpers", _helpers)),
                     (["bitslice"], crypt3, None), (["table+ptr"], None, None),
                     (["table+unroll"], None, None)]
    assert len(big) > len(crypt3)  # the part that takes longest goes first
    # without the default variant, the helpers are a task of their own
    assert warmup.pool_tasks(["table+ptr"], 2, ("helpers", _helpers)) == [
        ([], None, ("helpers", _helpers)), (["table+ptr"], None, None)]
    assert warmup.pool_tasks(["table+ptr"], 2, None) == [(["table+ptr"], None, None)]


def test_inlined_helpers_compile_without_python_wrappers():
    """``jit.inline`` helpers are only ever called from kernels, so Numba builds no
    CPython or C wrapper for them (each was lowered, optimised and compiled to machine
    code for nothing: about a sixth of the ``ecb`` group's compile)."""
    from numbades.engines.jit import always_inline, inline

    @inline
    def helper(x):
        always_inline()
        return x + 1

    @numba.njit
    def kernel(x):
        return helper(x) * 2

    assert kernel(3) == 8
    (signature,) = helper.signatures
    names = [f.name for f in helper.overloads[signature].library._final_module.functions]
    assert not any("cpython" in n or n.startswith("cfunc.") for n in names), names
    (ksig,) = kernel.signatures
    knames = [f.name for f in kernel.overloads[ksig].library._final_module.functions]
    assert any("cpython" in n for n in knames)  # a kernel keeps its wrappers
    assert any(n.startswith("cfunc.") for n in knames)


# ---------------------------------------------------------------- short paths


@pytest.mark.parametrize("n", [8, 16, 64, small.LIMIT, small.LIMIT + 8])
@pytest.mark.parametrize("cipher", ["DES", "TripleDES"])
def test_small_calls_match_the_oracle_and_the_general_path(n, cipher):
    from Crypto.Cipher import DES3

    data = np.random.default_rng(n).bytes(n)
    if cipher == "DES":
        c, ref = numbades.DES(KEY), RefDES.new(KEY, RefDES.MODE_ECB)
    else:
        key = bytes(range(24))
        c, ref = numbades.TripleDES(key), DES3.new(key, DES3.MODE_ECB)
    ct = c.encrypt(data)
    assert type(ct) is bytes and ct == ref.encrypt(data)
    assert c.decrypt(ct) == data
    assert ct == bytes(c.encrypt(bytearray(data)))  # the general path
    served = small.ecb(c._schedule, c._request, data, decrypt=False)
    assert (served is None) == (n > small.LIMIT)


@pytest.mark.parametrize("bad", [b"1234567", b"x" * 9, b"y" * (small.LIMIT + 1)])
def test_small_calls_fail_like_the_general_path(bad):
    c = numbades.DES(KEY)
    with pytest.raises(ValueError) as short:
        c.encrypt(bad)
    with pytest.raises(ValueError) as general:
        c.encrypt(bytearray(bad))
    assert str(short.value) == str(general.value)


def test_empty_bytes_give_empty_bytes():
    assert numbades.DES(KEY).encrypt(b"") == b""


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
def test_large_byte_results_are_built_in_their_object(kind):
    n = buffers.IN_PLACE_RESULT_BYTES * 2 + 8
    data = np.random.default_rng(1).bytes(n)
    c = numbades.DES(KEY)
    for got, want in ((c.encrypt(kind(data)), RefDES.new(KEY, RefDES.MODE_ECB).encrypt(data)),
                      (c.encrypt(kind(data), "ctr", iv=bytes(8)),
                       RefDES.new(KEY, RefDES.MODE_CTR, nonce=b"", initial_value=0).encrypt(data))):
        assert type(got) is kind
        assert bytes(got) == want
    if kind is bytes:
        assert hash(got) == hash(want)  # a proper, immutable bytes object


# ------------------------------------------- a warm cache serves every public call


WARM_CALLS = """
import sys
import numpy as np
import numbades
from numba.core.registry import CPUDispatcher
from numbades.engines.registry import ENGINES

# what auto asks before it sends key arrays, crypt(3) and MAC batches to bitslice: ready
bitslice = ENGINES["bitslice"]
print(bitslice.key_rows_ready(), bitslice.crypt3_ready(), bitslice.cbc_mac_ready())
rng = np.random.default_rng(39)
key, key24 = bytes.fromhex("0123456789abcdef"), bytes(range(1, 25))
for cipher in (numbades.DES(key), numbades.TripleDES(key24)):
    for size in (64, 8 * 4096):  # a table variant, then bitslice (auto)
        raw = rng.integers(0, 256, size, dtype=np.uint8)
        for data in (raw.tobytes(), bytearray(raw.tobytes()), raw, raw.view(np.uint64),
                     raw.view(">u8")):
            for mode in ("ecb", "cbc", "cfb", "cfb8", "ofb", "ctr"):
                iv = None if mode == "ecb" else bytes(8)
                cipher.decrypt(cipher.encrypt(data, mode, iv=iv), mode, iv=iv)
        e = cipher.encryptor("cbc", iv=bytes(8))
        e.update(raw[:100].tobytes()), e.update(raw[100:]), e.finalize()
    for messages in (2, 256):
        rows = rng.integers(0, 256, (messages, 32), dtype=np.uint8)
        for data in (rows, rows.view(np.uint64)):
            for mode in ("ecb", "cbc", "ofb", "ctr"):
                ivs = None if mode == "ecb" else np.zeros(messages, np.uint64)
                cipher.decrypt_many(cipher.encrypt_many(data, mode, ivs=ivs), mode, ivs=ivs)
for n in (3, 300):  # key arrays: few keys (a table variant), many (bitslice)
    for width in (8, 16, 24):
        keys = rng.integers(0, 256, (n, width), dtype=np.uint8)
        keys[:, 8:16] ^= 0x80  # never a degenerate Triple-DES key
        array = (numbades.DESArray if width == 8 else numbades.TripleDESArray)(keys)
        numbades.key_check_values(keys)
        for data in (rng.integers(0, 256, (n, 24), dtype=np.uint8), np.zeros(n, np.uint64),
                     bytes(16)):
            array.decrypt(array.encrypt(data, "cbc", ivs=np.zeros(n, np.uint64)), "ecb")
for n in (1, 5, 300):  # crypt(3): one hash, a few (table), many (bitslice)
    words = ["x" * 9 + str(i) for i in range(n)]
    for setting in ("ab", "_J9..CCCC"):
        hashes = numbades.crypt_many(words, setting)
        numbades.crypt_many(np.array(words, "S"), np.array([setting] * n, "S"))
        numbades.crypt_verify_many(words, hashes)
        numbades.crypt_verify(words[0], hashes[0])
        numbades.crypt(words[0], setting)
for n in (1, 3, 300):  # MACs: one message, a few (encrypt_many), many (the CBC-MAC kernel)
    for size in (16, 19):  # whole blocks as they are, and padded rows
        rows = rng.integers(0, 256, (n, size), dtype=np.uint8)
        for width in (8, 16, 24):
            key = bytes(range(1, width + 1))
            for padding in (1, 2, 3):
                numbades.mac.cbc(key, rows, padding=padding)
                numbades.mac.cbc(key, rows[0].tobytes(), iv=bytes(8), padding=padding)
                if width > 8:
                    numbades.mac.retail(key, rows, padding=padding)
            numbades.mac.cmac(key, rows), numbades.mac.cmac(key, rows[0].tobytes())
            keys = rng.integers(0, 256, (n, width), dtype=np.uint8)
            keys[:, 8:16] ^= 0x80  # never a degenerate Triple-DES key
            numbades.mac.cbc(keys, rows), numbades.mac.cmac(keys, rows)
            if width > 8:
                numbades.mac.retail(keys, rows, padding=2)
    numbades.mac.quad_cksum(rows[0].tobytes(), bytes(8))
    numbades.mac.quad_cksum(rows, bytes(8), outputs=2)
import numbades.payments as pay  # payments: few rows and many, one key and a key per row
for n in (1, 300):
    pans = ["40000012345678" + f"{i % 100:02d}" for i in range(n)]
    pins = ["1234"] * n
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    keys[:, 8:16] ^= 0x80
    ksns = np.tile(np.frombuffer(bytes.fromhex("FFFF9876543210E00001"), np.uint8), (n, 1))
    for fmt in (0, 1, 2, 3):
        blocks = pay.pin_block(pins, pans, fmt)
        pay.pin_from_block(blocks, pans, fmt)
    enciphered = pay.encipher_pin_blocks(keys, pins, pans, 0)
    pay.translate_pin_blocks(enciphered, pans, keys, keys[::-1].copy())
    pay.dukpt_ipek(keys, ksns), pay.dukpt_key(keys[0], ksns, "pin")
    cvvs, pvvs = pay.cvv(keys, pans, "2512", "101"), pay.visa_pvv(keys[0], "1", pins, pans)
    offsets = pay.ibm3624_offset(keys[0], "0123456789012345", pins, pans)
    pay.verify_cvv(keys, pans, "2512", "101", cvvs)
    pay.verify_visa_pvv(keys[0], "1", pins, pans, pvvs)
    pay.verify_ibm3624_offset(keys[0], "0123456789012345", pins, pans, offsets)
    mk = pay.emv_icc_master_key(keys, pans, "00")
    sk = pay.emv_session_key(mk, np.zeros((n, 2), np.uint8))
    arqc = pay.emv_arqc(sk, rng.integers(0, 256, (n, 29), dtype=np.uint8))
    pay.emv_arpc(sk, arqc, np.zeros((n, 2), np.uint8))

compiled = set()
for name, module in list(sys.modules.items()):
    if name.startswith("numbades") and module is not None:
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher) and sum(obj.stats.cache_misses.values()):
                compiled.add(obj.py_func.__module__ + "." + obj.py_func.__qualname__)
print(sorted(compiled))
"""


def test_a_fresh_process_after_compile_compiles_nothing():
    """Every public call kind under ``auto`` loads its kernels from the cache (issue 39, item 3;
    issue 36: the MACs over many messages and key arrays; the payment jobs).

    Numba's own count of cache misses per dispatcher: a miss is a compile.
    Runs in the package's default cache, which the rest of the suite fills
    too, so the compile is shared with the tests that would make it anyway.
    """
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["NUMBADES_BACKGROUND_COMPILE"] = "0"  # a miss would compile here, and show
    done = subprocess.run([sys.executable, "-m", "numbades", "compile", "--engines",
                           "table,bitslice", "--jobs", "2", "--quiet"], capture_output=True,
                          text=True, env=env, timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    run = subprocess.run([sys.executable, "-c", WARM_CALLS], capture_output=True, text=True,
                         env=env, timeout=900, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.splitlines() == ["True True True", "[]"], run.stdout[-3000:]
