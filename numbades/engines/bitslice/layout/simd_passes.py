"""A whole pass on explicit vectors: four passes over memory fewer.

The lane-loop pass (``lane_rounds._ecb_chunk``) copies the input into a plane
array, transposes it in place (two passes of three delta-swap stages),
copies it into the work array in IP order, runs the rounds, and undoes all
of that on the way out: eight passes over 16 KiB besides the rounds.  Here
the first transpose pass reads the input words directly, the second writes
its rows straight to their IP positions in the work array, and the way out
mirrors it (FP positions in, the output words out), so the four copies are
gone.  (Fused into lane loops the same idea was slower: LLVM could not prove
the input and the scratch apart; explicit loads and stores leave it nothing
to prove.)

The stages are those of ``transpose.transpose64``, the same function.  With
AVX-512 (512-bit vectors) each output of a delta swap at the byte-granular
distances (32, 16, 8) is one two-source shuffle (``simd.pack_low`` /
``pack_high``), at the bit distances (4, 2, 1) a shift and a bit-select
(``vpternlogq``); elsewhere (256-bit vectors, e.g. AVX2) every stage is the
six-operation delta swap.  Used for full passes on every target; a short
last pass takes the lane-loop route.
"""

import numpy as np

from ....des import fips
from ...jit import always_inline, as_read_only, inline
from ..cpu.simd import (
    LANES_PER_VECTOR,
    and_,
    load,
    pack_high,
    pack_low,
    shift_left,
    shift_right,
    splat,
    store,
    ternary,
    xor,
)
from ..cpu.target import AVX512
from ..cpu.vector_width import prefer_wide_vectors
from .transpose import BSWAP_XOR, LANES

_SELECT = 0xCA  # ternary(m, x, y, _SELECT) = m ? x : y, bit by bit

#: WORK_ROW[p]: the work-array row (``lane_rounds``) that holds value plane p, so
#: the plane of a byte-swapped word's bit i lives in row WORK_ROW[i ^ xor].
WORK_ROW = np.array([[64 - n for n in fips.IP].index(p) for p in range(64)], dtype=np.int64)
#: Plane p in row p: a plane array's own rows.
PLAIN_ROWS = np.arange(64, dtype=np.int64)


#: work_rows's two answers, made once: constants in the kernels, read-only like
#: ``PLAIN_ROWS``, so the transposes' helpers see one array type for every row table
#: (a writable one beside a read-only one typed and compiled them twice).
_ROWS_NATIVE = WORK_ROW.copy()
_ROWS_SWAPPED = WORK_ROW[np.arange(64) ^ BSWAP_XOR]


@inline
def work_rows(xor: int) -> np.ndarray:
    """The work row of each plane of words named with ``xor`` (``transpose.BSWAP_XOR`` or 0)."""
    always_inline()
    prefer_wide_vectors()
    return _ROWS_SWAPPED if xor else _ROWS_NATIVE


#: Each field's low half, for the byte-granular distances without AVX-512.
_LOW32 = np.uint64(0x00000000FFFFFFFF)
_LOW16 = np.uint64(0x0000FFFF0000FFFF)
_LOW8 = np.uint64(0x00FF00FF00FF00FF)


@inline
def _delta_swap(a, b, bits, low):
    """The classic delta swap in 2-input operations: six for both outputs."""
    always_inline()
    prefer_wide_vectors()
    t = and_(xor(shift_right(a, bits), b), low)
    return xor(a, shift_left(t, bits)), xor(b, t)


@inline
def _swap_bytes(a, b, width):
    """Delta swap of rows a (lower) and b at byte-granular distance ``width``.

    AVX-512: one two-source shuffle per output (``vpermt2d/w/b``); AVX2 has no
    such shuffle across two registers, and a delta swap beat what LLVM made of
    the shuffles there (byte shuffles, unpacks and blends).
    """
    always_inline()
    prefer_wide_vectors()
    if AVX512:  # a constant: one branch compiles
        return pack_low(a, b, width), pack_high(a, b, width)
    if width == 32:
        return _delta_swap(a, b, 32, splat(_LOW32))
    if width == 16:
        return _delta_swap(a, b, 16, splat(_LOW16))
    return _delta_swap(a, b, 8, splat(_LOW8))


@inline
def _swap_bits(a, b, bits, low):
    """Delta swap of rows a (lower) and b at bit distance ``bits``; ``low``: each field's low half.

    AVX-512: a shift and a bit-select ``vpternlogq`` per output; elsewhere the
    six-operation delta swap (a select costs three 2-input operations).
    """
    always_inline()
    prefer_wide_vectors()
    if AVX512:
        return (ternary(low, a, shift_left(b, bits), _SELECT),
                ternary(low, shift_right(a, bits), b, _SELECT))
    return _delta_swap(a, b, bits, low)


@inline
def _put(y: np.ndarray, at: int, value, mix, mix_at: int) -> None:
    """y[at : at + 8] = value, XORed with mix[mix_at : mix_at + 8] unless mix is None."""
    always_inline()
    prefer_wide_vectors()
    if mix is None:  # pruned at compile time
        store(y, at, value)
    else:
        store(y, at, xor(value, load(mix, mix_at)))


@inline
def _byte_stages(x: np.ndarray, x0: int, y: np.ndarray, y0: int, base: int, lane: int,
                 mix, mix0: int) -> None:
    """Distances 32, 16, 8 on rows base, base + 8, ..., base + 56 of x (from word x0), into y (y0).

    Rows are ``LANES`` words apart in both arrays; eight lanes from ``lane``.
    Each word stored is XORed with the word of ``mix`` at the same offset from
    ``mix0`` (None: not).  Each vector's mix is loaded just before the vector
    is stored, so ``mix`` may be ``y`` one word back (CBC decryption in place)
    as long as no earlier store covered the word before it.
    """
    always_inline()
    prefer_wide_vectors()
    step = 8 * LANES
    i = x0 + base * LANES + lane
    r0, r1, r2, r3 = load(x, i), load(x, i + step), load(x, i + 2 * step), load(x, i + 3 * step)
    r4, r5 = load(x, i + 4 * step), load(x, i + 5 * step)
    r6, r7 = load(x, i + 6 * step), load(x, i + 7 * step)
    r0, r4 = _swap_bytes(r0, r4, 32)
    r1, r5 = _swap_bytes(r1, r5, 32)
    r2, r6 = _swap_bytes(r2, r6, 32)
    r3, r7 = _swap_bytes(r3, r7, 32)
    r0, r2 = _swap_bytes(r0, r2, 16)
    r1, r3 = _swap_bytes(r1, r3, 16)
    r4, r6 = _swap_bytes(r4, r6, 16)
    r5, r7 = _swap_bytes(r5, r7, 16)
    r0, r1 = _swap_bytes(r0, r1, 8)
    r2, r3 = _swap_bytes(r2, r3, 8)
    r4, r5 = _swap_bytes(r4, r5, 8)
    r6, r7 = _swap_bytes(r6, r7, 8)
    o, m = y0 + base * LANES + lane, mix0 + base * LANES + lane
    _put(y, o, r0, mix, m)
    _put(y, o + step, r1, mix, m + step)
    _put(y, o + 2 * step, r2, mix, m + 2 * step)
    _put(y, o + 3 * step, r3, mix, m + 3 * step)
    _put(y, o + 4 * step, r4, mix, m + 4 * step)
    _put(y, o + 5 * step, r5, mix, m + 5 * step)
    _put(y, o + 6 * step, r6, mix, m + 6 * step)
    _put(y, o + 7 * step, r7, mix, m + 7 * step)


@inline
def _bit_stages(x: np.ndarray, x_rows: np.ndarray, y: np.ndarray, y_rows: np.ndarray,
                base: int, lane: int, mix) -> None:
    """Distances 4, 2, 1 on planes base .. base + 7: plane p is row x_rows[p] of x, y_rows[p] of y.

    Each word stored is XORed with the word of ``mix`` at the same offset
    (``mix`` = ``y``: XORed into y; None: not).
    """
    always_inline()
    prefer_wide_vectors()
    m4 = splat(np.uint64(0x0F0F0F0F0F0F0F0F))
    m2 = splat(np.uint64(0x3333333333333333))
    m1 = splat(np.uint64(0x5555555555555555))
    r0, r1 = load(x, x_rows[base] * LANES + lane), load(x, x_rows[base + 1] * LANES + lane)
    r2, r3 = load(x, x_rows[base + 2] * LANES + lane), load(x, x_rows[base + 3] * LANES + lane)
    r4, r5 = load(x, x_rows[base + 4] * LANES + lane), load(x, x_rows[base + 5] * LANES + lane)
    r6, r7 = load(x, x_rows[base + 6] * LANES + lane), load(x, x_rows[base + 7] * LANES + lane)
    r0, r4 = _swap_bits(r0, r4, 4, m4)
    r1, r5 = _swap_bits(r1, r5, 4, m4)
    r2, r6 = _swap_bits(r2, r6, 4, m4)
    r3, r7 = _swap_bits(r3, r7, 4, m4)
    r0, r2 = _swap_bits(r0, r2, 2, m2)
    r1, r3 = _swap_bits(r1, r3, 2, m2)
    r4, r6 = _swap_bits(r4, r6, 2, m2)
    r5, r7 = _swap_bits(r5, r7, 2, m2)
    r0, r1 = _swap_bits(r0, r1, 1, m1)
    r2, r3 = _swap_bits(r2, r3, 1, m1)
    r4, r5 = _swap_bits(r4, r5, 1, m1)
    r6, r7 = _swap_bits(r6, r7, 1, m1)
    o0, o1 = y_rows[base] * LANES + lane, y_rows[base + 1] * LANES + lane
    o2, o3 = y_rows[base + 2] * LANES + lane, y_rows[base + 3] * LANES + lane
    o4, o5 = y_rows[base + 4] * LANES + lane, y_rows[base + 5] * LANES + lane
    o6, o7 = y_rows[base + 6] * LANES + lane, y_rows[base + 7] * LANES + lane
    _put(y, o0, r0, mix, o0)
    _put(y, o1, r1, mix, o1)
    _put(y, o2, r2, mix, o2)
    _put(y, o3, r3, mix, o3)
    _put(y, o4, r4, mix, o4)
    _put(y, o5, r5, mix, o5)
    _put(y, o6, r6, mix, o6)
    _put(y, o7, r7, mix, o7)


@inline
def _words_in(src: np.ndarray, start: int, buf: np.ndarray, plain_rows: np.ndarray,
              work_rows: np.ndarray, work: np.ndarray, mix) -> None:
    """``words_to_work``, each word stored XORed with ``mix``'s (``work``, or None: not)."""
    always_inline()
    prefer_wide_vectors()
    lanes = buf.shape[0] // 64  # LANES, as a trip count LLVM does not unroll (compile time)
    words = as_read_only(src)  # read only: the same _byte_stages as the way out's
    for b in range(8):
        for lane in range(0, lanes, LANES_PER_VECTOR):
            _byte_stages(words, start, buf, np.int64(0), b, lane, None, np.int64(0))
    for c in range(8):
        for lane in range(0, lanes, LANES_PER_VECTOR):
            _bit_stages(buf, plain_rows, work, work_rows, 8 * c, lane, mix)


@inline
def words_to_work(src: np.ndarray, start: int, buf: np.ndarray, plain_rows: np.ndarray,
                  work_rows: np.ndarray, work: np.ndarray) -> None:
    """work = IP(planes of src[start : start + BLOCKS]), through scratch ``buf`` (flat).

    ``plain_rows`` is 0..63; ``work_rows[p]`` the work row of (byte-order
    renamed) plane p.
    """
    always_inline()
    prefer_wide_vectors()
    _words_in(src, start, buf, plain_rows, work_rows, work, None)


@inline
def words_xor_work(src: np.ndarray, start: int, buf: np.ndarray, plain_rows: np.ndarray,
                   work_rows: np.ndarray, work: np.ndarray) -> None:
    """work ^= IP(planes of src[start : start + BLOCKS]): ``words_to_work`` XORed into the
    work array as it is stored (a CBC step on a state kept in the work array)."""
    always_inline()
    prefer_wide_vectors()
    _words_in(src, start, buf, plain_rows, work_rows, work, work)


@inline
def _fp_planes(work: np.ndarray, work_rows: np.ndarray, buf: np.ndarray,
               plain_rows: np.ndarray) -> None:
    """The first half of the way out: FP(work) into ``buf``, bit stages done."""
    always_inline()
    prefer_wide_vectors()
    lanes = buf.shape[0] // 64  # LANES, as a trip count LLVM does not unroll (compile time)
    for c in range(8):
        for lane in range(0, lanes, LANES_PER_VECTOR):
            _bit_stages(work, work_rows, buf, plain_rows, 8 * c, lane, None)


@inline
def work_to_words(work: np.ndarray, work_rows: np.ndarray, buf: np.ndarray,
                  plain_rows: np.ndarray, dst: np.ndarray, start: int, mix, mix0: int) -> None:
    """dst[start : start + BLOCKS] = words of FP(work) (``words_to_work`` backwards).

    With ``mix`` not None, each word is XORed with ``mix[mix0 + i]`` on the
    way (CTR's plaintext, CBC's previous ciphertext).
    """
    always_inline()
    prefer_wide_vectors()
    _fp_planes(work, work_rows, buf, plain_rows)
    planes = as_read_only(buf)  # read only: the same _byte_stages as the way in's
    lanes = buf.shape[0] // 64  # LANES, as a trip count LLVM does not unroll (compile time)
    for b in range(8):
        for lane in range(0, lanes, LANES_PER_VECTOR):
            _byte_stages(planes, np.int64(0), dst, start, b, lane, mix, mix0)


#: Words between the vectors one ``_byte_stages`` call stores (its eight rows).
_ROW_STRIDE = 8 * LANES


@inline
def work_to_words_backward(work: np.ndarray, work_rows: np.ndarray, buf: np.ndarray,
                           plain_rows: np.ndarray, dst: np.ndarray, start: int,
                           mix: np.ndarray, mix0: int, seams: np.ndarray) -> None:
    """``work_to_words`` storing the vectors from the highest address down.

    For CBC decryption in place: word ``i`` is XORed with ``mix[mix0 + i]``,
    and with ``mix`` = ``dst`` one word back, each vector's mix must be read
    before the vector below it is written.  Stored top-down, the only vectors
    whose lower neighbour is stored *earlier* are the first of each
    ``_ROW_STRIDE`` words (the neighbour belongs to the first call); their
    mixes are read from ``seams`` instead: ``seams[j * _ROW_STRIDE + w]`` =
    ``mix[mix0 + j * _ROW_STRIDE + w]``, which the caller copies beforehand.
    """
    always_inline()
    prefer_wide_vectors()
    _fp_planes(work, work_rows, buf, plain_rows)
    lanes = buf.shape[0] // 64  # LANES, as a trip count LLVM does not unroll (compile time)
    for b in range(7, -1, -1):
        for lane in range(lanes - LANES_PER_VECTOR, -1, -LANES_PER_VECTOR):
            if b == 0 and lane == 0:
                _byte_stages(buf, np.int64(0), dst, start, np.int64(0), np.int64(0), seams,
                             np.int64(0))
            else:
                _byte_stages(buf, np.int64(0), dst, start, b, lane, mix, mix0)


@inline
def copy_seams(mix: np.ndarray, mix0: int, first: np.uint64, seams: np.ndarray) -> None:
    """The ``seams`` of ``work_to_words_backward``, with ``first`` in place of ``mix[mix0]``.

    (``mix[mix0]`` is the word before the pass: ``first`` is the IV when
    there is none.)
    """
    always_inline()
    prefer_wide_vectors()
    for j in range(8):
        for w in range(LANES_PER_VECTOR):
            at = j * _ROW_STRIDE + w
            seams[at] = first if at == 0 else mix[mix0 + at]
