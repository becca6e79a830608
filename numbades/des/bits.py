"""Bit-permutation helpers over the FIPS tables (1-based, MSB-first numbering).

Used at import time to derive lookup tables and by the tests as the slow,
obviously-correct reference.  Nothing here is on a hot path.
"""

from collections.abc import Callable, Sequence

import numpy as np


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


def chunk_tables(linear_map: Callable[[int], int], in_bits: int, chunk_bits: int) -> np.ndarray:
    """Tables that evaluate a bitwise-linear map chunk by chunk.

    ``table[c][v]`` is ``linear_map`` of ``v`` placed in chunk ``c`` (chunk 0
    holds the most significant bits); OR-ing one entry per chunk gives the map
    of the whole input, because every output bit depends on one input bit.
    This is what makes PC-1, PC-2 and the table engine's key scatter a few
    lookups instead of a loop over bits.

    For the same reason an entry is the OR of the images of its set bits, so
    the map is called once per input bit (``in_bits`` times, not once per
    entry) and the entries are filled by NumPy: this runs at import.
    """
    if linear_map(0) != 0:
        raise ValueError("chunk_tables needs a bitwise-linear map (0 -> 0)")
    n_chunks = -(-in_bits // chunk_bits)
    mask = (1 << in_bits) - 1
    entries = np.arange(1 << chunk_bits, dtype=np.uint64)
    table = np.zeros((n_chunks, 1 << chunk_bits), dtype=np.uint64)
    for c in range(n_chunks):
        shift = in_bits - chunk_bits * (c + 1)
        for b in range(chunk_bits):
            placed = (1 << b) << shift if shift >= 0 else (1 << b) >> -shift
            image = np.uint64(linear_map(placed & mask))
            table[c] |= ((entries >> np.uint64(b)) & np.uint64(1)) * image
    table.setflags(write=False)
    return table
