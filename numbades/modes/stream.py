"""The chaining core: one direction of one mode over one message, fed in pieces of any size.

Three ways to feed it, named by what they take: ``feed_bytes`` (bytes in
FIPS order, any length: the byte modes), ``feed_block_bytes`` (memory bytes
of whole blocks) and ``feed_words`` (uint64 words of whole blocks, with the
``swap`` flag, which is what engines take).

A :class:`Stream` keeps the chaining value and, for the byte-oriented modes
(CFB, OFB, CTR), the unused part of the current keystream block.  The
one-shot ``encrypt``/``decrypt`` calls, the streaming contexts and nothing
else run on it, so ``update(a) + update(b) == one call on a + b`` holds by
construction.

Whole blocks go to an engine in one call (the chaining runs inside the
kernel); only the up to 7 bytes that straddle a call boundary are handled
here, in Python.  Which engine serves each piece is ``tuning.policy``'s
decision, by the piece's shape.
"""

from __future__ import annotations

import numpy as np

from ..engines import chains
from ..engines.base import Schedule, read_only
from ..engines.registry import ENGINES
from ..tuning import policy
from .memory import LITTLE

_U64 = (1 << 64) - 1


class Stream:
    """One direction of one mode over one message, fed in pieces of any length."""

    def __init__(self, schedule: Schedule, request: policy.Request, mode: str, decrypt: bool,
                 iv: int | None):
        self._schedule = schedule
        self._request = request
        self._mode = mode
        self._decrypt = decrypt
        self._chain = chains.of(mode, decrypt)
        policy.check_serves(request, self._chain)
        self._state = iv if iv is not None else 0
        # Byte modes only, made on the first partial block (a whole-block call needs neither):
        self._keystream: np.ndarray | None = None  # the current keystream block
        self._feedback: np.ndarray | None = None  # CFB: ciphertext of the current block
        self._used = 8  # keystream bytes already used; 8 = none left

    # -- whole blocks -------------------------------------------------------

    def feed_words(self, src: np.ndarray, dst: np.ndarray, swap: bool) -> None:
        """Whole blocks as 1-D uint64 words (dst may be src); no keystream block may be part-used.

        ``swap``: each word is its block value byte-swapped (see ``memory``).
        """
        n = src.shape[0]
        if n == 0:
            return
        chain = self._chain
        if chain in chains.REGISTERS:  # a byte- or bit-wise register: run on the blocks' bytes
            if swap == LITTLE:  # the memory holds the block bytes already
                self.feed_bytes(src.view(np.uint8), dst.view(np.uint8))
                return
            buf = src.byteswap()  # native uint64 words: their block bytes, in a copy
            self.feed_bytes(buf.view(np.uint8), buf.view(np.uint8))
            dst[:] = buf.byteswap(inplace=True)
            return
        engine = ENGINES[policy.pick(self._request, chain, n)]
        keys = self._schedule.form(engine, chain)
        if chain in chains.ECB:
            engine.ecb(read_only(src), dst, keys, swap)
        else:
            self._state = engine.chain(chain, read_only(src), dst, keys, swap, self._state)

    # -- any length (CFB, CFB-8, OFB, CTR) ----------------------------------

    def feed_bytes(self, src: np.ndarray, dst: np.ndarray) -> None:
        """1-D uint8 bytes in FIPS order, any length, src into dst (same length; may be the same)."""
        n = src.size
        if n == 0:
            return
        if self._chain in chains.REGISTERS:
            engine = ENGINES[policy.pick(self._request, self._chain, n)]
            keys = self._schedule.form(engine, self._chain)
            run = engine.cfb8 if self._chain in chains.CFB8 else engine.cfb1
            self._state = run(read_only(src), dst, keys, self._state, self._decrypt)
            return
        done = self._use_keystream(src, dst, 0)
        whole = (n - done) // 8 * 8
        if whole:
            self.feed_block_bytes(src[done:done + whole], dst[done:done + whole])
            done += whole
        if done < n:
            self._next_keystream()
            self._use_keystream(src, dst, done)

    def feed_block_bytes(self, src: np.ndarray, dst: np.ndarray, swap: bool = LITTLE) -> None:
        """Whole blocks as 1-D uint8 memory (a multiple of 8 bytes long; dst may be src).

        ``swap``: the words of this memory are block values byte-swapped
        (block bytes on a little-endian machine).
        """
        src_words, dst_words = src.view(np.uint64), dst.view(np.uint64)
        if src_words.flags.aligned and dst_words.flags.aligned:
            self.feed_words(src_words, dst_words, swap)
            return
        words = src.copy().view(np.uint64)  # misaligned: one scratch copy, not a recompile
        self.feed_words(words, words, swap)
        dst[:] = words.view(np.uint8)

    def _next_keystream(self) -> None:
        """Start a keystream block for a partial block at the end of a piece."""
        block = np.array([self._state], dtype=np.uint64)
        chain = chains.ECB_ENCRYPT
        engine = ENGINES[policy.pick(self._request, chain, 1, sequential=True)]
        engine.ecb(read_only(block), block, self._schedule.form(engine, chain), False)
        out = int(block[0])
        if self._mode == "ofb":
            self._state = out
        elif self._mode == "ctr":
            self._state = (self._state + 1) & _U64
        self._keystream = np.frombuffer(out.to_bytes(8, "big"), dtype=np.uint8)
        if self._feedback is None:
            self._feedback = np.zeros(8, dtype=np.uint8)
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
