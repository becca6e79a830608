"""PKCS#7 padding (RFC 5652, section 6.3) for the 8-byte block, the one place it lives.

Encryption always adds 1 to 8 bytes, each holding the count; decryption
checks every padding byte and answers one uniform error for any fault, so
the message does not tell an attacker *which* check failed.
"""

from __future__ import annotations

import numpy as np

BAD_PADDING = "bad PKCS#7 padding (wrong key, iv, or corrupted data)"


def pad_block(tail: np.ndarray) -> np.ndarray:
    """The last plaintext block: the 0..7 leftover bytes and their PKCS#7 padding."""
    n = 8 - tail.size
    return np.concatenate([tail, np.full(n, n, dtype=np.uint8)])


def unpadded_length(last_block: np.ndarray) -> int:
    """Bytes of the last decrypted block that are data; ``ValueError`` on bad padding.

    Every padding byte is checked, without an early exit on the first bad one.
    """
    n = int(last_block[7])
    ok = 1 <= n <= 8
    if ok:
        ok = bool(np.all(last_block[8 - n:] == n))
    if not ok:
        raise ValueError(BAD_PADDING)
    return 8 - n
