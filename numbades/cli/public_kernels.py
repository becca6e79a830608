"""The public face's own small kernels, compiled by ``numbades compile`` beside the engines.

The engines' ``warm_up`` compiles every kernel an engine runs, but a few
cached kernels live above the engines: crypt(3)'s hash encoding
(``des.crypt3``), ``mac.quad_cksum`` and the digit work of
``numbades.payments``.  Each compiles in about a second, yet "a fresh
process after ``numbades compile`` compiles nothing" must hold for them too,
so this module calls each public function once on a tiny input: the call
types the kernel exactly as a user's call does (the public layer normalises
every input before a kernel runs), which no hand-written signature list
could promise.
"""

from __future__ import annotations

import time

import numpy as np

from .. import crypt_many, mac, payments

_KEY16 = np.frombuffer(bytes.fromhex("0123456789ABCDEFFEDCBA9876543210"), np.uint8)
_KSN = np.frombuffer(bytes.fromhex("FFFF9876543210E00001"), np.uint8)
_PAN = "4000001234567899"


def _crypt3() -> None:
    # 40 passwords of one salt: past crypt(3)'s one-by-one short path, so the
    # batch path and its hash encoding run (on whichever engine auto picks).
    crypt_many(["pw"] * 40, ["ab"] * 40)
    crypt_many(["pw"] * 40, ["_J9..CCCC"] * 40)


def _mac() -> None:
    mac.quad_cksum(b"numbades", b"\x00" * 8)
    mac.quad_cksum(np.zeros((2, 16), np.uint8), b"\x00" * 8, outputs=2)


def _payments() -> None:
    for fmt in (0, 1, 2, 3):
        block = payments.pin_block("1234", _PAN, fmt)
        payments.pin_from_block(block, _PAN, fmt)
    enciphered = payments.encipher_pin_blocks(_KEY16, "1234", _PAN, 0)
    payments.decipher_pin_blocks(_KEY16, enciphered, _PAN, 0)
    payments.translate_pin_blocks(enciphered, _PAN, _KEY16, _KEY16, 0, 3)
    payments.dukpt_key(_KEY16, _KSN, "pin")
    payments.verify_cvv(_KEY16, _PAN, "2512", "101", payments.cvv(_KEY16, _PAN, "2512", "101"))
    payments.verify_visa_pvv(_KEY16, "1", "1234", _PAN,
                             payments.visa_pvv(_KEY16, "1", "1234", _PAN))
    offset = payments.ibm3624_offset(_KEY16, "0123456789012345", "1234", _PAN)
    payments.verify_ibm3624_offset(_KEY16, "0123456789012345", "1234", _PAN, offset)
    payments.emv_icc_master_key(_KEY16, _PAN, "00")


def warm_public_kernels() -> float:
    """Compile (or load) the public face's own kernels here; the seconds it took."""
    start = time.perf_counter()
    _crypt3()
    _mac()
    _payments()
    return time.perf_counter() - start
