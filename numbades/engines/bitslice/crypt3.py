"""crypt(3)'s DES, bitsliced: a key and a salt per lane, the zero block encrypted ``count`` times.

Traditional crypt(3) and BSDi's extended form iterate DES on an all-zero
block (25 times, or a stored count) with a *salt*: salt bit ``i`` swaps
E-expansion output bits ``i`` and ``i + 24`` (0-based) in every round.

The salt differs per lane, so the swap cannot be a renaming of rows (as E
itself is).  Each swapped S-box input is a per-lane select instead,
``x ^ ((x ^ partner) & salt_plane)``, with the salt's bits transposed into
planes next to the key planes once per pass (``simd_rounds._box``'s ``a`` and
``m`` arguments).  The alternative, grouping hashes that share a salt and
renaming E per pass, is free per round but needs 2048 hashes per salt to
fill a pass; a password file has about one hash per salt.  Measured with
``benchmarks/key_arrays_report.py`` (AVX2 znver3, one core, 2026-12-04):
selecting all 48 bits (BSDi) costs 1.15-1.26x selecting the 24 of a
traditional salt, so the traditional selects cost about 1.2x the rounds
without them; that is the most grouping could save, and only for batches
of thousands of hashes per salt, so grouping was not built.

Iterations stay in the work layout: DES's final swap leaves the preoutput
R16 || L16, and IP(FP(x)) = x, so the next iteration starts from it
directly (``lane_rounds.rounds_on`` swaps every 16 rounds).  Only the 12 salt
bits of traditional crypt need selects in S-boxes 1, 2, 5, 6; BSDi's 24
need them in all eight, a second specialisation compiled on first use.
"""

from __future__ import annotations

import numba
import numpy as np

from ..jit import always_inline, arrays_do_not_overlap, inline
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
from .rounds.lane_rounds import rounds_on, scatter_fp

_INLINED_SOURCES_SHA256 = "9111fdb424ab64a4f64a1998996d6ce3ff850dc68739fd7044fc65d9a039ba64"  # see tools/stamp_kernel_sources.py

#: Key planes, then the 24 salt planes, in one flat array per pass.
_PLANES = SALT_PLANE0 + 24


@inline
def salted_lane_key_bit(w, kp, e, a, k, m, lane):
    """S-box input bit with a key per lane, swapped with its partner where the lane's salt bit is set."""
    always_inline()
    prefer_wide_vectors()
    x = w[e + lane]
    return x ^ ((x ^ w[a + lane]) & kp[m + lane]) ^ kp[k + np.uint64(lane)]


@inline
def _iterate(table, kp, count, work, xin_b) -> None:
    """``count`` salted DES encryptions of the work array (``xin_b``: S-boxes 3, 4, 7, 8)."""
    always_inline()
    prefer_wide_vectors()
    arrays_do_not_overlap()
    for _ in range(count):
        rounds_on(work, table, kp, salted_lane_key_bit, xin_b, nothing_ahead())


@numba.njit(nogil=True, cache=True)
def _rounds12(table, kp, count, work) -> None:
    """Salts of 12 bits (traditional): selects in S-boxes 1, 2, 5, 6 only."""
    prefer_wide_vectors()
    _iterate(table, kp, count, work, lane_key_bit)


@numba.njit(nogil=True, cache=True)
def _rounds24(table, kp, count, work) -> None:
    """Salts of 24 bits (BSDi): selects in all eight S-boxes."""
    prefer_wide_vectors()
    _iterate(table, kp, count, work, salted_lane_key_bit)


@inline
def _crypt(key_words, salts, count, table, out, iterate) -> None:
    always_inline()
    prefer_wide_vectors()
    n = key_words.shape[0]
    kp = aligned_words(_PLANES * LANES)
    key_planes = kp[:BLOCKS].reshape(64, LANES)
    salt_planes = new_planes()
    planes = new_planes()
    work = aligned_words(BLOCKS)
    for m0 in range(0, n, BLOCKS):
        lanes = min(BLOCKS, n - m0)
        load_words(key_words, m0, lanes, key_planes)
        transpose64(key_planes)
        load_words(salts, m0, lanes, salt_planes)
        transpose64(salt_planes)
        for i in range(24 * LANES):  # salt bit i -> plane SALT_PLANE0 + i
            kp[SALT_PLANE0 * LANES + i] = salt_planes.reshape(BLOCKS)[i]
        work[:] = 0  # IP of the zero block
        iterate(table, kp, count, work)
        scatter_fp(work, planes, 0)
        transpose64(planes)
        store_words(planes, out, m0, lanes)


@numba.njit(nogil=True, cache=True)
def _crypt12(key_words, salts, count, table, out) -> None:
    prefer_wide_vectors()
    _crypt(key_words, salts, count, table, out, _rounds12)


@numba.njit(nogil=True, cache=True)
def _crypt24(key_words, salts, count, table, out) -> None:
    prefer_wide_vectors()
    _crypt(key_words, salts, count, table, out, _rounds24)


def crypt3(key_words: np.ndarray, salts: np.ndarray, count: int, wide_salt: bool) -> np.ndarray:
    """E^count(0) under key i with salt i, as (rows,) uint64 block values (see module doc)."""
    key_words = np.ascontiguousarray(key_words, dtype=np.uint64)
    salts = np.ascontiguousarray(salts, dtype=np.uint64)
    out = np.empty(key_words.shape[0], dtype=np.uint64)
    if out.size:
        kernel = _crypt24 if wide_salt else _crypt12
        kernel(key_words, salts, count, key_table(((0, False),)), out)
    return out
