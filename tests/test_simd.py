"""Explicit vectors (``cpu.simd``, 512-bit on AVX-512) and the LUT programs written on them.

In plain Python ``ternary`` is checked against the definition of a truth
table, and the generated ``ternary_s1`` .. ``ternary_s8`` against the FIPS
S-boxes on all 64 inputs, on every host.  Compiled, the primitives exist
only for AVX-512 targets: on such a host each is run against NumPy (every
one of the 256 immediates of ``vpternlogq``), elsewhere these tests are
skipped; the whole engine on top of them is checked against pycryptodome
by the bitslice and mode tests, and ``test_vector_width`` compiles the round
kernel for an AVX-512 CPU on any x86-64 host and counts one ``vpternlogq``
per LUT.
"""

import numba
import numpy as np
import pytest

from numbades.engines.bitslice.cpu.simd import LANES_PER_VECTOR, load, splat, store, ternary, xor
from numbades.engines.bitslice.sboxes import sbox_luts_gen as _luts
from numbades.tuning import machine as _machine

from .tools.test_sbox_luts import FULL, expected_tables, input_tables

HAS_AVX512 = _machine.has_avx512()
# The three inputs' columns of a truth table, as vpternlogq indexes its immediate.
A, B, C = 0xF0, 0xCC, 0xAA


def numpy_ternary(a: np.ndarray, b: np.ndarray, c: np.ndarray, tt: int) -> np.ndarray:
    """Truth table ``tt`` of three uint64 arrays, from its minterms."""
    out = np.zeros_like(a)
    for row in range(8):
        if tt >> row & 1:
            out |= (a if row & 4 else ~a) & (b if row & 2 else ~b) & (c if row & 1 else ~c)
    return out


@pytest.mark.parametrize("tt", range(256))
def test_ternary_in_python_is_its_truth_table(tt: int) -> None:
    assert ternary(A, B, C, tt) & 0xFF == tt


@pytest.mark.parametrize("box", range(8))
def test_ternary_programs_match_fips(box: int) -> None:
    func = getattr(_luts, f"ternary_s{box + 1}")
    assert [o & FULL for o in func(*input_tables())] == expected_tables(box)


def test_ternary_programs_are_one_call_per_lut() -> None:
    import inspect

    for box in range(8):
        source = inspect.getsource(getattr(_luts, f"ternary_s{box + 1}"))
        assert source.count(" = ternary(") == _luts.LUT_COUNTS[box]


_needs_avx512 = pytest.mark.skipif(
    not HAS_AVX512, reason="vpternlogq and 512-bit loads run only on an AVX-512 host"
)


def _every_immediate_kernel():
    """A kernel writing ternary(a, b, c, tt) to out[tt] for all 256 immediates.

    One call per immediate in its source: the immediate must be a constant.
    """
    lines = ["def every_immediate(a, b, c, out):",
             "    for lane in range(0, a.shape[0], LANES_PER_VECTOR):",
             "        va, vb, vc = load(a, lane), load(b, lane), load(c, lane)"]
    lines += [f"        store(out[{tt}], lane, ternary(va, vb, vc, {tt}))" for tt in range(256)]
    scope = {"LANES_PER_VECTOR": LANES_PER_VECTOR, "load": load, "store": store, "ternary": ternary}
    exec("\n".join(lines), scope)  # noqa: S102 - test-local generated source
    return numba.njit(scope["every_immediate"])


@_needs_avx512
def test_compiled_ternary_matches_numpy_for_every_immediate() -> None:
    rng = np.random.default_rng(14)
    a, b, c = (rng.integers(0, 2**64, 64, dtype=np.uint64) for _ in range(3))
    out = np.zeros((256, 64), np.uint64)
    _every_immediate_kernel()(a, b, c, out)
    for tt in range(256):
        assert np.array_equal(out[tt], numpy_ternary(a, b, c, tt)), hex(tt)


@numba.njit
def _xor_with_splat(src, word, dst, offset):
    store(dst, offset, xor(load(src, offset), splat(word)))


@_needs_avx512
def test_load_xor_splat_store_touch_exactly_eight_words() -> None:
    src = np.arange(1, 25, dtype=np.uint64) * np.uint64(0x0101010101010101)
    dst = np.zeros(24, np.uint64)
    _xor_with_splat(src, np.uint64(0xFFFF0000FFFF0000), dst, 5)
    want = np.zeros(24, np.uint64)
    want[5:13] = src[5:13] ^ np.uint64(0xFFFF0000FFFF0000)
    assert np.array_equal(dst, want)
