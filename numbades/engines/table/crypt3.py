"""crypt(3)'s DES on the table engine: a salt applied to the E-expansion, one hash after another.

crypt(3) encrypts the zero block ``count`` times under a key made from the
password, with a *salt*: salt bit ``i`` (0..23) swaps E-expansion output
bits ``i`` and ``i + 24`` (0-based, FIPS order) in every round.  In the
rotated-R frame (``frame``) E costs nothing: each S-box reads six adjacent
bits of ``u = R ^ Ku`` or of ``t = rotr(R ^ Kt, 4)``.  E bit ``i`` belongs to
S-box ``i // 6`` and its partner ``i + 24`` to S-box ``i // 6 + 4`` at the
same place, and (derived below from the frame, and checked at import) the
two always sit in the same word, 16 bit positions apart.  So the salt is a
swap of bit pairs 16 apart in R, done before the key is XORed in: with
``x = R ^ (R >> 16)`` and ``d = x & mask`` (the mask holding the lower bit
of each pair), ``R ^ d ^ (d << 16)`` is R with every masked pair swapped,
one mask for the u-word S-boxes and one for the t-word ones.

The key schedule, on which one hash of 25 iterations would otherwise spend
about a twentieth of its time, is eight lookups per round into a table of each key
byte's share of the frame schedule (``KEY_FRAMES``, derived at import).

This engine serves a hash or a few (one ``crypt`` or ``crypt_verify``)
without the 2048-lane pass of the bitslice engine, and compiles in about a
second.  Its table lookups depend on key bits: not constant-time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...des.keybits import ROUND_KEY_BITS
from ..jit import always_inline, inline
from .frame import FRAME_KEY_CHUNKS, SLOT_LAYOUT, SPTRANS, slot_positions
from .ip_fp import join_from_frame

_INLINED_SOURCES_SHA256 = "e52f002157f01997aada8367bf2ef4f2a4f5b637f401acdda2b672347cd23eb9"  # see tools/stamp_kernel_sources.py

#: E-expansion output bits a salt swaps: bit i with bit i + SALT_BITS.
SALT_BITS = 24


def _salt_masks() -> tuple[np.ndarray, np.ndarray]:
    """Per salt bit, the lower frame bit of its pair in the u word (first array) or t word (second).

    The pair is E bit ``i`` and its partner ``i + 24``, 16 positions apart
    round the same word; the mask holds the lower one (below 16).
    """
    where = {}
    for slot, (box, e_positions) in enumerate(SLOT_LAYOUT):
        for index_bit, m in enumerate(e_positions):
            where[box, m] = (slot % 2, slot_positions(slot)[index_bit])
    masks = np.zeros((2, SALT_BITS), dtype=np.uint32)
    for bit in range(SALT_BITS):
        box, m = divmod(bit, 6)
        word, position = where[box, m]
        partner_word, partner_position = where[box + 4, m]
        if partner_word != word or (partner_position - position) % 32 != 16:  # pragma: no cover
            raise AssertionError(f"salt bit {bit}: E bits not 16 apart in one frame word")
        masks[word, bit] = 1 << min(position, partner_position)  # the pair's lower bit
    masks.setflags(write=False)
    return masks[0], masks[1]


SALT_U, SALT_T = _salt_masks()


def _key_frames() -> np.ndarray:
    """(8, 128, 16) int64: the frame schedule's share of each key byte's 7 key bits.

    Entry ``[i, v, r]`` is round ``r``'s frame word (``Ku << 32 | Kt``) made
    by key byte ``i`` holding ``v << 1`` (its parity bit, the lowest, never
    counts), every other key bit zero.  The key schedule only moves bits
    (``des.keybits.ROUND_KEY_BITS``) and the frame scatter only moves bits
    (``frame.FRAME_KEY_CHUNKS``), so a key's frame schedule is the XOR of its
    eight bytes' entries: 128 independent loads instead of PC-1, 16 rotations,
    PC-2 and the scatter, one after another.
    """
    # The frame word of round-key bit j alone (bit j + 1 in FIPS order: value 1 << 47 - j).
    j = np.arange(48)
    single = FRAME_KEY_CHUNKS[j // 6, 1 << (5 - j % 6)]
    per_key_bit = np.zeros((65, 16), dtype=np.uint64)  # [FIPS key bit number, round]
    numbers = np.array(ROUND_KEY_BITS, dtype=np.intp)  # (16, 48)
    np.bitwise_xor.at(per_key_bit, (numbers, np.arange(16)[:, None]), single[None, :])
    table = np.zeros((8, 128, 16), dtype=np.uint64)
    values = np.arange(128)
    for byte in range(8):
        for b in range(7):  # bit b of v is key byte bit b + 1: FIPS number 8 * byte + 7 - b
            on = ((values >> b) & 1).astype(bool)
            table[byte, on] ^= per_key_bit[8 * byte + 7 - b]
    table = table.view(np.int64)  # the same bits, as the rounds' int64 words
    table.setflags(write=False)
    return table


KEY_FRAMES = _key_frames()


@inline
def _salted_f(r, ku, kt, mu, mt, sp):
    """One round's f(R, K) with E's salted bits swapped; R in the frame, result in the frame.

    ``mu``/``mt`` hold the lower bit (below 16) of each pair to swap.
    """
    always_inline()
    x = r ^ (r >> 16)  # bit p (< 16): whether R's bits p and p + 16 differ
    du = x & mu
    dt = x & mt
    u = r ^ du ^ (du << 16) ^ ku
    t = r ^ dt ^ (dt << 16) ^ kt
    # The t tables read 4 bits higher than the u tables (``frame.slot_positions``): taken
    # from t where they are, rather than rotating t first; the last one wraps round.
    return (
        sp[0, (u >> 2) & 0x3F] ^ sp[2, (u >> 10) & 0x3F]
        ^ sp[4, (u >> 18) & 0x3F] ^ sp[6, (u >> 26) & 0x3F]
        ^ sp[1, (t >> 6) & 0x3F] ^ sp[3, (t >> 14) & 0x3F]
        ^ sp[5, (t >> 22) & 0x3F] ^ sp[7, ((t >> 30) | (t << 2)) & 0x3F]
    )


@inline
def _crypt_value(key, salt, count, ks):
    """E^count(0) under ``key`` with ``salt``; ``ks`` (32 int64) is scratch for the schedule."""
    always_inline()
    sp = SPTRANS
    frames = KEY_FRAMES
    for r in range(16):
        ks[r] = 0
    for i in range(8):
        row = (key >> np.uint64(57 - 8 * i)) & np.uint64(127)
        for r in range(16):
            ks[r] ^= frames[i, row, r]
    for r in range(15, -1, -1):  # (Ku, Kt) pairs as the rounds read them, in place
        both = ks[r]
        ks[2 * r] = (both >> 32) & 0xFFFFFFFF  # an arithmetic shift: the mask keeps Ku
        ks[2 * r + 1] = both & 0xFFFFFFFF
    mu = np.int64(0)
    mt = np.int64(0)
    for b in range(SALT_BITS):
        if (salt >> b) & 1:
            mu |= SALT_U[b]
            mt |= SALT_T[b]
    left = np.int64(0)  # IP of the zero block, in the frame
    right = np.int64(0)
    for _ in range(count):
        for k in range(0, 32, 4):
            left ^= _salted_f(right, ks[k], ks[k + 1], mu, mt, sp)
            right ^= _salted_f(left, ks[k + 2], ks[k + 3], mu, mt, sp)
        # The output block's IP is its preoutput R16 || L16: the next iteration starts there.
        left, right = right, left
    return join_from_frame(left, right)


@njit(nogil=True, cache=True)
def _crypt_rows(key_words, salts, count, out):
    ks = np.empty(32, dtype=np.int64)
    for i in range(key_words.shape[0]):
        out[i] = _crypt_value(key_words[i], np.int64(salts[i]), count, ks)


@njit(nogil=True, cache=True)
def crypt3_one(key, salt, count):
    """E^count(0) under one key with one salt: the short path of one hash, called from Python.

    ``key`` is the 64-bit key value as a signed int64 (its two's complement,
    ``engines.base.Crypt3Engine.crypt3_one``): one signature, and Numba's
    fast path for arguments (a Python int of 2**63 or more takes its slow
    one, tens of microseconds).  Returns the block value as an int.
    """
    value = _crypt_value(np.uint64(key), salt, count, np.empty(32, dtype=np.int64))
    return int(value)


def crypt3(key_words: np.ndarray, salts: np.ndarray, count: int) -> np.ndarray:
    """E^count(0) under key i with salt i (24 bits at most), as (rows,) uint64 block values."""
    key_words, salts = _writable_words(key_words), _writable_words(salts)
    out = np.empty(key_words.shape[0], dtype=np.uint64)
    _crypt_rows(key_words, salts, int(count), out)
    return out


def _writable_words(a: np.ndarray) -> np.ndarray:
    """C-contiguous, writable uint64: the kernel's one signature (read-only is another type)."""
    a = np.ascontiguousarray(a, dtype=np.uint64)
    return a if a.flags.writeable else a.copy()


def compile_signature() -> None:
    """Compile (or load) the kernels for the one signature every caller passes."""
    crypt3(np.zeros(1, np.uint64), np.zeros(1, np.uint64), 1)
    crypt3_one(0, 0, 1)
