"""Kernels compiled or loaded once per worker process, at start-up rather than in the first tasks.

Numba compiles a kernel the first time a process calls it, or loads it from
its on-disk cache (``__pycache__`` beside numbades's sources, or
``NUMBA_CACHE_DIR``); either way it happens once per process.  Left to the
first tasks, every worker pays it in the middle of a computation, and a
fresh cluster's first chunks are slow for it.  :class:`WarmUpPlugin` does it
as each worker starts (workers that join later included); :func:`warm_up`
registers it on a cluster, or warms the calling process.

The warm-up runs what the tasks run, with their Numba thread limit: every
mode in both directions, single streams short (table engine) and long
(bitslice), and batches of few and many messages, for DES and Triple-DES.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from distributed.diagnostics.plugin import WorkerPlugin

from ..cipher import DES, TripleDES
from .threads import DEFAULT_NUMBA_THREADS, check_numba_threads, numba_threads

_MODES = ("ecb", "cbc", "cfb", "cfb8", "ofb", "ctr")
_MANY_MODES = ("ecb", "cbc", "cfb", "ofb", "ctr")
#: Bytes of a short stream (a table variant) and of a long one (bitslice under ``auto``).
_STREAM_SIZES = (64, 8 * 4096)
#: Messages in a batch: a table variant serves few, bitslice many (``auto``).
_BATCH_SIZES = (2, 256)
#: Throwaway keys (not weak, not degenerate): the kernels depend on types, not on key values.
_KEY = bytes(range(1, 25))

#: Seconds the last warm-up of this process took (what ``warm_up(client)`` reports).
last_seconds: float | None = None


def warm_this_process(variants: Sequence[str] = ("auto",),
                      threads: int | None = DEFAULT_NUMBA_THREADS) -> float:
    """Run every kernel the tasks would, so this process has them; returns the seconds taken."""
    global last_seconds
    started = time.perf_counter()
    rng = np.random.default_rng(0)
    iv = bytes(8)
    with numba_threads(threads):
        for variant in variants:
            for cipher in (DES(_KEY[:8], variant), TripleDES(_KEY, variant)):
                for size in _STREAM_SIZES:
                    data = rng.integers(0, 256, size, dtype=np.uint8)
                    for mode in _MODES:
                        if mode == "cfb8" and variant == "bitslice":
                            continue  # no bitslice path (refused by the cipher)
                        mode_iv = None if mode == "ecb" else iv
                        cipher.decrypt(cipher.encrypt(data, mode, iv=mode_iv), mode, iv=mode_iv)
                for messages in _BATCH_SIZES:
                    rows = rng.integers(0, 256, (messages, 16), dtype=np.uint8)
                    ivs = np.zeros((messages, 8), dtype=np.uint8)
                    for mode in _MANY_MODES:
                        mode_ivs = None if mode == "ecb" else ivs
                        cipher.decrypt_many(cipher.encrypt_many(rows, mode, ivs=mode_ivs), mode,
                                            ivs=mode_ivs)
    last_seconds = time.perf_counter() - started
    return last_seconds


def variant_names(variants: str | Sequence[str]) -> tuple[str, ...]:
    """One engine name or a sequence of names, as a tuple; each checked (``ValueError`` if unknown).

    ``TypeError`` for anything but a str or a sequence of str: a str is one
    name, never iterated into letters.
    """
    if isinstance(variants, str):
        names: tuple[Any, ...] = (variants,)
    elif isinstance(variants, Sequence) and not isinstance(variants, (bytes, bytearray)):
        names = tuple(variants)
    else:
        raise TypeError(f"variants must be an engine name or a list of names, not "
                        f"{type(variants).__name__}")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"an engine name is a str, not {type(name).__name__}")
        DES(bytes(8), name)  # a bad name is a ValueError here, not on the workers
    return names


def _last_seconds() -> float | None:
    return last_seconds


class WarmUpPlugin(WorkerPlugin):
    """A worker plugin that compiles or loads numbades's kernels as each worker starts.

    The warm-up runs in a thread, so the worker keeps answering the
    scheduler meanwhile (a cold compile takes a minute or more).
    """

    name = "numbades-warm-up"
    idempotent = False

    def __init__(self, variants: str | Sequence[str] = ("auto",),
                 numba_threads: int | None = DEFAULT_NUMBA_THREADS):
        self.variants = variant_names(variants)
        self.numba_threads = numba_threads

    async def setup(self, worker: Any) -> None:
        await asyncio.to_thread(warm_this_process, self.variants, self.numba_threads)


def warm_up(client: Any = None, *, variants: str | Sequence[str] = ("auto",),
            numba_threads: int | None = DEFAULT_NUMBA_THREADS) -> dict[str, float]:
    """Compile or load numbades's kernels on every worker of ``client`` (None: this process).

    Registers :class:`WarmUpPlugin`, so workers that join later warm up too,
    and returns the seconds each worker took, by worker address (``"local"``
    for this process).  ``variants``: the engines to prepare (``"auto"``
    covers what ``auto`` picks; name forced variants you use): one name or
    a list of names.
    """
    numba_threads = check_numba_threads(numba_threads)
    variants = variant_names(variants)
    if client is None:
        return {"local": warm_this_process(variants, numba_threads)}
    client.register_plugin(WarmUpPlugin(variants, numba_threads))
    return client.run(_last_seconds)
