"""The bitsliced kernels against pycryptodome, and the transposition on its own."""

import numba
import numpy as np
import pytest
from Crypto.Cipher import DES, DES3
from hypothesis import given, settings
from hypothesis import strategies as st

from numbades.des.keyschedule_ref import subkeys48
from numbades.engines.bitslice.layout import simd_passes
from numbades.engines.bitslice.layout import transpose as _tr
from numbades.engines.bitslice.rounds import lane_rounds as bs
from numbades.engines.bitslice.sboxes.dispatch import input_complement

W = bs.LANES
SIZES = [0, 1, 63, 64, 65, 64 * W - 1, 64 * W, 64 * W + 1, 300_001]


def _kp(key: bytes, decrypt: bool = False) -> np.ndarray:
    rk = subkeys48(int.from_bytes(key, "big"))
    return bs.key_planes(np.array(rk[::-1] if decrypt else rk, dtype=np.uint64))


def _kp3(key: bytes) -> np.ndarray:
    """3DES-EDE encryption: K1, reversed K2, K3."""
    k1, k2, k3 = (subkeys48(int.from_bytes(key[i:i + 8], "big")) for i in (0, 8, 16))
    return bs.key_planes(np.array(k1 + k2[::-1] + k3, dtype=np.uint64))


def _words(raw: bytes) -> np.ndarray:
    """Raw memory words (swap=True view on a little-endian machine)."""
    return np.frombuffer(raw, dtype="<u8").copy()


def _run(fn, raw: bytes, kp: np.ndarray, swap: bool) -> bytes:
    if swap:
        src = _words(raw)
        dst = np.empty_like(src)
        fn(src, dst, kp, True)
        return dst.astype("<u8").tobytes()
    src = np.frombuffer(raw, dtype=">u8").astype(np.uint64)  # block values
    dst = np.empty_like(src)
    fn(src, dst, kp, False)
    return dst.astype(">u8").tobytes()


@pytest.fixture(scope="module")
def rng() -> np.random.Generator:
    return np.random.default_rng(20240601)


@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_des_matches_pycryptodome(rng, n, swap):
    key = rng.bytes(8)
    raw = rng.bytes(8 * n)
    want = DES.new(key, DES.MODE_ECB).encrypt(raw)
    assert _run(bs.ecb, raw, _kp(key), swap) == want


@pytest.mark.parametrize("n", [1, 64 * W + 1, 5000])
def test_decrypt_with_reversed_keys(rng, n):
    key = rng.bytes(8)
    raw = rng.bytes(8 * n)
    want = DES.new(key, DES.MODE_ECB).decrypt(raw)
    assert _run(bs.ecb, raw, _kp(key, decrypt=True), True) == want


@pytest.mark.parametrize("n", [1, 64 * W - 1, 3 * 64 * W + 5])
def test_3des_with_48_rounds(rng, n):
    key = DES3.adjust_key_parity(rng.bytes(24))
    raw = rng.bytes(8 * n)
    want = DES3.new(key, DES3.MODE_ECB).encrypt(raw)
    assert _run(bs.ecb, raw, _kp3(key), True) == want


def test_in_place(rng):
    key = rng.bytes(8)
    raw = rng.bytes(8 * (2 * 64 * W + 17))
    buf = _words(raw)
    bs.ecb(buf, buf, _kp(key), True)
    assert buf.astype("<u8").tobytes() == DES.new(key, DES.MODE_ECB).encrypt(raw)
    bs.ecb(buf, buf, _kp(key, decrypt=True), True)
    assert buf.astype("<u8").tobytes() == raw


@pytest.mark.parametrize("key", [0x0101010101010101, 0xFEFEFEFEFEFEFEFE, 0x1F1F1F1F0E0E0E0E])
def test_weak_key_encrypt_twice_is_identity(rng, key):
    kp = _kp(key.to_bytes(8, "big"))
    src = rng.integers(0, 2**64, 1000, dtype=np.uint64, endpoint=False)
    dst = np.empty_like(src)
    bs.ecb(src, dst, kp, False)
    assert not np.array_equal(dst, src)
    bs.ecb(dst, dst, kp, False)
    assert np.array_equal(dst, src)


@pytest.mark.parametrize("swap", [True, False])
@pytest.mark.parametrize("n", [0, 1, 64 * W + 1, 300_001])
def test_threaded_equals_serial(rng, n, swap):
    """The engine's multi-thread split gives the serial kernel's words bit for bit."""
    import numba

    from numbades.engines.bitslice.engine import ENGINE

    kp = _kp(rng.bytes(8))
    src = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    a = np.empty_like(src)
    b = np.empty_like(src)
    bs.ecb(src, a, kp, swap)
    before = numba.get_num_threads()
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    try:
        ENGINE.ecb(src, b, kp, swap)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(a, b)


def test_key_planes_shape_and_bits():
    # the masks carry the one-key circuits' folded NOTs (dispatch.input_complement): undo them
    kp = bs.key_planes(np.array([1 << 47, 1], dtype=np.uint64)) ^ input_complement()
    assert kp.shape == (2, 48) and kp.dtype == np.uint64
    assert kp[0, 0] == np.uint64(2**64 - 1) and not kp[0, 1:].any()
    assert kp[1, 47] == np.uint64(2**64 - 1) and not kp[1, :47].any()


def test_building_blocks_compose_to_ecb(rng):
    """to_planes + crypt_planes + from_planes == ecb on one partial pass."""
    key = rng.bytes(8)
    n = 64 * W - 3
    src = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    want = np.empty_like(src)
    bs.ecb(src, want, _kp(key), True)
    planes = np.empty((64, W), dtype=np.uint64)
    bs.to_planes(src, 0, n, True, planes)
    bs.crypt_planes(planes, _kp(key))
    got = np.zeros_like(src)
    bs.from_planes(planes, got, 0, n, True)
    assert np.array_equal(got, want)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(0, 64 * W),
    start=st.integers(0, 7),
    swap=st.booleans(),
)
def test_transpose_roundtrip_and_plane_meaning(seed, count, start, swap):
    r = np.random.default_rng(seed)
    words = r.integers(0, 2**64, start + count, dtype=np.uint64, endpoint=False)
    planes = np.empty((64, W), dtype=np.uint64)
    bs.to_planes(words, start, count, swap, planes)
    # Plane i, lane b % W, bit b // W is bit i of block b's value; padding is zero.
    values = words[start:].byteswap() if swap else words[start:]
    bits = np.zeros((64, 64 * W), dtype=np.uint64)
    bits[:, :count] = (values[None, :] >> np.arange(64, dtype=np.uint64)[:, None]) & np.uint64(1)
    lane_bits = bits.reshape(64, 64, W)  # [plane, bit-in-word, lane]
    expect = (lane_bits << np.arange(64, dtype=np.uint64)[None, :, None]).sum(
        axis=1, dtype=np.uint64
    )
    assert np.array_equal(planes, expect)
    out = np.zeros(start + count, dtype=np.uint64)
    kept = planes.copy()
    bs.from_planes(planes, out, start, count, swap)
    assert np.array_equal(out[start:], words[start:])
    assert np.array_equal(planes, kept)


@numba.njit
def _scratch_offsets(n):
    """Cache-line offsets of n plane arrays and n work arrays made in a kernel."""
    out = np.empty(2 * n, np.int64)
    for i in range(n):
        p = _tr.new_planes()
        w = _tr.new_work()
        p[:] = i  # the whole view is writable memory of the right size
        w[:] = i
        out[2 * i] = p.ctypes.data & 63
        out[2 * i + 1] = w.ctypes.data & 63
    return out


def test_scratch_buffers_start_on_a_cache_line():
    assert not _scratch_offsets(20).any()
    assert _tr.new_planes.py_func().shape == (64, W)
    assert _tr.new_work.py_func().shape == (64 * W,)


@pytest.mark.parametrize("offset", [1, 3])
def test_arrays_off_the_cache_line(rng, offset):
    """Full passes read and write through unaligned 512-bit loads and stores."""
    key = rng.bytes(8)
    n = 2 * 64 * W + 9
    raw = rng.bytes(8 * n)
    backing = np.zeros(n + 8, dtype=np.uint64)
    src = backing[offset:offset + n]
    src[:] = _words(raw)
    out_backing = np.zeros(n + 8, dtype=np.uint64)
    dst = out_backing[offset + 1:offset + 1 + n]
    bs.ecb(src, dst, _kp(key), True)
    assert dst.astype("<u8").tobytes() == DES.new(key, DES.MODE_ECB).encrypt(raw)
    assert not out_backing[:offset + 1].any() and not out_backing[offset + 1 + n:].any()


@pytest.mark.parametrize("xor", [0, bs.BSWAP_XOR])
def test_fused_pass_equals_the_lane_loop_pass(rng, xor):
    src = rng.integers(0, 2**64, 64 * W, dtype=np.uint64, endpoint=False)
    kp = _kp(rng.bytes(8))
    rows = np.array([simd_passes.WORK_ROW[p ^ xor] for p in range(64)], dtype=np.int64)
    fused, lane_loops = np.empty_like(src), np.empty_like(src)
    bs._fused_ecb_pass(src, fused, 0, kp, xor, rows, bs.new_planes(), bs.new_work())
    bs._ecb_chunk(src, lane_loops, 0, bs.BLOCKS, kp, xor, bs.new_planes(), bs.new_work())
    assert np.array_equal(fused, lane_loops)
