"""libdes's ``DES_quad_cksum``: a checksum of quadratic steps modulo 2^31 - 1 (no DES).

For each output pair (up to 4), the whole message is read again two bytes
at a time (a little-endian 16-bit value; a last odd byte alone), each
value added to z0 modulo 2^32, then z0' = (z0² + z1²) mod (2^31 - 1) and
z1' = (z0 · (z1 + 83653421)) mod (2^31 - 1), every product and sum first
cut to 32 bits, as libdes's 32-bit arithmetic does.  The pair (z0, z1)
carries on from one output to the next; each is written as two 32-bit
little-endian words, which is the byte layout of OpenSSL's output array on
a little-endian machine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_INLINED_SOURCES_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  # see tools/stamp_kernel_sources.py

_NOISE = 83653421
_LOW32 = 0xFFFFFFFF
_MOD = 0x7FFFFFFF


@njit(cache=True, nogil=True)
def quad_rows(rows: np.ndarray, z0_start: int, z1_start: int, outputs: int,
              out: np.ndarray) -> None:  # pragma: no cover - compiled
    """Row i of ``rows`` (N, L) uint8 -> ``out[i]`` (8 * outputs bytes)."""
    n, length = rows.shape
    for r in range(n):
        z0 = np.int64(z0_start)
        z1 = np.int64(z1_start)
        for k in range(outputs):
            i = 0
            while i < length:
                t0 = np.int64(rows[r, i])
                if i + 1 < length:
                    t0 |= np.int64(rows[r, i + 1]) << 8
                i += 2
                t0 = (t0 + z0) & _LOW32
                t1 = z1
                z0 = (((t0 * t0) & _LOW32) + ((t1 * t1) & _LOW32)) & _LOW32
                z0 %= _MOD
                z1 = ((t0 * ((t1 + _NOISE) & _LOW32)) & _LOW32) % _MOD
            for b in range(4):
                out[r, 8 * k + b] = (z0 >> (8 * b)) & 0xFF
                out[r, 8 * k + 4 + b] = (z1 >> (8 * b)) & 0xFF
