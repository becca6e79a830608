"""Card, PIN and EMV functions of numbades.payments over 10**5 rows, against their oracles.

For each function: rows/s of one batch call (the best of ``--repeats`` after
a warm call), rows/s of a Python loop of its oracle (psec or pyemv, the
better of two loops over ``--oracle-rows`` rows), the ratio (issue 38's target: >= 100x), the DES
operations each row needs, and the DES-operation rate against the one-key
bitslice DES-ECB block rate measured in the same run (target: >= 0.3x), and
the same rate for the function's cipher calls alone (the public cipher
objects on blocks of the same shape: what the digit work around them costs).

One core: Numba is limited to one thread (set before it is imported) and the
process is pinned to one CPU where the OS allows.  Run from the source tree,
with the test extra (psec and pyemv, the oracles):

    python -m pip install -e ".[test]"        # psec and pyemv (the oracles are test dependencies)
    python benchmarks/payments_cards_report.py
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np

import numbades
from numbades import mac, payments
from numbades.cli.measure import machine_line

KEY16 = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
KEY = np.frombuffer(KEY16, np.uint8)


def best_seconds(call: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` timed calls after a warm call (the machine is shared:
    the best time is the one least disturbed)."""
    call()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def loop_seconds_per_row(one: Callable[[int], object], rows: int) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one(0)
        best = float("inf")
        for _ in range(2):
            start = time.perf_counter()
            for i in range(rows):
                one(i)
            best = min(best, time.perf_counter() - start)
        return best / rows


def cases(n: int, rng: np.random.Generator):
    """(label, DES ops per row, our call, its cipher calls alone, oracle name,
    oracle call for row i)."""
    import psec
    from pyemv import ac, kd

    pans = np.array(["".join(map(str, r)) for r in rng.integers(0, 10, (n, 16))])
    pins = np.array([f"{v:04d}" for v in rng.integers(0, 10000, n)])
    expiries = np.array([f"{v:04d}" for v in rng.integers(0, 10000, n)])
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    atcs = rng.integers(0, 256, (n, 2), dtype=np.uint8)
    data = rng.integers(0, 256, (n, 29), dtype=np.uint8)  # the 10 tags of Book 2's minimum
    arqcs = rng.integers(0, 256, (n, 8), dtype=np.uint8)
    arc = b"00"
    table = "0123456789012345"
    ibm = {"pan_verify_offset": 4, "pan_verify_length": 11, "pan_pad": "F"}
    lp, li = pans.tolist(), pins.tolist()
    le = expiries.tolist()
    # the cipher calls each function makes, alone, on blocks of the same shape
    one_key = numbades.TripleDES(KEY16)
    blocks8, blocks16 = arqcs.copy(), np.ascontiguousarray(keys[::-1])

    def per_row(rows: np.ndarray) -> np.ndarray:
        return numbades.TripleDESArray(keys, allow_degenerate=True).encrypt(rows)

    return [
        ("cvv, one CVK", 4, lambda: payments.cvv(KEY, pans, expiries, "101"),
         lambda: mac.retail(KEY16, blocks16),
         "psec generate_cvv", lambda i: psec.cvv.generate_cvv(KEY16, lp[i], le[i], "101")),
        ("visa_pvv, one PVK", 3, lambda: payments.visa_pvv(KEY, "1", pins, pans),
         lambda: one_key.encrypt(blocks8),
         "psec generate_visa_pvv", lambda i: psec.pin.generate_visa_pvv(KEY16, "1", li[i], lp[i])),
        ("ibm3624_offset, one PVK", 3,
         lambda: payments.ibm3624_offset(KEY, table, pins, pans, **ibm),
         lambda: one_key.encrypt(blocks8),
         "psec generate_ibm3624_offset",
         lambda i: psec.pin.generate_ibm3624_offset(KEY16, table, li[i], lp[i], **ibm)),
        ("emv_icc_master_key A, one IMK", 6,
         lambda: payments.emv_icc_master_key(KEY, pans, "01"), lambda: one_key.encrypt(blocks16),
         "pyemv derive_icc_mk_a", lambda i: kd.derive_icc_mk_a(KEY16, lp[i], "01")),
        ("emv_session_key, key per row", 6, lambda: payments.emv_session_key(keys, atcs),
         lambda: per_row(blocks16), "pyemv derive_common_sk",
         lambda i: kd.derive_common_sk(keys[i].tobytes(), atcs[i].tobytes() + bytes(6))),
        ("emv_arqc 29 B, key per row", 6, lambda: payments.emv_arqc(keys, data),
         lambda: mac.retail(keys, data, padding=2),
         "pyemv generate_ac", lambda i: ac.generate_ac(keys[i].tobytes(), data[i].tobytes())),
        ("emv_arpc, key per row", 3, lambda: payments.emv_arpc(keys, arqcs, arc),
         lambda: per_row(blocks8), "pyemv generate_arpc_1",
         lambda i: ac.generate_arpc_1(keys[i].tobytes(), arqcs[i].tobytes(), arc)),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--oracle-rows", type=int, default=2000)
    args = parser.parse_args()
    import numba

    numba.set_num_threads(1)
    try:
        cpu = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        pinned = f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        pinned = "not pinned"
    rng = np.random.default_rng(38)
    blocks = rng.integers(0, 256, 8 * 10**6, dtype=np.uint8)
    des = numbades.DES(KEY16[:8], variant="bitslice")
    out = np.empty_like(blocks)

    def ecb_rate() -> float:
        return 10**6 / best_seconds(lambda: des.encrypt(blocks, out=out), args.repeats)

    before = ecb_rate()
    measured = []
    for label, ops, call, cipher, oracle, one in cases(args.rows, rng):
        ours = args.rows / best_seconds(call, args.repeats)
        alone = args.rows * ops / best_seconds(cipher, args.repeats)
        theirs = 1 / loop_seconds_per_row(one, args.oracle_rows)
        measured.append((label, ops, ours, alone, oracle, theirs))
    after = ecb_rate()
    ecb = max(before, after)  # the least disturbed of the two: the ratios err low
    print(f"numbades payments (cards, EMV) - {machine_line()}")
    print(f"{args.rows} rows per call, best of {args.repeats}; one thread, {pinned}; "
          f"oracle loops on {args.oracle_rows} rows")
    print(f"one-key bitslice DES-ECB (1e6 blocks): {before / 1e6:.1f} M blocks/s before the "
          f"table, {after / 1e6:.1f} after; the ratios use {ecb / 1e6:.1f}")
    print()
    head = (f"{'function':<32}{'rows/s':>11}  {'oracle loop':<30}{'rows/s':>9}{'ratio':>9}"
            f"{'DES/row':>9}{'DES ops/s':>11}{'vs ECB':>8}{'cipher alone':>14}")
    print(head)
    print("-" * len(head))
    for label, ops, ours, alone, oracle, theirs in measured:
        des_rate = ours * ops
        print(f"{label:<32}{ours:11.3g}  {oracle:<30}{theirs:9.3g}{ours / theirs:8.0f}x"
              f"{ops:9d}{des_rate:11.3g}{des_rate / ecb:7.2f}x{alone / ecb:13.2f}x")
    print()
    print("targets: ratio >= 100x; DES-operation rate >= 0.3x the one-key ECB block rate")
    print("cipher alone: the DES-operation rate of the function's cipher calls by themselves "
          "(the public objects on blocks of the same shape), against the same ECB rate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
