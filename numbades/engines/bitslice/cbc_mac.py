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
from .prefetch import nothing_ahead
from .rounds import crypt_work
from .transpose import BLOCKS, BSWAP_XOR, aligned_words, new_work
from .vector_width import prefer_wide_vectors
from .zmm_passes import PLAIN_ROWS, words_to_work, work_rows, work_to_words

_INLINED_SOURCES_SHA256 = "18825ff1e3b228719be30f4774c489c28f178bd3b22530418bb625d25eb57c14"  # see tools/stamp_kernel_sources.py


@numba.njit(nogil=True, cache=True)
def _cbc_mac(src2d, ivs, kplanes, xor, out) -> None:
    """out[i] = last CBC block of row i of ``src2d`` (words), starting from ``ivs[i]``.

    Each block position is gathered down the group's rows on its own (a
    gather of eight positions per cache line, as ``many_group`` does, made
    the loads at an offset into the tile array several times slower).
    """
    prefer_wide_vectors()
    arrays_do_not_overlap()
    m, nblocks = src2d.shape
    rows = work_rows(xor)
    col = aligned_words(BLOCKS)
    buf = aligned_words(BLOCKS)
    work = new_work()
    tmp = new_work()
    flat = src2d.reshape(src2d.size)
    stride = np.uint64(nblocks)
    col[:] = 0  # the lanes past a short last group stay defined
    for m0 in range(0, m, BLOCKS):
        count = min(BLOCKS, m - m0)
        for b in range(count):
            col[b] = ivs[m0 + b]
        words_to_work(col, 0, buf, PLAIN_ROWS, rows, work)
        first = np.uint64(m0) * stride
        for j in range(nblocks):
            at = first + np.uint64(j)
            for b in range(count):
                col[b] = flat[at + np.uint64(b) * stride]
            words_to_work(col, 0, buf, PLAIN_ROWS, rows, tmp)
            for i in range(BLOCKS):
                work[i] ^= tmp[i]
            crypt_work(work, kplanes, nothing_ahead())
        work_to_words(work, rows, buf, PLAIN_ROWS, col, 0, None, 0)
        for b in range(count):
            out[m0 + b] = col[b]


_SWAP = sys.byteorder == "little"


def cbc_mac(blocks: np.ndarray, ivs: np.ndarray, kplanes: np.ndarray) -> np.ndarray:
    """(N, L) uint8 whole blocks (C-contiguous), (N, 8) uint8 IVs -> (N, 8) last CBC blocks.

    ``kplanes``: the bitslice engine's key form for encryption (DES or EDE).
    """
    n = blocks.shape[0]
    src = np.ascontiguousarray(blocks).view(np.uint64).reshape(n, -1)
    iv_words = np.ascontiguousarray(ivs, dtype=np.uint8).view(np.uint64).reshape(n)
    out = np.empty(n, np.uint64)
    if n:
        _cbc_mac(src, iv_words, kplanes, BSWAP_XOR if _SWAP else 0, out)
    return out.view(np.uint8).reshape(n, 8)
