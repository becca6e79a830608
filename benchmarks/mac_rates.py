"""The MAC figures of ``benchmarks/compare.py`` (issue 36's targets), measured side by side.

- 10**5 messages of 64 bytes under one key: ``mac.cbc`` (DES), ``mac.retail``
  (2-key), ``mac.cmac`` (DES) against the bitslice DES-ECB rate on the same
  6.4 MB (target >= 0.8x), and ``mac.retail`` against a loop of psec's
  ``generate_retail_mac`` (target >= 100x; psec timed on 2000 messages);
- 10**5 keys, one 64-byte message each: ``mac.cbc``/``mac.retail`` with a
  key array against the same call under one key (target >= 0.5x);
- one 8 MiB message: ``mac.cbc`` against OpenSSL's ``DES_cbc_cksum`` from
  libcrypto through ctypes (target >= 1.0x).

``rate(call, nbytes)`` is the caller's timer (MB/s); every figure here goes
through it, so they share its repeats and its thread and CPU settings.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
import warnings
from collections.abc import Callable

import numpy as np

import numbades
from numbades import mac

MESSAGES, MESSAGE_BYTES, LONG = 100_000, 64, 8 * 1024 * 1024
KEY8 = bytes.fromhex("0123456789abcdef")
KEY16 = bytes.fromhex("0123456789abcdeffedcba9876543210")

Rate = Callable[[Callable[[], object], int], float]


def _psec_retail_rate(rows: np.ndarray, count: int = 2000) -> float | None:
    try:
        import psec
    except ImportError:
        return None
    messages = [r.tobytes() for r in rows[:count]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.perf_counter()
        for m in messages:
            psec.mac.generate_retail_mac(KEY16[:8], KEY16[8:], m, 1)
        seconds = time.perf_counter() - start
    return count * MESSAGE_BYTES / seconds / 1e6


def _openssl_cbc_cksum(data: bytes) -> Callable[[], object] | None:
    name = ctypes.util.find_library("crypto")
    try:
        lib = ctypes.CDLL(name or "libcrypto.so.3")
        cksum = lib.DES_cbc_cksum
    except (OSError, AttributeError):
        return None
    schedule = ctypes.create_string_buffer(128)
    lib.DES_set_key_unchecked(KEY8, schedule)
    out = ctypes.create_string_buffer(8)
    iv = bytes(8)
    return lambda: cksum(data, out, ctypes.c_long(len(data)), schedule, iv)


def rows(rate: Rate) -> list[tuple[str, float | None, str, float | None, str]]:
    """(label, MB/s, reference label, reference MB/s, target) for each MAC figure."""
    rng = np.random.default_rng(36)
    msgs = rng.integers(0, 256, (MESSAGES, MESSAGE_BYTES), dtype=np.uint8)
    nbytes = msgs.size
    flat = msgs.reshape(-1)
    des = numbades.DES(KEY8)
    ciphertext = np.empty_like(flat)
    ecb = rate(lambda: des.encrypt(flat, out=ciphertext), nbytes)
    one_key = {
        "cbc": rate(lambda: mac.cbc(KEY8, msgs), nbytes),
        "retail": rate(lambda: mac.retail(KEY16, msgs), nbytes),
        "cmac": rate(lambda: mac.cmac(KEY8, msgs), nbytes),
    }
    keys8 = rng.integers(0, 256, (MESSAGES, 8), dtype=np.uint8)
    keys16 = rng.integers(0, 256, (MESSAGES, 16), dtype=np.uint8)
    keys16[:, 8] ^= (keys16[:, 0] == keys16[:, 8]).astype(np.uint8)  # retail: any key is fine
    per_key = {
        "cbc": rate(lambda: mac.cbc(keys8, msgs), nbytes),
        "retail": rate(lambda: mac.retail(keys16, msgs), nbytes),
    }
    long = rng.bytes(LONG)
    openssl = _openssl_cbc_cksum(long)
    out: list[tuple[str, float | None, str, float | None, str]] = []
    for name, r in one_key.items():
        out.append((f"mac.{name} 1e5 x 64 B, one key", r, "DES-ECB same bytes", ecb, ">= 0.8x"))
    out.append(("mac.retail 1e5 x 64 B, one key", one_key["retail"],
                "psec retail loop", _psec_retail_rate(msgs), ">= 100x"))
    for name, r in per_key.items():
        out.append((f"mac.{name} 1e5 keys x 64 B", r, f"mac.{name} one key", one_key[name],
                    ">= 0.5x"))
    out.append(("mac.cbc one 8 MiB message", rate(lambda: mac.cbc(KEY8, long, iv=bytes(8)), LONG),
                "OpenSSL DES_cbc_cksum", openssl and rate(openssl, LONG), ">= 1.0x"))
    return out


def print_rows(rate: Rate) -> None:
    """The MAC table: each figure, its reference, the ratio and the target."""
    header = f"{'MAC':<34}{'MB/s':>9}  {'against':<22}{'MB/s':>9}{'ratio':>9}  target"
    print(header)
    print("-" * len(header))
    for label, r, ref_label, ref, target in rows(rate):
        ratio = f"{r / ref:.2f}x" if r and ref else "n/a"
        ref_text = f"{ref:9.1f}" if ref else f"{'n/a':>9}"
        print(f"{label:<34}{r:9.1f}  {ref_label:<22}{ref_text}{ratio:>9}  {target}")
