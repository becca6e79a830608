#!/usr/bin/env python
"""numbades against its peers, in one run, on one core: ``python benchmarks/compare.py``.

Measures (median of several repeats, 32 MiB per call unless ``--size``):

* DES-ECB encryption with every engine;
* DES-CBC encrypt, 3DES-CBC encrypt, DES-CTR, DES-CBC decrypt (engine ``auto``);
* multi-message CBC: 1024 messages of 4 KiB in one ``encrypt_many`` call;
* the bitslice engine with 1 and 2 threads;
* MACs (``numbades.mac``, ``benchmarks/mac_rates.py``): many messages, key
  arrays and one long message, against DES-ECB, psec and OpenSSL's
  ``DES_cbc_cksum``;

alongside ``openssl speed -evp des-ecb / des-cbc / des-ede3-cbc`` and
pycryptodome, printing numbades's ratio to each; then the first-call cost
(import + first encrypt in a fresh process) with a cold and a warm Numba cache.

Single-core figures: Numba is limited to one thread (``NUMBA_NUM_THREADS=1``,
set before it is imported) and, where the OS allows, this process and the
openssl it starts are pinned to the same CPU.  The two bitslice rows are
measured in child processes allowed every CPU (not pinned): the 1-thread row
is still one core's work; the 2-thread row is two cores' work printed beside
one-core peers, and its label says so.  This is a plain script (no asv
needed) that uses numbades's public API and its command line's measuring
helpers (``numbades.cli.measure``, ``numbades.cli.peers``); run it with
numbades installed (``pip install -e .``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

if __name__ == "__main__":
    os.environ["NUMBA_NUM_THREADS"] = os.environ.get("COMPARE_CHILD_THREADS", "1")

import numpy as np
from benchmarks.bench_compile import cold_then_warm  # the asv suite, beside this script
from mac_rates import print_rows as print_mac_rows  # beside this script

import numbades
from numbades.cli.measure import IV, KEY8, KEY24, format_size, machine_line, parse_size
from numbades.cli.peers import openssl_speed

MiB = 1024 * 1024
MANY = (1024, 4096)  # messages x bytes for encrypt_many

Call = Callable[[], object]


# ---------------------------------------------------------------- timing


def median_rate(call: Call, nbytes: int, repeats: int) -> float:
    """Median MB/s (10**6 bytes/s) of ``repeats`` timed calls, after one warm call."""
    call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return nbytes / statistics.median(times) / 1e6


def pin_to_one_cpu() -> str:
    """Pin this process (and the openssl it starts) to one CPU; say which."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
    except (AttributeError, OSError):
        return "not pinned (no CPU affinity on this OS)"
    return f"pinned to CPU {cpus[-1]}"


# ---------------------------------------------------------------- numbades


def numbades_call(kind: str, nbytes: int, variant: str = "auto") -> Call:
    """A no-argument numbades call for row ``kind``."""
    src = np.frombuffer(np.random.default_rng(1).bytes(nbytes), dtype=np.uint8)
    dst = np.empty_like(src)
    if kind == "3des-cbc":
        cipher = numbades.TripleDES(KEY24)
    else:
        cipher = numbades.DES(KEY8, variant=variant)
    if kind == "cbc-many":
        count, size = MANY
        block = src[: count * size].reshape(count, size)
        ivs = np.frombuffer(IV * count, dtype=np.uint8).reshape(count, 8)
        return lambda: cipher.encrypt_many(block, mode="cbc", ivs=ivs)
    mode = {"ecb": "ecb", "des-cbc": "cbc", "3des-cbc": "cbc", "ctr": "ctr", "cbc-dec": "cbc"}[kind]
    fn = cipher.decrypt if kind == "cbc-dec" else cipher.encrypt
    kwargs = {"mode": mode} if mode == "ecb" else {"mode": mode, "iv": IV}
    return lambda: fn(src, out=dst, **kwargs)


# ---------------------------------------------------------------- pycryptodome


def pycryptodome_call(kind: str, nbytes: int) -> Call | None:
    """The same work through pycryptodome, or None where it is missing."""
    try:
        from Crypto.Cipher import DES, DES3
    except ImportError:
        return None
    data = bytes(nbytes)
    out = bytearray(nbytes)
    if kind == "ecb":
        c = DES.new(KEY8, DES.MODE_ECB)
        return lambda: c.encrypt(data, output=out)
    if kind == "ctr":
        return lambda: DES.new(KEY8, DES.MODE_CTR, nonce=IV[:4]).encrypt(data, output=out)
    if kind == "3des-cbc":
        return lambda: DES3.new(KEY24, DES3.MODE_CBC, iv=IV).encrypt(data, output=out)
    if kind == "cbc-dec":
        return lambda: DES.new(KEY8, DES.MODE_CBC, iv=IV).decrypt(data, output=out)
    if kind == "cbc-many":
        count, size = MANY
        msg, msg_out = data[:size], bytearray(size)

        def many() -> None:
            for _ in range(count):
                DES.new(KEY8, DES.MODE_CBC, iv=IV).encrypt(msg, output=msg_out)

        return many
    return lambda: DES.new(KEY8, DES.MODE_CBC, iv=IV).encrypt(data, output=out)


# row kind -> (openssl cipher, decrypt?); openssl has no DES-CTR.
OPENSSL_CIPHER = {
    "ecb": ("des-ecb", False),
    "des-cbc": ("des-cbc", False),
    "3des-cbc": ("des-ede3-cbc", False),
    "cbc-dec": ("des-cbc", True),
}


# ---------------------------------------------------------------- child processes


def bitslice_child(threads: int, nbytes: int, repeats: int) -> float | str:
    """Bitslice MB/s measured in a child process given ``threads`` Numba threads."""
    env = {**os.environ, "COMPARE_CHILD_THREADS": str(threads)}
    cmd = [
        sys.executable,
        __file__,
        "--child-bitslice",
        str(threads),
        "--size",
        str(nbytes),
        "--repeats",
        str(repeats),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        return f"child failed: {out.stderr.strip().splitlines()[-1:] or out.returncode}"
    return float(out.stdout.strip().splitlines()[-1])


def run_bitslice_child(threads: int, nbytes: int, repeats: int) -> int:
    """Entry point of :func:`bitslice_child`'s process: print one MB/s figure."""
    import numba

    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))
    numba.set_num_threads(threads)
    print(median_rate(numbades_call("ecb", nbytes, "bitslice"), nbytes, repeats))
    return 0


# ---------------------------------------------------------------- report


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if not a or not b else f"{a / b:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--size", type=parse_size, default=32 * MiB, help="bytes per call (default 32M)"
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per figure")
    parser.add_argument("--openssl-seconds", type=int, default=2)
    parser.add_argument("--child-bitslice", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_bitslice:
        return run_bitslice_child(args.child_bitslice, args.size, args.repeats)

    import numba

    numba.set_num_threads(1)
    pinned = pin_to_one_cpu()
    n = args.size
    print(f"numbades compare - {machine_line()}")
    print(
        f"{format_size(n)} per call, median of {args.repeats}; one thread, {pinned}; "
        f"MB/s = 10^6 bytes/s; openssl speed -bytes 16384 -seconds {args.openssl_seconds}"
    )
    print()

    peers: dict[str, tuple[float | None, float | None]] = {}

    def peer(kind: str) -> tuple[float | None, float | None]:
        if kind not in peers:
            cipher, decrypt = OPENSSL_CIPHER.get(kind, (None, False))
            ossl = (
                openssl_speed(cipher, 16384, args.openssl_seconds, decrypt=decrypt)
                if cipher
                else None
            )
            size = MANY[0] * MANY[1] if kind == "cbc-many" else n
            call = pycryptodome_call(kind, size)
            pyc = median_rate(call, size, args.repeats) if call else None
            peers[kind] = (None if ossl is None else ossl / 1e6, pyc)
        return peers[kind]

    rows: list[tuple[str, float | None, str]] = []
    header = f"{'what':<34}{'numbades':>11}{'openssl':>11}{'pycrypto':>11}{'/openssl':>10}{'/pycrypto':>11}"
    print(header)
    print("-" * len(header))

    def row(label: str, kind: str, rate: float | None, note: str = "") -> None:
        ossl, pyc = peer(kind)
        print(
            f"{label:<34}{_fmt(rate):>11}{_fmt(ossl):>11}{_fmt(pyc):>11}"
            f"{_ratio(rate, ossl):>10}{_ratio(rate, pyc):>11}{'  ' + note if note else ''}"
        )
        rows.append((label, rate, note))
        sys.stdout.flush()

    def measure(label: str, kind: str, nbytes: int, variant: str = "auto") -> None:
        row(label, kind, median_rate(numbades_call(kind, nbytes, variant), nbytes, args.repeats))

    for variant in numbades.variants():
        measure(f"DES-ECB {variant}", "ecb", n, variant)
    measure("DES-CBC encrypt", "des-cbc", n)
    measure("3DES-CBC encrypt", "3des-cbc", n)
    measure("DES-CTR", "ctr", n)
    measure("DES-CBC decrypt", "cbc-dec", n)
    measure(f"CBC {MANY[0]} x {format_size(MANY[1])} encrypt_many", "cbc-many", MANY[0] * MANY[1])
    for threads, label in ((1, "DES-ECB bitslice, 1 thread, unpinned"),
                           (2, "DES-ECB bitslice, 2 threads (2 cores)")):
        rate = bitslice_child(threads, n, args.repeats)
        if isinstance(rate, str):
            print(f"{label:<34}{rate}")
        else:
            row(label, "ecb", rate)
    print("\nPeers run the same cipher and mode (DES-ECB for every ECB row; openssl speed")
    print("-decrypt for CBC decrypt; openssl has no DES-CTR). The encrypt_many row's")
    print("pycryptodome figure is a loop making one CBC cipher object per message.")
    print("The bitslice rows run in child processes allowed every CPU; the 2-thread row")
    print("is two cores' work against the peers' one core (its ratios are not per core).")

    print()
    print_mac_rows(lambda call, nbytes: median_rate(call, nbytes, args.repeats))

    print("\nFirst call in a fresh process (import numbades; DES(key).encrypt 4 KiB):")
    try:
        cost = cold_then_warm("auto")
    except subprocess.CalledProcessError as exc:
        print(f"  failed: {exc.stderr.strip().splitlines()[-1:]}")
    else:
        for state, times in cost.items():
            imp, first = times["import"], times["first_encrypt"]
            print(
                f"  {state} Numba cache: import {imp:.2f} s, first encrypt {first:.2f} s, "
                f"total {imp + first:.2f} s"
            )
    print("  (every first-call and compile figure, per build: python -m numbades speed --startup)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
