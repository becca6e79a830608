"""PCBC, CFB-1 and DESX against OpenSSL's libdes (``libcrypto.so.3`` through ctypes), one core.

    NUMBA_NUM_THREADS=1 python benchmarks/libdes_modes_report.py [--mib 4] [--repeats 5]

Each line: numbades' throughput and the ratio to the OpenSSL function doing
the same work on the same bytes, medians of ``--repeats`` timings, the two
sides alternating so machine load hits both alike:

- ``pcbc``: ``DES(key).encrypt(data, "pcbc", iv=iv)`` against ``DES_pcbc_encrypt``;
- ``desx-cbc``: ``DESX(key24).encrypt(data, "cbc", iv=iv)`` against ``DES_xcbc_encrypt``;
- ``cfb1``: ``DES(key).encrypt(data, "cfb1", iv=iv)`` against one
  ``DES_cfb_encrypt(numbits=1)`` call over the data spread one bit per byte
  (how OpenSSL's own ``des-cfb1`` drives it, minus its per-bit loop);
- ``cbc`` (context): the generated ``table`` chain kernel against ``DES_ncbc_encrypt``.
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import time

import numpy as np

import numbades

_SCHEDULE = ctypes.c_ubyte * 128
_BLOCK = ctypes.c_ubyte * 8


def _lib() -> ctypes.CDLL:
    return ctypes.CDLL("libcrypto.so.3")


def _schedule(lib, key: bytes):
    ks = _SCHEDULE()
    lib.DES_set_key_unchecked(_BLOCK.from_buffer_copy(key), ks)
    return ks


def _median_pair(ours, theirs, repeats: int) -> tuple[float, float]:
    a, b = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        ours()
        a.append(time.perf_counter() - t)
        t = time.perf_counter()
        theirs()
        b.append(time.perf_counter() - t)
    return statistics.median(a), statistics.median(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=4.0, help="MiB per call (CFB-1: 1/64 of it)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    lib = _lib()
    rng = np.random.default_rng(1)
    n = int(args.mib * 2**20) // 8 * 8
    data, iv, key = rng.bytes(n), rng.bytes(8), rng.bytes(8)
    key24 = rng.bytes(24)
    src, dst = ctypes.create_string_buffer(data, n), ctypes.create_string_buffer(n)
    ks = _schedule(lib, key)
    des, desx = numbades.DES(key), numbades.DESX(key24)
    small = n // 64
    bits = bytes(0x80 if (b >> (7 - j)) & 1 else 0 for b in data[:small] for j in range(8))
    bit_src, bit_dst = ctypes.create_string_buffer(bits, len(bits)), ctypes.create_string_buffer(
        len(bits))
    inw, outw = _BLOCK.from_buffer_copy(key24[8:16]), _BLOCK.from_buffer_copy(key24[16:])
    ks24 = _schedule(lib, key24[:8])
    cases = {
        "pcbc": (n, lambda: des.encrypt(data, "pcbc", iv=iv),
                 lambda: lib.DES_pcbc_encrypt(src, dst, ctypes.c_long(n), ks,
                                              _BLOCK.from_buffer_copy(iv), 1)),
        "desx-cbc": (n, lambda: desx.encrypt(data, "cbc", iv=iv),
                     lambda: lib.DES_xcbc_encrypt(src, dst, ctypes.c_long(n), ks24,
                                                  _BLOCK.from_buffer_copy(iv), inw, outw, 1)),
        "cfb1": (small, lambda: des.encrypt(data[:small], "cfb1", iv=iv),
                 lambda: lib.DES_cfb_encrypt(bit_src, bit_dst, 1, ctypes.c_long(len(bits)), ks,
                                             _BLOCK.from_buffer_copy(iv), 1)),
        "cbc": (n, lambda: des.encrypt(data, "cbc", iv=iv),
                lambda: lib.DES_ncbc_encrypt(src, dst, ctypes.c_long(n), ks,
                                             _BLOCK.from_buffer_copy(iv), 1)),
    }
    for _, ours, _ in cases.values():
        ours()  # compile or load the kernels before timing
    print(f"{'mode':10} {'numbades MB/s':>14} {'OpenSSL MB/s':>13} {'ratio':>6}")
    for name, (size, ours, theirs) in cases.items():
        a, b = _median_pair(ours, theirs, args.repeats)
        print(f"{name:10} {size / a / 1e6:14.2f} {size / b / 1e6:13.2f} {b / a:6.2f}")


if __name__ == "__main__":
    main()
