"""Key arrays and crypt(3): the issue's ratios, each measured side by side in one run, one core.

    python -m pip install -e ".[bench]"                   # pycryptodome, the peer
    NUMBA_NUM_THREADS=1 python benchmarks/key_arrays_report.py            # everything (~3 min)
    python benchmarks/key_arrays_report.py --keys 64K --hashes 16K --repeats 3   # quicker
    python benchmarks/key_arrays_report.py --skip-john                    # without John the Ripper

Sections (each figure a median of ``--repeats`` timings, calls of the two
sides alternating so machine load hits both alike):

1. **ECB, one block under each of N keys** (``DESArray(keys, "bitslice")``)
   against the single-key bitslice ECB block rate on the same number of
   blocks, and against a pycryptodome loop (``DES.new(key_i).encrypt``, timed
   on a sample of keys).
2. **Crossover**: table variant row by row against bitslice with one key per
   lane, by number of keys, one and 16 blocks per row (where
   ``tuning.policy.KEY_ROWS_BITSLICE_MIN_ROWS`` comes from).
3. **crypt(3)**: ``crypt_many`` hashes/s (bytes arrays in, and lists of str
   in, and the ratio of the two), against glibc's ``crypt(3)`` in a loop
   (Python's ``crypt`` module, or passlib's ``os_crypt`` backend), and against
   ``OMP_NUM_THREADS=1 john --test=5 --format=descrypt``
   ("Many salts", c/s real, or c/s virtual with ``--cpu-time``); what the per-lane salt selects cost (the most
   that grouping hashes by salt could save).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

import numbades
from numbades.des.crypt3 import ALPHABET
from numbades.engines.bitslice import crypt3, lane_keys
from numbades.engines.bitslice.layout.transpose import BLOCKS, LANES
from numbades.engines.bitslice.rounds import lane_rounds as rounds
from numbades.tuning import machine


def _size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20}
    return int(text[:-1]) * units[text[-1].upper()] if text[-1].upper() in units else int(text)


#: The clock of every figure: wall clock, or with ``--cpu-time`` this process's CPU time
#: (on a machine shared with other jobs, what a call cost rather than how long it waited).
_clock = [time.perf_counter]


def _alternate(calls: dict, repeats: int) -> dict[str, float]:
    """Median seconds of each call, the calls run in turn ``repeats`` times."""
    for call in calls.values():
        call()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            t = _clock[0]()
            call()
            times[name].append(_clock[0]() - t)
    return {name: statistics.median(ts) for name, ts in times.items()}


def ecb_section(n: int, repeats: int) -> None:
    rng = np.random.default_rng(1)
    keys = rng.integers(0, 256, (n, 8), dtype=np.uint8)
    blocks = rng.integers(0, 2**63, n, dtype=np.uint64)
    out = np.empty_like(blocks)
    arr = numbades.DESArray(keys, "bitslice")
    kp = rounds.key_planes(numbades.DES(bytes(keys[0]))._schedule.round_keys)
    t = _alternate({
        "per-key": lambda: arr.encrypt(blocks, out=out),
        "one key": lambda: rounds.ecb(blocks, out, kp, False),
    }, repeats)
    from Crypto.Cipher import DES

    sample = min(n, 20000)
    key_bytes = [bytes(k) for k in keys[:sample]]
    data = [int(b).to_bytes(8, "big") for b in blocks[:sample]]

    def loop() -> None:
        for k, d in zip(key_bytes, data, strict=True):
            DES.new(k, DES.MODE_ECB).encrypt(d)

    t_loop = _alternate({"loop": loop}, max(3, repeats // 2))["loop"] / sample
    per_key = n / t["per-key"]
    print(f"ECB, one block under each of {n} keys (bitslice, a key per lane):")
    print(f"  DESArray.encrypt        {per_key / 1e6:8.2f} M blocks/s")
    print(f"  one-key bitslice ECB    {n / t['one key'] / 1e6:8.2f} M blocks/s   "
          f"ratio {t['one key'] / t['per-key']:.2f}x  (target >= 0.7, goal >= 0.9)")
    print(f"  pycryptodome loop       {1 / t_loop / 1e6:8.3f} M blocks/s   "
          f"ratio {per_key * t_loop:.0f}x  (target >= 100)  [{sample} keys timed]")


def crossover_section(repeats: int) -> None:
    rng = np.random.default_rng(2)
    print("Crossover, table variant row by row vs bitslice a key per lane (CBC encrypt):")
    for nblocks in (1, 16):
        cells = []
        for n in (16, 32, 48, 64, 96, 128, 256):
            keys = rng.integers(0, 256, (n, 8), dtype=np.uint8)
            data = rng.integers(0, 2**63, (n, nblocks), dtype=np.uint64)
            ivs = rng.integers(0, 2**63, n, dtype=np.uint64)
            table, bits = numbades.DESArray(keys, "table"), numbades.DESArray(keys, "bitslice")
            t = _alternate({"t": lambda a=table, d=data, v=ivs: a.encrypt(d, "cbc", ivs=v),
                            "b": lambda a=bits, d=data, v=ivs: a.encrypt(d, "cbc", ivs=v)},
                           repeats * 3)
            cells.append(f"{n}:{t['t'] / t['b']:.2f}")
        print(f"  {nblocks:2d} block(s) per row, keys:bitslice speed-up  " + "  ".join(cells))


def _john(seconds: int) -> float | None:
    john = shutil.which("john") or ("/usr/sbin/john" if os.path.exists("/usr/sbin/john") else None)
    if john is None:
        return None
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "OMP_NUM_THREADS": "1", "HOME": home}
        run = subprocess.run([john, f"--test={seconds}", "--format=descrypt"], env=env, cwd=home,
                             capture_output=True, text=True, timeout=120, check=False)
    kind = "virtual" if _clock[0] is time.process_time else "real"
    match = re.search(rf"Many salts:.*?([\d.]+)([KM]?) c/s {kind}", run.stdout + run.stderr)
    if not match:
        return None
    return float(match.group(1)) * {"": 1, "K": 1e3, "M": 1e6}[match.group(2)]


def _glibc_crypt():
    """glibc's crypt(3) as ``f(password, salt)``: Python's ``crypt`` module (up to 3.12), or passlib."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import crypt as libc  # removed in Python 3.13

            return libc.crypt
        except ImportError:
            pass
    try:
        from passlib.hash import des_crypt

        des_crypt.set_backend("os_crypt")
    except (ImportError, ValueError, RuntimeError):  # no passlib, or no os_crypt backend
        return None
    return lambda w, s: des_crypt.using(salt=s).hash(w)


def crypt_section(n: int, repeats: int, skip_john: bool) -> None:
    rng = np.random.default_rng(3)
    passwords = np.array([bytes(rng.integers(33, 127, 8).astype(np.uint8)) for _ in range(n)])
    salts = np.array([(ALPHABET[a] + ALPHABET[b]).encode() for a, b in
                      rng.integers(0, 64, (n, 2))])
    words = [p.decode() for p in passwords.tolist()]
    texts = [s.decode() for s in salts.tolist()]
    glibc = _glibc_crypt()
    sample = min(n, 5000)

    def glibc_loop() -> None:
        for w, s in zip(words[:sample], texts[:sample], strict=True):
            glibc(w, s)

    t = _alternate({"arrays": lambda: numbades.crypt_many(passwords, salts),
                    "lists": lambda: numbades.crypt_many(words, texts)}, repeats)
    t_glibc = _alternate({"glibc": glibc_loop}, max(3, repeats // 2))["glibc"] / sample if glibc \
        else None
    arrays, lists = n / t["arrays"], n / t["lists"]
    print(f"crypt(3), traditional DES, {n} hashes, random salts:")
    print(f"  crypt_many (bytes arrays)  {arrays / 1e6:7.2f} M hashes/s")
    print(f"  crypt_many (lists of str)  {lists / 1e6:7.2f} M hashes/s")
    print(f"  lists / arrays             {lists / arrays:7.2f}x   (target >= 0.7)")
    if t_glibc:
        print(f"  glibc crypt(3), a loop     {1 / t_glibc / 1e6:7.3f} M hashes/s   "
              f"ratio {arrays * t_glibc:.0f}x arrays, {lists * t_glibc:.0f}x lists (target >= 100)")
    else:
        print("  glibc crypt(3)             not available (Python's crypt module or passlib)")
    # John the Ripper's self-test runs for ~10 s: alternate it with crypt_many
    # (same load on both), three rounds, and take the median of the ratios.
    ratios, johns = [], []
    for _ in range(0 if skip_john else 3):
        john = _john(5)
        if not john:
            break
        here = n / _alternate({"arrays": lambda: numbades.crypt_many(passwords, salts)},
                              repeats)["arrays"]
        johns.append(john)
        ratios.append(here / john)
    if ratios:
        print(f"  john --test=5 descrypt     {statistics.median(johns) / 1e6:7.2f} M c/s (Many "
              f"salts, 1 thread)   ratio {statistics.median(ratios):.2f}x arrays "
              f"(per round {', '.join(f'{r:.2f}' for r in ratios)}), "
              f"{lists / statistics.median(johns):.2f}x lists (target >= 1.5)")
    else:
        print("  john --test=5 descrypt     not available (apt-get install john)")
    # What the per-lane salt selects cost.  Traditional salts select 24 of the 48
    # S-box input bits (S-boxes 1, 2, 5, 6); BSDi's kernel selects all 48.  The
    # difference of the two kernels is the price of 24 selected bits, so the
    # traditional kernel without its selects would take about r12 - (r24 - r12):
    # the most that grouping hashes by salt (an E renaming per pass) could save.
    table = lane_keys.key_table(((0, False),))
    kp = rng.integers(0, 2**63, 88 * LANES, dtype=np.uint64)
    work = np.zeros(BLOCKS, dtype=np.uint64)
    t = _alternate({"r12": lambda: crypt3._rounds(table, kp, 25, work, False),
                    "r24": lambda: crypt3._rounds(table, kp, 25, work, True)}, repeats * 4)
    bound = t["r12"] / max(2 * t["r12"] - t["r24"], 1e-12)
    print(f"  salt selects: 48 selected bits cost {t['r24'] / t['r12']:.2f}x the 24 of "
          f"traditional salts; so the traditional selects cost ~{bound:.2f}x rounds without "
          "them (the most grouping by salt could save, with >= 2048 hashes per salt)")


def _target() -> str:
    """What the kernels are built for (``NUMBA_CPU_NAME``: an AVX2 build on an AVX-512 host)."""
    from numbades.engines.bitslice.cpu import target

    name = os.environ.get("NUMBA_CPU_NAME", "host")
    return f"{name}, {'AVX-512' if target.AVX512 else 'no AVX-512'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", default="1M", help="keys for the ECB section (default 1M)")
    parser.add_argument("--hashes", default="64K", help="hashes for crypt (default 64K)")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--skip-john", action="store_true")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time CPU, not wall clock (john: c/s virtual): for shared machines")
    parser.add_argument("--skip-crossover", action="store_true")
    parser.add_argument("--skip-ecb", action="store_true")
    parser.add_argument("--skip-crypt", action="store_true")
    args = parser.parse_args(argv)
    if args.cpu_time:
        _clock[0] = time.process_time
    print(f"{machine.os_name()} - {machine.cpu_model()} - {machine.toolchain()}")
    print(f"Python {sys.version.split()[0]}, numbades {numbades.__version__}, "
          f"AVX-512: {machine.has_avx512()} (compile target: {_target()}), "
          f"load average {os.getloadavg()[0]:.2f}")
    if not args.skip_ecb:
        ecb_section(_size(args.keys), args.repeats)
    if not args.skip_crossover:
        crossover_section(args.repeats)
    if not args.skip_crypt:
        crypt_section(_size(args.hashes), args.repeats, args.skip_john)
    print(f"load average at the end {os.getloadavg()[0]:.2f} (2 cores; above ~1 means shared)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
