"""The CPU the bitslice kernels compile for: the one rule every choice below reads.

Numba compiles for ``NUMBA_CPU_FEATURES`` when set, else for the host's
features, and keys its kernel cache by the same target, so a cached kernel
always holds the code this rule picks.  Two things follow from the rule:
which S-box circuits run (``circuit_choice``) and how wide the explicit
vectors of ``zmm`` are.  It is read when the kernels first compile, never
per call, and imports nothing from the package, so every module can use it.
"""

import numba
from llvmlite import binding


def target_features() -> list[str]:
    """The ``+feature`` / ``-feature`` list Numba's code generator targets."""
    features = numba.config.CPU_FEATURES
    if features is None:
        features = binding.get_host_cpu_features().flatten()
    return features.split(",")


def has_ternary_logic(features: list[str]) -> bool:
    """Whether the target has ``vpternlogq`` (AVX-512 foundation) and 512-bit registers."""
    return "+avx512f" in features


#: Whether this process's kernels target AVX-512: one ``vpternlogq`` per LUT
#: and 512-bit explicit vectors; otherwise 2-input gates and 256-bit ones.
AVX512: bool = has_ternary_logic(target_features())
