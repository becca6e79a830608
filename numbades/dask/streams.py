"""One stream (a 1-D array) through one mode: a task per chunk, chained only where the mode is.

- Independent chunks: ECB; CTR (each chunk's counter is the IV plus the
  blocks before it, from the chunk sizes); CBC, CFB and CFB-8 decryption
  (each chunk starts from the last ciphertext block of the chunk before it,
  taken by a small task on that chunk, so only 8 bytes travel).
- A chain of tasks: CBC, CFB and CFB-8 encryption and OFB both ways.  Each
  link returns its output and the chaining value after it, and the next
  link depends on that value only (8 bytes), so the chain runs one chunk
  after another on whichever worker holds the chunk, holding a few chunks
  itself (how far ahead Dask reads the input is the scheduler's choice).

PKCS#7 padding (ECB and CBC) happens in the final chunk only (the last
non-empty one): encryption makes it up to 8 bytes longer, decryption up to
8 bytes shorter, a size known only once it has run (the chunk size is NaN
until then).
"""

from __future__ import annotations

import math
import operator
from typing import Any

import dask.array as da

from ..cipher import DES, TripleDES
from . import chaining, graph, inputs, tasks
from .threads import check_numba_threads

#: Modes whose chunks need no result of another chunk, by direction (decrypt?).
PARALLEL = {False: frozenset({"ecb", "ctr"}),
            True: frozenset({"ecb", "ctr", "cbc", "cfb", "cfb8"})}
#: Modes that take whole blocks only (unless padded).
WHOLE_BLOCKS = frozenset({"ecb", "cbc"})


def crypt(cipher: DES | TripleDES, x: Any, mode: str, iv: Any, padding: Any, rechunk: bool,
          numba_threads: Any, decrypt: bool) -> da.Array:
    """Validate everything, then build the graph (see ``numbades.dask.encrypt``)."""
    inputs.check_cipher(cipher)
    x = inputs.check_array(x, 1, "one stream; use encrypt_many for rows as messages")
    inputs.check_context(cipher, mode, iv, padding, decrypt)
    if mode in ("pcbc", "cfb1"):
        raise ValueError(f"numbades.dask has no {mode!r} (its chaining is not rebuilt "
                         "between chunks); call the cipher on the whole array")
    if padding not in (None, "pkcs7"):
        raise ValueError(f"numbades.dask pads with 'pkcs7' only, not {padding!r}")
    threads = check_numba_threads(numba_threads)
    padded = padding is not None
    _check_length(mode, x, padded, decrypt)
    x = inputs.block_aligned(x, rechunk)
    iv_bytes = None if iv is None else bytes(iv)
    return _build(cipher, x, mode, iv_bytes, padded, threads, decrypt)


def _check_length(mode: str, x: da.Array, padded: bool, decrypt: bool) -> None:
    """The length rules of one call on the whole stream: ECB and CBC without padding, and
    padded ciphertext (at least one block), are whole 8-byte blocks; padding needs bytes."""
    if padded and x.dtype.itemsize == 8:
        raise TypeError("padding works on bytes; a uint64 array is whole blocks (padding=None)")
    nbytes = x.shape[0] * x.dtype.itemsize
    if mode in WHOLE_BLOCKS and nbytes % inputs.BLOCK and not (padded and not decrypt):
        raise ValueError(
            f"x is {nbytes} bytes, not a multiple of the 8-byte block "
            f"({'padded ciphertext' if padded else f'mode {mode!r} without padding'})"
        )
    if padded and decrypt and nbytes == 0:
        raise ValueError("padded ciphertext is at least one block (8 bytes), got 0")


def _final_chunk(sizes: tuple[int, ...]) -> int:
    """The chunk that ends the data (padding goes there): the last non-empty one."""
    nonempty = [i for i, size in enumerate(sizes) if size]
    return nonempty[-1] if nonempty else len(sizes) - 1


def _build(cipher: DES | TripleDES, x: da.Array, mode: str, iv: bytes | None, padded: bool,
           threads: int | None, decrypt: bool) -> da.Array:
    key = graph.shared_cipher(cipher)
    sizes = x.chunks[0]
    final = _final_chunk(sizes)
    what = "decrypt" if decrypt else "encrypt"
    name = graph.layer_name(what, x.name, key.key, mode, iv, padded, threads)
    if mode in PARALLEL[decrypt]:
        layer = _independent(name, key.key, x, mode, iv, padded, threads, decrypt, final)
    else:
        layer = _chained(name, key.key, x, mode, iv, padded, threads, decrypt, final)
    out_sizes = list(sizes)
    if padded:
        out_sizes[final] = math.nan if decrypt else (sizes[final] // 8 + 1) * 8
    return graph.array(name, layer, [x, key], (tuple(out_sizes),), x.dtype)


def _independent(name: str, key: str, x: da.Array, mode: str, iv: bytes | None, padded: bool,
                 threads: int | None, decrypt: bool, final: int) -> dict:
    """One task per chunk; CBC/CFB/CFB-8 decryption adds a tail task per chunk it reads from."""
    layer: dict = {}
    tail_name = f"{name}-tail"
    offset = 0  # bytes before the chunk
    previous = None  # index of the last non-empty chunk so far
    for i, size in enumerate(x.chunks[0]):
        start_iv: Any = iv
        if mode == "ctr":
            start_iv = chaining.counter_at(iv, offset // inputs.BLOCK)
        elif mode != "ecb" and previous is not None and size:
            start_iv = (tail_name, previous)
            layer[start_iv] = (chaining.last_block, (x.name, previous))
        layer[(name, i)] = (tasks.crypt_chunk, key, (x.name, i), mode, decrypt, start_iv,
                            padded and i == final, threads)
        offset += size * x.dtype.itemsize
        if size:
            previous = i
    return layer


def _chained(name: str, key: str, x: da.Array, mode: str, iv: bytes, padded: bool,
             threads: int | None, decrypt: bool, final: int) -> dict:
    """A chain of links: link i needs only the chaining value link i - 1 returned."""
    layer: dict = {}
    link_name, state_name = f"{name}-link", f"{name}-state"
    state: Any = iv
    for i in range(len(x.chunks[0])):
        if i >= final:  # nothing after it needs a chaining value
            layer[(name, i)] = (tasks.crypt_chunk, key, (x.name, i), mode, decrypt, state,
                                padded and i == final, threads)
            continue
        layer[(link_name, i)] = (tasks.chain_step, key, (x.name, i), mode, decrypt, state,
                                 threads)
        layer[(name, i)] = (operator.getitem, (link_name, i), 0)
        layer[(state_name, i)] = (operator.getitem, (link_name, i), 1)
        state = (state_name, i)
    return layer
