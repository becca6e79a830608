"""Chaining values at chunk boundaries, from what a chunk's task already holds.

A chunk of a chained mode starts from the chaining value its predecessor
ended with.  With every chunk but the last a whole number of blocks, that
value is always one block of the data around the boundary:

- CBC, CFB and CFB-8 (register = IV || ciphertext) start from the last
  ciphertext block before the chunk: the previous chunk's *input* when
  decrypting (so decryption is parallel), its *output* when encrypting (so
  encryption is a chain of tasks);
- OFB starts from the last keystream block: output XOR input of the last block;
- CTR starts at the IV plus the number of blocks before the chunk (mod 2**64),
  known from the chunk sizes alone.

Blocks travel as 8 ``bytes`` in FIPS order, the form ``iv=`` takes.
"""

from __future__ import annotations

import numpy as np

_U64 = (1 << 64) - 1


def last_block(chunk: np.ndarray) -> bytes:
    """The last block of a chunk of whole blocks: uint8 bytes, or a uint64 block value."""
    if chunk.dtype.itemsize == 8:
        return int(chunk[-1]).to_bytes(8, "big")
    return chunk[-8:].tobytes()


def next_iv(mode: str, decrypt: bool, iv: bytes, src: np.ndarray, dst: np.ndarray) -> bytes:
    """The chaining value after a chunk of whole blocks (``iv`` when the chunk is empty).

    ``src`` is what went into ``cipher.encrypt``/``decrypt``, ``dst`` what came out.
    """
    if src.size == 0:
        return iv
    if mode == "ofb":
        keystream = int.from_bytes(last_block(src), "big") ^ int.from_bytes(last_block(dst), "big")
        return keystream.to_bytes(8, "big")
    return last_block(src if decrypt else dst)


def counter_at(iv: bytes, blocks_before: int) -> bytes:
    """The CTR counter block of a chunk that starts ``blocks_before`` blocks into the stream."""
    return ((int.from_bytes(iv, "big") + blocks_before) & _U64).to_bytes(8, "big")
