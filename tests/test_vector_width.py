"""The bitslice kernels ask LLVM for 512-bit vectors, and get them where AVX-512 exists."""

import importlib
import os
import pkgutil
import platform
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

import numbades.engines.bitslice as _bitslice_package
from numbades.des import keyschedule as _keyschedule
from numbades.engines.bitslice import mode_kernels as _bitslice_modes
from numbades.engines.bitslice.cpu import vector_width as _vector_width
from numbades.engines.bitslice.cpu.vector_width import prefer_wide_vectors
from numbades.engines.bitslice.layout.prefetch import NOTHING_AHEAD
from numbades.engines.bitslice.rounds import lane_rounds as _bitslice
from numbades.engines.bitslice.sboxes import sbox_luts_gen
from numbades.tuning import machine as _machine

KEY = bytes.fromhex("133457799bbcdff1")
HAS_AVX512 = _machine.has_avx512()  # checked against /proc/cpuinfo in test_engines


def _fresh_round_kernel():
    """A non-cached copy of the shared round kernel (cached ones have no IR to inspect)."""
    fresh = numba.njit(nogil=True)(_bitslice.crypt_work.py_func)
    work = np.zeros(64 * _bitslice.LANES, np.uint64)
    fresh(work, _bitslice.key_planes(_keyschedule.round_keys48(KEY)), NOTHING_AHEAD)
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
        _bitslice.crypt_into, _bitslice.crypt_work, _bitslice._ecb_chunk,
        _bitslice._fused_ecb_pass, _bitslice.to_planes,
        _bitslice.from_planes, _bitslice_modes._ctr, _bitslice_modes._cbc_decrypt,
        _bitslice_modes._cfb_decrypt, _bitslice_modes._many,
    ]
    for kernel in kernels:
        names = kernel.py_func.__code__.co_names
        assert "prefer_wide_vectors" in names, kernel.py_func.__name__


def _bitslice_dispatchers():
    """Every njit function defined in the bitslice package (subpackages too), with its module name."""
    prefix = f"{_bitslice_package.__name__}."
    for info in pkgutil.walk_packages(_bitslice_package.__path__, prefix):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__:
                yield f"{module.__name__}.{name}", obj


def test_every_inlined_bitslice_helper_asks_for_wide_vectors():
    """Helpers too, not only entry points: Numba optimises (and vectorises) each helper's
    own module before LLVM inlines it, and a loop vectorised at 256 bits there stays
    256 bits in the kernel (the round code fell back to ymm on AVX-512 hosts when the
    helpers were first compiled separately)."""
    helpers = [
        (name, d) for name, d in _bitslice_dispatchers()
        if "always_inline" in d.py_func.__code__.co_names
    ]
    assert len(helpers) > 20
    missing = [n for n, d in helpers if "prefer_wide_vectors" not in d.py_func.__code__.co_names]
    assert missing == []


# Compiled for an AVX-512 CPU on any x86-64 host: the code is only inspected, never run.
_AVX512_FEATURES = ",".join(
    "+" + feature for feature in [
        "64bit", "avx", "avx2", "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl",
        "bmi", "bmi2", "cmov", "cx16", "f16c", "fma", "fxsr", "lzcnt", "mmx", "movbe",
        "popcnt", "sse", "sse2", "sse3", "sse4.1", "sse4.2", "ssse3", "xsave",
    ]
)
_CROSS_COMPILE = textwrap.dedent("""
    import numba
    from numba import types
    from numbades.engines.bitslice.sboxes import dispatch
    from numbades.engines.bitslice.rounds import lane_rounds as rounds
    print("circuits", dispatch.circuits().__name__.rsplit(".", 1)[-1])
    a1, a2 = types.Array(types.uint64, 1, "C"), types.Array(types.uint64, 2, "C")
    i8 = types.int64
    signatures = {
        "crypt_work": (a1, a2, types.UniTuple(types.uint64, 3)),
        "_ecb_chunk": (a1, a1, i8, i8, a2, i8, a2, a1),
        "_fused_ecb_pass": (a1, a1, i8, a2, i8, types.Array(types.int64, 1, "C"), a2, a1),
    }
    for name, signature in signatures.items():
        fresh = numba.njit(nogil=True)(getattr(rounds, name).py_func)
        fresh.compile(signature)
        asm = "\\n".join(fresh.inspect_asm().values())
        print(name, asm.count("%zmm"), asm.count("%ymm"), asm.count("vpternlogq"))
""")


@pytest.mark.skipif(
    platform.machine() not in ("x86_64", "AMD64"), reason="cross-compiles for an x86-64 CPU"
)
def test_round_and_pass_kernels_compile_to_zmm_for_an_avx512_cpu(tmp_path):
    """On every x86-64 host: LLVM targeting an AVX-512 CPU builds the round code and the
    transposes with 512-bit registers, the round code with one vpternlogq per LUT (compile
    and inspect only; nothing runs)."""
    env = dict(
        os.environ, NUMBA_CPU_NAME="skylake-avx512", NUMBA_CPU_FEATURES=_AVX512_FEATURES,
        NUMBA_CACHE_DIR=str(tmp_path), NUMBADES_BACKGROUND_COMPILE="0",
    )
    done = subprocess.run(
        [sys.executable, "-c", _CROSS_COMPILE], env=env, capture_output=True, text=True,
        timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    first, *kernels = done.stdout.splitlines()
    assert first == "circuits sbox_luts_gen"  # the 3-input programs where vpternlogq exists
    counts = {n: tuple(map(int, rest)) for n, *rest in map(str.split, kernels)}
    assert set(counts) == {"crypt_work", "_ecb_chunk", "_fused_ecb_pass"}
    for name, (zmm, ymm, _) in counts.items():
        assert zmm > 10 * ymm, (name, zmm, ymm)
    # explicit 512-bit round code: one vpternlogq per LUT of the two-round body's 16 S-boxes
    # (a LUT of only two of its operands is one two-input instruction such as vpxorq instead)
    assert counts["crypt_work"][2] == 2 * _three_input_luts()


def _three_input_luts() -> int:
    """LUTs of the eight programs whose truth table depends on all three operands."""
    def uses(tt: int, bit: int) -> bool:
        return any((tt >> i ^ tt >> (i ^ bit)) & 1 for i in range(8))

    return sum(
        all(uses(tt, bit) for bit in (1, 2, 4)) for prog in sbox_luts_gen.LUTS for tt, *_ in prog
    )


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
