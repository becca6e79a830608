"""Where ``auto`` should switch from a table variant to the bitslice engine.

    NUMBA_NUM_THREADS=1 python benchmarks/crossover.py [--variant table] [--repeats 7]

Times one ECB call per message size (whole API path, as a user calls it) for
a table variant and for ``bitslice``, side by side in one process, and
prints the ratio and the smallest size from which bitslice wins.  A bitslice
call costs one full pass (64 x LANES blocks) however short the message, so the
crossover is where a table variant's per-block time adds up to one pass.
``numbades.tuning.policy.BITSLICE_THRESHOLD_BLOCKS`` records the figure
measured on the reference machines; ``python -m numbades opts --save``
records per-machine choices that ``auto`` prefers over it.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import numbades
from numbades.tuning import policy

SIZES = (16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 2048, 4096)


def seconds_per_call(cipher: numbades.DES, n_blocks: int, repeats: int) -> float:
    buf = np.zeros(8 * n_blocks, dtype=np.uint8)
    cipher.encrypt(buf, out=buf)  # compile / warm
    calls = max(3, 100_000 // n_blocks)
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            cipher.encrypt(buf, out=buf)
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tables = [v for v in numbades.variants() if v.startswith("table")]
    parser.add_argument("--variant", default="table", choices=tables)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    key = bytes.fromhex("133457799bbcdff1")
    table = numbades.DES(key, variant=args.variant)
    bitslice = numbades.DES(key, variant="bitslice")
    print(f"{'blocks':>7} {args.variant + ' us':>14} {'bitslice us':>12} {'table/bitslice':>15}")
    crossover = None
    for n in SIZES:
        t = seconds_per_call(table, n, args.repeats)
        b = seconds_per_call(bitslice, n, args.repeats)
        print(f"{n:>7} {t * 1e6:>14.1f} {b * 1e6:>12.1f} {t / b:>15.2f}")
        if crossover is None and t > b:
            crossover = n
    print(
        f"bitslice is faster from {crossover} blocks (current threshold: "
        f"{policy.BITSLICE_THRESHOLD_BLOCKS})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
