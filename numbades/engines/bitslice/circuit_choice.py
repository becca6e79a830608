"""Which S-box circuits the bitslice kernels run: one rule, from the compile target's CPU.

Two generated sets compute the same S-boxes (both checked on all 64 inputs
against the FIPS tables by their tests):

* ``sbox_circuits_gen``: 2-input gates (AND, OR, XOR, ANDNOT, NOT), for
  CPUs whose vector units evaluate one 2-input function per instruction
  (AVX2, SSE2, NEON);
* ``sbox_luts_gen``: 3-input functions, each one ``& | ^ ~`` expression of
  three nodes, for CPUs with a 3-input logic instruction (AVX-512's
  ``vpternlogq``), where LLVM matches such expressions to that instruction.

The rule (``target``) is AVX-512 foundation in the features Numba compiles
for (its ``NUMBA_CPU_FEATURES`` when set, else the host's).  Numba keys its
kernel cache by the same target, so a cached kernel always holds the
circuits this rule picks.  Read when the round code first compiles, never
per call.

The same rule picks the one-key round code of ``lane_rounds.crypt_into``
(``EXPLICIT_ZMM``): with AVX-512, ``simd_rounds``, where each LUT is one
``vpternlogq`` by construction (LLVM's own matching of the expressions gave
484 ``vpternlogq`` and 302 other logic instructions for the 430 LUTs of a
two-round body); without, the lane loops of ``lane_rounds`` and the gates.
"""

from types import ModuleType

from .cpu.target import AVX512, has_ternary_logic, target_features
from .sboxes import sbox_circuits_gen, sbox_luts_gen


def choose(features: list[str]) -> ModuleType:
    """The circuit module for a target with ``features``."""
    return sbox_luts_gen if has_ternary_logic(features) else sbox_circuits_gen


#: The circuits of this process's kernels (``s1`` .. ``s8``).
circuits: ModuleType = choose(target_features())

#: Whether the one-key rounds run as explicit 512-bit vector code with one
#: ``vpternlogq`` per LUT (``simd_rounds``) rather than as lane loops LLVM
#: vectorises: the same rule, as the instruction exists exactly there.
EXPLICIT_ZMM: bool = AVX512
