"""No input may crash the process or return a silently wrong result (issue 12).

The property test drives every engine and mode through every input kind and
every kind of ``out=`` (none, the input itself, separate, overlapping ahead
of or behind the input, another dtype, the other byte order, read-only,
non-contiguous): each call either returns exactly pycryptodome's answer
(and writes ``out`` with it) or raises ``TypeError``/``ValueError`` with
``out`` untouched.  NumPy subclasses, which once corrupted the heap, run in
a subprocess so a crash fails a test instead of killing pytest.  Then the
defects the property test found, each pinned: overlapping ``out=``,
non-contiguous memoryviews, a hostile saved-choice store.  Each named bad
argument and its exception and wording are ``test_mode_errors``'s; the
oracle runs of every engine and mode are ``test_modes``'s.
"""

from __future__ import annotations

import array
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numbades

from .catalogue import BLOCK_MODES, ENGINE_MODES
from .oracle import random_key, ref_decrypt, ref_encrypt

KINDS = ["bytes", "bytearray", "memoryview", "u8", "u64", "u64-be"]
OUT_KINDS = ["none", "same", "separate", "ahead", "behind", "other-dtype", "other-order",
             "read-only", "strided", "array.array"]
ERRORS = (TypeError, ValueError)


def _cipher(key: bytes, engine: str):
    return numbades.DES(key, engine) if len(key) == 8 else numbades.TripleDES(key, engine)


def _kw(mode: str, iv: bytes) -> dict:
    return {} if mode == "ecb" else {"iv": iv}


def _bytes_of(x) -> bytes:
    """The bytes a value stands for (uint64 elements read big-endian)."""
    if isinstance(x, np.ndarray) and x.dtype.itemsize == 8:
        return x.astype(">u8").tobytes()
    if isinstance(x, np.ndarray):
        return x.tobytes()
    return bytes(memoryview(x).cast("B"))


def _placed(data: bytes, kind: str):
    """``data`` as ``kind``, and a way to make views overlapping it.

    Returns (value, view): for kinds that can share memory, ``value`` sits one
    block into a buffer one block longer at each end, and ``view(offset)`` is
    a view of the same length ``offset`` blocks from ``value`` (0: ``value``
    itself); for ``bytes`` and ``bytearray``, ``view`` is None.
    """
    if kind == "bytes":
        return data, None
    if kind == "bytearray":
        return bytearray(data), None
    pad = bytes(8)
    if kind == "memoryview":
        buf = bytearray(pad + data + pad)
        n = len(data)
        return memoryview(buf)[8:8 + n], lambda off: memoryview(buf)[8 + 8 * off:8 + 8 * off + n]
    if kind == "u8":
        buf = np.frombuffer(pad + data + pad, np.uint8).copy()
        n = len(data)
        return buf[8:8 + n], lambda off: buf[8 + 8 * off:8 + 8 * off + n]
    dtype = np.dtype(np.uint64) if kind == "u64" else np.dtype(">u8")
    buf = np.frombuffer(pad + data + pad, ">u8").astype(dtype)
    k = len(data) // 8
    return buf[1:1 + k], lambda off: buf[1 + off:1 + off + k]


def _make_out(kind: str, out_kind: str, nbytes: int, view):
    """An ``out`` of ``out_kind`` for a result of ``nbytes`` (None: no such out for ``kind``)."""
    words = kind in ("u64", "u64-be")
    dtype = np.dtype(np.uint64 if kind == "u64" else ">u8") if words else np.dtype(np.uint8)
    count = nbytes // dtype.itemsize
    if out_kind == "none":
        return None
    if out_kind in ("same", "ahead", "behind"):
        if view is None:
            return None
        return view({"same": 0, "ahead": 1, "behind": -1}[out_kind])
    if out_kind == "separate":
        return bytearray(nbytes) if kind in ("bytes", "bytearray", "memoryview") else np.full(
            count, 0xA5, dtype)
    if out_kind == "other-dtype":
        if nbytes % 8:
            return None
        return np.zeros(nbytes, np.uint8) if words else np.zeros(nbytes // 8, np.uint64)
    if out_kind == "other-order":
        return np.zeros(count, dtype.newbyteorder()) if words else None
    if out_kind == "read-only":
        arr = np.zeros(count, dtype)
        arr.setflags(write=False)
        return arr
    if out_kind == "strided":  # (0 or 1 elements with a stride are still contiguous)
        return np.zeros(2 * count, dtype)[::2] if count > 1 else None
    if out_kind == "array.array":
        return array.array("B", bytes(nbytes))
    raise AssertionError(out_kind)


def _snapshot(out) -> bytes | None:
    if out is None:
        return None
    if isinstance(out, np.ndarray):
        return out.tobytes()
    return bytes(memoryview(out).cast("B"))


@st.composite
def hardening_cases(draw):
    engine, mode = draw(st.sampled_from(ENGINE_MODES))
    kind = draw(st.sampled_from(KINDS))
    out_kind = draw(st.sampled_from(OUT_KINDS))
    ksize = draw(st.sampled_from([8, 16, 24]))
    whole = mode in BLOCK_MODES or kind.startswith("u64")
    blocks = draw(st.sampled_from([0, 1, 2, 3, 31, 64, 300, 520]))
    n = 8 * blocks if whole else 8 * blocks + draw(st.integers(0, 7))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    decrypt = draw(st.booleans())
    return engine, mode, kind, out_kind, random_key(rng, ksize), rng.bytes(8), rng.bytes(n), decrypt


#: out kinds that must be accepted (when they exist for the input kind)
ACCEPTED = {"none", "same", "separate", "ahead", "behind", "array.array"}


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hardening_cases())
def test_every_call_is_right_or_refused_with_out_untouched(case):
    engine, mode, kind, out_kind, key, iv, data, decrypt = case
    value, view = _placed(data, kind)
    out = _make_out(kind, out_kind, len(data), view)
    if out is None and out_kind != "none":
        return  # that out kind does not exist for this input kind
    expected = (ref_decrypt if decrypt else ref_encrypt)(key, mode, iv, data)
    should_work = out_kind in ACCEPTED and not (out_kind == "array.array" and
                                                kind.startswith("u64"))
    before = _snapshot(out)
    cipher = _cipher(key, engine)
    call = cipher.decrypt if decrypt else cipher.encrypt
    try:
        got = call(value, mode, out=out, **_kw(mode, iv))
    except ERRORS:
        assert not should_work, "a well-formed call was refused"
        assert _snapshot(out) == before, "out was written before the error"
        return
    assert should_work, f"out kind {out_kind!r} was accepted for {kind} input"
    if out is None:
        assert _bytes_of(got) == expected
    else:
        assert got is out
        assert _bytes_of(out) == expected


# ---------------------------------------------------------------- defect 1: subclasses


def _run_child(code: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter; a crash shows as a non-zero return code."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=full_env, check=False)


SUBCLASS_CHILD = """
import numpy as np, numbades, tempfile, os
from Crypto.Cipher import DES as Ref
key = bytes.fromhex("133457799bbcdff1")
ref = Ref.new(key, Ref.MODE_ECB)
c = numbades.DES(key)

class Tagged(np.ndarray):
    pass

# np.matrix and masked arrays are refused before any kernel runs, as data, out, many.
for make in (lambda a: np.matrix(a), lambda a: np.ma.masked_array(a)):
    for _ in range(20):
        a = np.zeros((64, 8), np.uint8)
        for call in (lambda: c.encrypt(make(a)),
                     lambda: c.encrypt(a, out=make(np.zeros((64, 8), np.uint8))),
                     lambda: c.encrypt_many(make(a)),
                     lambda: c.encrypt_many(a, out=make(np.zeros((64, 8), np.uint8))),
                     lambda: c.encryptor().update_into(a.reshape(-1), make(np.zeros((1, 600), np.uint8)))):
            try:
                call()
            except TypeError:
                pass
            else:
                raise SystemExit("a refused subclass was accepted")

# Plain subclasses work exactly like the base class, as data and as out.
path = os.path.join(tempfile.mkdtemp(), "m.bin")
for n in (8, 64 * 8, 3000 * 8):
    plain = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
    expected = ref.encrypt(plain.tobytes())
    mm = np.memmap(path, dtype=np.uint8, mode="w+", shape=(n // 8, 8))
    mm[:] = plain.reshape(-1, 8)
    tagged = plain.reshape(-1, 8).view(Tagged)
    for data in (mm, tagged):
        got = c.encrypt(data)
        assert type(got) is np.ndarray and got.shape == (n // 8, 8), (type(got), got.shape)
        assert got.tobytes() == expected
        out = np.zeros((n // 8, 8), np.uint8).view(Tagged)
        assert c.encrypt(data, out=out) is out and out.tobytes() == expected
        assert c.encrypt_many(data).tobytes() == expected
        many_out = np.zeros((n // 8, 8), np.uint8).view(Tagged)
        assert c.encrypt_many(data, out=many_out) is many_out
        assert many_out.tobytes() == expected
    # in place on a memmap
    c.encrypt(mm, out=mm)
    assert mm.tobytes() == expected
    del mm
print("ok")
"""


def test_subclasses_refused_or_exact_in_a_subprocess():
    result = _run_child(SUBCLASS_CHILD)
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr[-2000:])
    assert result.stdout.strip().endswith("ok")


# ---------------------------------------------------------------- defect 2: overlap

KEY8 = bytes.fromhex("133457799bbcdff1")


@pytest.mark.parametrize("shift", [8, -8, 3, -5])
@pytest.mark.parametrize(("engine", "mode"), ENGINE_MODES)
def test_overlapping_out_gives_the_oracle_answer(engine, mode, shift):
    n = 8 * 600  # above the bitslice threshold
    buf = np.arange(n + abs(shift), dtype=np.uint64).astype(np.uint8)
    src, dst = (buf[:n], buf[shift:]) if shift > 0 else (buf[-shift:], buf[:n])
    iv = bytes(range(8))
    expected = ref_encrypt(KEY8, mode, iv, src.tobytes())
    got = numbades.DES(KEY8, engine).encrypt(src, mode, out=dst, **_kw(mode, iv))
    assert got is dst and dst.tobytes() == expected


@pytest.mark.parametrize("engine", ["auto", "bitslice", "table"])
@pytest.mark.parametrize("shift", [1, -1])
def test_overlapping_many_out(engine, shift):
    rng = np.random.default_rng(5)
    m, blocks = 300, 3
    buf = rng.integers(0, 2**63, (m + 1) * blocks, dtype=np.uint64).reshape(m + 1, blocks)
    src, dst = (buf[:m], buf[1:]) if shift > 0 else (buf[1:], buf[:m])
    ivs = rng.integers(0, 2**63, m, dtype=np.uint64)
    src_bytes = src.astype(">u8").tobytes()
    expected = b"".join(
        ref_encrypt(KEY8, "cbc", int(ivs[i]).to_bytes(8, "big"),
                    src_bytes[24 * i:24 * i + 24]) for i in range(m))
    got = numbades.DES(KEY8, engine).encrypt_many(src, "cbc", ivs=ivs, out=dst)
    assert got is dst and dst.astype(">u8").tobytes() == expected


THREADED_OVERLAP_CHILD = """
import numpy as np, numba, numbades
from Crypto.Cipher import DES as Ref
from numbades.engines.bitslice import threads
assert numba.get_num_threads() == 2, numba.get_num_threads()
key = bytes.fromhex("133457799bbcdff1")
ref = Ref.new(key, Ref.MODE_ECB)
n = 2048 * 2 * threads.MIN_PASSES_PER_THREAD  # two threads, one range of passes each
assert len(threads.split(n, 2048)) == 2
for shift in (1, -1, 7, -2048, 2048):
    for trial in range(3):
        buf = np.random.default_rng(trial).integers(0, 2**63, n + abs(shift), dtype=np.uint64)
        src, dst = (buf[:n], buf[shift:]) if shift > 0 else (buf[-shift:], buf[:n])
        expected = ref.encrypt(src.astype(">u8").tobytes())
        numbades.DES(key, "bitslice").encrypt(src, out=dst)
        assert dst.astype(">u8").tobytes() == expected, (shift, trial)
print("ok")
"""


def test_overlapping_out_with_two_numba_threads():
    result = _run_child(THREADED_OVERLAP_CHILD, env={"NUMBA_NUM_THREADS": "2"})
    assert result.returncode == 0, (result.stdout, result.stderr[-2000:])


# ---------------------------------------------------------------- defect 4: memoryviews


@pytest.mark.parametrize("engine", ["auto", "table", "bitslice"])
def test_non_contiguous_memoryview_is_copied(engine):
    base = bytearray(range(64))
    view = memoryview(base)[::2]
    expected = ref_encrypt(KEY8, "ecb", None, bytes(view))
    assert bytes(numbades.DES(KEY8, engine).encrypt(view)) == expected
    ctx = numbades.DES(KEY8, engine).encryptor("ctr", iv=bytes(8))
    assert ctx.update(view) == ref_encrypt(KEY8, "ctr", bytes(8), bytes(view))


# ---------------------------------------------------------------- defect 5: the saved-choice store

STORE_CHILD = """
import warnings, numbades
from Crypto.Cipher import DES as Ref
key = bytes.fromhex("133457799bbcdff1")
data = bytes(range(256)) * 32  # 1024 blocks: auto consults the store
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(3):
        assert numbades.DES(key).encrypt(data) == Ref.new(key, Ref.MODE_ECB).encrypt(data)
store = [w for w in caught if w.category.__name__ == "SavedChoiceWarning"]
assert len(store) == 1, [str(w.message) for w in caught]
print("ok", store[0].message)
"""


def _deep_nesting(path):
    path.write_text("[" * 100_000)


def _huge(path):
    with open(path, "wb") as fh:
        fh.write(b" " * (64 * 1024 * 1024) + b"{}")


def _fifo(path):
    os.mkfifo(path)


def _directory(path):
    path.mkdir()


def _unreadable(path):
    path.symlink_to(path.name)  # a symlink loop: every open or stat fails (even as root)


@pytest.mark.parametrize("make", [_deep_nesting, _huge, _fifo, _directory, _unreadable],
                         ids=lambda f: f.__name__.strip("_"))
def test_hostile_store_file_never_breaks_or_blocks_auto(tmp_path, make):
    from numbades.tuning import saved_choice as _saved_choice

    make(tmp_path / _saved_choice.FILE_NAME)
    result = _run_child(STORE_CHILD, env={"NUMBADES_CACHE_DIR": str(tmp_path),
                                          "NUMBADES_VARIANT": ""}, timeout=120)
    assert result.returncode == 0, (result.stdout, result.stderr[-2000:])
    assert result.stdout.startswith("ok")
