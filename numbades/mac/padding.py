"""ISO/IEC 9797-1 padding methods and CMAC's subkeys, for one message and for rows.

- Method 1: zeros up to a whole block; an empty message becomes one zero
  block (the standard pads to a *positive* multiple of the block).
- Method 2: one ``0x80`` byte, then method 1's zeros (always at least one byte).
- Method 3: a block holding the message length in bits (big-endian), then
  the message padded by method 1 (an empty message: the length block and
  one zero block, as psec computes it).

CMAC (NIST SP 800-38B, 64-bit block): L = E_K(0), K1 = L·x, K2 = L·x²
in GF(2^64) with R_64 = 0x1B.  A non-empty message of whole blocks has
K1 XORed into its last block; any other is padded with ``0x80`` and zeros
and has K2 XORed into its last block.
"""

from __future__ import annotations

import numpy as np

_ONE_BIT = np.uint64(1)
_TOP_SHIFT = np.uint64(63)
_RB64 = np.uint64(0x1B)


def length_block(nbytes: int) -> bytes:
    """Method 3's first block: the message length in bits, 64-bit big-endian."""
    return ((nbytes * 8) & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "big")


def pad_size(nbytes: int, method: int) -> int:
    """Bytes that method 1 or 2 adds after a message of ``nbytes`` bytes."""
    if method == 2:
        return 8 - nbytes % 8
    return 8 if nbytes == 0 else -nbytes % 8


def tail_block(tail: bytes, total: int, padding: int) -> bytes:
    """The last bytes of a message (0 to 8, after its whole blocks) padded by method 1 or 2."""
    if padding == 2:
        tail += b"\x80"
    elif total == 0 and not tail:
        return bytes(8)
    return tail + bytes(-len(tail) % 8)


def pad_rows(rows: np.ndarray, padding: int) -> np.ndarray:
    """(N, L) equal-length messages padded by ``padding`` (1, 2 or 3) -> (N, L') whole blocks."""
    n, length = rows.shape
    method = 2 if padding == 2 else 1
    extra = pad_size(length, method)
    head = 8 if padding == 3 else 0
    if extra == 0 and head == 0:
        return np.ascontiguousarray(rows)
    out = np.zeros((n, head + length + extra), np.uint8)
    if head:
        out[:, :8] = np.frombuffer(length_block(length), np.uint8)
    out[:, head:head + length] = rows
    if method == 2:
        out[:, head + length] = 0x80
    return out


def cmac_subkeys(ell: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(M, 8) blocks L = E_K(0) -> (K1, K2), each (M, 8) uint8."""
    v = np.ascontiguousarray(ell).view(">u8").astype(np.uint64).reshape(-1)
    k1 = _double(v)
    k2 = _double(k1)
    return _blocks(k1), _blocks(k2)


def _double(v: np.ndarray) -> np.ndarray:
    """Multiply by x in GF(2^64) mod x^64 + x^4 + x^3 + x + 1 (0x1B)."""
    carry = (v >> _TOP_SHIFT) & _ONE_BIT
    return (v << _ONE_BIT) ^ (carry * _RB64)


def _blocks(v: np.ndarray) -> np.ndarray:
    return v.astype(">u8").view(np.uint8).reshape(-1, 8)
