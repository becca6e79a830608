"""The bitslice kernels ask LLVM for 512-bit vectors, and get them where AVX-512 exists."""

import numba
import numpy as np
import pytest

from numbades.des import keyschedule as _keyschedule
from numbades.engines.bitslice import mode_kernels as _bitslice_modes
from numbades.engines.bitslice import rounds as _bitslice
from numbades.engines.bitslice import vector_width as _vector_width
from numbades.engines.bitslice.vector_width import prefer_wide_vectors
from numbades.tuning import machine as _machine

KEY = bytes.fromhex("133457799bbcdff1")
HAS_AVX512 = _machine.has_avx512()  # checked against /proc/cpuinfo in test_engines


def _fresh_round_kernel():
    """A non-cached copy of the shared round kernel (cached ones have no IR to inspect)."""
    fresh = numba.njit(nogil=True)(_bitslice.crypt_into.py_func)
    planes = np.zeros((64, _bitslice.LANES), np.uint64)
    work = np.empty(64 * _bitslice.LANES, np.uint64)
    fresh(planes, work, _bitslice.key_planes(_keyschedule.round_keys48(KEY)), 0)
    return fresh


def test_round_kernel_carries_the_width_attribute():
    llvm_ir = "\n".join(_fresh_round_kernel().inspect_llvm().values())
    assert f'"prefer-vector-width"="{_vector_width.PREFERRED_BITS}"' in llvm_ir


def test_a_function_without_the_call_has_no_attribute():
    @numba.njit
    def plain(x):
        return x + 1

    plain(1)
    assert "prefer-vector-width" not in "\n".join(plain.inspect_llvm().values())


def test_every_bitslice_kernel_asks_for_wide_vectors():
    """Each compiled entry point with lane loops calls prefer_wide_vectors first."""
    kernels = [
        _bitslice.crypt_into, _bitslice._ecb_chunk, _bitslice.to_planes,
        _bitslice.from_planes, _bitslice_modes._ctr, _bitslice_modes._cbc_decrypt,
        _bitslice_modes._cfb_decrypt, _bitslice_modes._many,
    ]
    for kernel in kernels:
        names = kernel.py_func.__code__.co_names
        assert "prefer_wide_vectors" in names, kernel.py_func.__name__


@pytest.mark.skipif(not HAS_AVX512, reason="needs an AVX-512 host to see zmm registers")
def test_round_kernel_uses_zmm_registers_on_avx512():
    asm = "\n".join(_fresh_round_kernel().inspect_asm().values())
    assert asm.count("%zmm") > 10 * asm.count("%ymm")


def test_the_intrinsic_is_harmless_in_ordinary_code():
    @numba.njit
    def total(a):
        prefer_wide_vectors()
        s = 0
        for v in a:
            s += v
        return s

    a = np.arange(1000, dtype=np.int64)
    assert total(a) == a.sum()
