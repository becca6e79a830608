"""The bitslice engine behind the engine interface.

Independent-block work (ECB, CTR, CBC and CFB decryption) fills each pass
from one stream; sequential chains (CBC/CFB encryption, OFB) are parallel
only across messages (``many``).  Asked to run a sequential chain on one
stream anyway (``variant="bitslice"``), it runs it as a batch of one
message: constant-time, one pass per block, slow.  CFB-8 (one cipher call
per byte), CFB-1 (per bit) and PCBC have no bitslice path.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
from numba import typeof

from ...des.keybits import passes
from .. import chains
from ..jit import loaded
from . import cbc_mac, crypt3, lane_keys, mode_kernels, threads
from .cpu.target import VECTOR_BITS
from .rounds import lane_rounds

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
    slow_to_compile = True  # tens of seconds cold: auto compiles it in the background
    #: Blocks per pass: a call costs at least one pass however short its input.
    blocks_per_pass = lane_rounds.BLOCKS
    #: Width of the vectors its kernels were built for (the compile target, not the
    #: host; ``cpu.target``): 512 bits with AVX-512, else 256.  A pass costs less on
    #: the wider build, so ``tuning.policy`` reads it for ``auto``'s threshold.
    vector_bits = VECTOR_BITS

    def __repr__(self) -> str:
        return "<bitslice engine>"

    def build_key_form(self, round_keys: np.ndarray) -> np.ndarray:
        return lane_rounds.key_planes(round_keys)

    def serves(self, chain: int) -> bool:
        return chain not in chains.REGISTERS and chain not in chains.PCBC

    def __init__(self) -> None:
        # chains (and "key_rows", "crypt3") whose kernels are loaded (they stay loaded)
        self._ready: set[int | str] = set()

    def ready(self, chain: int) -> bool:
        if chain in self._ready:
            return True
        entry = _entry(chain)
        if entry is None or (loaded(*entry) and loaded(*_key_planes_entry())):  # no refresh
            self._ready.add(chain)
            return True
        return False

    def warm_up(self) -> None:
        for _, compile_group in self.compile_groups():
            compile_group()

    def compile_groups(self) -> list[tuple[str, Callable[[], None]]]:
        """``warm_up`` in steps, each a group of kernels: (name, compile it), in order.

        ECB comes first and carries the shared one-key round kernel
        (``lane_rounds.crypt_work``); ``numbades compile`` times each step.
        """
        def chain_kernel(chain: int) -> Callable[[], None]:
            def compile_it() -> None:
                entry = _entry(chain)
                if entry is not None:
                    entry[0].compile(entry[1])
            return compile_it

        def ecb() -> None:
            self.build_key_form(np.zeros(16, np.uint64))
            chain_kernel(chains.ECB_ENCRYPT)()

        def key_rows() -> None:  # key arrays: one tiny call each, the modes layer's types
            one = np.zeros((1, 1), np.uint64)
            for sets in (1, 3):
                self.key_rows(chains.ECB_ENCRYPT, _read_only((1, 1)), one,
                              np.zeros((1, sets), np.uint64), passes(sets, False),
                              np.zeros(1, np.uint64), True)

        def crypt3_kernels() -> None:
            for wide_salt in (False, True):
                self.crypt3(np.zeros(1, np.uint64), np.zeros(1, np.uint64), 1, wide_salt)

        def cbc_mac_kernels() -> None:  # numbades.mac: one key, and a key per row (DES, EDE)
            block, iv = np.zeros((1, 8), np.uint8), np.zeros(1, np.uint64)
            cbc_mac.cbc_mac(block, iv, self.build_key_form(np.zeros(16, np.uint64)))
            for sets in (1, 3):
                cbc_mac.cbc_mac_lanes(block, iv, np.zeros((1, sets), np.uint64))

        return [
            ("ecb", ecb),
            ("ctr", chain_kernel(chains.CTR)),
            ("cbc-decrypt", chain_kernel(chains.CBC_DECRYPT)),
            ("cfb-decrypt", chain_kernel(chains.CFB_DECRYPT)),
            ("many", chain_kernel(chains.CBC_ENCRYPT)),  # CBC/CFB encryption, OFB: one kernel
            ("key rows", key_rows),
            ("crypt3", crypt3_kernels),
            ("cbc-mac", cbc_mac_kernels),
        ]

    def compile_parts(self) -> list[list[str]]:
        """``compile_groups`` split for processes compiling side by side (``numbades compile``):
        crypt(3) (a sixth of the CPU time, sharing little with the rest) beside every other
        group.  A split that shares more costs more: key arrays apart from ECB compiled ECB's
        transposes and the chains' helpers again, a third more CPU seconds in all."""
        return [["ecb", "ctr", "cbc-decrypt", "cfb-decrypt", "many", "key rows", "cbc-mac"],
                ["crypt3"]]

    def compile_group_of(self, chain: int) -> str:
        """The group of ``compile_groups`` whose kernel serves ``chain`` (a background compile
        started by a call of that chain compiles it first)."""
        if chain in chains.ECB:
            return "ecb"
        return {chains.CTR: "ctr", chains.CBC_DECRYPT: "cbc-decrypt",
                chains.CFB_DECRYPT: "cfb-decrypt"}.get(chain, "many")

    def ecb(self, src, dst, keys, swap) -> None:
        def part(a: int, b: int) -> None:
            lane_rounds.ecb(src[a:b], dst[a:b], keys, swap)

        threads.run(part, threads.split(src.shape[0], lane_rounds.BLOCKS))

    def chain(self, chain, src, dst, keys, swap, state) -> int:
        n = src.shape[0]
        if n == 0:
            return state
        ranges = threads.split(n, lane_rounds.BLOCKS)
        if chain == chains.CTR:
            def ctr_part(a: int, b: int) -> None:
                mode_kernels.ctr(src[a:b], dst[a:b], keys, (state + a) & _U64, swap)

            threads.run(ctr_part, ranges)
            return (state + n) & _U64
        last_in = _value(src[n - 1], swap)  # read before an in-place call overwrites it
        if chain in (chains.CBC_DECRYPT, chains.CFB_DECRYPT):
            kernel = (mode_kernels.cbc_decrypt if chain == chains.CBC_DECRYPT
                      else mode_kernels.cfb_decrypt)
            # Each range chains from the ciphertext block before it: read them all
            # first, since an in-place range overwrites its last block.
            before = {a: (state if a == 0 else _value(src[a - 1], swap)) for a, _ in ranges}

            def chained_part(a: int, b: int) -> None:
                kernel(src[a:b], dst[a:b], keys, before[a], swap)

            threads.run(chained_part, ranges)
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

    def cfb1(self, src, dst, keys, register, decrypt) -> int:
        raise ValueError(
            "cfb1 has no bitslice path (one cipher call per bit); use a table variant or 'auto'"
        )

    def many(self, chain, src, dst, keys, ivs, swap) -> None:
        if chain in chains.ECB:  # one long run of independent blocks
            self.ecb(src.reshape(-1), dst.reshape(-1), keys, swap)
            return
        def part(a: int, b: int) -> None:  # groups of messages, one range per thread
            mode_kernels.many(src[a:b], dst[a:b], keys, ivs[a:b], chain, swap)

        threads.run(part, threads.split(src.shape[0], lane_rounds.BLOCKS, min_units=1))

    # A key per row (engines.base.KeyRowsEngine): one key per lane.

    def serves_key_rows(self, chain: int) -> bool:
        return chain in chains.ECB or chain in chains.BLOCK_CHAINS

    def key_rows(self, chain, src, dst, key_words, passes, ivs, swap) -> None:
        lane_keys.lanes_many(src, dst, key_words, passes, ivs, chain, swap)

    def key_rows_ready(self) -> bool:
        """Whether key arrays run without compiling (one kernel serves every chain)."""
        return self._all_loaded("key_rows", _key_rows_entries)

    # crypt(3) (engines.base.Crypt3Engine): salted rounds, a key per lane.

    def crypt3(self, key_words, salts, count, wide_salt) -> np.ndarray:
        return crypt3.crypt3(key_words, salts, count, wide_salt)

    def crypt3_one(self, key_word, salt, count) -> int:
        keys = np.array([key_word], np.int64).view(np.uint64)  # signed: base.Crypt3Engine
        return int(crypt3.crypt3(keys, np.array([salt], np.uint64), count, salt >= 1 << 12)[0])

    def crypt3_ready(self) -> bool:
        """Whether crypt(3) runs without compiling (both salt widths)."""
        return self._all_loaded("crypt3", _crypt3_entries)

    # numbades.mac: the CBC-MAC kernels (``cbc_mac``), one key or a key per lane.

    def cbc_mac_ready(self) -> bool:
        """Whether ``cbc_mac`` and ``cbc_mac_lanes`` run without compiling."""
        return self._all_loaded("cbc_mac", _cbc_mac_entries)

    def _all_loaded(self, what: str, entries) -> bool:
        if what in self._ready:
            return True
        if all(loaded(kernel, signature) for kernel, signature in entries()):
            self._ready.add(what)
            return True
        return False


def _read_only(shape) -> np.ndarray:
    a = np.zeros(shape, np.uint64)
    a.flags.writeable = False
    return a


@functools.cache
def _key_planes_entry() -> tuple[object, tuple]:
    """The key-form kernel every chain's first call runs (``lane_rounds.key_planes``): loaded
    with the chain's kernel, so that neither call takes Numba's registry refresh (``jit.loaded``)."""
    return lane_rounds._spread_bits, (typeof(np.zeros(1, np.uint64)),
                                      typeof(np.zeros((1, 48), np.uint64)))


@functools.cache
def _entry(chain: int) -> tuple[object, tuple] | None:
    """The kernel that serves ``chain`` and its one signature (inputs arrive read-only)."""
    if chain in chains.REGISTERS or chain in chains.PCBC:  # no bitslice path
        return None
    words, out = typeof(_read_only(1)), typeof(np.zeros(1, np.uint64))
    # key_planes' result type, without calling it: asking whether a kernel is ready must not
    # compile anything (a cold first call that the table engine serves skipped 0.1 s)
    planes = typeof(np.empty((16, 48), np.uint64))
    word, xor = typeof(np.uint64(0)), typeof(0)
    if chain in chains.ECB:
        return lane_rounds.ecb, (words, out, planes, typeof(True))
    if chain == chains.CTR:
        return mode_kernels._ctr, (words, out, planes, word, xor)
    if chain == chains.CBC_DECRYPT:
        return mode_kernels._cbc_decrypt, (words, out, planes, word, xor)
    if chain == chains.CFB_DECRYPT:
        return mode_kernels._cfb_decrypt, (words, out, planes, word, xor)
    rows, out_rows = typeof(_read_only((1, 1))), typeof(np.zeros((1, 1), np.uint64))
    return mode_kernels._many, (rows, out_rows, planes, out, xor, xor)


def _key_rows_entries() -> list[tuple[object, tuple]]:
    """The key-per-lane kernel and its one signature, as ``key_rows`` calls it from the modes layer."""
    rows, out_rows = typeof(_read_only((1, 1))), typeof(np.zeros((1, 1), np.uint64))
    table = typeof(lane_keys.key_table(passes(1, False)))
    return [(lane_keys._lanes_many, (rows, out_rows, out_rows, table,
                                     typeof(np.zeros(1, np.uint64)), typeof(0), typeof(0)))]


def _crypt3_entries() -> list[tuple[object, tuple]]:
    """The crypt(3) kernel (12- and 24-bit salts alike) and its one signature."""
    words = typeof(np.zeros(1, np.uint64))
    table = typeof(lane_keys.key_table(passes(1, False)))
    return [(crypt3._crypt, (words, words, typeof(0), typeof(True), table, words))]


def _cbc_mac_entries() -> list[tuple[object, tuple]]:
    """The two CBC-MAC kernels and their one signature each (``cbc_mac._run``'s arguments)."""
    src, words = typeof(_read_only((1, 1))), typeof(_read_only(1))
    out, count = typeof(np.zeros(1, np.uint64)), typeof(0)
    planes = typeof(np.empty((16, 48), np.uint64))
    keys, table = typeof(_read_only((1, 1))), typeof(lane_keys.key_table(passes(1, False)))
    return [(cbc_mac._cbc_mac, (src, count, words, planes, typeof(np.uint64(0)), planes, count,
                                out)),
            (cbc_mac._cbc_mac_lanes, (src, count, words, keys, table, table, count, out))]


ENGINE = BitsliceEngine()
