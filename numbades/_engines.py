"""Engine registry: every variant name and how to run its ECB kernel.

An engine takes round keys in application order (16 for DES, 48 for EDE)
and encrypts a batch of raw 8-byte words.  Decryption is the same call with
the round keys reversed, so engines need no decrypt kernels.
"""

from __future__ import annotations

import os

import numpy as np

from . import _bitslice, _keyschedule, _tables
from ._table_kernels import KERNELS

TABLE_VARIANTS = tuple(KERNELS)
BITSLICE = "bitslice"
#: Below this many blocks, ``auto`` uses a table variant (a bitslice pass is 64*LANES blocks).
BITSLICE_THRESHOLD_BLOCKS = 1024
DEFAULT_TABLE_VARIANT = "table"


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
        env = os.environ.get("NUMBADES_VARIANT", "auto")
        if env != "auto" and env not in variants():
            raise ValueError(f"NUMBADES_VARIANT={env!r} is not one of {variants()}")
        return env
    if variant not in variants():
        raise ValueError(f"unknown variant {variant!r}; choose 'auto' or one of {variants()}")
    return variant


def pick(variant: str, n_blocks: int) -> str:
    """The concrete engine for a resolved variant (``auto`` chooses by size)."""
    if variant != "auto":
        return variant
    return BITSLICE if n_blocks >= BITSLICE_THRESHOLD_BLOCKS else DEFAULT_TABLE_VARIANT


def run_ecb(
    engine: str, src: np.ndarray, dst: np.ndarray, round_keys: np.ndarray, swap: bool
) -> None:
    """Encrypt words ``src`` into ``dst`` (may be the same array) under ``round_keys``."""
    if engine == BITSLICE:
        _bitslice.ecb(src, dst, _bitslice.key_planes(round_keys), swap)
        return
    _, ecb, ptr = KERNELS[engine]
    table = _tables.SPTRANS_FLAT if ptr else _tables.SPTRANS
    ecb(src, dst, _keyschedule.frame_schedule(round_keys), table, swap)
