"""The cipher calls of the payment jobs: one call per step for the whole batch.

A key for the batch (a (1, width) key array) runs through ``DES`` /
``TripleDES`` over all rows at once; a key per row ((N, width)) through
``DESArray`` / ``TripleDESArray``.  Payment keys with K1 == K2 (single DES in a
double-length key's clothes, common in test keys) are accepted, as psec and
pyemv accept them.
"""

from __future__ import annotations

import numpy as np

from .. import mac
from ..cipher import DES, TripleDES
from ..key_arrays import DESArray, TripleDESArray


def ecb(key: np.ndarray, rows: np.ndarray, *, decrypt: bool = False,
        in_place: bool = False) -> np.ndarray:
    """ECB over each row, row i under key i (key (N, w)) or all under one (key (1, w)).

    Rows are (N, 8m) uint8, or blocks as uint64 words ((N,) or (N, m)), which
    the ciphers take without a pass to bytes; the result has their type.
    With a key per row, one row of ``rows`` serves every key.  ``in_place``:
    the result overwrites ``rows`` (C-contiguous, N rows, the caller's own).
    """
    if key.shape[0] != 1 and rows.shape[0] == 1:
        rows = np.broadcast_to(rows, (key.shape[0], *rows.shape[1:]))
    rows = np.ascontiguousarray(rows)
    if rows.shape[0] == 0:
        return rows.copy()
    if key.shape[0] == 1:
        cipher = DES(key.tobytes()) if key.size == 8 else \
            TripleDES(key.tobytes(), allow_degenerate=True)
    else:
        cipher = DESArray(key) if key.shape[1] == 8 else \
            TripleDESArray(key, allow_degenerate=True)
    return (cipher.decrypt if decrypt else cipher.encrypt)(rows, "ecb",
                                                          out=rows if in_place else None)


def retail_mac(key: np.ndarray, rows: np.ndarray, padding: int) -> np.ndarray:
    """ISO/IEC 9797-1 MAC algorithm 3 of each row: (N, 8) uint8."""
    if rows.shape[0] == 0:
        return np.zeros((0, 8), np.uint8)
    return mac.retail(key.tobytes() if key.shape[0] == 1 else key, np.ascontiguousarray(rows),
                      padding=padding)
