"""The lean path for small ``bytes`` in ECB: a short message should cost about a kernel call.

``DES(key).encrypt(b"16 bytes........")`` through the general path builds a
chaining state, a normalised input and a destination, each a few Python
objects, which costs several times the 16 bytes' encryption.  For the most
common small call (``bytes`` of whole blocks, ECB, no ``iv``/``padding``/
``out``) this module goes straight from the bytes to the kernel and back.
It serves only calls the general path would accept unchanged, and returns
None for anything else (the caller then takes the general path, which also
raises every error), so results and errors are the general path's.
"""

from __future__ import annotations

import numpy as np

from ..engines import chains
from ..engines.base import Schedule
from ..engines.registry import ENGINES
from ..tuning import policy
from .memory import LITTLE

#: Largest message this path takes: below every ``auto`` threshold, so the
#: engine choice is the table variant's (or the saved small-size choice).
LIMIT = 1024


def ecb(schedule: Schedule, request: policy.Request, data: bytes, decrypt: bool) -> bytes | None:
    """ECB of whole blocks of ``data`` (``bytes``), or None when the general path must serve."""
    n = len(data)
    if not n or n % 8 or n > LIMIT:
        return None
    words = np.frombuffer(data, np.uint64)  # read-only: the one signature kernels see
    if not words.flags.aligned:
        return None
    chain = chains.ECB_DECRYPT if decrypt else chains.ECB_ENCRYPT
    engine = ENGINES[policy.pick(request, chain, n // 8)]
    out = np.empty(n // 8, np.uint64)
    engine.ecb(words, out, schedule.form(engine, chain), LITTLE)
    return out.tobytes()
