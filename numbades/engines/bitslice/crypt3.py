"""crypt(3)'s DES, bitsliced: a key and a salt per lane, the zero block encrypted ``count`` times.

Traditional crypt(3) and BSDi's extended form iterate DES on an all-zero
block (25 times, or a stored count) with a *salt*: salt bit ``i`` swaps
E-expansion output bits ``i`` and ``i + 24`` (0-based) in every round.

The salt differs per lane, so the swap cannot be a renaming of rows (as E
itself is).  It is a per-lane swap instead, with the salt's bits transposed
into planes next to the key planes once per pass
(``simd_rounds.salted_rounds_on``): S-boxes 1 and 5 (2 and 6, ...) run
as a pair, whose inputs j are E bits j and j + 24, swapped with one
difference ``d = (x ^ y) & salt`` (``x ^ d``, ``y ^ d``), each row and salt
plane read once (selecting each input on its own, ``x ^ ((x ^ partner) &
salt)``, read them twice and took a quarter more instructions).  The
alternative, grouping hashes that share a salt and renaming E per pass, is
free per round but needs 2048 hashes per salt to fill a pass; a password
file has about one hash per salt.  Measured with
``benchmarks/key_arrays_report.py`` (AVX2 znver3, one core, 2026-12-04):
selecting all 48 bits (BSDi) costs 1.15-1.26x selecting the 24 of a
traditional salt, so the traditional selects cost about 1.2x the rounds
without them; that is the most grouping could save, and only for batches
of thousands of hashes per salt, so grouping was not built.

Iterations stay in the work layout: DES's final swap leaves the preoutput
R16 || L16, and IP(FP(x)) = x, so the next iteration starts from it
directly (the rounds swap halves every 16 rounds).  Only the 12 salt bits
of traditional crypt swap in S-boxes 1, 2, 5, 6; BSDi's 24 in all eight.
One kernel serves both (``wide``, tested once per round).
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np

from ..jit import arrays_do_not_overlap
from .cpu.vector_width import prefer_wide_vectors
from .lane_keys import key_table, lane_key_bit
from .layout.prefetch import nothing_ahead
from .layout.transpose import (
    BLOCKS,
    LANES,
    aligned_words,
    load_words,
    new_planes,
    store_words,
    transpose64,
)
from .layout.wiring import SALT_PLANE0
from .mode_kernels import once_inline
from .rounds.lane_rounds import scatter_fp
from .rounds.simd_rounds import salted_rounds_on
from .sboxes.dispatch import input_complement

_INLINED_SOURCES_SHA256 = "78f3cc5e1799b37e7d4dd92d567a74990f50bdf9a7a92d23bb718e59e02448c7"  # see tools/stamp_kernel_sources.py

#: Key planes, then the 24 salt planes, in one flat array per pass ...
_PLANES = SALT_PLANE0 + 24
#: ... then the 64 key planes complemented, which the S-box inputs that the
#: round code's circuits take complemented read (``_folded_key_table``).
_NOT_KEYS = _PLANES
#: Whether any input is complemented (AVX2); with AVX-512 no plane is.
_FOLDED = bool(input_complement().any())


@cache
def _folded_key_table() -> np.ndarray:
    """``lane_keys.key_table`` for one DES pass, pointing complemented inputs at complemented planes.

    ``salted_rounds_on`` runs the S-boxes without NOTs on AVX2
    (``dispatch.one_key_circuits``), which take the inputs
    ``dispatch.input_complement`` names complemented: XORing a complemented
    key plane delivers them at no cost.  With AVX-512 nothing is complemented.
    """
    table = key_table(((0, False),)).copy()
    table[:, input_complement() != 0] += np.uint64(_NOT_KEYS * LANES)
    table.setflags(write=False)  # read-only, like key_table's: one kernel signature
    return table


@once_inline
def _rounds(table, kp, count, work, wide) -> None:
    """``count`` salted DES encryptions of the work array; ``wide``: 24-bit (BSDi) salts.

    Inlined by Numba into ``_crypt`` (``once_inline``): compiled on its own, the
    salted rounds were optimised and compiled by LLVM twice, here and in ``_crypt``.
    """
    prefer_wide_vectors()
    for _ in range(count):
        salted_rounds_on(work, table, kp, lane_key_bit, wide, nothing_ahead())


@numba.njit(nogil=True, cache=True)
def _crypt(key_words, salts, count, wide, table, out) -> None:
    """E^count(0) under key i with salt i into out[i], 2048 lanes a pass (see module doc)."""
    prefer_wide_vectors()
    arrays_do_not_overlap()
    n = key_words.shape[0]
    kp = aligned_words((_NOT_KEYS + (64 if _FOLDED else 0)) * LANES)
    key_planes = kp[:BLOCKS].reshape(64, LANES)
    salt_planes = new_planes()
    planes = new_planes()
    work = aligned_words(BLOCKS)
    for m0 in range(0, n, BLOCKS):
        lanes = min(BLOCKS, n - m0)
        load_words(key_words, m0, lanes, key_planes)
        transpose64(key_planes)
        if _FOLDED:
            for i in range(BLOCKS):  # key plane p -> plane _NOT_KEYS + p, complemented
                kp[_NOT_KEYS * LANES + i] = ~kp[i]
        load_words(salts, m0, lanes, salt_planes)
        transpose64(salt_planes)
        for i in range(24 * LANES):  # salt bit i -> plane SALT_PLANE0 + i
            kp[SALT_PLANE0 * LANES + i] = salt_planes.reshape(BLOCKS)[i]
        work[:] = 0  # IP of the zero block
        _rounds(table, kp, count, work, wide)
        scatter_fp(work, planes, np.int64(0))
        transpose64(planes)
        store_words(planes, out, m0, lanes)


def crypt3(key_words: np.ndarray, salts: np.ndarray, count: int, wide_salt: bool) -> np.ndarray:
    """E^count(0) under key i with salt i, as (rows,) uint64 block values (see module doc)."""
    key_words = np.ascontiguousarray(key_words, dtype=np.uint64)
    salts = np.ascontiguousarray(salts, dtype=np.uint64)
    out = np.empty(key_words.shape[0], dtype=np.uint64)
    if out.size:
        _crypt(key_words, salts, count, bool(wide_salt), _folded_key_table(), out)
    return out
