"""Several cores for one call: the cached serial kernels, driven from a pool of threads.

Every bitslice kernel releases the GIL (``nogil=True``), so plain Python
threads run them in parallel, each over a contiguous range of whole passes
with its own scratch.  This replaces a ``parallel=True`` (prange) kernel:
Numba cannot safely cache those across changes of the thread count, so every
new process compiled one on its first large call; the serial kernels are
cached, so a fresh process with a warm cache compiles nothing.

The number of threads is Numba's (``NUMBA_NUM_THREADS``, or
``numba.set_num_threads`` in the calling thread), so the knob users know
keeps working; one thread means no pool at all.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba

#: Each thread gets at least this many passes: below that, handing work to
#: the pool (tens of microseconds) costs more than a second core saves.
MIN_PASSES_PER_THREAD = 8

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=max(1, numba.config.NUMBA_NUM_THREADS - 1),
                                       thread_name_prefix="numbades-bitslice")
        return _pool


def split(count: int, unit: int, min_units: int = MIN_PASSES_PER_THREAD) -> list[tuple[int, int]]:
    """``[0, count)`` as contiguous ranges of whole ``unit``s, one per thread that is worth it.

    One range (the whole) when one thread is configured or the work is small.
    """
    units = -(-count // unit)
    parts = max(1, min(numba.get_num_threads(), units // min_units))
    bounds = [min(count, (p * units // parts) * unit) for p in range(parts + 1)]
    return [(bounds[p], bounds[p + 1]) for p in range(parts)]


def run(work: Callable[[int, int], None], ranges: list[tuple[int, int]]) -> None:
    """``work(start, stop)`` for every range, the first on the calling thread, the rest in the pool."""
    if len(ranges) == 1:
        work(*ranges[0])
        return
    futures = [_executor().submit(work, a, b) for a, b in ranges[1:]]
    try:
        work(*ranges[0])
    finally:
        for future in futures:
            future.result()  # re-raises a worker's exception
