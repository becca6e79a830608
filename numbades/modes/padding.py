"""Block paddings for the 8-byte block, the one place they live.

- ``pkcs7`` (RFC 5652, section 6.3): always 1 to 8 bytes, each holding the count.
- ``iso7816`` (ISO/IEC 7816-4; ISO/IEC 9797-1 padding method 2): always one
  ``0x80`` byte, then 0 to 7 zero bytes.
- ``zeros`` (ISO/IEC 9797-1 padding method 1): as few zero bytes as make a
  positive multiple of 8 (none for a non-empty multiple of 8; a whole zero
  block for the empty message).  It cannot be told from data, so decryption
  leaves it in place.

The names are pycryptodome's (``Crypto.Util.Padding``) where it has the
method.  Decryption checks every padding byte and answers one uniform error
for any fault, so the message does not tell an attacker *which* check failed.
"""

from __future__ import annotations

import numpy as np

PKCS7 = "pkcs7"
ISO7816 = "iso7816"
ZEROS = "zeros"
#: Every padding name ``padding=`` takes.
SCHEMES = (PKCS7, ISO7816, ZEROS)
#: Paddings that decryption checks and strips (``zeros`` is left in place).
REMOVABLE = frozenset({PKCS7, ISO7816})

_LABELS = {PKCS7: "PKCS#7", ISO7816: "ISO/IEC 7816-4"}


def bad_padding(scheme: str) -> str:
    """The one error message of a bad ``scheme`` padding."""
    return f"bad {_LABELS[scheme]} padding (wrong key, iv, or corrupted data)"


def pad_block(tail: np.ndarray, scheme: str = PKCS7, empty: bool = False) -> np.ndarray:
    """The padded end of a message: its 0..7 leftover bytes and their padding.

    8 bytes, or for ``zeros`` none when nothing is left over, unless the whole
    message is ``empty`` (then one zero block).
    """
    n = 8 - tail.size
    if scheme == PKCS7:
        return np.concatenate([tail, np.full(n, n, dtype=np.uint8)])
    if scheme == ISO7816:
        return np.concatenate([tail, np.array([0x80], np.uint8), np.zeros(n - 1, np.uint8)])
    if tail.size == 0 and not empty:
        return tail
    return np.concatenate([tail, np.zeros(n, dtype=np.uint8)])


def unpadded_length(last_block: np.ndarray, scheme: str = PKCS7) -> int:
    """Bytes of the last decrypted block that are data; ``ValueError`` on bad padding.

    Every padding byte is checked, without an early exit on the first bad one.
    """
    if scheme == ISO7816:
        nonzero = np.flatnonzero(last_block)
        n = 8 - int(nonzero[-1]) if nonzero.size else 0
        ok = n > 0 and int(last_block[8 - n]) == 0x80
    else:
        n = int(last_block[7])
        ok = 1 <= n <= 8
        if ok:
            ok = bool(np.all(last_block[8 - n:] == n))
    if not ok:
        raise ValueError(bad_padding(scheme))
    return 8 - n
