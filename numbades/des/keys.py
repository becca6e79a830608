"""Key helpers: parity, weak and semi-weak keys (FIPS 46-3 / FIPS 74).

Weak and semi-weak keys are *derived* from their definitions, not typed in:
a key is weak when its 16 round keys are all equal (so encryption is an
involution), and semi-weak when its schedule is another key's schedule
reversed.  Both only depend on the 56 non-parity bits, whose C and D halves
must each be all-zeros, all-ones or alternating for this to happen; the
candidates are enumerated from those patterns and checked against the
definition with the reference key schedule.
"""

from __future__ import annotations

from functools import lru_cache

from . import fips
from .bits import permute
from .keyschedule_ref import subkeys48


def key_bytes(key: object) -> bytes:
    """A bytes-like key as ``bytes``; ``TypeError`` for anything else.

    ``bytes(5)`` is five zero bytes, so integers (and str, lists...) are
    refused here rather than silently turned into a key.
    """
    if not isinstance(key, (bytes, bytearray, memoryview)):
        raise TypeError(f"key must be bytes-like, not {type(key).__name__}")
    return bytes(key)


def _as_key8(key: bytes) -> bytes:
    key = key_bytes(key)
    if len(key) != 8:
        raise ValueError(f"a DES key is 8 bytes, got {len(key)}")
    return key


def _nonempty_key(key: bytes) -> bytes:
    key = key_bytes(key)
    if not key:
        raise ValueError("key is empty")
    return key


def set_odd_parity(key: bytes) -> bytes:
    """The key with each byte's low bit set so that every byte has odd parity.

    Any non-empty bytes-like key (8, 16 or 24 bytes for DES and Triple-DES);
    an empty key is a ``ValueError``, anything not bytes-like a ``TypeError``.
    """
    return bytes((b & 0xFE) | (((b >> 1).bit_count() + 1) & 1) for b in _nonempty_key(key))


def has_odd_parity(key: bytes) -> bool:
    """True when every byte of the key has an odd number of set bits.

    An empty key is a ``ValueError`` (it has no parity to check: answering
    ``True`` would pass it off as a well-formed key).
    """
    return all(b.bit_count() % 2 == 1 for b in _nonempty_key(key))


def _cd(key: bytes) -> int:
    return permute(int.from_bytes(key, "big"), fips.PC1, 64)


def _key_from_cd(cd: int) -> bytes:
    """Inverse of PC-1 on the 56 key bits, with odd parity set."""
    key = 0
    for i, src in enumerate(fips.PC1):
        if (cd >> (55 - i)) & 1:
            key |= 1 << (64 - src)
    return set_odd_parity(key.to_bytes(8, "big"))


@lru_cache(maxsize=1)
def _special_keys() -> tuple[frozenset[int], frozenset[int]]:
    halves = (0x0000000, 0xFFFFFFF, 0xAAAAAAA, 0x5555555)
    candidates = [_key_from_cd((c << 28) | d) for c in halves for d in halves]
    schedules = {k: tuple(subkeys48(int.from_bytes(k, "big"))) for k in candidates}
    weak = frozenset(_cd(k) for k, s in schedules.items() if len(set(s)) == 1)
    semi = frozenset(
        _cd(k)
        for k, s in schedules.items()
        if _cd(k) not in weak and any(s[::-1] == o for o in schedules.values())
    )
    return weak, semi


def is_weak_key(key: bytes) -> bool:
    """True for the 4 weak keys (all 16 round keys equal), ignoring parity bits."""
    return _cd(_as_key8(key)) in _special_keys()[0]


def is_semi_weak_key(key: bytes) -> bool:
    """True for the 12 semi-weak keys (schedule = another key's reversed), ignoring parity."""
    return _cd(_as_key8(key)) in _special_keys()[1]
