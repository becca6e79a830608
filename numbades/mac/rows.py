"""Tags for many messages: equal-length rows under one key, or row i under key i.

Each algorithm says how to pad a chunk of rows (a ``fill`` function) and
runs the chunked CBC of ``keyed``; retail MACs then take two one-block
calls, CMAC one block first for its subkeys.  The result is (N, 8).
"""

from __future__ import annotations

import numpy as np

from . import padding as pads
from .keyed import Fill, Keyed, OneKey, key_array, retail_lanes, retail_lanes_serve


def _ivs(iv: bytes, n: int) -> np.ndarray:
    """One IV for n rows, as raw native words (``keyed.tags``'s form): a read-only broadcast
    view of one word, which the CBC-MAC kernel reads once."""
    word = np.frombuffer(iv, np.uint64)
    ivs = np.ndarray((n,), np.uint64, buffer=word, strides=(0,))  # np.broadcast_to, faster
    ivs.flags.writeable = False
    return ivs


def _padded(rows: np.ndarray, padding: int) -> tuple[int, Fill]:
    """(padded width, fill) for ISO/IEC 9797-1 padding method 1, 2 or 3.

    Rows that need no padding are passed as they are (``fill.copies`` False).
    """
    length = rows.shape[1]
    head = 8 if padding == 3 else 0
    width = head + length + pads.pad_size(length, 2 if padding == 2 else 1)
    if width == length and rows.flags.c_contiguous and rows.ctypes.data % 8 == 0:
        def as_they_are(start: int, stop: int, buf: np.ndarray) -> np.ndarray:
            return rows[start:stop]

        as_they_are.copies = False  # type: ignore[attr-defined]
        return width, as_they_are
    template = pads.pad_rows(np.zeros((1, length), np.uint8), padding)[0]
    tail = head + length

    def fill(start: int, stop: int, buf: np.ndarray) -> np.ndarray:
        buf[:, :head] = template[:head]  # the length block and the padding are every row's
        buf[:, head:tail] = rows[start:stop]
        buf[:, tail:] = template[tail:]
        return buf

    return width, fill


def cbc(keyed: Keyed, rows: np.ndarray, iv: bytes, padding: int) -> np.ndarray:
    """ISO/IEC 9797-1 algorithm 1: the last CBC block of each padded row."""
    width, fill = _padded(rows, padding)
    return keyed.tags(rows.shape[0], width, fill, _ivs(iv, rows.shape[0]))


def retail(chain: Keyed, middle: Keyed, outer: Keyed, rows: np.ndarray,
           padding: int) -> np.ndarray:
    """ISO/IEC 9797-1 algorithm 3: CBC under K, then D under K', then E under K (or K'')."""
    n = rows.shape[0]
    width, fill = _padded(rows, padding)
    if isinstance(chain, OneKey) and chain.kernel_serves(n):  # the last two steps in the kernel
        final = np.concatenate([middle.planes(decrypt=True), outer.planes()])
        return chain.kernel_tags(n, width, fill, _ivs(bytes(8), n), final=final)
    h = chain.tags(n, width, fill, _ivs(bytes(8), n))
    return outer.ecb(middle.ecb(h, decrypt=True))


def retail_key_rows(key_rows: np.ndarray, rows: np.ndarray, padding: int) -> np.ndarray:
    """``retail`` with row i under key row i ((N, 16|24) uint8, C-contiguous): on the
    key-per-lane kernel when it serves, else through three DES key arrays."""
    n = rows.shape[0]
    if retail_lanes_serve(n):
        width, fill = _padded(rows, padding)
        return retail_lanes(key_rows, n, width, fill)
    outer = key_rows[:, 16:] if key_rows.shape[1] == 24 else key_rows[:, :8]
    parts = [key_array(np.ascontiguousarray(k))
             for k in (key_rows[:, :8], key_rows[:, 8:16], outer)]
    return retail(*parts, rows, padding)


def cmac(keyed: Keyed, rows: np.ndarray, subkey_rows: int) -> np.ndarray:
    """NIST SP 800-38B CMAC; ``subkey_rows`` is 1 (one key) or N (a key per row)."""
    n, length = rows.shape
    if n == 0:
        return np.zeros((0, 8), np.uint8)
    k1, k2 = pads.cmac_subkeys(keyed.ecb(np.zeros((subkey_rows, 8), np.uint8)))
    whole = length > 0 and length % 8 == 0
    subkey = k1 if whole else k2
    width, padded = _padded(rows, 1 if whole else 2)
    if isinstance(keyed, OneKey) and keyed.kernel_serves(n):
        # the subkey XORed into the last block in the kernel: the rows as they are, no copy
        return keyed.kernel_tags(n, width, padded, _ivs(bytes(8), n),
                                 last_xor=int(subkey.view(np.uint64)[0, 0]))

    def fill(start: int, stop: int, buf: np.ndarray) -> np.ndarray:
        blocks = padded(start, stop, buf)
        if blocks is not buf:
            buf[:] = blocks
        buf[:, -8:] ^= subkey if subkey_rows == 1 else subkey[start:stop]
        return buf

    return keyed.tags(n, width, fill, _ivs(bytes(8), n))
