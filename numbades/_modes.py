"""Modes of operation over the engines: argument checks, padding, and chaining state.

``Stream`` is one direction of one mode over one message, fed in pieces of
any size: it keeps the chaining value and, for the byte-oriented modes (CFB,
OFB, CTR), the unused part of the current keystream block.  The one-shot
``encrypt``/``decrypt`` calls and the streaming contexts both run on it, so
``update(a) + update(b) == one call on a + b`` holds by construction.

Whole blocks go to the kernels in one call (the chaining runs inside the
kernel); only the up to 7 bytes that straddle a call boundary are handled
here, in Python.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from . import _engines

MODES = ("ecb", "cbc", "cfb", "cfb8", "ofb", "ctr")
#: Modes that take any length (a keystream XORed into the data).
BYTE_MODES = ("cfb", "cfb8", "ofb", "ctr")
#: Modes that take ``padding="pkcs7"``.
PADDED_MODES = ("ecb", "cbc")
PADDINGS = ("pkcs7",)
_U64 = (1 << 64) - 1
_LITTLE = sys.byteorder == "little"


def check_mode(mode: Any) -> str:
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str, not {type(mode).__name__}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose one of {MODES}")
    return mode


def check_iv(mode: str, iv: Any) -> int | None:
    """The IV as a block value; required for every mode but ECB, refused for ECB."""
    if mode == "ecb":
        if iv is not None:
            raise ValueError("ECB takes no iv")
        return None
    if iv is None:
        raise ValueError(f"mode {mode!r} needs an iv (8 bytes)")
    if not isinstance(iv, (bytes, bytearray, memoryview)):
        raise TypeError(f"iv must be bytes-like, not {type(iv).__name__}")
    iv = bytes(iv)
    if len(iv) != 8:
        raise ValueError(f"iv must be 8 bytes, got {len(iv)}")
    return int.from_bytes(iv, "big")


def check_padding(mode: str, padding: Any) -> bool:
    """True for PKCS#7 padding; only ECB and CBC take padding."""
    if padding is None:
        return False
    if not isinstance(padding, str):
        raise TypeError(f"padding must be None or a str, not {type(padding).__name__}")
    if padding not in PADDINGS:
        raise ValueError(f"unknown padding {padding!r}; choose None or one of {PADDINGS}")
    if mode not in PADDED_MODES:
        raise ValueError(f"mode {mode!r} takes any length and no padding")
    return True


def pkcs7_block(tail: np.ndarray) -> np.ndarray:
    """The last plaintext block: the 0..7 leftover bytes and their PKCS#7 padding."""
    n = 8 - tail.size
    return np.concatenate([tail, np.full(n, n, dtype=np.uint8)])


def pkcs7_length(last_block: np.ndarray) -> int:
    """Bytes of the last decrypted block that are data; ValueError on bad padding.

    Every padding byte is checked, without an early exit on the first bad one.
    """
    n = int(last_block[7])
    ok = 1 <= n <= 8
    if ok:
        ok = bool(np.all(last_block[8 - n:] == n))
    if not ok:
        raise ValueError("bad PKCS#7 padding (wrong key, iv, or corrupted data)")
    return 8 - n


def chain_name(mode: str, decrypt: bool) -> str:
    """The engines' name of a mode in one direction: "cbc-decrypt", "ofb", ..."""
    if mode in ("cbc", "cfb"):
        return f"{mode}-{'decrypt' if decrypt else 'encrypt'}"
    return mode  # ecb, ofb, ctr: direction lives in the keys (ecb) or nowhere


def is_batchable(mode: str, decrypt: bool) -> bool:
    """Independent blocks within one stream: the batch engine can serve it."""
    return mode == "ecb" or chain_name(mode, decrypt) in _engines.INDEPENDENT_CHAINS


def engine_serves(variant: str, mode: str) -> bool:
    """Whether the engine (or ``auto``) has a path for ``mode``: bitslice has no CFB-8."""
    return not (variant == _engines.BITSLICE and mode == "cfb8")


def check_engine(variant: str, mode: str) -> None:
    if not engine_serves(variant, mode):
        raise ValueError(
            "cfb8 has no bitslice path (one cipher call per byte); use a table variant or 'auto'"
        )


class Stream:
    """One direction of one mode over one message, fed in pieces of any length."""

    def __init__(self, keys: _engines.Schedule, variant: str, mode: str, decrypt: bool,
                 iv: int | None):
        self._keys = keys
        self._variant = variant
        self._mode = mode
        self._decrypt = decrypt
        self._chain = chain_name(mode, decrypt)
        self._batchable = is_batchable(mode, decrypt)
        self._state = iv if iv is not None else 0
        self._keystream = np.zeros(8, dtype=np.uint8)  # current block (byte modes)
        self._feedback = np.zeros(8, dtype=np.uint8)  # CFB: ciphertext of the current block
        self._used = 8  # keystream bytes already used; 8 = none left

    # -- whole blocks -------------------------------------------------------

    def blocks(self, src: np.ndarray, dst: np.ndarray, swap: bool) -> None:
        """Whole blocks of words (dst may be src); no keystream block may be part-used."""
        n = src.shape[0]
        if n == 0:
            return
        if self._mode == "cfb8":  # a byte-wise register: run on the blocks' bytes
            buf = src.copy() if swap == _LITTLE else src.byteswap()
            self.feed(buf.view(np.uint8), buf.view(np.uint8))
            dst[:] = buf if swap == _LITTLE else buf.byteswap()
            return
        engine = _engines.pick(self._variant, n, self._batchable)
        if self._mode == "ecb":
            _engines.run_ecb(engine, src, dst, self._keys, self._decrypt, swap)
        else:
            self._state = _engines.run_chain(engine, self._chain, src, dst, self._keys, swap,
                                             self._state)

    # -- any length (CFB, CFB-8, OFB, CTR) ----------------------------------

    def feed(self, src: np.ndarray, dst: np.ndarray) -> None:
        """Bytes in FIPS order, any length, src into dst (same length; may be the same)."""
        n = src.size
        if n == 0:
            return
        if self._mode == "cfb8":
            engine = _engines.pick(self._variant, n, batchable=False)
            self._state = _engines.run_cfb8(engine, src, dst, self._keys, self._state,
                                            self._decrypt)
            return
        done = self._use_keystream(src, dst, 0)
        whole = (n - done) // 8 * 8
        if whole:
            self.whole(src[done:done + whole], dst[done:done + whole])
            done += whole
        if done < n:
            self._next_keystream()
            self._use_keystream(src, dst, done)

    def whole(self, src: np.ndarray, dst: np.ndarray, swap: bool = _LITTLE) -> None:
        """Whole blocks given as memory bytes (a multiple of 8 long; dst may be src).

        ``swap``: the words of this memory are block values byte-swapped
        (block bytes on a little-endian machine).
        """
        src_words, dst_words = src.view(np.uint64), dst.view(np.uint64)
        if src_words.flags.aligned and dst_words.flags.aligned:
            self.blocks(src_words, dst_words, swap)
            return
        words = src.copy().view(np.uint64)  # misaligned: one scratch copy, not a recompile
        self.blocks(words, words, swap)
        dst[:] = words.view(np.uint8)

    def _next_keystream(self) -> None:
        """Start a keystream block for a partial block at the end of a piece."""
        block = np.array([self._state], dtype=np.uint64)
        engine = _engines.pick(self._variant, 1, batchable=False)
        _engines.run_ecb(engine, block, block, self._keys, False, swap=False)
        out = int(block[0])
        if self._mode == "ofb":
            self._state = out
        elif self._mode == "ctr":
            self._state = (self._state + 1) & _U64
        self._keystream[:] = np.frombuffer(out.to_bytes(8, "big"), dtype=np.uint8)
        self._used = 0

    def _use_keystream(self, src: np.ndarray, dst: np.ndarray, at: int) -> int:
        """XOR what is left of the keystream block into src[at:]; returns bytes done."""
        k = min(8 - self._used, src.size - at)
        if k <= 0:
            return at
        u = self._used
        inp = src[at:at + k].copy()
        res = inp ^ self._keystream[u:u + k]
        dst[at:at + k] = res
        if self._mode == "cfb":
            self._feedback[u:u + k] = inp if self._decrypt else res
        self._used = u + k
        if self._used == 8 and self._mode == "cfb":
            self._state = int.from_bytes(self._feedback.tobytes(), "big")
        return at + k
