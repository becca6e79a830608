"""numbades.payments (DUKPT, PIN blocks): rates, DES operations per row, and ratios, one run, one core.

    python -m pip install -e ".[test]"                      # pydukpt, psec, pycryptodome: the peers
    NUMBA_NUM_THREADS=1 python benchmarks/payments_report.py              # 10^5 rows (~1 min)
    NUMBA_NUM_THREADS=1 python benchmarks/payments_report.py --rows 1M    # the issue's 10^6 rows

For each function: rows/s over ``--rows`` random rows, the DES operations a
row needs (counted from the rows themselves: DUKPT takes 6 for the IPEK and
2 per set counter bit), the DES-operation rate against the single-key
bitslice ECB block rate (``numbades.DES(key, "bitslice")`` over as many
blocks, timed alternately with it; the first DUKPT line is the ceiling of
a key generation step, ``DESArray`` with one block under each of 2N keys),
and the ratio against a loop of the
outside library that the tests use as oracle (pydukpt, psec with
pycryptodome's DES3), timed on a sample of rows.  Each figure is a median
of ``--repeats`` timings, the calls alternating so machine load hits both
sides alike.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

import numbades
from numbades.payments import (
    dukpt_ipek,
    dukpt_key,
    encipher_pin_blocks,
    pin_block,
    pin_from_block,
    translate_pin_blocks,
)
from numbades.tuning import machine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from key_arrays_report import _alternate  # the same side-by-side timing

BDK = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")


def _size(text: str) -> int:
    units = {"K": 10**3, "M": 10**6}
    return int(text[:-1]) * units[text[-1].upper()] if text[-1].upper() in units else int(text)


def random_ksns(rng: np.random.Generator, n: int) -> np.ndarray:
    """n random KSNs with counters the standard allows (1 to 10 bits set), uniform among those."""
    ksns = rng.integers(0, 256, (n, 10), dtype=np.uint8)
    counters = rng.integers(1, 1 << 21, n)
    ones = np.array([v.bit_count() for v in range(1 << 11)])
    bad = ones[counters & 0x7FF] + ones[counters >> 11] > 10
    while bad.any():
        counters[bad] = rng.integers(1, 1 << 21, int(bad.sum()))
        bad = ones[counters & 0x7FF] + ones[counters >> 11] > 10
    ksns[:, 7] = (ksns[:, 7] & 0xE0) | (counters >> 16)
    ksns[:, 8] = (counters >> 8) & 0xFF
    ksns[:, 9] = counters & 0xFF
    return ksns


def digit_strings(rng: np.random.Generator, n: int, lo: int, hi: int) -> np.ndarray:
    """n random digit strings of lo..hi digits, as a NumPy U array."""
    lengths = rng.integers(lo, hi + 1, n)
    codes = rng.integers(48, 58, (n, hi), dtype=np.uint8)
    codes[np.arange(hi) >= lengths[:, None]] = 0
    return codes.view(f"S{hi}").reshape(-1).astype(f"U{hi}")


def _counter_ones(ksns: np.ndarray) -> np.ndarray:
    c = ((ksns[:, 7].astype(np.int64) & 0x1F) << 16) | (ksns[:, 8].astype(np.int64) << 8) | ksns[:, 9]
    return np.array([int(v).bit_count() for v in c])


class Report:
    def __init__(self, n: int, repeats: int, sample: int) -> None:
        self.n, self.repeats, self.sample = n, repeats, sample
        self.single = numbades.DES(BDK[:8], "bitslice")
        self.blocks = np.zeros(n, np.uint64)
        self.out = np.empty_like(self.blocks)

    def row(self, name: str, call: Callable[[], object], des_ops: float,
            oracle: Callable[[int], None] | None, oracle_name: str) -> None:
        """Time ``call`` (n rows) alternately with single-key bitslice ECB; the oracle on a sample."""
        t = _alternate({"ours": call,
                           "ecb": lambda: self.single.encrypt(self.blocks, out=self.out)},
                          self.repeats)
        rate = self.n / t["ours"]
        line = f"  {name:34s} {rate / 1e6:7.3f} M rows/s  {des_ops:5.2f} DES ops/row"
        if des_ops:
            ecb = self.n / t["ecb"]
            line += (f"  {des_ops * rate / 1e6:6.1f} M DES ops/s = {des_ops * rate / ecb:.2f}x "
                     f"one-key bitslice ECB ({ecb / 1e6:.0f} M blocks/s)")
        print(line)
        if oracle is not None:
            t_oracle = _alternate({"oracle": lambda: oracle(self.sample)},
                                     max(3, self.repeats // 2))["oracle"] / self.sample
            print(f"  {'':34s} {oracle_name} loop {1 / t_oracle / 1e3:8.1f} K rows/s: "
                  f"ratio {rate * t_oracle:.0f}x (target >= 100)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="100K", help="rows per call (default 100K; 1M the issue's)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sample", type=int, default=2000, help="rows of each oracle loop timed")
    args = parser.parse_args(argv)
    n = _size(args.rows)
    print(f"{machine.os_name()} - {machine.cpu_model()} - {machine.toolchain()}")
    print(f"Python {sys.version.split()[0]}, numbades {numbades.__version__}, "
          f"AVX-512: {machine.has_avx512()}, NUMBA_NUM_THREADS="
          f"{os.environ.get('NUMBA_NUM_THREADS', 'unset')}, load average {os.getloadavg()[0]:.2f}")
    print(f"{n} rows per call, median of {args.repeats}; oracle loops on {args.sample} rows")

    import psec.pinblock as psec_pb
    import pydukpt
    from Crypto.Cipher import DES3

    rng = np.random.default_rng(38)
    r = Report(n, args.repeats, min(args.sample, n))
    ksns = random_ksns(rng, n)
    ksn_bytes = [k.tobytes() for k in ksns[: r.sample]]
    ones = _counter_ones(ksns)
    print(f"DUKPT (one BDK, random KSNs; counter bits set: mean {ones.mean():.2f}):")
    # The ceiling of a DUKPT step: the key-per-lane engine, one block under each of 2N keys.
    lane_keys = rng.integers(0, 2**63, 2 * n, dtype=np.uint64)
    lane_blocks = rng.integers(0, 2**63, 2 * n, dtype=np.uint64)
    r.row("(DESArray: 2 blocks/row, a key each)",
          lambda: numbades.DESArray(lane_keys).encrypt(lane_blocks), 2, None, "")

    def ipek_loop(m: int) -> None:
        for k in ksn_bytes[:m]:
            pydukpt.derive_ipek(BDK, k)

    def key_loop(m: int, variant: Callable[[bytes], bytes] = lambda k: k) -> None:
        for k in ksn_bytes[:m]:
            variant(pydukpt.derive_key(pydukpt.derive_ipek(BDK, k), k))

    r.row("dukpt_ipek", lambda: dukpt_ipek(BDK, ksns), 6, ipek_loop, "pydukpt")
    key_ops = 6 + 2 * ones.mean()
    r.row("dukpt_key", lambda: dukpt_key(BDK, ksns), key_ops, key_loop, "pydukpt")
    r.row("dukpt_key variant='pin'", lambda: dukpt_key(BDK, ksns, "pin"), key_ops,
          lambda m: key_loop(m, pydukpt.pin_key), "pydukpt")
    r.row("dukpt_key variant='data-request'", lambda: dukpt_key(BDK, ksns, "data-request"),
          key_ops + 6, lambda m: key_loop(m, pydukpt.data_request_key), "pydukpt")

    pins, pans = digit_strings(rng, n, 4, 12), digit_strings(rng, n, 13, 19)
    pin_list, pan_list = pins[: r.sample].tolist(), pans[: r.sample].tolist()
    zone_a, zone_b = bytes(rng.integers(0, 256, 16, dtype=np.uint8)), bytes(
        rng.integers(0, 256, 16, dtype=np.uint8))
    print("PIN blocks (ISO 9564-1 format 0; PINs and PANs as NumPy U arrays):")

    def build_loop(m: int) -> None:
        for p, a in zip(pin_list[:m], pan_list[:m], strict=True):
            psec_pb.encode_pinblock_iso_0(p, a)

    clear = pin_block(pins, pans, 0)
    clear_list = [b.tobytes() for b in clear[: r.sample]]

    def parse_loop(m: int) -> None:
        for b, a in zip(clear_list[:m], pan_list[:m], strict=True):
            psec_pb.decode_pinblock_iso_0(b, a)

    def encipher_loop(m: int) -> None:
        for p, a in zip(pin_list[:m], pan_list[:m], strict=True):
            DES3.new(zone_a, DES3.MODE_ECB).encrypt(psec_pb.encode_pinblock_iso_0(p, a))

    r.row("pin_block", lambda: pin_block(pins, pans, 0), 0, build_loop, "psec")
    r.row("pin_from_block", lambda: pin_from_block(clear, pans, 0), 0, parse_loop, "psec")
    r.row("encipher_pin_blocks (one key)", lambda: encipher_pin_blocks(zone_a, pins, pans, 0), 3,
          encipher_loop, "psec + DES3")
    enc = encipher_pin_blocks(zone_a, pins, pans, 0)
    enc_list = [b.tobytes() for b in enc[: r.sample]]

    def translate_loop(m: int) -> None:
        for b, a in zip(enc_list[:m], pan_list[:m], strict=True):
            pin = psec_pb.decode_pinblock_iso_0(DES3.new(zone_a, DES3.MODE_ECB).decrypt(b), a)
            DES3.new(zone_b, DES3.MODE_ECB).encrypt(psec_pb.encode_pinblock_iso_0(pin, a))

    r.row("translate zone A -> zone B, 0 -> 0",
          lambda: translate_pin_blocks(enc, pans, zone_a, zone_b), 6, translate_loop,
          "psec + DES3")
    pek = dukpt_key(BDK, ksns, "pin")
    dukpt_blocks = encipher_pin_blocks(pek, pins, pans, 0)
    dukpt_list = [b.tobytes() for b in dukpt_blocks[: r.sample]]

    def dukpt_translate_loop(m: int) -> None:
        for b, k, a in zip(dukpt_list[:m], ksn_bytes[:m], pan_list[:m], strict=True):
            key = pydukpt.derive_key(pydukpt.derive_ipek(BDK, k), k)
            pin = pydukpt.decrypt_pin(key, b, a)
            DES3.new(zone_b, DES3.MODE_ECB).encrypt(psec_pb.encode_pinblock_iso_0(pin, a))

    r.row("translate DUKPT -> zone B, 0 -> 0",
          lambda: translate_pin_blocks(dukpt_blocks, pans, BDK, zone_b, ksn=ksns),
          key_ops + 6, dukpt_translate_loop, "pydukpt + psec + DES3")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
