"""The batch jobs of payment systems over NumPy arrays: one call per batch of rows.

- DUKPT (ANSI X9.24-1:2009, Triple-DES): ``dukpt_ipek`` (initial keys from a
  base derivation key and key serial numbers) and ``dukpt_key`` (each KSN's
  transaction key, optionally one of its PIN, MAC or data variants).
- PIN blocks (ISO 9564-1 formats 0, 1, 2 and 3): ``pin_block`` and
  ``pin_from_block`` (build and parse clear blocks), ``encipher_pin_blocks``
  and ``decipher_pin_blocks``, ``translate_pin_blocks`` (from a zone key or each row's DUKPT PIN key
  to another key and format, the clear PINs never leaving the call).
- Card verification values, PIN verification values and EMV cryptograms
  (``numbades.payments.cards`` and ``numbades.payments.emv``).

One shape everywhere: arrays of rows in, arrays of rows out; a single value
(bytes, str) is a batch of one and gives a batch of one back.  Keys are
``uint8`` arrays of shape ``(16,)`` (one key for the batch) or ``(N, 16)``
(a key per row); PANs and PINs are sequences of ``str`` or NumPy ``U``/``S``
arrays of decimal digits; binary values (KSNs, PIN blocks) are ``uint8``
arrays of shape ``(N, width)``.  Bad arguments raise ``TypeError`` or
``ValueError`` naming the rows before any work; malformed PIN blocks are
reported per row in a validity mask.  Each function's docstring states
its rules; worked examples and the security notes are in the numbades
documentation (docs/payments.md in the source tree).
"""

from __future__ import annotations

from .dukpt import dukpt_ipek, dukpt_key
from .pinblock import (
    decipher_pin_blocks,
    encipher_pin_blocks,
    pin_block,
    pin_from_block,
    translate_pin_blocks,
)

__all__ = [
    "decipher_pin_blocks",
    "dukpt_ipek",
    "dukpt_key",
    "encipher_pin_blocks",
    "pin_block",
    "pin_from_block",
    "translate_pin_blocks",
]
