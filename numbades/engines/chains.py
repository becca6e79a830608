"""The one vocabulary of chaining: every mode in one direction as a named integer code.

A *chain* is a mode of operation in one direction, as the engines see it:
``CBC_DECRYPT``, ``CTR``, ...  The codes are plain module-level integers so
that kernels can branch on them by name (Numba freezes globals into
compile-time constants, so ``mode == CBC_ENCRYPT`` costs what ``mode == 0``
does).  The table-kernel generator, both engines, the ``auto`` policy and the
modes layer all import them from here; adding a mode starts with one line
below and one entry in each set.

Direction lives in the round keys where it can: ECB and CBC decryption run
the cipher backwards (reversed round keys), every other chain runs it
forwards, whichever way the data goes.
"""

from __future__ import annotations

# Chained whole-block modes: the ``mode`` argument of the table engine's
# chain kernels and of the bitslice engine's many-message kernel.
CBC_ENCRYPT = 0
CBC_DECRYPT = 1
CFB_ENCRYPT = 2
CFB_DECRYPT = 3
OFB = 4
CTR = 5
# Modes with their own entry points (``ecb``, ``cfb8``) rather than a chain kernel.
ECB_ENCRYPT = 6
ECB_DECRYPT = 7
CFB8_ENCRYPT = 8
CFB8_DECRYPT = 9
# Sequential chains of the table engine only (``engines/table/whitened.py``).
PCBC_ENCRYPT = 10
PCBC_DECRYPT = 11
CFB1_ENCRYPT = 12
CFB1_DECRYPT = 13

NAMES: dict[int, str] = {
    CBC_ENCRYPT: "cbc-encrypt",
    CBC_DECRYPT: "cbc-decrypt",
    CFB_ENCRYPT: "cfb-encrypt",
    CFB_DECRYPT: "cfb-decrypt",
    OFB: "ofb",
    CTR: "ctr",
    ECB_ENCRYPT: "ecb-encrypt",
    ECB_DECRYPT: "ecb-decrypt",
    CFB8_ENCRYPT: "cfb8-encrypt",
    CFB8_DECRYPT: "cfb8-decrypt",
    PCBC_ENCRYPT: "pcbc-encrypt",
    PCBC_DECRYPT: "pcbc-decrypt",
    CFB1_ENCRYPT: "cfb1-encrypt",
    CFB1_DECRYPT: "cfb1-decrypt",
}

_BY_MODE: dict[tuple[str, bool], int] = {
    ("ecb", False): ECB_ENCRYPT,
    ("ecb", True): ECB_DECRYPT,
    ("cbc", False): CBC_ENCRYPT,
    ("cbc", True): CBC_DECRYPT,
    ("cfb", False): CFB_ENCRYPT,
    ("cfb", True): CFB_DECRYPT,
    ("cfb8", False): CFB8_ENCRYPT,
    ("cfb8", True): CFB8_DECRYPT,
    ("ofb", False): OFB,
    ("ofb", True): OFB,
    ("ctr", False): CTR,
    ("ctr", True): CTR,
    ("pcbc", False): PCBC_ENCRYPT,
    ("pcbc", True): PCBC_DECRYPT,
    ("cfb1", False): CFB1_ENCRYPT,
    ("cfb1", True): CFB1_DECRYPT,
}

#: Every mode name, in the order the docs list them.
MODES: tuple[str, ...] = ("ecb", "cbc", "cfb", "cfb8", "ofb", "ctr", "pcbc", "cfb1")
#: Whole-block chains served by an engine's ``chain`` method (one kernel, one code).
BLOCK_CHAINS = frozenset({CBC_ENCRYPT, CBC_DECRYPT, CFB_ENCRYPT, CFB_DECRYPT, OFB, CTR})
#: Chains whose blocks are independent given the input: one stream fills a batch pass.
INDEPENDENT = frozenset({ECB_ENCRYPT, ECB_DECRYPT, CBC_DECRYPT, CFB_DECRYPT, CTR})
#: Chains that run the block cipher backwards (reversed round keys).
BACKWARDS = frozenset({ECB_DECRYPT, CBC_DECRYPT, PCBC_DECRYPT})
#: ECB in either direction.
ECB = frozenset({ECB_ENCRYPT, ECB_DECRYPT})
#: CFB-8 in either direction (a byte-wise shift register, one cipher call per byte).
CFB8 = frozenset({CFB8_ENCRYPT, CFB8_DECRYPT})
#: CFB-1 in either direction (a bit-wise shift register, one cipher call per bit).
CFB1 = frozenset({CFB1_ENCRYPT, CFB1_DECRYPT})
#: Chains with a shift register over bytes rather than whole blocks (``Engine.cfb8``/``cfb1``).
REGISTERS = CFB8 | CFB1
#: libdes's propagating CBC in either direction (libdes's ``DES_pcbc_encrypt``).
PCBC = frozenset({PCBC_ENCRYPT, PCBC_DECRYPT})


def of(mode: str, decrypt: bool) -> int:
    """The chain of a (validated) mode name in one direction."""
    return _BY_MODE[mode, decrypt]


def name(chain: int) -> str:
    """Readable name of a chain code, e.g. ``"cbc-decrypt"``."""
    return NAMES[chain]
