"""One key per lane: the bitsliced rounds with every lane of a pass under its own key.

Block ``b`` of a pass (lane ``b % LANES``, bit ``b // LANES``) is encrypted
under key ``b`` of the group.  The keys of a group are transposed once, like
data (``transpose.transpose64``), into 64 *key planes* per key set: plane
``i`` holds bit ``i`` of every key, so FIPS key bit ``n`` is plane ``64 - n``
(the eight parity planes are never read).  The key schedule only moves bits
(``des.keybits``), so round ``r``'s 48 key bits are 48 of those planes,
picked by a table of plane offsets built once from PC-1, the rotations and
PC-2 (:func:`key_table`); a round XORs them in exactly where the one-key
kernel XORs its all-ones/zero masks.  Decryption and Triple-DES are other
tables over the same planes (reversed rounds; three key sets).

The mode machinery is ``mode_kernels.many_group``'s, with
:func:`crypt_lanes_into` as its block cipher: row ``i`` of a (rows, blocks)
word array is message ``i`` under key ``i``, block ``j`` of up to
``64 * LANES`` rows per pass.
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np

from ...des.keybits import ROUND_KEY_BITS
from ..chains import ECB_DECRYPT, ECB_ENCRYPT
from ..jit import always_inline, arrays_do_not_overlap, inline
from .cpu.vector_width import prefer_wide_vectors
from .layout.prefetch import next_pass
from .layout.transpose import (
    BLOCKS,
    BSWAP_XOR,
    LANES,
    aligned_words,
    load_words,
    store_words,
    transpose64,
)
from .mode_kernels import many_group, many_scratch
from .rounds.lane_rounds import gather_ip, rounds_on, scatter_fp

_INLINED_SOURCES_SHA256 = "783c5508fa0de89a85d721d6c5f8cbfa958a355e130a7356bcd6076c9c42009c"  # see tools/stamp_kernel_sources.py


@inline
def lane_key_bit(w, kp, e, a, k, m, lane):
    """S-box input bit under a key per lane: ``k`` is the offset of the key plane in ``kp``.

    ``k`` is unsigned, so the index is too and Numba adds no negative-index
    wraparound (which would turn each vector load into four scalar ones).
    """
    always_inline()
    prefer_wide_vectors()
    return w[e + lane] ^ kp[k + np.uint64(lane)]


@cache
def key_table(passes: tuple[tuple[int, bool], ...]) -> np.ndarray:
    """(16 * passes, 48) uint64: offset in the flat key planes of each round's key bits.

    ``passes`` lists (key set, reversed) per DES pass in application order
    (``des.keybits.passes``); key set ``s`` occupies planes 64 s .. 64 s + 63.
    """
    rows = []
    for key_set, backwards in passes:
        for r in range(16):
            bits = ROUND_KEY_BITS[15 - r if backwards else r]
            rows.append([(64 * key_set + 64 - n) * LANES for n in bits])
    table = np.array(rows, dtype=np.uint64)
    table.setflags(write=False)
    return table


@numba.njit(nogil=True, cache=True)
def crypt_lanes_into(planes: np.ndarray, w: np.ndarray, keys: tuple, xor: int,
                     ahead: tuple) -> None:
    """Encrypt planes in place, lane by lane under its own key; ``keys`` = (table, key planes).

    ``ahead``: the caller's next pass, fetched meanwhile (as ``lane_rounds.crypt_into``).

    Not inlined: every chain of ``lanes_many`` shares this one compiled copy
    of the round code.
    """
    prefer_wide_vectors()
    arrays_do_not_overlap()
    table, kp = keys
    gather_ip(planes, w, xor)
    rounds_on(w, table, kp, lane_key_bit, lane_key_bit, ahead)
    scatter_fp(w, planes, xor)


@inline
def load_key_planes(key_words: np.ndarray, m0: int, count: int, kp: np.ndarray) -> None:
    """Key planes of keys m0 .. m0+count-1: ``key_words[:, s]`` into ``kp[s]`` (64 planes).

    Key words are block values (FIPS bit 1 the most significant); missing
    lanes get key zero.
    """
    always_inline()
    prefer_wide_vectors()
    for key_set in range(key_words.shape[1]):
        planes = kp[key_set]
        load_words(key_words[:, key_set], m0, count, planes)
        transpose64(planes)


@numba.njit(nogil=True, cache=True)
def _ecb_column(src, dst, m0, count, keys, xor, buf, work) -> None:
    """ECB of one-block rows m0 .. m0+count-1 (flat words): the one-key ECB pass, keys per lane.

    Compiled on its own, like ``lane_rounds._ecb_chunk``: inlined into the group
    loop, LLVM vectorizes the transposes worse.
    """
    prefer_wide_vectors()
    load_words(src, m0, count, buf)
    transpose64(buf)
    crypt_lanes_into(buf, work, keys, xor, next_pass(src, dst, m0 + BLOCKS))
    transpose64(buf)
    store_words(buf, dst, m0, count)


@numba.njit(nogil=True, cache=True)
def _lanes_many(src2d, dst2d, key_words, table, ivs, mode, xor) -> None:
    prefer_wide_vectors()
    m = src2d.shape[0]
    tiles, s, t, iv_planes, work = many_scratch()
    kp = aligned_words(key_words.shape[1] * BLOCKS).reshape(key_words.shape[1], 64, LANES)
    flat = kp.reshape(key_words.shape[1] * BLOCKS)
    one_column = src2d.shape[1] == 1 and (mode == ECB_ENCRYPT or mode == ECB_DECRYPT)  # noqa: SIM109
    for m0 in range(0, m, BLOCKS):
        count = min(BLOCKS, m - m0)
        load_key_planes(key_words, m0, count, kp)
        if one_column:  # one block per key (key check values): a plain ECB pass
            _ecb_column(src2d.reshape(m), dst2d.reshape(m), m0, count, (table, flat), xor,
                        tiles[0], work)
        else:
            many_group(src2d, dst2d, m0, count, crypt_lanes_into, (table, flat), ivs, mode, xor,
                       tiles, s, t, iv_planes, work)


def lanes_many(src2d: np.ndarray, dst2d: np.ndarray, key_words: np.ndarray,
               passes: tuple[tuple[int, bool], ...], ivs: np.ndarray, chain: int,
               swap: bool) -> None:
    """Row i of C-contiguous (rows, blocks) word arrays through ``chain`` under key i.

    ``key_words`` is (rows, key sets) uint64 of key values; ``chain`` any of
    ``chains.ECB`` or ``chains.BLOCK_CHAINS``; ``ivs`` (rows,) block values.
    """
    if src2d.shape[0] == 0 or src2d.shape[1] == 0:
        return
    _lanes_many(src2d, dst2d, key_words, key_table(passes), ivs, chain,
                BSWAP_XOR if swap else 0)
