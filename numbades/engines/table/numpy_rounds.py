"""libdes's default loop vectorised over blocks by NumPy: a table variant's calls with nothing compiled.

The same rotated frame, ``SPTRANS`` tables, (Ku, Kt) key form and IP/FP
delta swaps as the kernels (``frame``, ``ip_fp``), each step one NumPy
operation over every block of the call at once.  It costs about a
millisecond per 512 blocks, far slower than a compiled kernel per block,
but needs no compiler: :class:`~.engine.TableEngine` runs the default
variant's small ECB, CTR and CBC-decryption calls on it only while those
kernels are compiling in another process (a process's first calls on an
empty Numba cache), and the tests hold it to the same outside references as
the kernels.  Independent-block work only: a sequential chain has no batch
to vectorise over.

``frame_schedule`` builds the key form the same way.  ``ks`` holds (Ku, Kt)
uint32 pairs, 32 words a pass, halves swapped after
each pass (so 3 passes are EDE); ``sp`` is ``frame.SPTRANS`` (8, 64).
Words and ``swap`` follow the engine interface (``engines.base``).
"""

from __future__ import annotations

import numpy as np

from .. import chains
from .frame import FRAME_KEY_CHUNKS, FRAME_ROTATION, T_ROTATION
from .ip_fp import IP_STEPS

_M32 = np.uint64(0xFFFFFFFF)
_M6 = np.uint64(0x3F)
_STEPS = tuple((np.uint64(s), np.uint64(m)) for s, m in IP_STEPS)
_B32 = np.uint64(32)
#: Index shifts of the four tables read from u (slots 0, 2, 4, 6) and from t (1, 3, 5, 7).
_SHIFTS = tuple(np.uint64(s) for s in (2, 10, 18, 26))


#: Where each 6-bit chunk of a 48-bit round key sits (``frame.FRAME_KEY_CHUNKS``' chunks).
_CHUNK_SHIFTS = np.arange(42, -1, -6, dtype=np.uint64)


def frame_schedule(round_keys: np.ndarray) -> np.ndarray:
    """``frame.frame_schedule`` without its kernel: the same chunk lookups, over every round key."""
    chunks = (np.asarray(round_keys, np.uint64).reshape(-1, 1) >> _CHUNK_SHIFTS) & _M6
    both = np.bitwise_or.reduce(FRAME_KEY_CHUNKS[np.arange(8), chunks], axis=1)
    out = np.empty(2 * both.shape[0], dtype=np.uint32)
    out[0::2] = both >> _B32
    out[1::2] = both & _M32
    return out


def _delta_swaps(x: np.ndarray, steps) -> np.ndarray:
    """IP (``steps`` in order) or FP (reversed): each step exchanges bits ``shift`` apart."""
    for shift, mask in steps:
        t = ((x >> shift) ^ x) & mask
        x ^= t ^ (t << shift)
    return x


def _rotl32(x: np.ndarray, n: int) -> np.ndarray:
    """32-bit rotation left by ``n`` of values below 2**32 held in uint64."""
    return ((x << np.uint64(n)) | (x >> np.uint64(32 - n))) & _M32


def _f(r: np.ndarray, ku: np.uint64, kt: np.uint64, sp: np.ndarray) -> np.ndarray:
    """``f(R)`` under one round key, in the frame: eight table loads XORed (``d_encrypt``)."""
    u = r ^ ku
    t = _rotl32(r ^ kt, 32 - T_ROTATION)  # rotate right by 4
    out = sp[0].take((u >> _SHIFTS[0]) & _M6)
    out ^= sp[1].take((t >> _SHIFTS[0]) & _M6)
    for i in range(1, 4):
        out ^= sp[2 * i].take((u >> _SHIFTS[i]) & _M6)
        out ^= sp[2 * i + 1].take((t >> _SHIFTS[i]) & _M6)
    return out


def encrypt_values(x: np.ndarray, ks: np.ndarray, sp: np.ndarray) -> np.ndarray:
    """Block values (uint64, FIPS order) through IP, every pass of ``ks``, FP; a new array."""
    x = _delta_swaps(x.astype(np.uint64, copy=True), _STEPS)
    left = _rotl32(x >> _B32, FRAME_ROTATION)
    right = _rotl32(x & _M32, FRAME_ROTATION)
    keys = ks.astype(np.uint64)
    for p in range(ks.shape[0] // 32):
        for k in range(32 * p, 32 * p + 32, 4):  # two rounds: left, then right
            left ^= _f(right, keys[k], keys[k + 1], sp)
            right ^= _f(left, keys[k + 2], keys[k + 3], sp)
        left, right = right, left
    rot = 32 - FRAME_ROTATION
    joined = (_rotl32(left, rot) << _B32) | _rotl32(right, rot)
    return _delta_swaps(joined, _STEPS[::-1])


def _values(words: np.ndarray, swap: bool) -> np.ndarray:
    """Engine words as block values (a new array)."""
    return words.byteswap() if swap else words.copy()


def ecb(src: np.ndarray, dst: np.ndarray, ks: np.ndarray, sp: np.ndarray, swap: bool) -> None:
    """dst[i] = E(src[i]) (decryption: ``ks`` reversed); ``dst`` may be ``src``."""
    y = encrypt_values(_values(src, swap), ks, sp)
    dst[:] = y.byteswap() if swap else y


def serves(chain: int) -> bool:
    """Whether :func:`chain` runs ``chain``: ECB, CTR and CBC decryption."""
    return chain in chains.ECB or chain in (chains.CTR, chains.CBC_DECRYPT)


def chain(chain: int, src: np.ndarray, dst: np.ndarray, ks: np.ndarray, sp: np.ndarray,
          swap: bool, state: int) -> int:
    """ECB, CTR or CBC decryption over one stream (``serves``); returns the next state.

    CTR: out = in ^ E(counter), the counter a 64-bit block value that wraps.
    CBC decryption (``ks`` reversed): P = D(C) ^ C_prev, the state the last C.
    ``dst`` may be ``src``: the input is read in full before ``dst`` is written.
    """
    n = src.shape[0]
    w = _values(src, swap)
    if chain in chains.ECB:
        out = encrypt_values(w, ks, sp)
        new_state = state
    elif chain == chains.CTR:
        counters = np.arange(n, dtype=np.uint64) + np.uint64(state)  # wraps mod 2**64
        out = w ^ encrypt_values(counters, ks, sp)
        new_state = (state + n) & 0xFFFFFFFFFFFFFFFF
    elif chain == chains.CBC_DECRYPT:
        previous = np.empty_like(w)
        previous[0] = np.uint64(state)
        previous[1:] = w[:-1]
        out = encrypt_values(w, ks, sp) ^ previous
        new_state = int(w[-1]) if n else state
    else:
        raise ValueError(f"the NumPy rounds do not run {chains.name(chain)}")
    dst[:] = out.byteswap() if swap else out
    return new_state
