"""crypt(3) for one hash and a few: numbades against glibc, and the table/bitslice crossover.

    python benchmarks/crypt3_small.py                  # both sections (~1 min on a warm cache)
    python benchmarks/crypt3_small.py --rounds 5 --skip-crossover

1. **One hash**: ``numbades.crypt("pw", setting)`` against glibc's
   ``crypt(3)`` through Python's ``crypt`` module (Python 3.12 at the
   latest), for a traditional salt and BSDi settings with 725 and
   262,143 iterations (the issue's `_zzz.CCCC`).  Calls of the two sides alternate, and each
   figure is the best of ``--rounds`` rounds, so load on a shared machine
   hits both alike; the ratio is glibc's time over numbades's (above 1:
   numbades faster).
2. **A few hashes**: ``crypt_many`` of a list against a loop of glibc's.
3. **Crossover** (where ``tuning.policy.CRYPT3_BITSLICE_MIN_ROWS`` comes
   from): N traditional hashes on the table engine (one after another)
   against the bitslice engine (a key and salt per lane), by N.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import numbades
from numbades.engines.registry import CRYPT3_ENGINES

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import crypt as libc  # removed in Python 3.13

SETTINGS = ("ab", "_J9..CCCC", "_zzz.CCCC")


def _best(call, number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        call()
    return (time.perf_counter() - start) / number


def one_hash(rounds: int) -> None:
    print("one hash: numbades.crypt against glibc crypt(3) (Python's crypt module)")
    for setting in SETTINGS:
        assert numbades.crypt("pw", setting) == libc.crypt("pw", setting)
        number = 200 if len(setting) == 2 else (20 if setting[1] == "J" else 1)
        ours, theirs = [], []
        for _ in range(rounds):
            theirs.append(_best(lambda s=setting: libc.crypt("pw", s), number))
            ours.append(_best(lambda s=setting: numbades.crypt("pw", s), number))
        g, n = min(theirs), min(ours)
        print(f"  {setting:10} glibc {g * 1e6:12.1f} us   numbades {n * 1e6:12.1f} us   "
              f"glibc/numbades {g / n:5.2f}")


def few_hashes(rounds: int) -> None:
    print("a few hashes: numbades.crypt_many(list) against a loop of glibc crypt(3)")
    for n, setting in ((5, "ab"), (20, "ab"), (5, "_J9..CCCC")):
        words = [f"pw{i}" for i in range(n)]
        assert numbades.crypt_many(words, setting) == [libc.crypt(w, setting) for w in words]
        ours, theirs = [], []
        for _ in range(rounds):
            theirs.append(_best(lambda w=words, s=setting: [libc.crypt(p, s) for p in w], 20))
            ours.append(_best(lambda w=words, s=setting: numbades.crypt_many(w, s), 20))
        g, m = min(theirs), min(ours)
        print(f"  {n:3} x {setting:10} glibc {g * 1e6:10.1f} us   numbades {m * 1e6:10.1f} us   "
              f"glibc/numbades {g / m:5.2f}")


def crossover(rounds: int) -> None:
    print("crossover: N traditional hashes, table engine against bitslice (hashes/s ratio)")
    rng = np.random.default_rng(0)
    table, bitslice = CRYPT3_ENGINES["table"], CRYPT3_ENGINES["bitslice"]
    bitslice.crypt3(np.zeros(1, np.uint64), np.zeros(1, np.uint64), 1, False)  # compile/load
    for n in (8, 16, 32, 64, 128, 256):
        keys = rng.integers(0, 2**63, n, dtype=np.uint64)
        salts = rng.integers(0, 4096, n).astype(np.uint64)
        assert (table.crypt3(keys, salts, 25, False) == bitslice.crypt3(keys, salts, 25, False)).all()
        t, b = [], []
        for _ in range(rounds):
            t.append(_best(lambda k=keys, s=salts: table.crypt3(k, s, 25, False), 5))
            b.append(_best(lambda k=keys, s=salts: bitslice.crypt3(k, s, 25, False), 5))
        print(f"  {n:5} hashes   table {min(t) * 1e3:8.3f} ms   bitslice {min(b) * 1e3:8.3f} ms   "
              f"bitslice speed-up {min(t) / min(b):5.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--skip-crossover", action="store_true")
    args = parser.parse_args()
    numbades.crypt("pw", "ab")  # compile or load the table kernels
    one_hash(args.rounds)
    few_hashes(args.rounds)
    if not args.skip_crossover:
        crossover(args.rounds)


if __name__ == "__main__":
    main()
