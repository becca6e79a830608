"""CBC-MAC over many messages under one key: the last CBC block of each, bitsliced.

Block j of 2048 messages is gathered into one pass, loaded straight into
the round code's work array (``zmm_passes.words_to_work``: transpose and
IP), XORed into the running state and encrypted.  The state never leaves
the work array between blocks: after the rounds it holds the pre-output,
which is IP of the ciphertext block in the same rows as an input block's IP
(FP is IP's inverse), and IP is a renaming, so IP(P ^ C) = IP(P) ^ IP(C).
Only the final state goes back to words.  Compared with ``encrypt_many``'s
CBC (``mode_kernels.many_group``: a transpose in, a transpose out and a
store of every ciphertext block), each block costs one fused load and the
rounds.
"""

from __future__ import annotations

import sys

import numba
import numpy as np

from ..jit import arrays_do_not_overlap
from .prefetch import next_pass
from .rounds import crypt_work
from .transpose import BLOCKS, BSWAP_XOR, aligned_words, new_work
from .vector_width import prefer_wide_vectors
from .zmm_passes import PLAIN_ROWS, words_to_work, work_rows, work_to_words

_INLINED_SOURCES_SHA256 = "18825ff1e3b228719be30f4774c489c28f178bd3b22530418bb625d25eb57c14"  # see tools/stamp_kernel_sources.py


#: Block positions gathered at a time: one 64-byte line of each message.
TILE = 8


@numba.njit(nogil=True, cache=True)
def _cbc_mac(src2d, used, ivs, kplanes, xor, out) -> None:
    """out[i] = CBC block ``used - 1`` of row i of ``src2d`` (words) from ``ivs[i]``.

    Block positions are gathered TILE at a time down the group's rows (one
    cache line of each message), each position into its own aligned column.
    The rounds of block j fetch the j-th pass's worth of the next group's
    words, so the whole next group is in cache when its gather starts.
    """
    prefer_wide_vectors()
    arrays_do_not_overlap()
    m, row_words = src2d.shape
    rows = work_rows(xor)
    stride = np.uint64(row_words)
    nblocks = min(row_words, used)
    tiles = aligned_words(TILE * BLOCKS).reshape(TILE, BLOCKS)
    buf = aligned_words(BLOCKS)
    work = new_work()
    tmp = new_work()
    flat = src2d.reshape(src2d.size)
    tiles[:] = 0  # the lanes past a short last group stay defined
    for m0 in range(0, m, BLOCKS):
        count = min(BLOCKS, m - m0)
        col = tiles[0]
        for b in range(count):
            col[b] = ivs[m0 + b]
        words_to_work(col, 0, buf, PLAIN_ROWS, rows, work)
        first = np.uint64(m0) * stride
        for j0 in range(0, nblocks, TILE):
            tn = min(TILE, nblocks - j0)
            at = first + np.uint64(j0)
            for b in range(count):
                for q in range(tn):
                    tiles[q, b] = flat[at + np.uint64(q)]
                at += stride
            for q in range(tn):
                words_to_work(tiles[q], 0, buf, PLAIN_ROWS, rows, tmp)
                for i in range(BLOCKS):
                    work[i] ^= tmp[i]
                # the next group's rows, one pass's worth of words per block position
                ahead = next_pass(flat, flat, (m0 + BLOCKS) * row_words + (j0 + q) * BLOCKS)
                crypt_work(work, kplanes, ahead)
        col = tiles[0]
        work_to_words(work, rows, buf, PLAIN_ROWS, col, 0, None, 0)
        for b in range(count):
            out[m0 + b] = col[b]


_SWAP = sys.byteorder == "little"


def cbc_mac(blocks: np.ndarray, iv_words: np.ndarray, kplanes: np.ndarray,
            used: int | None = None) -> np.ndarray:
    """(N, L) uint8 whole blocks (C-contiguous) -> (N,) uint64: each row's last CBC block.

    ``used``: chain only the first ``used`` blocks of each row (default all;
    0 gives back the IVs).
    ``iv_words`` and the result are raw words: each (N,) uint64 element holds
    a block's 8 bytes as they lie in memory (native byte order), so
    ``result.view(np.uint8).reshape(N, 8)`` are the blocks' bytes.
    ``kplanes``: the bitslice engine's key form for encryption (DES or EDE).
    """
    n = blocks.shape[0]
    src = np.ascontiguousarray(blocks).view(np.uint64).reshape(n, -1)
    out = np.empty(n, np.uint64)
    used = src.shape[1] if used is None else used
    if n == 0 or used == 0:
        out[:] = iv_words
        return out
    _cbc_mac(src, used, np.ascontiguousarray(iv_words, dtype=np.uint64), kplanes,
             BSWAP_XOR if _SWAP else 0, out)
    return out
