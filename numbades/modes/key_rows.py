"""Key arrays: message i under key i, in one call (``DESArray`` / ``TripleDESArray``).

The rows are checked by ``buffers.key_rows_data`` and ``buffers.key_rows_output``,
the IVs by ``batch.ivs_of``; ``policy.pick_key_rows`` names the engine
(a table variant row by row for few keys, bitslice with one key per lane
for many) and its ``key_rows`` runs the chain.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..des.keybits import passes
from ..engines import chains
from ..engines.registry import KEY_ROWS_ENGINES
from ..tuning import policy
from . import buffers
from .arguments import MANY_MODES, check_mode
from .batch import ivs_of


def run(key_words: np.ndarray, request: policy.Request, data: Any, mode: Any, ivs: Any,
        out: Any, decrypt: bool) -> np.ndarray:
    """Row i of the result is row i of ``data`` (or the one message) in ``mode`` under key i.

    ``key_words`` is (rows, key sets) uint64 (``des.keybits.passes``).
    Everything is checked before any kernel runs.
    """
    mode = check_mode(mode, MANY_MODES, "for key arrays")
    chain = chains.of(mode, decrypt)
    policy.check_serves_key_rows(request, chain)
    n = key_words.shape[0]
    rows = buffers.key_rows_data(data, n)
    if rows.row_bytes % 8 and mode in ("ecb", "cbc"):
        raise ValueError(
            f"each message is {rows.row_bytes} bytes, not a multiple of the 8-byte block "
            f"({mode} takes whole blocks)"
        )
    iv_values = ivs_of(mode, ivs, n)
    dst = buffers.key_rows_output(rows, out)
    if n and rows.row_bytes:
        src = rows.words
        if src is None:  # one message for every key: fill the destination, run in place
            dst.words[:] = rows.message
            src = dst.words
        engine = KEY_ROWS_ENGINES[policy.pick_key_rows(request, chain, n, rows.blocks)]
        engine.key_rows(chain, buffers.read_only(src), dst.words, key_words,
                        passes(key_words.shape[1], chain in chains.BACKWARDS), iv_values,
                        rows.swap)
    dst.commit()
    return dst.result
