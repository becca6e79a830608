"""numbades.payments over 10^5 rows, one core: ns per DUKPT key and per PIN block translation."""

from __future__ import annotations

import importlib

import numpy as np

from . import library, one_numba_thread, require, seconds_per_call

ROWS = 100_000
BDK = bytes.fromhex("0123456789ABCDEFFEDCBA9876543210")


def _payments():
    """``numbades.payments``, or skip (n/a) on commits from before it."""
    library()
    try:
        return importlib.import_module("numbades.payments")
    except ImportError:
        require(False, "numbades.payments")
        raise


def random_ksns(rng: np.random.Generator, n: int = ROWS) -> np.ndarray:
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


def digit_strings(rng: np.random.Generator, lo: int, hi: int, n: int = ROWS) -> np.ndarray:
    """n random digit strings of lo..hi digits, as a NumPy U array."""
    lengths = rng.integers(lo, hi + 1, n)
    codes = rng.integers(48, 58, (n, hi), dtype=np.uint8)
    codes[np.arange(hi) >= lengths[:, None]] = 0
    return codes.view(f"S{hi}").reshape(-1).astype(f"U{hi}")


class Dukpt:
    """Transaction keys (and the PIN variant) for 10^5 random KSNs under one BDK: ns per key."""

    params = ((None, "pin", "data-request"),)
    param_names = ("variant",)

    def setup(self, variant: str | None) -> None:
        self.pay = _payments()
        one_numba_thread()
        self.ksns = random_ksns(np.random.default_rng(38))
        self.pay.dukpt_key(BDK, self.ksns, variant)

    def track_dukpt_key(self, variant: str | None) -> float:
        return seconds_per_call(lambda: self.pay.dukpt_key(BDK, self.ksns, variant)) / ROWS * 1e9

    track_dukpt_key.unit = "ns/key"


class PinTranslation:
    """Format 0 PIN blocks from zone A (or each row's DUKPT PIN key) to zone B: ns per block."""

    params = (("zone", "dukpt"),)
    param_names = ("from_key",)

    def setup(self, source: str) -> None:
        pay = self.pay = _payments()
        one_numba_thread()
        rng = np.random.default_rng(39)
        self.pins, self.pans = digit_strings(rng, 4, 12), digit_strings(rng, 13, 19)
        self.zone_a = bytes(rng.integers(0, 256, 16, dtype=np.uint8))
        self.zone_b = bytes(rng.integers(0, 256, 16, dtype=np.uint8))
        self.ksns = random_ksns(rng) if source == "dukpt" else None
        key = pay.dukpt_key(BDK, self.ksns, "pin") if source == "dukpt" else self.zone_a
        self.from_key = BDK if source == "dukpt" else self.zone_a
        self.blocks = pay.encipher_pin_blocks(key, self.pins, self.pans, 0)
        self._translate()

    def _translate(self) -> None:
        self.pay.translate_pin_blocks(self.blocks, self.pans, self.from_key, self.zone_b,
                                      ksn=self.ksns)

    def track_translate(self, source: str) -> float:
        return seconds_per_call(self._translate) / ROWS * 1e9

    track_translate.unit = "ns/block"


class PinBlocks:
    """Build and parse format 0 clear PIN blocks from U arrays: ns per block."""

    def setup(self) -> None:
        self.pay = _payments()
        one_numba_thread()
        rng = np.random.default_rng(40)
        self.pins, self.pans = digit_strings(rng, 4, 12), digit_strings(rng, 13, 19)
        self.clear = self.pay.pin_block(self.pins, self.pans, 0)
        self.pay.pin_from_block(self.clear, self.pans, 0)

    def track_pin_block(self) -> float:
        return seconds_per_call(lambda: self.pay.pin_block(self.pins, self.pans, 0)) / ROWS * 1e9

    def track_pin_from_block(self) -> float:
        return seconds_per_call(
            lambda: self.pay.pin_from_block(self.clear, self.pans, 0)) / ROWS * 1e9

    track_pin_block.unit = "ns/block"
    track_pin_from_block.unit = "ns/block"


class Cards:
    """Card values, their verify forms and EMV keys for 10^5 rows under one key (PANs, PINs
    as U arrays): ns per row."""

    params = (("cvv", "visa_pvv", "ibm3624_offset", "emv_icc_master_key", "verify_cvv",
               "verify_visa_pvv", "verify_ibm3624_offset"),)
    param_names = ("function",)

    def setup(self, function: str) -> None:
        pay = _payments()
        one_numba_thread()
        rng = np.random.default_rng(41)
        key = np.frombuffer(BDK, np.uint8)
        pans, pins = digit_strings(rng, 16, 16), digit_strings(rng, 4, 4)
        expiries = digit_strings(rng, 4, 4)
        table, ibm = "0123456789012345", {"pan_verify_offset": 4, "pan_verify_length": 11}
        calls = {
            "cvv": lambda: pay.cvv(key, pans, expiries, "101"),
            "visa_pvv": lambda: pay.visa_pvv(key, "1", pins, pans),
            "ibm3624_offset": lambda: pay.ibm3624_offset(key, table, pins, pans, **ibm),
            "emv_icc_master_key": lambda: pay.emv_icc_master_key(key, pans, "01"),
        }
        if function.startswith("verify_"):  # the values to check: the generated ones
            values = calls[function[len("verify_"):]]()
            calls = {
                "verify_cvv": lambda: pay.verify_cvv(key, pans, expiries, "101", values),
                "verify_visa_pvv": lambda: pay.verify_visa_pvv(key, "1", pins, pans, values),
                "verify_ibm3624_offset": lambda: pay.verify_ibm3624_offset(
                    key, table, pins, pans, values, **ibm),
            }
        self.call = calls[function]
        self.call()

    def track_card_function(self, function: str) -> float:
        return seconds_per_call(self.call) / ROWS * 1e9

    track_card_function.unit = "ns/row"
