"""The two cipher operations a MAC needs, for one key or a key per row.

``tags`` runs CBC encryption over the (padded) rows and keeps only the
last block of each (the CBC-MAC chaining value); ``ecb`` runs one block
per row.  Rows go through in chunks of about ``CHUNK_BYTES`` (whole
2048-message bitslice passes), each chunk padded into one reused buffer
and encrypted into another, so the padding copies and the CBC output stay
in cache rather than filling memory with a ciphertext nobody reads.  With
one key, a chunk of many messages goes to the bitslice CBC-MAC kernel
(``engines.bitslice.cbc_mac``: block j of 2048 messages per pass, only the
last block leaves the bit planes) when the cipher's engine is ``auto`` or
``bitslice``, and to ``encrypt_many`` otherwise.  ``auto`` never waits for
that kernel to compile (``tuning.policy.cbc_mac_kernel_serves``): until it
is in the cache, ``encrypt_many`` and the key arrays serve, with the same
tags, while one background process compiles it.  One message takes the
one-stream CBC path (a table engine).  With a key array, row i runs under
key i: many keys on the same kernel with a key per lane
(``cbc_mac_lanes``), few through ``DESArray``/``TripleDESArray``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..cipher import DES, TripleDES
from ..engines import chains, registry
from ..engines.bitslice.cbc_mac import cbc_mac, cbc_mac_lanes
from ..key_arrays import DESArray, TripleDESArray
from ..tuning import policy
from ..tuning.policy import cbc_mac_kernel_serves

#: Bytes of padded messages per chunk: small enough for the second-level cache.
CHUNK_BYTES = 1 << 19
#: Messages per bitslice pass; chunks hold whole passes.
PASS = 2048

#: fill(start, stop, buffer) -> the padded blocks of rows start..stop (the buffer, or a
#: view of the rows themselves: then ``fill.copies`` is False and one chunk takes them all).
Fill = Callable[[int, int, np.ndarray], np.ndarray]


def rows_per_chunk(width: int) -> int:
    """Messages per chunk for padded messages of ``width`` bytes (a multiple of PASS)."""
    return max(PASS, CHUNK_BYTES // max(width, 1) // PASS * PASS)


class _Keyed:
    """What one key and a key array share: the chunk loop."""

    def tags(self, n: int, width: int, fill: Fill, ivs: np.ndarray) -> np.ndarray:
        """(n, 8): the last CBC block of each of ``n`` padded rows of ``width`` bytes.

        ``ivs``: (n,) uint64, each IV's 8 bytes as a native word (raw memory).
        """
        return self._chunks(n, width, fill, ivs, self._last, scratch=True)

    @staticmethod
    def _chunks(n: int, width: int, fill: Fill, ivs: np.ndarray, last, scratch: bool
                ) -> np.ndarray:
        """``tags`` with ``last`` (``_last``'s arguments) for each chunk; ``scratch``: whether
        ``last`` needs an output buffer (the bitslice kernel does not: its ``out`` is then the
        chunk's (rows,) words of the result, which it may fill and return)."""
        result = np.empty(n, np.uint64)
        if n == 0 or width == 0:
            result[:] = ivs
        else:
            copies = getattr(fill, "copies", True)
            # rows passed as they are need no chunks: one call, one kernel run
            per = min(n, rows_per_chunk(width)) if copies else n
            buf = np.empty((per, width), np.uint8) if copies else None
            out = np.empty((per, width), np.uint8) if scratch else None
            for start in range(0, n, per):
                stop = min(n, start + per)
                blocks = fill(start, stop, None if buf is None else buf[: stop - start])
                dest = result[start:stop]
                words = last(start, stop, blocks, ivs[start:stop],
                             dest if out is None else out[: stop - start])
                if words is not dest:
                    dest[:] = words
        return result.view(np.uint8).reshape(n, 8)

    def _last(self, start: int, stop: int, blocks: np.ndarray, ivs: np.ndarray,
              out: np.ndarray) -> np.ndarray:
        """The last CBC block of each row of ``blocks`` as raw words; ``out``: scratch."""
        raise NotImplementedError


def _block_rows(words: np.ndarray) -> np.ndarray:
    """(N,) raw words -> (N, 8) uint8, their bytes."""
    return np.ascontiguousarray(words).view(np.uint8).reshape(-1, 8)


def _last_words(out: np.ndarray) -> np.ndarray:
    """The last 8 bytes of each row of ``out`` as raw words."""
    return out.view(np.uint64)[:, -1]


class OneKey(_Keyed):
    """Every row under one ``DES``/``TripleDES`` cipher."""

    def __init__(self, cipher: DES | TripleDES):
        self.cipher = cipher

    def kernel_serves(self, rows: int) -> bool:
        """Whether ``rows`` messages go to the bitslice CBC-MAC kernel (``auto``: once compiled)."""
        return cbc_mac_kernel_serves(self.cipher._request, rows)

    def planes(self, decrypt: bool = False) -> np.ndarray:
        """The cipher's bitslice key planes, for encryption or decryption."""
        chain = chains.ECB_DECRYPT if decrypt else chains.ECB_ENCRYPT
        return self.cipher._schedule.form(registry.get(registry.BITSLICE), chain)

    def tags(self, n: int, width: int, fill: Fill, ivs: np.ndarray) -> np.ndarray:
        if self.kernel_serves(n):
            return self.kernel_tags(n, width, fill, ivs)
        return super().tags(n, width, fill, ivs)

    def kernel_tags(self, n: int, width: int, fill: Fill, ivs: np.ndarray, *,
                    last_xor: int = 0, final: np.ndarray | None = None) -> np.ndarray:
        """``tags`` on the bitslice CBC-MAC kernel (the caller asked ``kernel_serves(n)``).

        ``last_xor``: a raw word XORed into each row's last block first (CMAC's
        subkey); ``final``: key planes run on each tag at the end (the retail
        MAC's D under K' and E under K), in the kernel, before the tags leave
        the bit planes.
        """
        planes = self.planes()

        def last(start, stop, blocks, ivs, out) -> np.ndarray:
            return cbc_mac(blocks, ivs, planes, last_xor=last_xor, final=final, out=out)

        return self._chunks(n, width, fill, ivs, last, scratch=False)

    def _last(self, start, stop, blocks, ivs, out) -> np.ndarray:
        if blocks.shape[0] == 1:
            iv = _block_rows(ivs)[0].tobytes()
            self.cipher.encrypt(blocks[0], "cbc", iv=iv, out=out[0])
        else:
            self.cipher.encrypt_many(blocks, "cbc", ivs=_block_rows(ivs), out=out)
        return _last_words(out)

    def ecb(self, blocks: np.ndarray, decrypt: bool = False) -> np.ndarray:
        """(N, 8) blocks -> (N, 8), each through the cipher (or its inverse)."""
        if blocks.shape[0] == 0:
            return blocks.copy()
        run = self.cipher.decrypt if decrypt else self.cipher.encrypt
        return run(np.ascontiguousarray(blocks).reshape(-1)).reshape(-1, 8)


class KeyRows(_Keyed):
    """Row i under key i of a ``DESArray``/``TripleDESArray`` (checked once, whole)."""

    def __init__(self, keys: DESArray | TripleDESArray, key_rows: np.ndarray):
        self.keys = keys
        self._rows = key_rows
        self._kind = type(keys)

    def kernel_serves(self, rows: int) -> bool:
        """Whether ``rows`` rows go to the bitslice kernel with a key per lane (``auto``: once
        compiled)."""
        return cbc_mac_kernel_serves(self.keys._request, rows, key_rows=True)

    def _last(self, start, stop, blocks, ivs, out) -> np.ndarray:
        if cbc_mac_kernel_serves(self.keys._request, blocks.shape[0], key_rows=True):
            # key values (rows, key sets), as the key array holds them
            return cbc_mac_lanes(blocks, ivs, self.keys._words[start:stop])
        part = self.keys if stop - start == len(self.keys) else self._kind(
            self._rows[start:stop])
        part.encrypt(blocks, "cbc", ivs=_block_rows(ivs), out=out)
        return _last_words(out)

    def ecb(self, blocks: np.ndarray, decrypt: bool = False) -> np.ndarray:
        if blocks.shape[0] == 0:
            return blocks.copy()
        run = self.keys.decrypt if decrypt else self.keys.encrypt
        return run(np.ascontiguousarray(blocks))


Keyed = OneKey | KeyRows


def retail_lanes_serve(rows: int) -> bool:
    """Whether ``retail_lanes`` takes ``rows`` rows now (the key-per-lane kernel, ``auto``:
    once compiled)."""
    return cbc_mac_kernel_serves(policy.resolve("auto"), rows, key_rows=True)


def retail_lanes(key_rows: np.ndarray, n: int, width: int, fill: Fill) -> np.ndarray:
    """The retail MAC of row i under key row i on the key-per-lane kernel (the caller asked
    ``retail_lanes_serve(n)``).

    ``key_rows``: (n, 16|24) C-contiguous uint8, K || K' (|| K''), any values.
    The key words come straight from the key bytes, with no key array
    objects: one (n, 2|3) conversion.  CBC under K, then D under K' and E
    under K'' (16 bytes: K again, the same key planes) run in the kernel
    before the tags leave the bit planes.
    """
    words = key_rows.view(">u8").astype(np.uint64)  # (n, 2|3) key values, FIPS bit 1 high
    final = ((1, True), (2 if words.shape[1] == 3 else 0, False))

    def last(start, stop, blocks, ivs, out) -> np.ndarray:
        return cbc_mac_lanes(blocks, ivs, words[start:stop], chain=((0, False),), final=final,
                             out=out)

    zero_ivs = np.broadcast_to(np.uint64(0), (n,))  # one word for every row (cbc_mac)
    return _Keyed._chunks(n, width, fill, zero_ivs, last, scratch=False)


def cipher_for(key: bytes) -> DES | TripleDES:
    """``DES`` for an 8-byte key, ``TripleDES`` (EDE) for 16 or 24 bytes."""
    return DES(key) if len(key) == 8 else TripleDES(key)


def key_array(rows: np.ndarray) -> KeyRows:
    """A key array's cipher (every row checked, as ``DESArray``/``TripleDESArray`` do)."""
    return KeyRows(DESArray(rows) if rows.shape[1] == 8 else TripleDESArray(rows), rows)
