"""The batch jobs of payment systems over NumPy arrays: one call per batch of rows.

- DUKPT (ANSI X9.24-1:2009, Triple-DES): ``dukpt_ipek`` (initial keys from a
  base derivation key and key serial numbers) and ``dukpt_key`` (each KSN's
  transaction key, optionally one of its PIN, MAC or data variants).
- PIN blocks (ISO 9564-1 formats 0, 1, 2 and 3): ``pin_block`` and
  ``pin_from_block`` (build and parse clear blocks), ``encipher_pin_blocks``
  and ``decipher_pin_blocks``, ``translate_pin_blocks`` (from a zone key or
  each row's DUKPT PIN key to another key and format, the clear PINs never
  leaving the call).
- Card and PIN verification values (``numbades.payments.cards``): ``cvv`` /
  ``verify_cvv`` (Visa CVV, Mastercard CVC; CVV2 and iCVV with their service
  codes), ``visa_pvv`` / ``verify_visa_pvv``, ``ibm3624_natural_pin``,
  ``ibm3624_offset``, ``ibm3624_pin`` and ``verify_ibm3624_offset`` (IBM 3624
  with a decimalisation table).
- EMV (``numbades.payments.emv``): ``emv_icc_master_key`` (option A, option B),
  ``emv_session_key`` (common session key derivation), ``emv_arqc`` /
  ``verify_emv_arqc`` (ISO/IEC 9797-1 MAC algorithm 3 over each data row) and
  ``emv_arpc`` / ``verify_emv_arpc`` (ARPC method 1).

One shape everywhere: arrays of rows in, arrays of rows out; a single value
(bytes, str) is a batch of one and gives a batch of one back, and a one-row
argument serves every row.  Keys are ``uint8`` arrays of shape ``(16,)`` (one
key for the batch) or ``(N, 16)`` (a key per row); PANs, expiry dates, service
codes and PINs are a ``str``, a sequence of ``str`` or a NumPy ``U``/``S``
array of decimal digits; binary values (KSNs, PIN blocks, ATCs, data rows,
cryptograms) are ``uint8`` arrays of shape ``(N, width)``.  Digit results are NumPy ``U``
arrays, keys and cryptograms ``(N, 16)`` / ``(N, 8)`` ``uint8``, verify forms
boolean arrays.  Bad arguments raise ``TypeError`` or ``ValueError`` naming
the rows, before any cipher runs; malformed PIN blocks are reported per
row in a validity mask.  Worked examples and security notes are in
the numbades documentation (docs/payments.md in the source tree).
"""

from __future__ import annotations

from .cards import (
    cvv,
    ibm3624_natural_pin,
    ibm3624_offset,
    ibm3624_pin,
    verify_cvv,
    verify_ibm3624_offset,
    verify_visa_pvv,
    visa_pvv,
)
from .dukpt import dukpt_ipek, dukpt_key
from .emv import (
    emv_arpc,
    emv_arqc,
    emv_icc_master_key,
    emv_session_key,
    verify_emv_arpc,
    verify_emv_arqc,
)
from .pinblock import (
    decipher_pin_blocks,
    encipher_pin_blocks,
    pin_block,
    pin_from_block,
    translate_pin_blocks,
)

__all__ = [
    "cvv",
    "decipher_pin_blocks",
    "dukpt_ipek",
    "dukpt_key",
    "emv_arpc",
    "emv_arqc",
    "emv_icc_master_key",
    "emv_session_key",
    "encipher_pin_blocks",
    "ibm3624_natural_pin",
    "ibm3624_offset",
    "ibm3624_pin",
    "pin_block",
    "pin_from_block",
    "translate_pin_blocks",
    "verify_cvv",
    "verify_emv_arpc",
    "verify_emv_arqc",
    "verify_ibm3624_offset",
    "verify_visa_pvv",
    "visa_pvv",
]
