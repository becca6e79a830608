"""The bitslice engine behind the engine interface.

Independent-block work (ECB, CTR, CBC and CFB decryption) fills each pass
from one stream; sequential chains (CBC/CFB encryption, OFB) are parallel
only across messages (``many``).  Asked to run a sequential chain on one
stream anyway (``variant="bitslice"``), it runs it as a batch of one
message: constant-time, one pass per block, slow.  CFB-8 (one cipher call
per byte) has no bitslice path.
"""

from __future__ import annotations

import numpy as np

from .. import chains
from . import crypt3, lane_keys, mode_kernels, rounds

_U64 = (1 << 64) - 1


def _value(word: np.uint64, swap: bool) -> int:
    """A raw word as its block value."""
    w = int(word)
    return int.from_bytes(w.to_bytes(8, "little"), "big") if swap else w


class BitsliceEngine:
    """``bitslice``: the batch engine, and the constant-time one."""

    name = "bitslice"
    key_form = "planes"
    constant_time = True
    #: Blocks per pass: a call costs at least one pass however short its input.
    blocks_per_pass = rounds.BLOCKS

    def __repr__(self) -> str:
        return "<bitslice engine>"

    def build_key_form(self, round_keys: np.ndarray) -> np.ndarray:
        return rounds.key_planes(round_keys)

    def serves(self, chain: int) -> bool:
        return chain not in chains.CFB8

    def ecb(self, src, dst, keys, swap) -> None:
        kernel = rounds.ecb_parallel if rounds.use_parallel(src.shape[0]) else rounds.ecb
        kernel(src, dst, keys, swap)

    def chain(self, chain, src, dst, keys, swap, state) -> int:
        n = src.shape[0]
        if n == 0:
            return state
        if chain == chains.CTR:
            mode_kernels.ctr(src, dst, keys, state, swap)
            return (state + n) & _U64
        last_in = _value(src[n - 1], swap)  # read before an in-place call overwrites it
        if chain == chains.CBC_DECRYPT:
            mode_kernels.cbc_decrypt(src, dst, keys, state, swap)
            return last_in
        if chain == chains.CFB_DECRYPT:
            mode_kernels.cfb_decrypt(src, dst, keys, state, swap)
            return last_in
        # A sequential chain on one stream: a batch of one message.
        ivs = np.array([state], dtype=np.uint64)
        mode_kernels.many(src.reshape(1, n), dst.reshape(1, n), keys, ivs, chain, swap)
        last_out = _value(dst[n - 1], swap)
        return last_out ^ last_in if chain == chains.OFB else last_out

    def cfb8(self, src, dst, keys, register, decrypt) -> int:
        raise ValueError(
            "cfb8 has no bitslice path (one cipher call per byte); use a table variant or 'auto'"
        )

    def many(self, chain, src, dst, keys, ivs, swap) -> None:
        if chain in chains.ECB:  # one long run of independent blocks
            self.ecb(src.reshape(-1), dst.reshape(-1), keys, swap)
            return
        mode_kernels.many(src, dst, keys, ivs, chain, swap)

    # A key per row (engines.base.KeyRowsEngine): one key per lane.

    def serves_key_rows(self, chain: int) -> bool:
        return chain in chains.ECB or chain in chains.BLOCK_CHAINS

    def key_rows(self, chain, src, dst, key_words, passes, ivs, swap) -> None:
        lane_keys.lanes_many(src, dst, key_words, passes, ivs, chain, swap)

    # crypt(3) (engines.base.Crypt3Engine): salted rounds, a key per lane.

    def crypt3(self, key_words, salts, count, wide_salt) -> np.ndarray:
        return crypt3.crypt3(key_words, salts, count, wide_salt)


ENGINE = BitsliceEngine()
