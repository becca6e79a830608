"""Making keys: random keys, and libdes's password-to-key functions.

``random_key`` draws from the operating system's generator (``secrets``)
and returns keys with odd parity that are never weak, semi-weak or (for
Triple-DES) degenerate.  ``string_to_key`` / ``string_to_2keys`` compute
what libdes's ``DES_string_to_key`` / ``DES_string_to_2keys`` compute (and
OpenSSL still ships): the password's bytes folded into a key (bytes 0-7,
16-23, ... shifted left one bit; bytes 8-15, 24-31, ... bit-reversed and
laid in reverse order), then a DES CBC checksum of the password under
that key with the key as IV.  They are Kerberos 4-era derivations with no
salt and no work factor: for interoperation with old systems only.
"""

from __future__ import annotations

import secrets

from .cipher import DES
from .des.crypt3 import password_bytes
from .des.keys import is_semi_weak_key, is_weak_key, set_odd_parity

#: Key sizes ``random_key`` makes: single DES, two- and three-key Triple-DES.
SIZES = (8, 16, 24)


def random_key(size: int = 8) -> bytes:
    """A random key of ``size`` bytes (8, 16 or 24) with odd parity.

    Drawn with ``secrets.token_bytes``; no 8-byte part is weak or semi-weak,
    and the parts of a Triple-DES key differ pairwise (parity ignored), so
    the key is never degenerate (K1 == K2 or K2 == K3) nor a 24-byte key with
    K1 == K3.
    """
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if size not in SIZES:
        raise ValueError(f"size must be 8, 16 or 24 bytes, got {size}")
    while True:
        key = set_odd_parity(secrets.token_bytes(size))
        parts = [key[i:i + 8] for i in range(0, size, 8)]
        if len(set(parts)) == len(parts) and not any(
            is_weak_key(p) or is_semi_weak_key(p) for p in parts
        ):
            return key


_BIT_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _fold(password: bytes, keys: int) -> list[bytearray]:
    """libdes's folding of the password into ``keys`` (1 or 2) 8-byte keys, before parity.

    Byte i goes to key ``(i // 8) % keys``.  Runs of ``8 * keys`` bytes
    alternate: the first run (and every other one) XORs each byte shifted
    left one bit into positions 0..7; the next XORs each byte bit-reversed
    into positions 7..0.
    """
    out = [bytearray(8) for _ in range(keys)]
    for i, b in enumerate(password):
        key = out[(i // 8) % keys]
        if (i // (8 * keys)) % 2 == 0:
            key[i % 8] ^= (b << 1) & 0xFF
        else:
            key[7 - i % 8] ^= _BIT_REVERSED[b]
    return out


def _cbc_checksum(password: bytes, key: bytes) -> bytes:
    """The last block of DES-CBC of the zero-padded password under ``key``, IV = ``key``."""
    if not password:
        return key
    data = password + bytes(-len(password) % 8)
    return DES(key).encrypt(data, "cbc", iv=key)[-8:]


def string_to_key(password: str | bytes) -> bytes:
    """libdes's ``DES_string_to_key``: an 8-byte DES key (odd parity) from a password.

    ``str`` is encoded as UTF-8; a NUL byte is a ``ValueError``.
    """
    password = password_bytes(password)
    (key,) = _fold(password, 1)
    key = set_odd_parity(bytes(key))
    return set_odd_parity(_cbc_checksum(password, key))


def string_to_2keys(password: str | bytes) -> bytes:
    """libdes's ``DES_string_to_2keys``: a 16-byte two-key Triple-DES key K1 || K2 (odd parity).

    Passwords of up to 8 bytes give K2 == K1 (libdes's rule), a degenerate
    Triple-DES key that ``TripleDES`` takes only with ``allow_degenerate=True``.
    """
    password = password_bytes(password)
    k1, k2 = _fold(password, 2)
    if len(password) <= 8:
        k2 = bytearray(k1)
    keys = [set_odd_parity(bytes(k)) for k in (k1, k2)]
    return b"".join(set_odd_parity(_cbc_checksum(password, k)) for k in keys)
