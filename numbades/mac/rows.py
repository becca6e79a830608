"""Tags for many messages: equal-length rows under one key, or row i under key i.

Each algorithm pads every row at once (``padding``), then runs one CBC call
over all rows (``keyed.chain``: bitsliced across messages for many rows)
and, for retail MACs, two one-block calls; the result is (N, 8).
"""

from __future__ import annotations

import numpy as np

from . import padding as pads
from .keyed import Keyed


def _ivs(iv: bytes, n: int) -> np.ndarray:
    return np.ascontiguousarray(np.broadcast_to(np.frombuffer(iv, np.uint8), (n, 8)))


def cbc(keyed: Keyed, rows: np.ndarray, iv: bytes, padding: int) -> np.ndarray:
    """ISO/IEC 9797-1 algorithm 1: the last CBC block of each padded row."""
    return keyed.chain(pads.pad_rows(rows, padding), _ivs(iv, rows.shape[0]))


def retail(chain: Keyed, middle: Keyed, outer: Keyed, rows: np.ndarray,
           padding: int) -> np.ndarray:
    """ISO/IEC 9797-1 algorithm 3: CBC under K, then D under K', then E under K (or K'')."""
    h = chain.chain(pads.pad_rows(rows, padding), _ivs(bytes(8), rows.shape[0]))
    return outer.ecb(middle.ecb(h, decrypt=True))


def cmac(keyed: Keyed, rows: np.ndarray, subkey_rows: int) -> np.ndarray:
    """NIST SP 800-38B CMAC; ``subkey_rows`` is 1 (one key) or N (a key per row)."""
    ell = keyed.ecb(np.zeros((subkey_rows, 8), np.uint8))
    k1, k2 = pads.cmac_subkeys(ell)
    blocks = pads.cmac_rows(rows, k1, k2)
    return keyed.chain(blocks, _ivs(bytes(8), rows.shape[0]))
