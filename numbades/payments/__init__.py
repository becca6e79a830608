"""The batch jobs of payment systems over NumPy arrays: one call per batch of rows.

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
array of decimal digits; binary values (ATCs, data rows, cryptograms) are
``uint8`` arrays of shape ``(N, width)``.  Digit results are NumPy ``U``
arrays, keys and cryptograms ``(N, 16)`` / ``(N, 8)`` ``uint8``, verify forms
boolean arrays.  Bad arguments raise ``TypeError`` or ``ValueError`` naming
the rows, before any cipher runs.  Worked examples and security notes are in
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
from .emv import (
    emv_arpc,
    emv_arqc,
    emv_icc_master_key,
    emv_session_key,
    verify_emv_arpc,
    verify_emv_arqc,
)

__all__ = [
    "cvv",
    "emv_arpc",
    "emv_arqc",
    "emv_icc_master_key",
    "emv_session_key",
    "ibm3624_natural_pin",
    "ibm3624_offset",
    "ibm3624_pin",
    "verify_cvv",
    "verify_emv_arpc",
    "verify_emv_arqc",
    "verify_ibm3624_offset",
    "verify_visa_pvv",
    "visa_pvv",
]
