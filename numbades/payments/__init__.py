"""The batch jobs of payment systems over NumPy arrays: one call per batch of rows.

(This tree's part: card and PIN verification values, ``numbades.payments.cards``,
and EMV keys and cryptograms, ``numbades.payments.emv``; ``docs/api.md`` is the
contract.)
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
