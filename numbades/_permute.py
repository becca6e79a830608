"""Bit-permutation helpers over the FIPS tables (1-based, MSB-first numbering).

Used at import time to derive lookup tables and by the tests as the slow,
obviously-correct reference.  Nothing here is on a hot path.
"""

from collections.abc import Sequence


def permute(value: int, table: Sequence[int], in_bits: int) -> int:
    """Apply a FIPS permutation table: output bit i (1-based) = input bit table[i-1]."""
    out = 0
    for src in table:
        out = (out << 1) | ((value >> (in_bits - src)) & 1)
    return out


def rotl(value: int, amount: int, bits: int) -> int:
    """Rotate a ``bits``-wide integer left by ``amount``."""
    amount %= bits
    mask = (1 << bits) - 1
    return ((value << amount) | (value >> (bits - amount))) & mask
