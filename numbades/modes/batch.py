"""Many equal-length messages in one call: ``encrypt_many`` / ``decrypt_many``.

Equal-length independent messages, one per row of a 2-D array, each with
its own IV.  CBC, CFB and OFB encryption are sequential within a message but
parallel across messages: the bitslice engine encrypts block *j* of up to
``64 * LANES`` messages in one pass.  The rows, IVs and ``out=`` are checked
by ``rows``; ``policy.pick`` names the engine and its ``many`` runs the chain.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engines import chains
from ..engines.base import Schedule, read_only
from ..engines.registry import ENGINES
from ..tuning import policy
from . import rows
from .arguments import MANY_MODES, check_mode


def run(schedule: Schedule, request: policy.Request, data: Any, mode: Any, ivs: Any, out: Any,
        decrypt: bool) -> np.ndarray:
    """Row i of the result is row i of ``data`` through ``mode`` with IV ``ivs[i]``."""
    mode = check_mode(mode, MANY_MODES, "for many messages")
    chain = chains.of(mode, decrypt)
    policy.check_serves(request, chain)
    src = rows.messages(data)
    iv_values = rows.ivs(mode, ivs, src.shape[0])
    dst = rows.output(src, out)
    engine = ENGINES[policy.pick(request, chain, src.words.size, src.shape[0])]
    engine.many(chain, read_only(src.words), dst.words, schedule.form(engine, chain), iv_values,
                src.swap)
    return dst.finish()
