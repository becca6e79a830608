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
``64 * LANES`` rows per pass.  One block per key in ECB (key check values,
the first step of DUKPT and crypt(3)'s BSDi folding) takes the one-key ECB
pass instead: full passes transposed as they are read and written
(``simd_passes``), the keys' planes too, straight into the work array,
around :func:`crypt_lanes_work` (the one compiled copy of the rounds).
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np

from ...des.keybits import ROUND_KEY_BITS
from ..chains import ECB_DECRYPT, ECB_ENCRYPT
from ..jit import always_inline, arrays_do_not_overlap, inline
from .cpu.vector_width import prefer_wide_vectors
from .layout.prefetch import next_pass, with_inputs
from .layout.simd_passes import PLAIN_ROWS, words_to_work, work_rows, work_to_words
from .layout.transpose import (
    BLOCKS,
    BSWAP_XOR,
    LANES,
    aligned_words,
    load_words,
    new_planes,
    new_work,
    store_words,
    transpose64,
)
from .mode_kernels import many_group, many_scratch, once_inline
from .rounds.lane_rounds import gather_ip, rounds_on, scatter_fp

_INLINED_SOURCES_SHA256 = "76ab828dcd7dafa2e1b43f87d5417e5525365eaeaaea2b615ac8d855fec0372b"  # see tools/stamp_kernel_sources.py


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
def _crypt_lanes_fetching(w: np.ndarray, keys: tuple, ahead: tuple) -> None:
    """The rounds on the work array ``w`` (IP order, flat), lane by lane under its own key.

    ``keys`` = (table, key planes); ``ahead``: the caller's next pass and
    three more inputs (``prefetch.with_inputs``: its keys), fetched
    meanwhile.  Not inlined: the one compiled copy of the key-per-lane round
    code, which every kernel here shares.
    """
    prefer_wide_vectors()
    arrays_do_not_overlap()
    table, kp = keys
    rounds_on(w, table, kp, lane_key_bit, lane_key_bit, ahead)


@inline
def crypt_lanes_work(w: np.ndarray, keys: tuple, ahead: tuple) -> None:
    """:func:`_crypt_lanes_fetching` for callers whose ``ahead`` (``prefetch.next_pass``)
    names no keys: the rounds on the work array under a key per lane."""
    always_inline()
    prefer_wide_vectors()
    _crypt_lanes_fetching(w, keys, ahead + (ahead[0], ahead[0], ahead[0]))  # noqa: RUF005


@numba.njit(nogil=True, cache=True)
def crypt_lanes_into(planes: np.ndarray, w: np.ndarray, keys: tuple, xor: int,
                     ahead: tuple) -> None:
    """Encrypt planes in place, lane by lane under its own key; ``keys`` = (table, key planes).

    ``ahead``: the caller's next pass, fetched meanwhile (as ``lane_rounds.crypt_into``).
    The block cipher of ``lanes_many``'s chains (``mode_kernels.many_group``).
    """
    prefer_wide_vectors()
    gather_ip(planes, w, xor)
    crypt_lanes_work(w, keys, ahead)
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
def _key_sets_planes(key_sets: np.ndarray, m0: int, count: int, kp: np.ndarray,
                     buf: np.ndarray) -> None:
    """Key planes of keys m0 .. m0+count-1 of each key set: ``key_sets[s]`` into ``kp[s]``.

    ``key_sets`` is (key sets, rows): each set's key values contiguous, so a
    full pass is transposed as it is read (``simd_passes.words_to_work``
    with every plane in its own row, through scratch ``buf``); a short last
    pass is copied and transposed in place, missing lanes key zero.
    Compiled on its own, like ``_fused_column_pass``: inlined into the group
    loop, LLVM vectorized the transposes worse (one block under each of a
    million keys took 1.31x the one-key ECB's time inlined, 1.23x apart).
    """
    prefer_wide_vectors()
    arrays_do_not_overlap()
    for key_set in range(key_sets.shape[0]):
        if count == BLOCKS:
            words_to_work(key_sets[key_set], m0, buf.reshape(BLOCKS), PLAIN_ROWS, PLAIN_ROWS,
                          kp[key_set].reshape(BLOCKS))
        else:
            load_words(key_sets[key_set], m0, count, kp[key_set])
            transpose64(kp[key_set])


@numba.njit(nogil=True, cache=True)
def _ecb_column(src, dst, m0, count, keys, xor, buf, work) -> None:
    """ECB of one-block rows m0 .. m0+count-1 (flat words), a short last pass: keys per lane.

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
def _fused_column_pass(src, dst, m0, keys, key_sets, rows, buf, work) -> None:
    """ECB of one-block rows m0 .. m0+BLOCKS-1, a full pass: ``lane_rounds._fused_ecb_pass``
    with keys per lane (the transposes read ``src`` and write ``dst`` directly).

    The rounds fetch the next pass's words of ``src``, ``dst`` and every
    key set of ``key_sets`` (``prefetch.with_inputs``; without the keys,
    one block under each of 1 M keys took 1.41x the one-key ECB's time
    instead of 1.27-1.35x, AVX-512, medians of CPU time under load).
    """
    prefer_wide_vectors()
    flat = buf.reshape(BLOCKS)
    words_to_work(src, m0, flat, PLAIN_ROWS, rows, work)
    ahead = with_inputs(next_pass(src, dst, m0 + BLOCKS), key_sets, m0 + BLOCKS,
                        key_sets.shape[0])
    _crypt_lanes_fetching(work, keys, ahead)
    work_to_words(work, rows, flat, PLAIN_ROWS, dst, m0, None, np.int64(0))


@once_inline
def _lanes_column(src, dst, key_sets, table, xor, kp, key_buf) -> None:
    """ECB of one-block rows ``src`` (flat words) into ``dst``, row i under key i.

    Scratch is one plane array and the work array (``many_group``'s tiles
    and chaining planes, allocated and zeroed per call, are not needed).
    Inlined by Numba (``once_inline``): compiled on its own, its module (with
    a copy of the passes and rounds it calls) was optimised and compiled by
    LLVM once more, for a copy ``_lanes_many`` then compiled again.
    """
    prefer_wide_vectors()
    m = src.shape[0]
    flat = kp.reshape(kp.size)
    rows = work_rows(xor)
    buf = new_planes()
    work = new_work()
    for m0 in range(0, m, BLOCKS):
        count = min(BLOCKS, m - m0)
        _key_sets_planes(key_sets, m0, count, kp, key_buf)
        if count == BLOCKS:
            _fused_column_pass(src, dst, m0, (table, flat), key_sets, rows, buf, work)
        else:
            _ecb_column(src, dst, m0, count, (table, flat), xor, buf, work)


@numba.njit(nogil=True, cache=True)
def _lanes_many(src2d, dst2d, key_sets, table, ivs, mode, xor) -> None:
    prefer_wide_vectors()
    m = src2d.shape[0]
    sets = key_sets.shape[0]
    kp = aligned_words(sets * BLOCKS).reshape(sets, 64, LANES)
    flat = kp.reshape(sets * BLOCKS)
    key_buf = new_planes()
    if src2d.shape[1] == 1 and (mode == ECB_ENCRYPT or mode == ECB_DECRYPT):  # noqa: SIM109
        # one block per key (key check values): ECB passes, transposed as they are read
        _lanes_column(src2d.reshape(m), dst2d.reshape(m), key_sets, table, xor, kp, key_buf)
        return
    tiles, s, t, iv_planes, work = many_scratch()
    for m0 in range(0, m, BLOCKS):
        count = min(BLOCKS, m - m0)
        _key_sets_planes(key_sets, m0, count, kp, key_buf)
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
    key_sets = np.ascontiguousarray(key_words.T)  # (key sets, rows): a view for DES
    _lanes_many(src2d, dst2d, key_sets, key_table(passes), ivs, chain, BSWAP_XOR if swap else 0)
