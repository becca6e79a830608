"""Bitsliced DES / 3DES kernels: 64 * LANES blocks per pass, pure Boolean ops.

The round work of the bitslice engine.  The state of a pass is a plane
array (layout documented in ``transpose``): plane ``i`` holds bit
``i`` of every block (0 = least significant bit of the block value, so FIPS
bit ``n`` is plane ``64 - n``); block ``b`` of a pass is lane ``b % LANES``,
bit ``b // LANES``.

Inside ``crypt_into`` the 64 planes are copied in IP order into a flat work
array of 64 rows x LANES (rows 0..31 = L, 32..63 = R, FIPS bit order), so IP and FP
are plane renamings and E and P are index renamings inside the round; the
only arithmetic is the key XOR, the S-box circuits and the XOR into L.

Key planes: ``kplanes[r, j]`` is all-ones or zero, FIPS bit ``j + 1`` of the
r-th round key in application order.  Every 16 rounds the halves swap as at
the end of DES, so 48 rounds with keys K1, reversed K2, K3 are 3DES-EDE, and
reversed keys decrypt.  No branch or memory index depends on key or data.

The rounds themselves are ``simd_rounds.rounds_on`` (explicit vectors on
every target), re-exported here for the kernels with a key per lane
(``lane_keys``, ``crypt3``, ``cbc_mac``), which specialise it by their input
functions; under one key they run in ``crypt_work`` as
``simd_rounds.one_key_rounds_on``, whose S-boxes take some inputs
complemented through the key masks (``key_planes``).  What stays lane
loops for LLVM to vectorise here is the IP and FP renaming (``gather_ip``,
``scatter_fp``).
"""

import numba
import numpy as np

from ...jit import always_inline, inline
from ..cpu.vector_width import prefer_wide_vectors
from ..layout.prefetch import next_pass, nothing_ahead
from ..layout.simd_passes import PLAIN_ROWS, words_to_work, work_rows, work_to_words
from ..layout.transpose import (
    BLOCKS,
    BSWAP_XOR,
    LANES,
    copy_renamed,
    load_words,
    new_planes,
    new_work,
    store_words,
    swap_renamed,
    transpose64,
)
from ..layout.wiring import IP_PLANE as _IP_PLANE
from ..sboxes.dispatch import input_complement

# rounds_on: the round code of every kernel, explicit vectors on every target
# (``lane_keys``, ``crypt3`` and ``cbc_mac`` import it from here)
from .simd_rounds import one_key_rounds_on, rounds_on  # noqa: F401 - rounds_on re-exported

#: XORed into every one-key mask: the S-box inputs the one-key circuits take
#: complemented (their NOTs, folded into the key; all zero with AVX-512).
_INPUT_COMPLEMENT = input_complement()

_INLINED_SOURCES_SHA256 = "cb432b52eedaea0af8582f7d6d2ca3eff60f2692f71a72472a8104cba287d2bb"  # see tools/stamp_kernel_sources.py


@numba.njit(nogil=True, cache=True)
def _spread_bits(round_keys: np.ndarray, out: np.ndarray) -> None:
    for r in range(round_keys.shape[0]):
        k = round_keys[r]
        for j in range(48):
            out[r, j] = (np.uint64(0) - ((k >> np.uint64(47 - j)) & np.uint64(1))) ^ _INPUT_COMPLEMENT[j]


def key_planes(round_keys48: np.ndarray) -> np.ndarray:
    """Spread R 48-bit round keys (application order) into an (R, 48) mask array.

    Element [r, j] is all-ones if FIPS bit j + 1 of round key r (integer bit
    47 - j) is set, else zero: XORing it into a plane flips that bit in every
    block at once.  Then complemented where the one-key S-box circuits take
    input j complemented (``dispatch.input_complement``: their NOTs, folded
    into the key; none with AVX-512), so these masks are for
    ``simd_rounds.one_key_rounds_on`` only.  One small kernel call (a new
    key's bitslice set-up is on the path of its first block).
    """
    rk = np.ascontiguousarray(round_keys48, dtype=np.uint64).reshape(-1)
    out = np.empty((rk.shape[0], 48), dtype=np.uint64)
    _spread_bits(rk, out)
    return out


@inline
def gather_ip(planes: np.ndarray, w: np.ndarray, xor: int) -> None:
    """w = IP(planes) as a renaming; xor = BSWAP_XOR reads byte-swapped planes."""
    always_inline()
    prefer_wide_vectors()
    flat = planes.reshape(BLOCKS)
    for k in range(64):
        p = (_IP_PLANE[k] ^ xor) * LANES
        for lane in range(LANES):
            w[k * LANES + lane] = flat[p + lane]


@inline
def scatter_fp(w: np.ndarray, planes: np.ndarray, xor: int) -> None:
    """planes = FP(w) as a renaming (w the preoutput)."""
    always_inline()
    prefer_wide_vectors()
    flat = planes.reshape(BLOCKS)
    for k in range(64):
        p = (_IP_PLANE[k] ^ xor) * LANES
        for lane in range(LANES):
            flat[p + lane] = w[k * LANES + lane]


@numba.njit(nogil=True, cache=True)
def crypt_work(w: np.ndarray, kplanes: np.ndarray, ahead: tuple) -> None:
    """Run the one-key rounds of ``kplanes`` on the work array ``w`` (IP order, flat).

    The rounds are ``simd_rounds``' explicit vectors on every target (512-bit
    with AVX-512, 256-bit with AVX2).  The one compiled copy of the one-key round code: deliberately not
    inlined, so ECB, the mode kernels and crypt_planes share it, which keeps
    cold compile time down.  Meanwhile the caller's next pass (``ahead``:
    ``prefetch.next_pass`` or ``prefetch.nothing_ahead``) is fetched into the
    caches.
    """
    prefer_wide_vectors()
    one_key_rounds_on(w, kplanes, ahead)


@numba.njit(nogil=True, cache=True)
def crypt_into(planes: np.ndarray, w: np.ndarray, kplanes: np.ndarray, xor: int,
               ahead: tuple) -> None:
    """Encrypt planes in place (w is flat scratch); xor renames byte-swapped planes.

    ``ahead`` as for ``crypt_work``.
    """
    prefer_wide_vectors()
    gather_ip(planes, w, xor)
    crypt_work(w, kplanes, ahead)
    scatter_fp(w, planes, xor)


@numba.njit(nogil=True, inline="always")
def _ecb_chunk(src, dst, start, count, kplanes, xor, buf, work) -> None:
    """Encrypt blocks src[start:start+count] (count <= BLOCKS) into dst: ``ecb``'s short last pass.

    Inlined by Numba into ``ecb`` (as ``mode_kernels.once_inline``): compiled
    on its own, its module was optimised and compiled by LLVM, then again
    inside ``ecb``'s, a tenth of the ``ecb`` group's compile.  (When it ran
    every pass, inlined into the loop of ``ecb`` it was vectorised worse,
    about 10% slower; full passes are ``_fused_ecb_pass`` now.)
    """
    prefer_wide_vectors()
    load_words(src, start, count, buf)
    transpose64(buf)
    crypt_into(buf, work, kplanes, xor, next_pass(src, dst, start + BLOCKS))
    transpose64(buf)
    store_words(buf, dst, start, count)


@numba.njit(nogil=True, cache=True)
def to_planes(src_words: np.ndarray, start: int, count: int, swap: bool,
              planes: np.ndarray) -> None:
    """Transpose blocks src_words[start:start+count] (count <= 64*LANES) into planes.

    Missing blocks are zero.  swap=True: each word is the block byte-swapped
    (raw little-endian memory); planes always hold block-value bits.
    """
    prefer_wide_vectors()
    load_words(src_words, start, count, planes)
    transpose64(planes)
    swap_renamed(planes, BSWAP_XOR if swap else 0)


@numba.njit(nogil=True, cache=True)
def from_planes(planes: np.ndarray, dst_words: np.ndarray, start: int, count: int,
                swap: bool) -> None:
    """Inverse of to_planes: write the first count blocks of planes to dst_words[start:].

    ``planes`` is left unchanged (a chaining mode may still need it).
    """
    prefer_wide_vectors()
    buf = new_planes()
    copy_renamed(planes, buf, BSWAP_XOR if swap else 0)
    transpose64(buf)
    store_words(buf, dst_words, start, count)


@numba.njit(nogil=True, cache=True)
def crypt_planes(planes: np.ndarray, kplanes: np.ndarray) -> None:
    """Apply the rounds of kplanes to a plane array in place (plaintext in, ciphertext out)."""
    crypt_into(planes, new_work(), kplanes, 0, nothing_ahead())


@numba.njit(nogil=True, cache=True)
def _fused_ecb_pass(src, dst, start, kplanes, xor, rows, buf, work) -> None:
    """A full pass with the transposes reading src and writing dst directly (``simd_passes``).

    Every full pass of ``ecb`` on every target (512-bit vectors with AVX-512,
    256-bit elsewhere); ``rows``: ``simd_passes.work_rows(xor)``.
    """
    prefer_wide_vectors()
    flat = buf.reshape(BLOCKS)
    words_to_work(src, start, flat, PLAIN_ROWS, rows, work)
    crypt_work(work, kplanes, next_pass(src, dst, start + BLOCKS))
    work_to_words(work, rows, flat, PLAIN_ROWS, dst, start, None, np.int64(0))


@numba.njit(nogil=True, cache=True)
def ecb(src: np.ndarray, dst: np.ndarray, kplanes: np.ndarray, swap: bool) -> None:
    """ECB over all of src into dst (may be src), one pass of 64*LANES blocks at a time.

    The last partial pass is zero-padded inside the kernel.
    """
    n = src.shape[0]
    xor = BSWAP_XOR if swap else 0
    rows = work_rows(xor)
    buf = new_planes()
    work = new_work()
    full = n - n % BLOCKS
    for start in range(0, full, BLOCKS):
        _fused_ecb_pass(src, dst, start, kplanes, xor, rows, buf, work)
    if full < n:
        _ecb_chunk(src, dst, full, n - full, kplanes, xor, buf, work)
