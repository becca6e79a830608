"""asv benchmark suite for numbades (see docs/benchmarking.md).

Shared pieces of the suite: which engines and features the numbades under
test has (so one suite runs against old and new commits alike), lazily built
input buffers, and the timing helpers of the ``track_`` benchmarks.

asv runs every benchmark and parameter combination in a fresh process and
re-runs ``setup`` before each sample, so: nothing here compiles at import
time, inputs are built once per process on first use, and each benchmark's
``setup`` makes the timed call once first (the full-size call: ``auto``
picks its engine by size) so that Numba compilation, or loading from its
cache, never lands in a timed figure.  A feature missing from the
library raises ``NotImplementedError`` in ``setup``, which asv reports as
skipped (n/a) rather than failed.

asv takes a smaller number to be better for every benchmark (that is what
``asv continuous`` and ``asv compare`` flag as a regression), so throughput is
reported as nanoseconds per byte (1000 / MB/s) and key set-up as microseconds
per key, never as rates.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable

import numpy as np

KEY8 = bytes.fromhex("0123456789abcdef")
KEY24 = bytes.fromhex("0123456789abcdef23456789abcdef01456789abcdef0123")
IV = bytes.fromhex("1234567890abcdef")

# Batch sizes: parameter values are these labels, so the asv pages read "4 KiB".
SIZES: dict[str, int] = {"64 B": 64, "4 KiB": 4 * 1024, "1 MiB": 1024 * 1024}
LARGE = 1024 * 1024

_buffers: dict[int, np.ndarray] = {}


def variants() -> list[str]:
    """Engines of the numbades under test (just ``table`` if it cannot say)."""
    try:
        import numbades

        return list(numbades.variants())
    except Exception:  # noqa: BLE001 - an old or broken commit must not break discovery
        return ["table"]


def require(condition: bool, what: str) -> None:
    """Skip the benchmark (asv: n/a) when the library lacks ``what``."""
    if not condition:
        raise NotImplementedError(f"not available in this numbades: {what}")


def library():
    """The numbades under test, or skip (n/a) on commits from before its cipher API.

    A numbades that does not import is a broken commit, not a missing
    feature: the ``ImportError`` fails the benchmark.
    """
    import numbades

    require(hasattr(numbades, "DES"), "numbades.DES")
    return numbades


def one_numba_thread() -> None:
    """Limit Numba's parallel kernels to one thread: every figure is one core's."""
    import numba

    numba.set_num_threads(1)


def data(nbytes: int) -> np.ndarray:
    """A deterministic pseudo-random uint8 buffer of ``nbytes``, built once per process."""
    buf = _buffers.get(nbytes)
    if buf is None:
        rng = np.random.default_rng(nbytes)
        buf = _buffers[nbytes] = rng.integers(0, 256, nbytes, dtype=np.uint8)
    return buf


#: The messages with which a commit says it lacks a mode or a keyword argument.
_ABSENT = re.compile(r"^unknown mode '|unexpected keyword argument '(mode|iv|out|ivs)'|"
                     r"is not available for many messages")


def unsupported(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a small warm call, says the library lacks a feature.

    ``NotImplementedError`` always; a ``ValueError`` only when it is numbades's
    "unknown mode" refusal, a ``TypeError`` only when a keyword the call uses
    does not exist yet.  Any other error is a bug in a feature that exists and
    must fail the benchmark, not skip it.
    """
    if isinstance(exc, NotImplementedError):
        return True
    return isinstance(exc, (TypeError, ValueError)) and bool(_ABSENT.search(str(exc)))


def seconds_per_call(call: Callable[[], object], budget: float = 0.3, repeats: int = 3) -> float:
    """Median seconds per ``call`` over ``repeats`` timed loops.

    Each loop runs ``call`` for about ``budget / repeats`` seconds and at least once.
    """
    samples = []
    slice_ = budget / repeats
    for _ in range(repeats):
        calls = 0
        start = time.perf_counter()
        while True:
            call()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= slice_:
                break
        samples.append(elapsed / calls)
    return statistics.median(samples)


def seconds(call: Callable[[], object]) -> float:
    """Wall-clock seconds of one ``call``."""
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def interleaved(calls: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median seconds per call, after one untimed call each, the calls taken in turn
    so that drift (a machine busy with other work) hits them alike.

    Used by the comparison scripts beside the suite (``bitslice_report.py``,
    ``dask_scaling.py``), not by asv itself.
    """
    for call in calls.values():
        call()
    samples: dict[str, list[float]] = {k: [] for k in calls}
    for _ in range(repeats):
        for k, call in calls.items():
            samples[k].append(seconds(call))
    return {k: statistics.median(v) for k, v in samples.items()}


def ns_per_byte(call: Callable[[], object], nbytes: int, budget: float = 0.3) -> float:
    """Median nanoseconds per byte of ``call``, which processes ``nbytes``.

    Lower is better, as asv assumes; MB/s (10**6 bytes/s) is 1000 / this figure.
    """
    return seconds_per_call(call, budget) / nbytes * 1e9


def reset_peak_rss() -> None:
    """Restart the process's peak-RSS count from its current size (Linux; else no-op).

    asv's ``peakmem_`` figure is the process's lifetime peak (``ru_maxrss``), so
    without this a cold Numba cache would put the compiler's memory, spent in
    ``setup``, into the figure.  Writing 5 to ``/proc/self/clear_refs`` resets
    it (Linux 4.0+); elsewhere the figure includes ``setup``.
    """
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
