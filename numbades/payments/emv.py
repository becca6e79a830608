"""EMV keys and cryptograms over batches (EMV 4.3 Book 2, Annex A and section 8).

- ``emv_icc_master_key``: ICC master keys from an issuer master key, option A
  (PAN and PAN sequence number) or option B (SHA-1 for PANs longer than 16
  digits).
- ``emv_session_key``: the common session key derivation (R = ATC || 00..00,
  or ATC || 00 00 || UN).
- ``emv_arqc`` / ``verify_emv_arqc``: application cryptograms (ARQC, TC,
  AAC: ISO/IEC 9797-1 MAC algorithm 3 over each row of transaction data).
- ``emv_arpc`` / ``verify_emv_arpc``: ARPC method 1.

Keys are ``uint8`` (16,) (one for the batch) or (N, 16) (a key per row);
PANs and PAN sequence numbers are digit strings (a ``str``, a sequence of
``str`` or a NumPy ``U``/``S`` array); ATCs, unpredictable numbers, data
rows and cryptograms are bytes-like (a batch of one) or ``uint8`` arrays
(N, width).  Derived keys are returned with odd parity, as EMV and pyemv
give them.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from . import _card_kernels, _cipher
from ._digits import decimal, join, odd_parity, packed
from .inputs import batch_size, byte_rows, codes, digits_from, key_rows, spread

__all__ = [
    "emv_arpc",
    "emv_arqc",
    "emv_icc_master_key",
    "emv_session_key",
    "verify_emv_arpc",
    "verify_emv_arqc",
]


def _option_b_digits(pan: np.ndarray, pan_len: int, psn: np.ndarray) -> np.ndarray:
    """16 digits of SHA-1(PAN || PSN, packed BCD, a leading 0 if odd) (option B)."""
    packed = join(1, (pan_len + 3) // 2, pan.reshape(1, -1), 0, pan_len, psn.reshape(1, -1), 2,
                  lead=pan_len % 2)
    digest = hashlib.sha1(packed.tobytes()).digest()
    return decimal(np.frombuffer(digest, np.uint8).reshape(1, -1), 16, as_text=False)[0]


def emv_icc_master_key(issuer_mk: Any, pan: Any, psn: Any = "00", option: str = "A"
                       ) -> np.ndarray:
    """ICC master keys (N, 16) uint8, odd parity (EMV 4.3 Book 2, A1.4).

    ``issuer_mk``: (16,) or (N, 16) uint8.  ``pan``: 1 to 19 digits;
    ``psn``: the 2-digit PAN sequence number (``"00"`` when the card has none).
    Option ``"A"``: Y = the rightmost 16 digits of PAN || PSN (zero-padded on
    the left); the key is Triple-DES of Y and of Y xor FF..FF.  Option ``"B"``:
    the same for PANs of up to 16 digits; for longer PANs, Y = 16 digits
    decimalised from SHA-1 of PAN || PSN.
    """
    if option not in ("A", "B"):
        raise ValueError(f"option must be 'A' or 'B', got {option!r}")
    key = key_rows(issuer_mk, "issuer_mk", (16,))
    fields = [(codes(pan, "pan"), "pan", 1, 19), (codes(psn, "psn"), "psn", 2, 2)]
    n = batch_size(issuer_mk=key.shape[0], pan=fields[0][0].shape[0],
                   psn=fields[1][0].shape[0])
    # Y (the rightmost 16 digits of PAN || PSN, zeros on the left), then Y inverted
    data, lengths = packed(n, 2, _card_kernels.icc_data, fields)
    pan_rows = fields[0][0].shape[0]
    long_rows = np.flatnonzero(spread(lengths[0, :pan_rows] > 16, n)) if option == "B" else ()
    if len(long_rows):
        pans, pan_len = digits_from(fields[0][0], "pan", 1, 19)
        psns, _ = digits_from(fields[1][0], "psn", 2, 2)
        for r in long_rows:
            rp, rs = (r if pans.shape[0] > 1 else 0), (r if psns.shape[0] > 1 else 0)
            y = _option_b_digits(pans[rp], int(pan_len[rp]), psns[rs])
            data[r, 0] = int.from_bytes(join(1, 8, y.reshape(1, -1), 0, 16).tobytes(), "big")
            data[r, 1] = ~data[r, 0]
    return odd_parity(_cipher.ecb(key, data, in_place=True))


def emv_session_key(icc_mk: Any, atc: Any, un: Any = None) -> np.ndarray:
    """Session keys (N, 16) uint8, odd parity: the common session key derivation (A1.3.1).

    ``icc_mk``: (16,) or (N, 16) uint8; ``atc``: the 2-byte application
    transaction counter, (2,) or (N, 2) uint8 (or bytes); ``un``: None
    (R = ATC || 00 x 6) or the 4-byte unpredictable number per row
    (R = ATC || 00 00 || UN, Mastercard's form).  The key is Triple-DES
    under the ICC master key of R with byte 3 set to F0, then to 0F.
    """
    key = key_rows(icc_mk, "icc_mk", (16,))
    atcs = byte_rows(atc, "atc", (2,))
    uns = None if un is None else byte_rows(un, "un", (4,))
    n = batch_size(icc_mk=key.shape[0], atc=atcs.shape[0],
                   un=1 if uns is None else uns.shape[0])
    r = np.zeros((n, 16), np.uint8)
    r[:, 0:2] = r[:, 8:10] = spread(atcs, n)
    if uns is not None:
        r[:, 4:8] = r[:, 12:16] = spread(uns, n)
    r[:, 2], r[:, 10] = 0xF0, 0x0F
    return odd_parity(_cipher.ecb(key, r))


def _padding(padding: Any) -> int:
    if isinstance(padding, bool) or not isinstance(padding, int):
        raise TypeError(f"padding must be an int, not {type(padding).__name__}")
    if padding not in (1, 2):
        raise ValueError(f"padding must be 1 (Visa's CVN 10, ISO/IEC 9797-1 method 1) or "
                         f"2 (EMV's default, method 2), got {padding}")
    return padding


def emv_arqc(session_key: Any, data: Any, *, padding: int = 2) -> np.ndarray:
    """Application cryptograms (ARQC, TC or AAC) of each data row: (N, 8) uint8.

    ``session_key``: (16,) or (N, 16) uint8; ``data``: the transaction data
    of each row as (N, L) uint8 (bytes: one row).  ISO/IEC 9797-1 MAC
    algorithm 3 (DES-CBC under key A, the last block decrypted under B and
    encrypted under A) over the data padded with method 2 (EMV's, the
    default) or method 1 (Visa's CVN 10).
    """
    padding = _padding(padding)
    key = key_rows(session_key, "session_key", (16,))
    rows = byte_rows(data, "data", ())
    n = batch_size(session_key=key.shape[0], data=rows.shape[0])
    return _cipher.retail_mac(key, spread(rows, n), padding)


def _cryptograms(value: Any, name: str, n: int) -> np.ndarray:
    rows = byte_rows(value, name, (8,))
    batch_size(batch=n, **{name: rows.shape[0]})
    return spread(rows, n)


def verify_emv_arqc(session_key: Any, data: Any, arqc: Any, *, padding: int = 2
                    ) -> np.ndarray:
    """(N,) bool: does each row's 8-byte ``arqc`` equal the cryptogram of its data?"""
    got = emv_arqc(session_key, data, padding=padding)
    return (_cryptograms(arqc, "arqc", got.shape[0]) == got).all(axis=1)


def emv_arpc(session_key: Any, arqc: Any, arc: Any) -> np.ndarray:
    """ARPC method 1 of each row: Triple-DES of ARQC xor (ARC || 00 x 6); (N, 8) uint8.

    ``session_key``: (16,) or (N, 16) uint8; ``arqc``: 8 bytes per row;
    ``arc``: the 2-byte authorisation response code per row.
    """
    key = key_rows(session_key, "session_key", (16,))
    arqcs = byte_rows(arqc, "arqc", (8,))
    arcs = byte_rows(arc, "arc", (2,))
    n = batch_size(session_key=key.shape[0], arqc=arqcs.shape[0], arc=arcs.shape[0])
    arc_blocks = np.zeros((arcs.shape[0], 8), np.uint8)
    arc_blocks[:, :2] = arcs
    block = arqcs.view(np.uint64) ^ arc_blocks.view(np.uint64)  # (N or 1, 1) words
    return _cipher.ecb(key, np.ascontiguousarray(np.broadcast_to(block, (n, 1))).view(np.uint8))


def verify_emv_arpc(session_key: Any, arqc: Any, arc: Any, arpc: Any) -> np.ndarray:
    """(N,) bool: does each row's 8-byte ``arpc`` equal ARPC method 1 of its ARQC and ARC?"""
    got = emv_arpc(session_key, arqc, arc)
    return (_cryptograms(arpc, "arpc", got.shape[0]) == got).all(axis=1)
