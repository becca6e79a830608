"""Which key bit each round-key bit is: the DES key schedule as a table of renamings.

PC-1, the rotations of C and D and PC-2 only move bits, so bit ``j`` of
round key ``r`` is always one fixed bit of the 64-bit key, whatever the key.
``ROUND_KEY_BITS[r][j]`` is that key bit's FIPS number (1..64, 1 = most
significant, never a parity bit 8, 16, ...), derived here from the
standard's tables.  An engine that holds every key bit as a plane of many
keys (the bitslice engine with one key per lane) reads each round's 48 key
planes through this table and does no other key-schedule work.

The checks in ``tests/test_key_arrays.py`` compare it with
``keyschedule_ref.subkeys48`` on random keys.
"""

from __future__ import annotations

from . import fips


def _round_key_bits() -> tuple[tuple[int, ...], ...]:
    rounds = []
    shift = 0
    for step in fips.SHIFTS:
        shift += step  # C_r and D_r are C_0 and D_0 rotated left by the sum of the shifts
        bits = []
        for position in fips.PC2:  # 1..56 in C_r || D_r
            half, offset = divmod(position - 1, 28)
            source = 28 * half + (offset + shift) % 28  # 0-based position in C_0 || D_0
            bits.append(fips.PC1[source])
        rounds.append(tuple(bits))
    return tuple(rounds)


#: ROUND_KEY_BITS[r][j]: FIPS key bit (1..64) that is bit j + 1 of round key r + 1.
ROUND_KEY_BITS: tuple[tuple[int, ...], ...] = _round_key_bits()

#: The 56 key bits PC-1 keeps (every bit but the parity bits 8, 16, ..., 64).
KEY_BITS: tuple[int, ...] = tuple(sorted(fips.PC1))


def passes(key_sets: int, backwards: bool) -> tuple[tuple[int, bool], ...]:
    """The DES passes of one block as (key set, reversed) pairs, in application order.

    One key set is DES (``backwards``: K16..K1, decryption); three are
    Triple-DES EDE, E_K3(D_K2(E_K1)) forwards and D_K1(E_K2(D_K3)) backwards.
    """
    if key_sets == 1:
        return ((0, backwards),)
    if key_sets != 3:
        raise ValueError(f"1 or 3 key sets, got {key_sets}")
    if backwards:
        return ((2, True), (1, False), (0, True))
    return ((0, False), (1, True), (2, False))
