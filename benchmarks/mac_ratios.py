"""Issue 36's two MAC ratios on one core, by CPU time: ``python benchmarks/mac_ratios.py``.

- ``mac.retail`` over 10**5 messages of 64 bytes under one 16-byte key
  against bitslice DES-ECB on the same 6.4 MB (target >= 0.8x);
- ``mac.retail`` with a key per message ((10**5, 16) keys) against the same
  call under one key (target >= 0.5x);
- ``mac.cbc`` under one DES key against DES-ECB (8 DES per message each).

Every call is timed by the calling thread's CPU time
(``time.thread_time``), with Numba limited to one thread and this process
pinned to one CPU, so time slices lost to other processes on a shared
machine do not count.  The calls take turns (``--samples`` times each) and
the figures are medians.  ``benchmarks/mac_rates.py`` (in ``compare.py``)
has the wall-clock MAC rows against psec and OpenSSL.
"""

from __future__ import annotations

import os

os.environ["NUMBA_NUM_THREADS"] = "1"  # before Numba is imported
os.environ.setdefault("NUMBADES_BACKGROUND_COMPILE", "0")  # compile here, not in a child

import argparse
import contextlib
import statistics
import time
from collections.abc import Callable

import numpy as np

import numbades
from numbades import mac

MESSAGES, MESSAGE_BYTES = 100_000, 64
KEY8 = bytes.fromhex("0123456789abcdef")
KEY16 = bytes.fromhex("0123456789abcdeffedcba9876543210")


def calls() -> dict[str, Callable[[], object]]:
    """The calls measured, by name, on the same random messages."""
    rng = np.random.default_rng(36)
    msgs = rng.integers(0, 256, (MESSAGES, MESSAGE_BYTES), dtype=np.uint8)
    keys16 = rng.integers(0, 256, (MESSAGES, 16), dtype=np.uint8)
    des = numbades.DES(KEY8, variant="bitslice")
    flat = msgs.reshape(-1)
    out = np.empty_like(flat)
    return {
        "ecb": lambda: des.encrypt(flat, out=out),
        "retail": lambda: mac.retail(KEY16, msgs),
        "retail keys": lambda: mac.retail(keys16, msgs),
        "cbc": lambda: mac.cbc(KEY8, msgs),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=20, help="timed calls of each")
    args = parser.parse_args(argv)
    with contextlib.suppress(AttributeError, OSError):  # one CPU, where the OS allows
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    work = calls()
    for call in work.values():  # compile or load the kernels
        call()
    seconds: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(args.samples):
        for name, call in work.items():
            start = time.thread_time()
            call()
            seconds[name].append(time.thread_time() - start)
    rate = {name: MESSAGES * MESSAGE_BYTES / statistics.median(s) / 1e6
            for name, s in seconds.items()}
    for name, r in rate.items():
        print(f"{name:<12}{r:9.1f} MB/s (CPU time, median of {args.samples})")
    for a, b, target in (("retail", "ecb", 0.8), ("retail keys", "retail", 0.5),
                         ("cbc", "ecb", None)):
        want = f"  (target >= {target}x)" if target else ""
        print(f"{a} / {b}: {rate[a] / rate[b]:.3f}x{want}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
