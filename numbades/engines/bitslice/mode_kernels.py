"""Chains over the bitsliced rounds: CTR, CBC/CFB decryption, many messages.

The modes layer validates everything and the engine calls these with 1-D
uint64 word arrays.  Conventions shared with ``lane_rounds.ecb``:

- ``swap=True`` means every word is the block value byte-swapped (raw
  little-endian memory).  XOR commutes with the byte swap, so chaining XORs
  happen on raw words; only the cipher input/output needs the value view,
  which the kernel gets as a plane renaming (``BSWAP_XOR``);
- ``kplanes = lane_rounds.key_planes(round_keys)`` (16 or 48 round keys in
  application order; decryption uses them reversed);
- IVs and counters are Python ints, the 8 IV bytes read big-endian;
- ``dst`` may be ``src`` (in place); each pass reads what it still needs
  before it writes.  CBC and CFB decryption need the ciphertext block
  before each pass as well, so they run their passes from the end of the
  stream to its start: in place, no ciphertext is copied aside.

Single-stream modes that are parallel across blocks (CTR, CBC and CFB
decryption) fill each pass of ``64 * LANES`` blocks from one message.
Sequential modes (CBC/CFB encryption, OFB) are only parallel across
messages: ``many`` puts block ``j`` of ``64 * LANES`` different messages in
one pass and keeps the chaining value in plane form between blocks.
"""

from __future__ import annotations

import numba
import numpy as np

from ..chains import (
    CBC_DECRYPT,
    CBC_ENCRYPT,
    CFB_DECRYPT,
    CFB_ENCRYPT,
    CTR,
    ECB_DECRYPT,
    ECB_ENCRYPT,
    OFB,
)
from ..jit import always_inline, inline
from .cpu import simd
from .cpu.vector_width import prefer_wide_vectors
from .layout.prefetch import next_pass, nothing_ahead
from .layout.simd_passes import (
    PLAIN_ROWS,
    WORK_ROW,
    copy_seams,
    words_to_work,
    work_rows,
    work_to_words,
    work_to_words_backward,
)
from .layout.transpose import (
    BLOCKS,
    BSWAP_XOR,
    LANES,
    aligned_words,
    load_words,
    new_planes,
    new_work,
    store_words,
    swap_renamed,
    transpose64,
)
from .rounds.lane_rounds import crypt_into, crypt_work

_INLINED_SOURCES_SHA256 = "45eddb86d447d8765710ca226506c26351bb75c6aea5130454d9f192415f2099"  # see tools/stamp_kernel_sources.py

_U64 = (1 << 64) - 1

#: Decorator of the helpers a kernel calls from one or two places: inlined by Numba, as IR,
#: into the kernel, so no module of their own holds (and LLVM optimises and compiles once
#: more) a copy of the transposes and rounds they call, as a ``jit.inline`` helper's does.
once_inline = numba.njit(nogil=True, inline="always")

#: Blocks of one message gathered per visit in ``many``: 8 words = one cache line.
TILE: int = 8


def _index_planes() -> np.ndarray:
    """Plane array (value naming) of the block indices 0 .. 64*LANES-1 of a pass.

    Block ``b`` sits in lane ``b % LANES`` at bit ``b // LANES``; plane ``i``
    holds bit ``i`` of ``b``.  Built with NumPy at import (no JIT).
    """
    b = np.arange(BLOCKS, dtype=np.uint64).reshape(64, LANES)  # [bit-in-word k, lane]
    planes = np.zeros((64, LANES), dtype=np.uint64)
    for i in range(64):
        bits = (b >> np.uint64(i)) & np.uint64(1)
        planes[i] = (bits << np.arange(64, dtype=np.uint64)[:, None]).sum(axis=0, dtype=np.uint64)
    return planes


_INDEX_PLANES = _index_planes()  # frozen into the kernels as a constant
_INDEX_WORDS = _INDEX_PLANES.reshape(BLOCKS)
_MAJORITY = 0xE8  # ternary truth table of maj(a, b, c)


@inline
def _add_const(x: np.ndarray, c: np.uint64, out: np.ndarray, xor: int) -> None:
    """Plane i ^ xor of ``out`` = plane i of (x + c mod 2**64), x in value naming, c a scalar.

    A bitsliced ripple-carry adder: plane i of the constant is all-ones or
    zero, so each bit is sum = x ^ k ^ carry, carry = maj(x, k, carry).
    Writing plane i to i ^ xor hands the kernel byte-swapped-named planes.
    """
    always_inline()
    prefer_wide_vectors()
    carry = np.zeros(LANES, dtype=np.uint64)
    for i in range(64):
        k = np.uint64(0) - ((c >> np.uint64(i)) & np.uint64(1))  # all-ones iff bit i of c
        o = i ^ xor
        for lane in range(LANES):
            a = x[i, lane]
            cy = carry[lane]
            t = a ^ k
            out[o, lane] = t ^ cy
            carry[lane] = (a & k) | (cy & t)


@inline
def _add_const_to_work(c: np.uint64, out: np.ndarray, rows: np.ndarray) -> None:
    """Row rows[i] of the flat ``out`` = plane i of (_INDEX_PLANES + c): ``_add_const``
    on explicit vectors, into the work array (``rows = simd_passes.WORK_ROW``).

    A vector of lanes at a time with the carry in a register: a load, two
    XORs and a majority (one ``vpternlogq`` with AVX-512) per plane.
    """
    always_inline()
    prefer_wide_vectors()
    for lane in range(0, LANES, simd.LANES_PER_VECTOR):
        carry = simd.splat(np.uint64(0))
        for i in range(64):
            k = simd.splat(np.uint64(0) - ((c >> np.uint64(i)) & np.uint64(1)))
            a = simd.load(_INDEX_WORDS, i * LANES + lane)
            simd.store(out, rows[i] * LANES + lane, simd.xor(simd.xor(a, k), carry))
            carry = simd.ternary(a, k, carry, _MAJORITY)


@once_inline
def _ctr_pass(src, dst, start, count, kplanes, c0, xor, rows, buf, work) -> None:
    """dst[start+b] = src[start+b] ^ E(c0 + start + b) for b < count.

    The counters are added straight into the work array and the keystream is
    transposed out on explicit vectors (``simd_passes``); ``rows``:
    ``simd_passes.work_rows(xor)``.
    """
    prefer_wide_vectors()
    _add_const_to_work(c0 + np.uint64(start), work, WORK_ROW)
    crypt_work(work, kplanes, next_pass(src, dst, start + BLOCKS))
    flat = buf.reshape(BLOCKS)
    if count == BLOCKS:  # the keystream transposed straight into dst, XORed with src
        work_to_words(work, rows, flat, PLAIN_ROWS, dst, start, src, start)
        return
    # start np.int64(0), not a literal: the signature ECB's short pass compiles (lane_rounds)
    work_to_words(work, rows, flat, PLAIN_ROWS, flat, np.int64(0), None, np.int64(0))
    for b in range(count):
        dst[start + b] = src[start + b] ^ flat[b]


@numba.njit(nogil=True, cache=True)
def _ctr(src, dst, kplanes, c0, xor) -> None:
    """CTR over src into dst; counters are built in plane form (no counter array)."""
    prefer_wide_vectors()
    n = src.shape[0]
    buf = new_planes()
    work = new_work()
    rows = work_rows(xor)
    for start in range(0, n, BLOCKS):
        _ctr_pass(src, dst, start, min(BLOCKS, n - start), kplanes, c0, xor, rows, buf, work)


@once_inline
def _cbcd_chunk(src, dst, start, count, prev, kplanes, xor, buf, work) -> None:
    """CBC-decrypt src[start:start+count] (the short last pass) given the ciphertext word before it.

    Every input word is read before dst is written, so it may be src; it runs
    before the full passes (``_cbc_decrypt``), so it fetches the pass below it.
    """
    prefer_wide_vectors()
    load_words(src, start, count, buf)
    transpose64(buf)
    crypt_into(buf, work, kplanes, xor, next_pass(src, dst, start - BLOCKS))
    transpose64(buf)
    _xor_previous_and_store(buf, src, dst, start, count, prev)


@once_inline
def _xor_previous_and_store(buf, src, dst, start, count, prev) -> None:
    """dst[start + b] = decrypted word b ^ the ciphertext word before it (``prev`` for b = 0)."""
    prefer_wide_vectors()
    flat = buf.reshape(BLOCKS)
    flat[0] ^= prev
    for b in range(1, count):
        flat[b] ^= src[start + b - 1]
    store_words(buf, dst, start, count)


@once_inline
def _cbcd_pass(src, dst, start, prev, kplanes, xor, rows, buf, work, seams) -> None:
    """CBC-decrypt the full pass at ``start`` with the transposes fused on explicit vectors.

    P_i = D(C_i) ^ C_i-1 goes straight into dst, the mix read from src one
    word back.  In place that is safe because the passes run from the end of
    the stream to its start (``_cbc_decrypt``) and the output is stored from
    the top of the pass down (``work_to_words_backward``): every C_i-1 is read
    before P_i-1 overwrites it, with no copy of the ciphertext.  ``prev`` is
    C_start-1 (the IV for the first pass), read before anything is written;
    ``rows``: ``simd_passes.work_rows(xor)``; ``seams``: ``BLOCKS`` words.
    """
    prefer_wide_vectors()
    flat = buf.reshape(BLOCKS)
    words_to_work(src, start, flat, PLAIN_ROWS, rows, work)
    crypt_work(work, kplanes, next_pass(src, dst, start - BLOCKS))
    copy_seams(src, start - 1, prev, seams)
    work_to_words_backward(work, rows, flat, PLAIN_ROWS, dst, start, src, start - 1, seams)


@numba.njit(nogil=True, cache=True)
def _cbc_decrypt(src, dst, kplanes, iv, xor) -> None:
    """Passes from the last to the first, so that in place no ciphertext is lost (``_cbcd_pass``)."""
    prefer_wide_vectors()
    n = src.shape[0]
    buf = new_planes()
    work = new_work()
    rows = work_rows(xor)
    seams = aligned_words(BLOCKS)
    full = n - n % BLOCKS
    if full < n:  # the short last pass first, through the lane loops
        _cbcd_chunk(src, dst, full, n - full, src[full - 1] if full > 0 else iv, kplanes, xor,
                    buf, work)
    for start in range(full - BLOCKS, -1, -BLOCKS):
        prev = src[start - 1] if start > 0 else iv
        _cbcd_pass(src, dst, start, prev, kplanes, xor, rows, buf, work, seams)


@once_inline
def _cfbd_chunk(src, dst, start, count, prev, kplanes, xor, buf, work) -> None:
    """CFB-decrypt src[start:start+count]: the cipher input is the stream shifted by one.

    Takes a short pass, and the first full one (its cipher input starts with
    the IV, ``prev``).  Every word is read before dst is written.
    """
    prefer_wide_vectors()
    flat = buf.reshape(BLOCKS)
    flat[0] = prev
    for b in range(1, count):
        flat[b] = src[start + b - 1]
    for b in range(count, BLOCKS):
        flat[b] = 0
    transpose64(buf)
    crypt_into(buf, work, kplanes, xor, next_pass(src, dst, start - BLOCKS))
    transpose64(buf)
    for b in range(count):
        dst[start + b] = src[start + b] ^ flat[b]


@once_inline
def _cfbd_pass(src, dst, start, kplanes, xor, rows, buf, work) -> None:
    """CFB-decrypt the full pass at ``start`` > 0 with the transposes fused on explicit vectors.

    P_i = C_i ^ E(C_i-1): the input transpose reads src one word back, the
    output transpose XORs the keystream with src on its way into dst.  In
    place this needs C_start-1, the last word of the pass below, intact: the
    passes run from the end of the stream down (``_cfb_decrypt``).
    """
    prefer_wide_vectors()
    flat = buf.reshape(BLOCKS)
    words_to_work(src, start - 1, flat, PLAIN_ROWS, rows, work)
    crypt_work(work, kplanes, next_pass(src, dst, start - BLOCKS))
    work_to_words(work, rows, flat, PLAIN_ROWS, dst, start, src, start)


@numba.njit(nogil=True, cache=True)
def _cfb_decrypt(src, dst, kplanes, iv, xor) -> None:
    """Passes from the last to the first, so that in place no ciphertext is lost (``_cfbd_pass``)."""
    prefer_wide_vectors()
    n = src.shape[0]
    buf = new_planes()
    work = new_work()
    rows = work_rows(xor)
    full = n - n % BLOCKS
    if full < n:
        _cfbd_chunk(src, dst, full, n - full, src[full - 1] if full > 0 else iv, kplanes, xor,
                    buf, work)
    for start in range(full - BLOCKS, 0, -BLOCKS):
        _cfbd_pass(src, dst, start, kplanes, xor, rows, buf, work)
    if full > 0:  # plain integers, not literals: the one signature of the call above
        _cfbd_chunk(src, dst, np.int64(0), np.int64(BLOCKS), iv, kplanes, xor, buf, work)


# ---------------------------------------------------------------- many messages


@inline
def _xor_into(x: np.ndarray, y: np.ndarray) -> None:
    """x ^= y over whole plane arrays."""
    always_inline()
    prefer_wide_vectors()
    fx = x.reshape(BLOCKS)
    fy = y.reshape(BLOCKS)
    for i in range(BLOCKS):
        fx[i] ^= fy[i]


@inline
def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    always_inline()
    prefer_wide_vectors()
    fs = src.reshape(BLOCKS)
    fd = dst.reshape(BLOCKS)
    for i in range(BLOCKS):
        fd[i] = fs[i]


@once_inline
def _many_block(x, s, t, iv_planes, j, mode, crypt, kplanes, xor, work) -> None:
    """One block position of a group of messages, in plane form.

    ``x`` holds block ``j`` of every message (raw naming) and is replaced by
    the output block; ``s`` is the chaining state (previous ciphertext for
    CBC/CFB, previous keystream for OFB), ``t`` scratch; for CTR
    ``iv_planes`` holds the initial counters in value naming.  ``crypt`` is
    the block cipher over a plane array (``lane_rounds.crypt_into`` with one key;
    ``lane_keys.crypt_lanes_into`` with a key per lane) and ``kplanes`` its keys.
    """
    prefer_wide_vectors()
    if mode == ECB_ENCRYPT or mode == ECB_DECRYPT:  # noqa: SIM109 (Numba: plain compares)
        crypt(x, work, kplanes, xor, nothing_ahead())
    elif mode == CBC_ENCRYPT:  # C = E(P ^ C_prev)
        _xor_into(x, s)
        crypt(x, work, kplanes, xor, nothing_ahead())
        _copy(x, s)
    elif mode == CBC_DECRYPT:  # P = D(C) ^ C_prev
        _copy(x, t)
        crypt(x, work, kplanes, xor, nothing_ahead())
        _xor_into(x, s)
        _copy(t, s)
    elif mode == CFB_ENCRYPT:  # C = P ^ E(C_prev)
        crypt(s, work, kplanes, xor, nothing_ahead())
        _xor_into(x, s)
        _copy(x, s)
    elif mode == CFB_DECRYPT:  # P = C ^ E(C_prev); the state becomes C
        crypt(s, work, kplanes, xor, nothing_ahead())
        fx = x.reshape(BLOCKS)
        fs = s.reshape(BLOCKS)
        for i in range(BLOCKS):
            c = fx[i]
            fx[i] = c ^ fs[i]
            fs[i] = c
    elif mode == OFB:  # O = E(O_prev), out = in ^ O
        crypt(s, work, kplanes, xor, nothing_ahead())
        _xor_into(x, s)
    else:  # CTR: out = in ^ E(iv + j)
        _add_const(iv_planes, np.uint64(j), t, xor)
        crypt(t, work, kplanes, xor, nothing_ahead())
        _xor_into(x, t)


@once_inline
def many_group(src2d, dst2d, m0, count, crypt, kplanes, ivs, mode, xor, tiles, s, t, iv_planes,
               work) -> None:
    """Run messages m0 .. m0+count-1 (count <= 64*LANES) through every block position.

    Blocks are gathered TILE at a time per message (one cache line each), so
    the strided walk down the messages touches each line once.  The walk
    uses unsigned flat indices: Numba then adds no negative-index wraparound
    to each access, which made the gather cost as much as the rounds for
    one-block messages.
    """
    prefer_wide_vectors()
    nblocks = src2d.shape[1]
    src_flat = src2d.reshape(src2d.size)
    dst_flat = dst2d.reshape(dst2d.size)
    stride = np.uint64(nblocks)
    flat_tiles = tiles.reshape(TILE, BLOCKS)
    if mode == CTR:  # initial counters, value naming (the adder renames)
        load_words(ivs, m0, count, iv_planes)
        transpose64(iv_planes)
    elif mode != ECB_ENCRYPT and mode != ECB_DECRYPT:  # chaining state, data's (raw) naming
        load_words(ivs, m0, count, s)
        transpose64(s)
        swap_renamed(s, xor)
    for j0 in range(0, nblocks, TILE):
        tn = min(TILE, nblocks - j0)
        first = np.uint64(m0) * stride + np.uint64(j0)  # block j0 of message m0
        if tn == 1:  # one column (one-block messages: a contiguous copy)
            for b in range(count):
                flat_tiles[0, b] = src_flat[first + np.uint64(b) * stride]
        else:
            for b in range(count):
                at = first + np.uint64(b) * stride
                for q in range(tn):
                    flat_tiles[q, b] = src_flat[at + np.uint64(q)]
        for q in range(tn):
            x = tiles[q]
            transpose64(x)
            _many_block(x, s, t, iv_planes, j0 + q, mode, crypt, kplanes, xor, work)
            transpose64(x)
        if tn == 1:
            for b in range(count):
                dst_flat[first + np.uint64(b) * stride] = flat_tiles[0, b]
        else:
            for b in range(count):
                at = first + np.uint64(b) * stride
                for q in range(tn):
                    dst_flat[at + np.uint64(q)] = flat_tiles[q, b]


@inline
def many_scratch():
    """Zeroed scratch of ``many_group``: (tiles, s, t, iv_planes), and the work array."""
    always_inline()
    prefer_wide_vectors()
    tiles = aligned_words(TILE * BLOCKS).reshape(TILE, 64, LANES)
    tiles[:] = 0  # padding lanes stay defined
    s = new_planes()
    t = new_planes()
    iv_planes = new_planes()
    s[:] = 0
    t[:] = 0
    iv_planes[:] = 0
    return tiles, s, t, iv_planes, new_work()


@numba.njit(nogil=True, cache=True)
def _many(src2d, dst2d, kplanes, ivs, mode, xor) -> None:
    prefer_wide_vectors()
    m = src2d.shape[0]
    tiles, s, t, iv_planes, work = many_scratch()
    for m0 in range(0, m, BLOCKS):
        many_group(src2d, dst2d, m0, min(BLOCKS, m - m0), crypt_into, kplanes, ivs, mode, xor,
                   tiles, s, t, iv_planes, work)


# ------------------------------------------------------------- Python entry points


def _bswap64(v: int) -> int:
    return int.from_bytes((v & _U64).to_bytes(8, "big"), "little")


def _word(v: int, swap: bool) -> np.uint64:
    """A block value as the word the data uses (byte-swapped when swap)."""
    return np.uint64(_bswap64(v) if swap else v & _U64)


def ctr(src: np.ndarray, dst: np.ndarray, kplanes: np.ndarray, counter0: int, swap: bool) -> None:
    """CTR: dst[i] = src[i] ^ E(counter0 + i mod 2**64), counters made inside the kernel."""
    _ctr(src, dst, kplanes, np.uint64(counter0 & _U64), BSWAP_XOR if swap else 0)


def cbc_decrypt(src: np.ndarray, dst: np.ndarray, kplanes: np.ndarray, iv: int,
                swap: bool) -> None:
    """CBC decryption, P_i = D(C_i) ^ C_{i-1} (C_{-1} = iv); kplanes from reversed keys."""
    _cbc_decrypt(src, dst, kplanes, _word(iv, swap), BSWAP_XOR if swap else 0)


def cfb_decrypt(src: np.ndarray, dst: np.ndarray, kplanes: np.ndarray, iv: int,
                swap: bool) -> None:
    """CFB-64 decryption, P_i = C_i ^ E(C_{i-1}); kplanes from the encryption keys."""
    _cfb_decrypt(src, dst, kplanes, _word(iv, swap), BSWAP_XOR if swap else 0)


def many(src2d: np.ndarray, dst2d: np.ndarray, kplanes: np.ndarray, ivs: np.ndarray, chain: int,
         swap: bool) -> None:
    """Independent messages, one per row of C-contiguous (messages, blocks) arrays.

    ``ivs`` holds one IV (or initial counter for CTR) per message as block
    values.  ``chain`` is one of ``chains.BLOCK_CHAINS``; CBC decryption
    takes reversed keys exactly as its single-stream version does.
    """
    if src2d.shape[0] == 0 or src2d.shape[1] == 0:
        return
    _many(src2d, dst2d, kplanes, np.ascontiguousarray(ivs, dtype=np.uint64), chain,
          BSWAP_XOR if swap else 0)
