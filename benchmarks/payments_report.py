"""numbades.payments (DUKPT, PIN blocks, cards, EMV): rates, DES operations per row, ratios; one run, one core.

    python -m pip install -e ".[test]"             # pydukpt, psec, pyemv, pycryptodome: the peers
    NUMBA_NUM_THREADS=1 python benchmarks/payments_report.py              # 10^5 rows (~2 min)
    NUMBA_NUM_THREADS=1 python benchmarks/payments_report.py --rows 1M    # the issue's 10^6 rows
    NUMBA_NUM_THREADS=1 python benchmarks/payments_report.py --only pin --only cards

For each function: rows/s over ``--rows`` random rows, the DES operations a
row needs (counted from the rows themselves: DUKPT takes 6 for the IPEK and
2 per set counter bit), the DES-operation rate against the ECB reference
(the first DUKPT line is the ceiling of a key generation step, ``DESArray``
with one block under each of 2N keys),
and the ratio against a loop of the outside library that the tests use as
oracle (pydukpt, psec with pycryptodome's DES3, pyemv), timed on a sample
of rows.  For the card and EMV functions, "cipher alone" is the
DES-operation rate of the function's cipher calls by themselves (the
public objects on blocks of the same shape), against the same ECB rate:
what the digit work around them costs.  Each figure is a median of
``--repeats`` timings, the calls alternating so machine load hits both
sides alike; the process is pinned to one CPU where the OS allows.

The ECB reference is one fixed, large batch: single-key bitslice DES-ECB
(``numbades.DES(key, "bitslice").encrypt(blocks, out=...)``) over
``--ecb-mib`` MiB (default 4: 524288 blocks, a few ms a call, so that
per-call costs and timer noise are small), the same buffer for every row,
timed in turn with each row's calls.  Each row's ratio uses that row's
median ECB time (the load it ran under); the last line gives the median
of every ECB timing of the run and the spread of the rows' medians.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

import numbades
from numbades import mac, payments
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
from benchmarks.bench_payments import digit_strings, random_ksns  # the asv suite's inputs
from compare import pin_to_one_cpu  # beside this script

BDK = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")
KEY = np.frombuffer(BDK, np.uint8)


def _size(text: str) -> int:
    """Rows: ``100K`` is 10**5, ``1M`` 10**6."""
    units = {"K": 10**3, "M": 10**6}
    return int(text[:-1]) * units[text[-1].upper()] if text[-1].upper() in units else int(text)


def _counter_ones(ksns: np.ndarray) -> np.ndarray:
    c = ((ksns[:, 7].astype(np.int64) & 0x1F) << 16) | (ksns[:, 8].astype(np.int64) << 8) | ksns[:, 9]
    return np.array([int(v).bit_count() for v in c])


#: The clocks of ``--clock``: wall time, or this process's CPU time (on a host shared
#: with other work, CPU time leaves out the time the process waited for a core).
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _alternate(calls: dict, repeats: int, clock: Callable[[], float] = time.perf_counter,
               ecb_times: list[float] | None = None) -> dict[str, float]:
    """Median seconds of each call by ``clock``, the calls run in turn ``repeats`` times
    (the "ecb" call's timings also appended to ``ecb_times``)."""
    for call in calls.values():
        call()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            t = clock()
            call()
            times[name].append(clock() - t)
    if ecb_times is not None and "ecb" in times:
        ecb_times.extend(times["ecb"])
    return {name: statistics.median(ts) for name, ts in times.items()}


class Report:
    def __init__(self, n: int, repeats: int, sample: int, clock: str = "wall",
                 ecb_mib: float = 4) -> None:
        self.n, self.repeats, self.sample = n, repeats, sample
        self.clock = CLOCKS[clock]
        self.single = numbades.DES(BDK[:8], "bitslice")
        # the ECB reference: one large batch, the same for every row
        self.blocks = np.random.default_rng(0).integers(
            0, 2**63, max(1, int(ecb_mib * 2**20) // 8), dtype=np.uint64)
        self.out = np.empty_like(self.blocks)
        self.ecb_times: list[float] = []  # every ECB timing (s), for the summary
        self.ecb_medians: list[float] = []  # each row's median

    def ecb_summary(self) -> str:
        """The run's ECB reference: the median of every timing, the rows' spread."""
        if not self.ecb_times:
            return "ECB reference: not timed"
        rate = self.blocks.size / statistics.median(self.ecb_times)
        rows = [self.blocks.size / t for t in self.ecb_medians]
        return (f"ECB reference (single-key bitslice DES-ECB, {self.blocks.nbytes / 2**20:g} MiB "
                f"a call): {rate / 1e6:.0f} M blocks/s, median of {len(self.ecb_times)} timings; "
                f"rows' medians {min(rows) / 1e6:.0f}-{max(rows) / 1e6:.0f}")

    def row(self, name: str, call: Callable[[], object], des_ops: float,
            oracle: Callable[[int], None] | None, oracle_name: str,
            cipher: Callable[[], object] | None = None) -> None:
        """Time ``call`` (n rows) alternately with single-key bitslice ECB (and ``cipher``,
        the call's cipher work alone); the oracle on a sample."""
        calls = {"ours": call, "ecb": lambda: self.single.encrypt(self.blocks, out=self.out)}
        if cipher is not None:
            calls["cipher"] = cipher
        t = _alternate(calls, self.repeats, self.clock, self.ecb_times)
        self.ecb_medians.append(t["ecb"])
        rate = self.n / t["ours"]
        line = f"  {name:34s} {rate / 1e6:7.3f} M rows/s  {des_ops:5.2f} DES ops/row"
        if des_ops:
            ecb = self.blocks.size / t["ecb"]
            line += (f"  {des_ops * rate / 1e6:6.1f} M DES ops/s = {des_ops * rate / ecb:.2f}x "
                     f"one-key bitslice ECB ({ecb / 1e6:.0f} M blocks/s)")
            if cipher is not None:
                line += f"; cipher alone {des_ops * self.n / t['cipher'] / ecb:.2f}x"
        print(line)
        if oracle is not None:
            with warnings.catch_warnings():  # the oracles' deprecated TripleDES
                warnings.simplefilter("ignore")
                t_oracle = _alternate({"oracle": lambda: oracle(self.sample)},
                                      max(3, self.repeats // 2), self.clock)["oracle"] / self.sample
            print(f"  {'':34s} {oracle_name} loop {1 / t_oracle / 1e3:8.1f} K rows/s: "
                  f"ratio {rate * t_oracle:.0f}x (target >= 100)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="100K", help="rows per call (default 100K; 1M the issue's)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sample", type=int, default=2000, help="rows of each oracle loop timed")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time by the wall clock (default) or by this process's CPU time "
                             "(steadier on a shared host)")
    parser.add_argument("--ecb-mib", type=float, default=4,
                        help="size of the ECB reference batch in MiB (default 4)")
    parser.add_argument("--only", choices=sorted(SECTIONS), action="append",
                        help="run only this section (repeatable; default: all)")
    args = parser.parse_args(argv)
    n = _size(args.rows)
    pinned = pin_to_one_cpu()
    print(f"{machine.os_name()} - {machine.cpu_model()} - {machine.toolchain()}")
    print(f"Python {sys.version.split()[0]}, numbades {numbades.__version__}, "
          f"AVX-512: {machine.has_avx512()}, NUMBA_NUM_THREADS="
          f"{os.environ.get('NUMBA_NUM_THREADS', 'unset')}, {pinned}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{n} rows per call, median of {args.repeats} ({args.clock} clock); oracle loops on "
          f"{args.sample} rows")
    rng = np.random.default_rng(38)
    r = Report(n, args.repeats, min(args.sample, n), args.clock, args.ecb_mib)
    for name in args.only or ("dukpt-pin", "cards"):
        SECTIONS[name](r, rng)
    print(r.ecb_summary())
    return 0


def dukpt_and_pin_section(r: Report, rng: np.random.Generator, dukpt: bool = True,
                          pin: bool = True) -> None:
    """DUKPT keys (``dukpt``), PIN blocks and their translation (``pin``)."""
    import pydukpt

    n = r.n
    ksns = random_ksns(rng, n)
    ksn_bytes = [k.tobytes() for k in ksns[: r.sample]]
    ones = _counter_ones(ksns)
    if not dukpt:
        return _pin_rows(r, rng, ksns, ksn_bytes, 6 + 2 * ones.mean())
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

    if pin:
        _pin_rows(r, rng, ksns, ksn_bytes, key_ops)


def _pin_rows(r: Report, rng: np.random.Generator, ksns: np.ndarray, ksn_bytes: list[bytes],
              key_ops: float) -> None:
    """PIN blocks: build, parse, encipher, translate (from a zone key, from DUKPT)."""
    import psec.pinblock as psec_pb
    import pydukpt
    from Crypto.Cipher import DES3

    n = r.n
    pins, pans = digit_strings(rng, 4, 12, n), digit_strings(rng, 13, 19, n)
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


def _loop(one: Callable[[int], object]) -> Callable[[int], None]:
    """A loop of ``one(i)`` over the first m rows, for ``Report.row``."""
    def loop(m: int) -> None:
        for i in range(m):
            one(i)
    return loop


def cards_section(r: Report, rng: np.random.Generator) -> None:
    """Card values (CVV, PVV, IBM 3624) and EMV keys and cryptograms."""
    import psec
    from pyemv import ac, kd

    n = r.n
    print("Cards and EMV (PANs, PINs, expiry dates as NumPy U arrays):")
    pans = digit_strings(rng, 16, 16, n)
    pins, expiries = digit_strings(rng, 4, 4, n), digit_strings(rng, 4, 4, n)
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    atcs = rng.integers(0, 256, (n, 2), dtype=np.uint8)
    data = rng.integers(0, 256, (n, 29), dtype=np.uint8)  # the 10 tags of Book 2's minimum
    arqcs = rng.integers(0, 256, (n, 8), dtype=np.uint8)
    table, arc = "0123456789012345", b"00"
    ibm = {"pan_verify_offset": 4, "pan_verify_length": 11, "pan_pad": "F"}
    lp, li, le = pans.tolist(), pins.tolist(), expiries.tolist()
    # the cipher calls each function makes, alone, on blocks of the same shape (one key:
    # blocks as uint64 words, one or two a row)
    one_key, key_a = numbades.TripleDES(BDK), numbades.DES(BDK[:8])
    blocks8, blocks16 = arqcs.copy(), np.ascontiguousarray(keys[::-1])
    words1, words2 = blocks8.view(np.uint64).reshape(n), blocks16.view(np.uint64).reshape(n, 2)

    def per_row(rows: np.ndarray) -> Callable[[], object]:
        return lambda: numbades.TripleDESArray(keys, allow_degenerate=True).encrypt(rows)

    r.row("cvv, one CVK", lambda: payments.cvv(KEY, pans, expiries, "101"), 4,
          _loop(lambda i: psec.cvv.generate_cvv(BDK, lp[i], le[i], "101")), "psec",
          lambda: one_key.encrypt(key_a.encrypt(words1)))
    r.row("visa_pvv, one PVK", lambda: payments.visa_pvv(KEY, "1", pins, pans), 3,
          _loop(lambda i: psec.pin.generate_visa_pvv(BDK, "1", li[i], lp[i])), "psec",
          lambda: one_key.encrypt(words1))
    r.row("ibm3624_offset, one PVK",
          lambda: payments.ibm3624_offset(KEY, table, pins, pans, **ibm), 3,
          _loop(lambda i: psec.pin.generate_ibm3624_offset(BDK, table, li[i], lp[i], **ibm)),
          "psec", lambda: one_key.encrypt(words1))
    # the verify forms: the values to check computed first (the oracle: psec's, compared)
    cvvs = payments.cvv(KEY, pans, expiries, "101")
    pvvs = payments.visa_pvv(KEY, "1", pins, pans)
    offsets = payments.ibm3624_offset(KEY, table, pins, pans, **ibm)
    lc, lv, lo = cvvs.tolist(), pvvs.tolist(), offsets.tolist()
    r.row("verify_cvv, one CVK", lambda: payments.verify_cvv(KEY, pans, expiries, "101", cvvs),
          4, _loop(lambda i: psec.cvv.generate_cvv(BDK, lp[i], le[i], "101") == lc[i]), "psec")
    r.row("verify_visa_pvv, one PVK",
          lambda: payments.verify_visa_pvv(KEY, "1", pins, pans, pvvs), 3,
          _loop(lambda i: psec.pin.generate_visa_pvv(BDK, "1", li[i], lp[i]) == lv[i]), "psec")
    r.row("verify_ibm3624_offset, one PVK",
          lambda: payments.verify_ibm3624_offset(KEY, table, pins, pans, offsets, **ibm), 3,
          _loop(lambda i: psec.pin.generate_ibm3624_offset(BDK, table, li[i], lp[i], **ibm)
                == lo[i]), "psec")
    r.row("emv_icc_master_key A, one IMK", lambda: payments.emv_icc_master_key(KEY, pans, "01"),
          6, _loop(lambda i: kd.derive_icc_mk_a(BDK, lp[i], "01")), "pyemv",
          lambda: one_key.encrypt(words2))
    r.row("emv_session_key, key per row", lambda: payments.emv_session_key(keys, atcs), 6,
          _loop(lambda i: kd.derive_common_sk(keys[i].tobytes(), atcs[i].tobytes() + bytes(6))),
          "pyemv", per_row(blocks16))
    r.row("emv_arqc 29 B, key per row", lambda: payments.emv_arqc(keys, data), 6,
          _loop(lambda i: ac.generate_ac(keys[i].tobytes(), data[i].tobytes())), "pyemv",
          lambda: mac.retail(keys, data, padding=2))
    r.row("emv_arpc, key per row", lambda: payments.emv_arpc(keys, arqcs, arc), 3,
          _loop(lambda i: ac.generate_arpc_1(keys[i].tobytes(), arqcs[i].tobytes(), arc)),
          "pyemv", per_row(blocks8))


SECTIONS: dict[str, Callable[[Report, np.random.Generator], None]] = {
    "dukpt-pin": dukpt_and_pin_section,
    "dukpt": functools.partial(dukpt_and_pin_section, pin=False),
    "pin": functools.partial(dukpt_and_pin_section, dukpt=False),
    "cards": cards_section}


if __name__ == "__main__":
    raise SystemExit(main())
