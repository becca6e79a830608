"""How many Numba threads one Dask task may use: one by default, so cores are not oversubscribed.

A Dask worker already runs one task per worker thread; a kernel that also
spread over Numba's thread pool (the bitslice ECB kernel does, from two
passes up, when Numba has more than one thread) would put ``worker threads
x Numba threads`` busy threads on the machine's cores.  Numba's thread count
is per calling thread (``numba.set_num_threads`` is thread-local), so each
task sets it for its own duration and puts it back afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numba

#: Numba threads per task unless the caller says otherwise.
DEFAULT_NUMBA_THREADS = 1


def check_numba_threads(threads: object) -> int | None:
    """A valid ``numba_threads=`` argument: a positive int, or None for Numba's own setting."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"numba_threads must be a positive int or None, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"numba_threads must be at least 1, got {threads}")
    return threads


@contextmanager
def numba_threads(threads: int | None) -> Iterator[None]:
    """Run the body with at most ``threads`` Numba threads in this thread (None: unchanged).

    Asking for more than the process has (``NUMBA_NUM_THREADS``) gives all it has.
    """
    if threads is None:
        yield
        return
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(before)
