"""The FIPS 46-3 key schedule written straight from the standard.

This is the definition the fast key schedule (``keyschedule``) is checked
against, and the source of the weak-key definitions in ``keys``.  It runs in
plain Python: 16 round keys cost microseconds.
"""

from . import fips
from .bits import permute, rotl


def subkeys48(key: int) -> list[int]:
    """The 16 round keys K1..K16 of a 64-bit key, each a 48-bit integer.

    Bit 1 of K_i (FIPS numbering) is bit 47 of the integer; bit j of K_i is the
    key bit XORed into E-expansion output bit j.  Parity bits are ignored, as
    PC-1 drops them.
    """
    cd = permute(key, fips.PC1, 64)
    c, d = cd >> 28, cd & 0x0FFFFFFF
    keys = []
    for shift in fips.SHIFTS:
        c, d = rotl(c, shift, 28), rotl(d, shift, 28)
        keys.append(permute((c << 28) | d, fips.PC2, 56))
    return keys
