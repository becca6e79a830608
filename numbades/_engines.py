"""Engine registry: every variant name, how ``auto`` picks one, and how to run it.

An engine takes round keys in application order (16 for DES, 48 for EDE)
and processes a batch of raw 8-byte words.  Decryption is the same call with
the round keys reversed, so engines need no decrypt kernels.

Work comes in two shapes.  *Independent-block* work (ECB, CTR, CBC and CFB
decryption) can fill a bitslice pass from one stream; *sequential* work
(CBC/CFB encryption, OFB) cannot, so ``auto`` gives it a table variant with
the chaining inside the kernel.  A forced ``bitslice`` still serves
sequential modes, as a batch of one message (constant-time, slow).
"""

from __future__ import annotations

import os

import numpy as np

from . import _bitslice, _bitslice_modes, _keyschedule, _machine, _saved_choice, _tables
from ._table_kernels import CHAIN_CODES, KERNELS

TABLE_VARIANTS = tuple(KERNELS)
BITSLICE = "bitslice"
#: From this many blocks ``auto`` uses bitslice for independent blocks.  A bitslice
#: call costs a whole pass of 64*LANES blocks however short the input.  Measured
#: with ``benchmarks/crossover.py`` on one core (2026-12-03): with AVX-512
#: (Rocket Lake, 512-bit kernels) bitslice wins from 192 blocks (1.05x there,
#: 1.31x at 256, 4.1x at 1024); with AVX2 only (znver3) from 384 (1.2x there,
#: 0.9x at 256, 2.8x at 1024).  ``opts --save`` replaces it per machine.
BITSLICE_THRESHOLD_BLOCKS = 256 if _machine.has_avx512() else 384
DEFAULT_TABLE_VARIANT = "table"
#: Chained modes whose blocks are independent given the input (batchable in one stream).
INDEPENDENT_CHAINS = frozenset({"cbc-decrypt", "cfb-decrypt", "ctr"})
_U64 = (1 << 64) - 1


def variants() -> list[str]:
    """Every engine name, table variants first, then ``bitslice``."""
    return [*TABLE_VARIANTS, BITSLICE]


def variant_options(name: str) -> tuple[str, ...]:
    """libdes-style option words of a variant, e.g. ('UNROLL', 'RISC2', 'PTR')."""
    if name == BITSLICE:
        return ("BITSLICE",)
    return tuple(p.upper() for p in name.split("+")[1:])


def resolve(variant: str) -> str:
    """Validate a variant name; ``auto`` honours ``NUMBADES_VARIANT``."""
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str, not {type(variant).__name__}")
    if variant == "auto":
        env = os.environ.get("NUMBADES_VARIANT") or "auto"  # set but empty means unset
        if env != "auto" and env not in variants():
            raise ValueError(f"NUMBADES_VARIANT={env!r} is not one of {variants()}")
        return env
    if variant not in variants():
        raise ValueError(f"unknown variant {variant!r}; choose 'auto' or one of {variants()}")
    return variant


def pick(variant: str, n_blocks: int, batchable: bool = True) -> str:
    """The concrete engine for a resolved variant.

    ``auto`` uses the choice ``opts --save`` measured for this message size
    when there is one, else ``bitslice`` from ``BITSLICE_THRESHOLD_BLOCKS``
    up; work that is not ``batchable`` (sequential modes) always gets a
    table variant.
    """
    if variant != "auto":
        return variant
    saved = _saved_choice.load_saved_choice(_saved_choice.size_class(8 * n_blocks))
    if saved is not None and (batchable or saved != BITSLICE):
        return saved
    if batchable and n_blocks >= BITSLICE_THRESHOLD_BLOCKS:
        return BITSLICE
    return DEFAULT_TABLE_VARIANT


class Schedule:
    """Round keys of one cipher in both directions, in each engine's form, built on demand."""

    def __init__(self, encrypt_keys: np.ndarray):
        enc = np.ascontiguousarray(encrypt_keys, dtype=np.uint64)
        self._keys = {False: enc, True: np.ascontiguousarray(enc[::-1])}
        self._frames: dict[bool, np.ndarray] = {}
        self._planes: dict[bool, np.ndarray] = {}

    def frames(self, decrypt: bool) -> np.ndarray:
        """(Ku, Kt) words for the table kernels."""
        if decrypt not in self._frames:
            self._frames[decrypt] = _keyschedule.frame_schedule(self._keys[decrypt])
        return self._frames[decrypt]

    def planes(self, decrypt: bool) -> np.ndarray:
        """Key masks for the bitslice kernels."""
        if decrypt not in self._planes:
            self._planes[decrypt] = _bitslice.key_planes(self._keys[decrypt])
        return self._planes[decrypt]


def _table(engine: str):
    kernels = KERNELS[engine]
    return kernels, (_tables.SPTRANS_FLAT if kernels.ptr else _tables.SPTRANS)


def run_ecb(engine: str, src: np.ndarray, dst: np.ndarray, keys: Schedule, decrypt: bool,
            swap: bool) -> None:
    """ECB over words ``src`` into ``dst`` (may be the same array)."""
    if engine == BITSLICE:
        kernel = _bitslice.ecb_parallel if _bitslice.use_parallel(src.shape[0]) else _bitslice.ecb
        kernel(src, dst, keys.planes(decrypt), swap)
        return
    kernels, table = _table(engine)
    kernels.ecb(src, dst, keys.frames(decrypt), table, swap)


def _value(word: np.uint64, swap: bool) -> int:
    """A raw word as its block value."""
    w = int(word)
    return int.from_bytes(w.to_bytes(8, "little"), "big") if swap else w


def run_chain(engine: str, chain: str, src: np.ndarray, dst: np.ndarray, keys: Schedule,
              swap: bool, state: int) -> int:
    """A chained mode (``CHAIN_CODES``) over whole blocks; returns the next chaining value.

    ``state`` is the IV / previous ciphertext (CBC, CFB), previous keystream
    block (OFB) or next counter (CTR), as a block value.  Only CBC decryption
    runs the cipher backwards.
    """
    n = src.shape[0]
    if n == 0:
        return state
    decrypt = chain == "cbc-decrypt"
    if engine != BITSLICE:
        kernels, table = _table(engine)
        return int(kernels.chain(src, dst, keys.frames(decrypt), table, swap,
                                 CHAIN_CODES[chain], np.uint64(state)))
    planes = keys.planes(decrypt)
    if chain == "ctr":
        _bitslice_modes.ctr(src, dst, planes, state, swap)
        return (state + n) & _U64
    last_in = _value(src[n - 1], swap)  # read before an in-place call overwrites it
    if chain == "cbc-decrypt":
        _bitslice_modes.cbc_decrypt(src, dst, planes, state, swap)
        return last_in
    if chain == "cfb-decrypt":
        _bitslice_modes.cfb_decrypt(src, dst, planes, state, swap)
        return last_in
    # Sequential mode forced onto the batch engine: a batch of one message.
    ivs = np.array([state], dtype=np.uint64)
    _bitslice_modes.many(src.reshape(1, n), dst.reshape(1, n), planes, ivs, chain, swap)
    last_out = _value(dst[n - 1], swap)
    return last_out ^ last_in if chain == "ofb" else last_out


def run_cfb8(engine: str, src: np.ndarray, dst: np.ndarray, keys: Schedule, register: int,
             decrypt: bool) -> int:
    """CFB-8 over bytes (table engines only); returns the shift register."""
    kernels, table = _table(engine)
    return int(kernels.cfb8(src, dst, keys.frames(False), table, np.uint64(register), decrypt))


def run_many(engine: str, chain: str, src: np.ndarray, dst: np.ndarray, keys: Schedule,
             ivs: np.ndarray, swap: bool) -> None:
    """Independent equal-length messages, one per row of (messages, blocks) word arrays.

    ``chain`` is "ecb" or a ``CHAIN_CODES`` name; ``ivs`` holds block values.
    The batch engine runs block j of many messages in one pass; a table
    engine runs the messages one after another.
    """
    decrypt = chain in ("ecb-decrypt", "cbc-decrypt")
    if engine == BITSLICE:
        mode = "ecb" if chain.startswith("ecb") else chain
        _bitslice_modes.many(src, dst, keys.planes(decrypt), ivs, mode, swap)
        return
    if chain.startswith("ecb"):
        run_ecb(engine, src.reshape(-1), dst.reshape(-1), keys, decrypt, swap)
        return
    for i in range(src.shape[0]):
        run_chain(engine, chain, src[i], dst[i], keys, swap, int(ivs[i]))
