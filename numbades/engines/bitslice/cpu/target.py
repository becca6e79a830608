"""The CPU the bitslice kernels compile for, and the one rule that reads it.

Numba compiles for ``NUMBA_CPU_FEATURES`` when set, else for the host's
features, and keys its kernel cache by the same target, so a cached kernel
always holds the code this rule picks.  The rule: does the target have
AVX-512 foundation (``+avx512f``: ``vpternlogq`` and 512-bit registers)?
Everything that differs between builds follows from it:

* the S-box circuits (``sboxes.dispatch.circuits``).  Two generated sets
  compute the same S-boxes (both checked on all 64 inputs against the FIPS
  tables by their tests): ``sboxes.sbox_luts_gen``, 3-input functions, each
  one ``& | ^ ~`` expression of three nodes, for CPUs with a 3-input logic
  instruction (AVX-512's ``vpternlogq``); ``sboxes.sbox_circuits_gen``,
  2-input gates (AND, OR, XOR, ANDNOT, NOT), for CPUs whose vector units
  evaluate one 2-input function per instruction (AVX2, SSE2, NEON);
* the form of the set the round code runs on explicit vectors
  (``rounds.simd_rounds``, on every target and for every kernel: one key,
  a key per lane, crypt(3); ``sboxes.dispatch.vector_circuits``): with
  AVX-512, each LUT one ``ternary`` call, so one ``vpternlogq`` by
  construction (LLVM's own matching of the expressions gave 484
  ``vpternlogq`` and 302 other logic instructions for the 430 LUTs of a
  two-round body); without, each gate one ``simd.Vector`` operator, so one
  ``vpand``/``vpandn``/``vpor``/``vpxor`` on a ymm register;
* the width of the explicit vectors of ``simd`` (``VECTOR_BITS``): 512 bits
  with AVX-512, 256 elsewhere; the engine reports it to the ``auto`` policy
  (``BitsliceEngine.vector_bits``).

Read when the kernels first compile, never per call.  It imports nothing
from the package, so every module can use it.
"""

import numba
from llvmlite import binding


def target_features() -> list[str]:
    """The ``+feature`` / ``-feature`` list Numba's code generator targets."""
    features = numba.config.CPU_FEATURES
    if features is None:
        features = binding.get_host_cpu_features().flatten()
    return features.split(",")


def targets_avx512(features: list[str]) -> bool:
    """The rule: whether a target with ``features`` has AVX-512 foundation."""
    return "+avx512f" in features


#: Whether this process's kernels target AVX-512.
AVX512: bool = targets_avx512(target_features())

#: Bits of one explicit vector (``simd``) in this process's kernels.
VECTOR_BITS: int = 512 if AVX512 else 256

