"""CBC-MAC over many messages under one key: the last CBC block of each, bitsliced.

Block j of 2048 messages is gathered into one pass and loaded straight into
the round code's work array, XORed into the running state as the transpose
stores it (``simd_passes.words_xor_work``), and encrypted.  The state never
leaves the work array between blocks: after the rounds it holds the
pre-output, which is IP of the ciphertext block in the same rows as an input
block's IP (FP is IP's inverse), and IP is a renaming, so IP(P ^ C) =
IP(P) ^ IP(C).  Only the final state goes back to words.  The gather moves a
tile of 8 block positions of 8 (AVX-512) or 4 (256-bit vectors) messages
from the rows to the columns as a transpose of words in registers
(two-source shuffles); a scalar gather of one word at a time cost a fifth of
the kernel's time.  The gather and each block's transpose are compiled on
their own (inlined into the group loop, LLVM optimised them worse).  With a
key per lane the rounds are ``lane_keys.crypt_lanes_work`` (explicit
vectors, each key bit a vector load from the key planes).  A call runs
on Numba's threads, whole groups each (``threads``).  Compared with
``encrypt_many``'s CBC (``mode_kernels.many_group``: a transpose in, a
transpose out and a store of every ciphertext block), each block costs one
fused load and the rounds.
"""

from __future__ import annotations

import sys

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from ...des.keybits import passes
from ..jit import always_inline, arrays_do_not_overlap, inline
from . import threads
from .cpu.simd import LANES_PER_VECTOR, load, store, vector
from .cpu.vector_width import prefer_wide_vectors
from .lane_keys import crypt_lanes_work, key_table, load_key_planes
from .layout.prefetch import next_pass
from .layout.simd_passes import (
    PLAIN_ROWS,
    words_to_work,
    words_xor_work,
    work_rows,
    work_to_words,
)
from .layout.transpose import BLOCKS, BSWAP_XOR, aligned_words, new_work
from .mode_kernels import once_inline
from .rounds.lane_rounds import crypt_work

_INLINED_SOURCES_SHA256 = "f8519dfe0056cd97ea033eeca37d8371a247b18da2a43456a37d1581e2d368fb"  # see tools/stamp_kernel_sources.py


#: Block positions gathered at a time: one 64-byte line of each message.
TILE = 8


def _interleave(typingctx, a, b, width, high):
    """Qword fields of ``2 * width``: (a's low or high ``width`` words, then b's) in each."""
    if not (a == vector and b == vector and isinstance(width, types.IntegerLiteral)
            and isinstance(high, types.IntegerLiteral)):
        return None
    w, h, n = width.literal_value, high.literal_value, LANES_PER_VECTOR
    mask = []
    for i in range(n):
        field, k = divmod(i, 2 * w)
        src = (field * 2 * w + h * w + k % w) % n
        mask.append(src if k < w else n + src)
    constant = ir.Constant(ir.VectorType(ir.IntType(32), n), mask)

    def codegen(context, builder, signature, args):
        return builder.shuffle_vector(args[0], args[1], constant)

    return vector(a, b, width, high), codegen


_interleave = intrinsic(_interleave)


@inline
def _swap_words(a, b, width):
    """A transpose stage: the two outputs of a delta swap at ``width`` words."""
    always_inline()
    prefer_wide_vectors()
    return _interleave(a, b, width, 0), _interleave(a, b, width, 1)


@inline
def _transpose8(flat, at, stride, tflat, b0) -> None:
    """tflat[q * BLOCKS + b0 + k] = flat[at + k * stride + q] for q, k < 8 (AVX-512: 8 lanes)."""
    always_inline()
    prefer_wide_vectors()
    r0, r1 = _swap_words(load(flat, at), load(flat, at + stride), 1)
    r2, r3 = _swap_words(load(flat, at + 2 * stride), load(flat, at + 3 * stride), 1)
    r4, r5 = _swap_words(load(flat, at + 4 * stride), load(flat, at + 5 * stride), 1)
    r6, r7 = _swap_words(load(flat, at + 6 * stride), load(flat, at + 7 * stride), 1)
    r0, r2 = _swap_words(r0, r2, 2)
    r1, r3 = _swap_words(r1, r3, 2)
    r4, r6 = _swap_words(r4, r6, 2)
    r5, r7 = _swap_words(r5, r7, 2)
    r0, r4 = _swap_words(r0, r4, 4)
    r2, r6 = _swap_words(r2, r6, 4)
    r1, r5 = _swap_words(r1, r5, 4)
    r3, r7 = _swap_words(r3, r7, 4)
    store(tflat, b0, r0)
    store(tflat, BLOCKS + b0, r1)
    store(tflat, 2 * BLOCKS + b0, r2)
    store(tflat, 3 * BLOCKS + b0, r3)
    store(tflat, 4 * BLOCKS + b0, r4)
    store(tflat, 5 * BLOCKS + b0, r5)
    store(tflat, 6 * BLOCKS + b0, r6)
    store(tflat, 7 * BLOCKS + b0, r7)


@inline
def _transpose4(flat, at, stride, tflat, b0, half) -> None:
    """tflat[(4 * half + q) * BLOCKS + b0 + k] = flat[at + k * stride + 4 * half + q] for
    q, k < 4 (256-bit vectors: 4 lanes; two stages of two-source shuffles)."""
    always_inline()
    prefer_wide_vectors()
    o = 4 * half
    r0, r1 = _swap_words(load(flat, at + o), load(flat, at + stride + o), 1)
    r2, r3 = _swap_words(load(flat, at + 2 * stride + o), load(flat, at + 3 * stride + o), 1)
    r0, r2 = _swap_words(r0, r2, 2)
    r1, r3 = _swap_words(r1, r3, 2)
    store(tflat, o * BLOCKS + b0, r0)
    store(tflat, (o + 1) * BLOCKS + b0, r1)
    store(tflat, (o + 2) * BLOCKS + b0, r2)
    store(tflat, (o + 3) * BLOCKS + b0, r3)


@numba.njit(nogil=True, cache=True)
def _gather(flat, at, stride, tn, count, tiles) -> None:
    """tiles[q, b] = flat[at + b * stride + q] for q < tn, b < count: ``tn`` block positions of
    ``count`` messages, each position into its own column.

    Whole tiles go through registers: 8 x 8 words at a time with AVX-512,
    twice 4 x 4 with 256-bit vectors (AVX2, where a word at a time left the
    retail MAC about 7% slower).  Compiled on its own, as ``_mix_column``.
    """
    prefer_wide_vectors()
    arrays_do_not_overlap()
    b = 0
    tflat = tiles.reshape(TILE * BLOCKS)
    row_words = int(stride)
    if LANES_PER_VECTOR == TILE and tn == TILE:  # 8 x 8 words at a time, in registers
        while b + TILE <= count:
            _transpose8(flat, int(at), row_words, tflat, b)
            at += stride * np.uint64(TILE)
            b += TILE
    elif LANES_PER_VECTOR == 4 and tn == TILE:  # 256-bit vectors: 4 x 4 words, twice
        while b + 4 <= count:
            _transpose4(flat, int(at), row_words, tflat, b, 0)
            _transpose4(flat, int(at), row_words, tflat, b, 1)
            at += stride * np.uint64(4)
            b += 4
    while b < count:
        for q in range(tn):
            tiles[q, b] = flat[at + np.uint64(q)]
        at += stride
        b += 1


@once_inline
def _group(flat, stride, nblocks, m0, count, ivs, xor, rows, tiles, buf, work, out,
           crypt, keys, last_xor, final, finish) -> None:
    """Messages m0 .. m0+count-1 (count <= BLOCKS): their chaining value after nblocks blocks.

    ``last_xor`` (a raw word) is XORed into block ``nblocks - 1`` of each
    message before it is chained (CMAC's subkey); with ``finish`` the chaining
    value then goes once more through ``crypt(work, final, ...)`` (the retail
    MAC's DES^-1 under K' and DES under K) before it leaves the bit planes.

    Block positions are gathered TILE at a time down the group's rows (one
    cache line of each message), each position into its own aligned column
    (``_gather``).
    The rounds of block j fetch the j-th pass's worth of the next group's
    words, so the whole next group is in cache when its gather starts.
    ``crypt(work, keys, ahead)`` runs the rounds on the work array.
    """
    prefer_wide_vectors()
    col = tiles[0]
    iv_step = 0 if ivs.shape[0] == 1 else 1  # one IV for every message, or one each
    if iv_step == 0 and ivs[0] == 0:  # the zero IV (retail MAC, CMAC): a zero state
        work[:] = 0
    else:
        for b in range(count):
            col[b] = ivs[(m0 + b) * iv_step]
        words_to_work(col, np.int64(0), buf, PLAIN_ROWS, rows, work)
    first = np.uint64(m0) * stride
    row_words = int(stride)
    for j0 in range(0, nblocks, TILE):
        tn = min(TILE, nblocks - j0)
        _gather(flat, first + np.uint64(j0), stride, tn, count, tiles)
        if last_xor != 0 and j0 + tn == nblocks:
            for b in range(count):
                tiles[tn - 1, b] ^= last_xor
        for q in range(tn):
            _mix_column(tiles[q], rows, work)
            ahead = next_pass(flat, flat, (m0 + BLOCKS) * row_words + (j0 + q) * BLOCKS)
            crypt(work, keys, ahead)
    if finish:
        crypt(work, final, next_pass(flat, flat, (m0 + BLOCKS) * row_words))
    # ECB's signature
    work_to_words(work, rows, buf, PLAIN_ROWS, col, np.int64(0), None, np.int64(0))
    for b in range(count):
        out[m0 + b] = col[b]


@numba.njit(nogil=True, cache=True)
def _mix_column(column, rows, work) -> None:
    """work ^= IP(planes of ``column``'s BLOCKS words): a block of each message into the state,
    XORed in as the transpose stores it (``simd_passes.words_xor_work``).

    The first transpose stages run in place in ``column`` (each stores the
    words it loaded), which is not needed afterwards: no scratch besides
    it, so the pass touches 32 KiB, not 48.  Compiled on its own, as
    ``lane_rounds._fused_ecb_pass``: inlined into the group loop, LLVM
    optimises the transposes worse.
    """
    prefer_wide_vectors()
    arrays_do_not_overlap()
    words_xor_work(column, np.int64(0), column, PLAIN_ROWS, rows, work)


@inline
def _scratch():
    """(tiles, buf, work) of ``_group``; the tiles zeroed (lanes past a short group)."""
    always_inline()
    prefer_wide_vectors()
    tiles = aligned_words(TILE * BLOCKS).reshape(TILE, BLOCKS)
    tiles[:] = 0
    return tiles, aligned_words(BLOCKS), new_work()


@numba.njit(nogil=True, cache=True)
def _cbc_mac(src2d, used, ivs, kplanes, last_xor, final, xor, out) -> None:
    """out[i] = CBC block ``used - 1`` of row i of ``src2d`` (words) from ``ivs[i]``, one key;
    ``last_xor`` and ``final`` (rounds after the chain, none if it has no rows) as ``_group``."""
    prefer_wide_vectors()
    arrays_do_not_overlap()
    m, row_words = src2d.shape
    rows = work_rows(xor)
    tiles, buf, work = _scratch()
    flat = src2d.reshape(src2d.size)
    for m0 in range(0, m, BLOCKS):
        _group(flat, np.uint64(row_words), min(row_words, used), m0, min(BLOCKS, m - m0), ivs,
               xor, rows, tiles, buf, work, out, crypt_work, kplanes, last_xor, final,
               final.shape[0] > 0)


@numba.njit(nogil=True, cache=True)
def _cbc_mac_lanes(src2d, used, ivs, key_words, table, final_table, xor, out) -> None:
    """``_cbc_mac`` with row i under key i (``key_words``: (rows, key sets) key values);
    ``table`` each block's rounds, ``final_table`` (no rows: none) the rounds at the end."""
    prefer_wide_vectors()
    arrays_do_not_overlap()
    m, row_words = src2d.shape
    rows = work_rows(xor)
    tiles, buf, work = _scratch()
    sets = key_words.shape[1]
    kp = aligned_words(sets * BLOCKS).reshape(sets, 64, BLOCKS // 64)
    flat_kp = kp.reshape(sets * BLOCKS)
    flat = src2d.reshape(src2d.size)
    for m0 in range(0, m, BLOCKS):
        count = min(BLOCKS, m - m0)
        load_key_planes(key_words, m0, count, kp)
        _group(flat, np.uint64(row_words), min(row_words, used), m0, count, ivs, xor, rows,
               tiles, buf, work, out, crypt_lanes_work, (table, flat_kp), np.uint64(0),
               (final_table, flat_kp), final_table.shape[0] > 0)


_SWAP = sys.byteorder == "little"
_NO_FINAL = np.zeros((0, 48), np.uint64)
_NO_FINAL_TABLE = np.zeros((0, 48), np.uint64)  # key_table's form, no passes
_NO_FINAL_TABLE.setflags(write=False)


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view: the kernels' one signature (``engine._cbc_mac_entries``) whatever
    the caller's arrays allow."""
    view = a.view()
    view.setflags(write=False)
    return view


def _iv_words(iv_words: np.ndarray) -> np.ndarray:
    """The kernels' IVs: one word for every message when they are all one (a broadcast
    view, stride 0), else one per message."""
    ivs = np.asarray(iv_words, dtype=np.uint64)
    if ivs.ndim == 1 and ivs.shape[0] > 1 and ivs.strides[0] == 0:
        return _read_only(ivs[:1].copy())
    return _read_only(np.ascontiguousarray(ivs))


def _run(kernel, blocks: np.ndarray, iv_words: np.ndarray, used: int | None, out,
         row_keys: np.ndarray | None, *keys) -> np.ndarray:
    """``kernel`` over the rows, on Numba's threads (``threads``: whole groups of BLOCKS
    messages each, at least ``threads.MIN_PASSES_PER_THREAD`` block passes); ``row_keys``
    (a key per row, split with the rows) goes before ``keys``."""
    n = blocks.shape[0]
    src = _read_only(np.ascontiguousarray(blocks).view(np.uint64).reshape(n, -1))
    out = np.empty(n, np.uint64) if out is None else out
    used = src.shape[1] if used is None else int(used)
    if n == 0 or used == 0:
        out[:] = iv_words
        return out
    ivs = _iv_words(iv_words)
    xor = BSWAP_XOR if _SWAP else 0

    def part(start: int, stop: int) -> None:
        iv = ivs if ivs.shape[0] == 1 else ivs[start:stop]
        mine = () if row_keys is None else (row_keys[start:stop],)
        kernel(src[start:stop], used, iv, *mine, *keys, xor, out[start:stop])

    passes = min(used, src.shape[1]) + 2  # block passes per group, the final steps about two
    threads.run(part, threads.split(n, BLOCKS, -(-threads.MIN_PASSES_PER_THREAD // passes)))
    return out


def cbc_mac(blocks: np.ndarray, iv_words: np.ndarray, kplanes: np.ndarray,
            used: int | None = None, *, last_xor: int = 0,
            final: np.ndarray | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """(N, L) uint8 whole blocks (C-contiguous) -> (N,) uint64: each row's last CBC block.

    ``used``: chain only the first ``used`` blocks of each row (default all;
    0 gives back the IVs).
    ``iv_words`` and the result are raw words: each (N,) uint64 element holds
    a block's 8 bytes as they lie in memory (native byte order), so
    ``result.view(np.uint8).reshape(N, 8)`` are the blocks' bytes; IVs all
    one word may come as a broadcast view (``np.broadcast_to``), which the
    kernel reads as one word.  ``out``: an (N,) uint64 C-contiguous array for
    the result (default a new one).
    ``kplanes``: the bitslice engine's key form for encryption (DES or EDE).
    ``last_xor``: a raw word XORed into block ``used - 1`` before it is
    chained (CMAC's subkey); ``final``: key planes (the same form) run on
    each chaining value at the end (the retail MAC's last two steps).
    """
    final = _NO_FINAL if final is None else np.ascontiguousarray(final, dtype=np.uint64)
    return _run(_cbc_mac, blocks, iv_words, used, out, None, kplanes, np.uint64(last_xor), final)


def cbc_mac_lanes(blocks: np.ndarray, iv_words: np.ndarray, key_words: np.ndarray,
                  used: int | None = None, *, chain: tuple | None = None,
                  final: tuple = (), out: np.ndarray | None = None) -> np.ndarray:
    """``cbc_mac`` with row i under key i: ``key_words`` (N, 1) DES or (N, 3) EDE key values
    (K1, K2, K3, each a block value), as ``DESArray``/``TripleDESArray`` hold them.

    ``chain``: the DES passes (key set, backwards) that encrypt each block,
    default DES or EDE by the number of key sets; ``final``: passes run on
    each chaining value at the end, in the kernel (the retail MAC with key
    sets K, K', K'': chain ``((0, False),)``, final ``((1, True), (2, False))``).
    """
    words = _read_only(np.ascontiguousarray(key_words, dtype=np.uint64))
    chain = passes(words.shape[1], False) if chain is None else chain
    return _run(_cbc_mac_lanes, blocks, iv_words, used, out, words, key_table(chain),
                key_table(final) if final else _NO_FINAL_TABLE)
