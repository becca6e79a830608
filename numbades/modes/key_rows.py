"""Key arrays: message i under key i, in one call (``DESArray`` / ``TripleDESArray``).

The rows, IVs and ``out=`` are checked by ``rows``; ``policy.pick_key_rows``
names the engine (a table variant row by row for few keys, bitslice with
one key per lane for many) and its ``key_rows`` runs the chain.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..des.keybits import passes
from ..engines import chains
from ..engines.base import read_only
from ..engines.registry import KEY_ROWS_ENGINES
from ..tuning import policy
from . import rows
from .arguments import MANY_MODES, check_mode, takes_whole_blocks


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
    src = rows.key_rows(data, n, takes_whole_blocks(mode), mode)
    iv_values = rows.ivs(mode, ivs, n)
    dst = rows.output(src, out)
    if n and src.row_bytes:
        engine = KEY_ROWS_ENGINES[policy.pick_key_rows(request, chain, n, src.blocks)]
        engine.key_rows(chain, read_only(dst.source(src)), dst.words, key_words,
                        passes(key_words.shape[1], chain in chains.BACKWARDS), iv_values,
                        src.swap)
    return dst.finish()
