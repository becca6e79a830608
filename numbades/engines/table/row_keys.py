"""The table engines' key form for a key per row: (Ku, Kt) words of every row's key.

A key array's rows are run one after another by ``kernels_gen.rows_<variant>``,
each under its own frame schedule.  Building those schedules is the only
per-key work, done here in one compiled loop: the 16 round keys of each key
set (``des.keyschedule``), in the order of the passes (reversed for a
backwards pass), then scattered into the frame (``frame``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...des.keyschedule import PC1_BYTES, PC2_CHUNKS, SHIFTS, round_keys48_into
from .frame import FRAME_KEY_CHUNKS, frame_schedule_into

_INLINED_SOURCES_SHA256 = "f7e43e6a04a729968a1493c858c14b3d66edfc438cf2855b43417b4a7daae718"  # see tools/stamp_kernel_sources.py


@njit(nogil=True, cache=True)
def _row_schedules(key_words, sets, backwards, first, out):
    rk16 = np.empty(16, dtype=np.uint64)
    rk = np.empty(16 * sets.shape[0], dtype=np.uint64)
    for i in range(out.shape[0]):
        for p in range(sets.shape[0]):
            round_keys48_into(key_words[first + i, sets[p]], PC1_BYTES, PC2_CHUNKS, SHIFTS, rk16)
            for r in range(16):
                rk[16 * p + r] = rk16[15 - r] if backwards[p] else rk16[r]
        frame_schedule_into(rk, FRAME_KEY_CHUNKS, out[i])


def row_schedules(key_words: np.ndarray, passes: tuple[tuple[int, bool], ...], first: int,
                  count: int) -> np.ndarray:
    """Frame schedules of keys first .. first+count-1: (count, 32 * passes) uint32.

    ``key_words`` is (rows, key sets) uint64 of key values; ``passes`` the
    (key set, reversed) pairs of ``des.keybits.passes``.
    """
    sets = np.array([s for s, _ in passes], dtype=np.int64)
    backwards = np.array([b for _, b in passes], dtype=np.bool_)
    out = np.empty((count, 32 * len(passes)), dtype=np.uint32)
    _row_schedules(key_words, sets, backwards, first, out)
    return out
