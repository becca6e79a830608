"""DUKPT (ANSI X9.24-1:2009, Triple-DES) over arrays of key serial numbers.

A KSN is 10 bytes: the key set and device identifiers, then a 21-bit
transaction counter in its rightmost bits.  The initial key (IPEK) of a
device is its KSN's leftmost 8 bytes, counter cleared, Triple-DES-encrypted
under the base derivation key (left half) and under the BDK XOR
``C0C0C0C0 00000000 C0C0C0C0 00000000`` (right half).  The transaction key
of a KSN starts from the IPEK and takes one non-reversible key generation
step for each 1 bit of the counter, from the most significant down: the bit
is set in a register holding the KSN's rightmost 8 bytes (counter cleared
first), and with the key K = KL || KR the new right half is
``KR ^ DES_KL(KR ^ R)`` and the new left half the same under K XOR the C0
mask.  Two DES operations per set bit.

Every row of a batch steps together: step j takes each row's j-th highest
counter bit, and the rows with at least j bits set (a prefix, once the rows
are ordered by counter weight) go through one ``DESArray`` call (2 blocks
per row, a key per block).  The work is two DES operations per set counter
bit per row, and ten cipher calls per batch at most.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..key_arrays import DESArray
from . import _cipher, dukpt_steps, inputs

__all__ = ["VARIANTS", "dukpt_ipek", "dukpt_key"]

_LITTLE = sys.byteorder == "little"
#: The transaction counter: the KSN's rightmost 21 bits.
_COUNTER_BITS = 21
_COUNTER_MASK = (1 << _COUNTER_BITS) - 1
#: The most 1 bits a counter may have (X9.24-1 A.2).
MAX_COUNTER_ONES = 10

#: Each variant's XOR mask (the same for both halves) and whether the
#: data-key one-way function follows (X9.24-1:2009 A.4.1, Figure A-2).
VARIANTS: dict[str | None, tuple[int, bool]] = {
    None: (0, False),
    "pin": (0x00000000000000FF, False),
    "mac-request": (0x000000000000FF00, False),
    "mac-response": (0x00000000FF000000, False),
    "data-request": (0x0000000000FF0000, True),
    "data-response": (0x000000FF00000000, True),
}


def _ksn_rows(ksn: Any) -> np.ndarray:
    return inputs.byte_rows(ksn, "ksn", (10,))


def _bdk_and_ksn(bdk: Any, ksn: Any) -> tuple[np.ndarray, np.ndarray, int]:
    keys = inputs.key_rows(bdk, "bdk")
    ksns = _ksn_rows(ksn)
    n = inputs.batch_size(bdk=keys.shape[0], ksn=ksns.shape[0])
    return keys, ksns, n


def _counters(ksns: np.ndarray) -> np.ndarray:
    tail = ksns[:, 7:10].astype(np.uint32)
    return ((tail[:, 0] << 16) | (tail[:, 1] << 8) | tail[:, 2]) & _COUNTER_MASK


def _ipek_rows(keys: np.ndarray, ksns: np.ndarray, n: int) -> np.ndarray:
    initial = np.array(ksns[:, :8], copy=True)
    initial[:, 7] &= 0xE0  # the counter's top 5 bits live in byte 7
    initial = np.ascontiguousarray(inputs.spread(initial, n))
    mask = np.frombuffer(bytes.fromhex("C0C0C0C000000000" * 2), np.uint8)
    out = np.empty((n, 16), np.uint8)
    out[:, :8] = _cipher.ecb(keys, initial)
    out[:, 8:] = _cipher.ecb(keys ^ mask, initial)
    return out


def dukpt_ipek(bdk: Any, ksn: Any) -> np.ndarray:
    """Initial keys (IPEKs) of the devices named by ``ksn``: an ``(N, 16)`` uint8 array.

    ``bdk``: the base derivation key, 16 bytes or a uint8 ``(16,)`` array
    (one BDK for every row) or ``(N, 16)`` (a BDK per row).  ``ksn``: 10
    bytes or a uint8 ``(10,)`` / ``(N, 10)`` array; its counter is ignored
    (cleared), so any KSN of a device gives the device's IPEK.  Six DES
    operations per row.
    """
    keys, ksns, n = _bdk_and_ksn(bdk, ksn)
    return _ipek_rows(keys, ksns, n)


#: Bits set in each 11-bit value (np.bitwise_count needs NumPy 2).
_ONES_11 = np.array([v.bit_count() for v in range(1 << 11)], dtype=np.uint8)


def _ones(counters: np.ndarray) -> np.ndarray:
    return _ONES_11[counters & 0x7FF] + _ONES_11[counters >> 11]


def _refuse_counters(counters: np.ndarray) -> None:
    inputs.refuse_rows(counters == 0, "KSN counter 0 has no transaction key (the first "
                       "transaction uses counter 1)")
    inputs.refuse_rows(_ones(counters) > MAX_COUNTER_ONES,
                       f"KSN counters with more than {MAX_COUNTER_ONES} bits set are "
                       "never used (ANSI X9.24-1)")


def _words(rows16: np.ndarray) -> np.ndarray:
    """(N, 16) uint8 -> (N, 2) uint64, each half read big-endian."""
    return np.ascontiguousarray(rows16).view(">u8").astype(np.uint64)


def _bytes(words: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(words.astype(">u8")).view(np.uint8).reshape(-1, 16)


def _read_only(rows: np.ndarray, dtype: type | None = None) -> np.ndarray:
    """A read-only C-contiguous view: the kernels see one array type whatever the caller
    passed (writable or not), so they compile one signature, which ``numbades compile`` warms."""
    view = np.ascontiguousarray(rows, dtype).view()
    view.flags.writeable = False
    return view


def _transaction_words(ipek: np.ndarray, ksns: np.ndarray, counters: np.ndarray) -> np.ndarray:
    """The non-reversible key generation steps, every row at once: (N, 2) uint64 keys.

    Rows are put in order of falling counter weight, so that the rows taking
    their j-th step (those with more than j bits set) are a prefix: each step
    works on contiguous slices, and rows with fewer bits simply stop.  Step j
    sets the row's j-th highest counter bit in its register.
    """
    ones = _ones(counters)
    order = np.argsort(-ones.astype(np.int8), kind="stable")
    n = order.size
    left, right, reg, rest = (np.empty(n, np.uint64) for _ in range(4))
    dukpt_steps.gather(_read_only(ipek), _read_only(ksns), _read_only(counters, np.uint32),
                       order, _COUNTER_MASK, left, right, reg, rest)
    active = np.bincount(ones, minlength=MAX_COUNTER_ONES + 1)[::-1].cumsum()[::-1]
    des_keys = np.empty(2 * left.size, np.uint64)
    blocks = np.empty_like(des_keys)
    for step in range(1, MAX_COUNTER_ONES + 1):
        m = int(active[step])  # rows with at least `step` bits set
        if not m:
            break
        dukpt_steps.step_inputs(left, right, reg, rest, m, des_keys, blocks, _LITTLE)
        key_bytes = des_keys[:2 * m].view(np.uint8).reshape(-1, 8)  # big-endian key bytes
        out = DESArray(key_bytes).encrypt(blocks[:2 * m])
        dukpt_steps.step_outputs(left, right, out, m)
    result = np.empty((n, 2), np.uint64)
    dukpt_steps.scatter(left, right, order, result)
    return result


def _data_one_way(words: np.ndarray) -> np.ndarray:
    """Each half of each key Triple-DES-encrypted under the key itself (X9.24-1:2009 Figure A-2)."""
    return _cipher.ecb(_bytes(words), words)


def dukpt_key(bdk: Any, ksn: Any, variant: str | None = None) -> np.ndarray:
    """Transaction keys for ``ksn`` under ``bdk`` (the host side): an ``(N, 16)`` uint8 array.

    ``bdk`` and ``ksn`` as for ``dukpt_ipek``.  ``variant``: ``None`` (the
    current transaction key), ``"pin"`` (the PIN encryption key),
    ``"mac-request"``, ``"mac-response"`` (the MAC keys), ``"data-request"``
    or ``"data-response"`` (the data encryption keys: the variant, then each
    half Triple-DES-encrypted under the variant).  KSNs whose counter is 0
    or has more than ten bits set are refused (``ValueError`` naming the
    rows) before any work.  DES operations per row: 6 (IPEK) + 2 per set
    counter bit (+ 6 for a data key).
    """
    inputs.choice(variant, tuple(VARIANTS), "variant")
    return derive(*checked(bdk, ksn), variant)


def checked(bdk: Any, ksn: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(BDK rows, KSN rows (N, 10), counters (N,), N), every check of ``dukpt_key`` done."""
    keys, ksns, n = _bdk_and_ksn(bdk, ksn)
    counters = _counters(ksns)
    _refuse_counters(counters)
    return keys, np.ascontiguousarray(inputs.spread(ksns, n)), inputs.spread(counters, n), n


def derive(keys: np.ndarray, ksns: np.ndarray, counters: np.ndarray, n: int,
           variant: str | None) -> np.ndarray:
    """The transaction keys (or a variant) of checked rows (see ``checked``): (N, 16) uint8."""
    words = _transaction_words(_ipek_rows(keys, ksns, n), ksns, counters)
    mask, one_way = VARIANTS[variant]
    if mask:
        words ^= np.uint64(mask)
    if one_way:
        words = _data_one_way(words)
    return _bytes(words)
