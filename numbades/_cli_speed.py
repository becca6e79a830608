"""``numbades speed``: libdes's ``speed`` report, laid out like ``openssl speed``.

Key schedules per second, then DES-ECB, DES-CBC and 3DES-CBC throughput for a
few message sizes, one encrypt call per message, in a table shaped like
``openssl speed``'s (1000s of bytes per second) so the two read side by
side.  ``--compare`` runs ``openssl speed`` and pycryptodome in the same run,
where they are present, and prints numbades's ratio to each.

The openssl runner here is also used by ``benchmarks/compare.py``.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

import numpy as np

from . import _machine
from ._cli_opts import Progress, format_size, parse_size, positive_float, set_threads, time_calls

SIZES = (16, 64, 1024, 8192, 1024 * 1024)
CIPHERS = ("des-ecb", "des-cbc", "des-ede3-cbc")
KEY8 = bytes.fromhex("0123456789abcdef")
KEY24 = bytes.fromhex("0123456789abcdef23456789abcdef01456789abcdef0123")
IV = bytes.fromhex("1234567890abcdef")

Rates = dict[int, float | None]  # message size -> bytes/s (None: not available)


# ---------------------------------------------------------------- openssl


@functools.cache
def openssl_version() -> tuple[int, ...] | None:
    """Version of the ``openssl`` on PATH, e.g. (3, 0, 13); None if absent."""
    exe = shutil.which("openssl")
    if exe is None:
        return None
    try:
        out = subprocess.run(
            [exe, "version"], check=False, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", out.stdout)
    return tuple(int(g) for g in match.groups()) if match else None


def openssl_speed(
    cipher: str, nbytes: int, seconds: float, *, decrypt: bool = False
) -> float | None:
    """Bytes/s of ``openssl speed -evp cipher`` at one message size; None if unavailable.

    Single DES sits in OpenSSL 3's legacy provider, so it is asked for
    explicitly; ``-mr`` gives the machine-readable ``+F:`` result line.
    """
    version = openssl_version()
    if version is None:
        return None
    cmd = ["openssl", "speed"]
    if version >= (3,) and "ede3" not in cipher:
        cmd += ["-provider", "legacy", "-provider", "default"]
    secs = max(1, round(seconds))
    if decrypt:
        cmd.append("-decrypt")
    cmd += ["-evp", cipher, "-bytes", str(nbytes), "-seconds", str(secs), "-mr"]
    try:
        out = subprocess.run(
            cmd, check=False, capture_output=True, text=True, timeout=60 + 4 * secs
        )
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.stdout.splitlines():
        if line.startswith("+F:"):
            fields = line.split(":")
            try:
                return float(fields[-1])
            except ValueError:
                return None
    return None


# ---------------------------------------------------------------- pycryptodome


def pycryptodome_call(cipher: str, nbytes: int) -> Callable[[], object] | None:
    """A no-argument pycryptodome encrypt of one ``nbytes`` message, or None."""
    try:
        from Crypto.Cipher import DES, DES3
    except ImportError:
        return None
    data = bytes(nbytes)
    out = bytearray(nbytes)
    if cipher == "des-ecb":
        obj = DES.new(KEY8, DES.MODE_ECB)
    elif cipher == "des-cbc":
        obj = DES.new(KEY8, DES.MODE_CBC, iv=IV)
    else:
        obj = DES3.new(KEY24, DES3.MODE_CBC, iv=IV)
    return lambda: obj.encrypt(data, output=out)


def pycryptodome_key_call() -> Callable[[], object] | None:
    """A no-argument pycryptodome DES key set-up (``DES.new``), or None."""
    try:
        from Crypto.Cipher import DES
    except ImportError:
        return None
    keys = [bytes([i]) * 8 for i in range(1, 255, 2)]
    it = iter(range(1 << 62))
    return lambda: DES.new(keys[next(it) % len(keys)], DES.MODE_ECB)


# ---------------------------------------------------------------- numbades


def numbades_call(cipher: str, nbytes: int, variant: str) -> Callable[[], object] | None:
    """A no-argument numbades encrypt of one ``nbytes`` message, or None if the
    library does not offer that cipher/mode yet."""
    import numbades

    src = np.zeros(nbytes, dtype=np.uint8)
    dst = np.empty_like(src)
    if cipher == "des-ede3-cbc":
        if not hasattr(numbades, "TripleDES"):
            return None
        try:
            obj = numbades.TripleDES(KEY24, variant=variant)
        except TypeError:  # a TripleDES without engine choice
            obj = numbades.TripleDES(KEY24)
    else:
        obj = numbades.DES(KEY8, variant=variant)
    kwargs: dict[str, object] = (
        {"mode": "ecb"} if cipher == "des-ecb" else {"mode": "cbc", "iv": IV}
    )

    def call() -> object:
        return obj.encrypt(src, out=dst, **kwargs)

    try:
        call()
    except (TypeError, ValueError, NotImplementedError):
        return None
    return call


def numbades_key_call(variant: str) -> Callable[[], object]:
    """A no-argument ``numbades.DES(key)`` construction, cycling over keys."""
    import numbades

    keys = [bytes([i]) * 8 for i in range(1, 255, 2)]
    numbades.DES(keys[0], variant=variant)
    it = iter(range(1 << 62))
    return lambda: numbades.DES(keys[next(it) % len(keys)], variant=variant)


# ---------------------------------------------------------------- report


def _rate(call: Callable[[], object] | None, nbytes: int, seconds: float) -> float | None:
    if call is None:
        return None
    calls, elapsed = time_calls(call, seconds)
    return calls * nbytes / elapsed


def format_table(
    title: str,
    rows: Sequence[tuple[str, Rates]],
    sizes: Sequence[int],
    cell: Callable[[float], str],
) -> list[str]:
    """``openssl speed``-shaped table: one row per (name, rates), one column per size."""
    headers = [f"{n} bytes" for n in sizes]
    cells = [[("n/a" if r.get(n) is None else cell(r[n])) for n in sizes] for _, r in rows]
    name_w = max([len("type"), *(len(name) for name, _ in rows)]) + 2
    widths = [max(len(h), *(len(c[i]) for c in cells)) + 1 for i, h in enumerate(headers)]
    lines = [
        title,
        "type".ljust(name_w) + "".join(h.rjust(w) for h, w in zip(headers, widths, strict=True)),
    ]
    for (name, _), row in zip(rows, cells, strict=True):
        lines.append(
            name.ljust(name_w) + "".join(c.rjust(w) for c, w in zip(row, widths, strict=True))
        )
    return lines


def _ratio(a: Rates, b: Rates) -> Rates:
    return {n: (a[n] / b[n] if a.get(n) and b.get(n) else None) for n in a}


def _sizes_arg(text: str) -> tuple[int, ...]:
    sizes = tuple(parse_size(part) for part in text.split(",") if part.strip())
    if not sizes:
        raise argparse.ArgumentTypeError(f"no sizes in {text!r} (try 16,1k,1M)")
    return sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``numbades speed``."""
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=1.0,
        help="timing per cipher and size (openssl rounds it up to whole seconds)",
    )
    parser.add_argument(
        "--sizes",
        type=_sizes_arg,
        default=SIZES,
        help="comma-separated message sizes (default 16,64,1k,8k,1M)",
    )
    parser.add_argument("--variant", default="auto", help="numbades engine (default auto)")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run `openssl speed` and pycryptodome, and print ratios",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress display on stderr")


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``speed``; 0 on success."""
    import numbades

    problem = set_threads(1)
    if problem:  # pragma: no cover - one thread is always possible
        print(f"numbades speed: error: {problem}", file=sys.stderr)
        return 2
    if args.variant != "auto" and args.variant not in numbades.variants():
        print(
            f"numbades speed: error: unknown variant {args.variant!r}; "
            f"choose from auto, {', '.join(numbades.variants())}",
            file=sys.stderr,
        )
        return 2
    progress = Progress(sys.stderr, enabled=not args.quiet)
    sizes = args.sizes
    results: dict[str, dict[str, Rates]] = {"numbades": {}, "openssl": {}, "pycryptodome": {}}
    keys: dict[str, float | None] = {}

    progress.update("speed: numbades set_key")
    keys["numbades"] = _rate(numbades_key_call(args.variant), 1, args.seconds)
    if args.compare:
        progress.update("speed: pycryptodome DES.new")
        keys["pycryptodome"] = _rate(pycryptodome_key_call(), 1, args.seconds)
    for cipher in CIPHERS:
        for lib in ("numbades", "pycryptodome", "openssl") if args.compare else ("numbades",):
            rates: Rates = {}
            for n in sizes:
                progress.update(f"speed: {lib} {cipher}", format_size(n))
                if lib == "openssl":
                    rates[n] = openssl_speed(cipher, n, args.seconds)
                elif lib == "pycryptodome":
                    rates[n] = _rate(pycryptodome_call(cipher, n), n, args.seconds)
                else:
                    rates[n] = _rate(numbades_call(cipher, n, args.variant), n, args.seconds)
            results[lib][cipher] = rates
    progress.done()

    if args.json:
        doc = {
            "machine": _machine.describe(),
            "variant": args.variant,
            "seconds": args.seconds,
            "key_schedules_per_second": keys,
            "bytes_per_second": {
                lib: {c: {str(n): v for n, v in r.items()} for c, r in per.items()}
                for lib, per in results.items()
                if per
            },
        }
        json.dump(doc, out, indent=2)
        out.write("\n")
        return 0

    lines = [f"numbades speed - {_machine.line_prefix()} - variant {args.variant}", ""]
    for lib, rate in keys.items():
        if rate is not None:
            lines.append(
                f"{lib + ' set_key':<28}{round(rate):>10,} key schedules/s "
                f"({1e6 / rate:.2f} us each)"
            )
    if args.compare and keys.get("numbades") and keys.get("pycryptodome"):
        ratio = keys["numbades"] / keys["pycryptodome"]
        lines.append(f"{'ratio numbades/pycryptodome':<28}{ratio:>10.2f}")
    lines.append("")
    rows = [
        (f"{lib} {c}" if args.compare else c, r)
        for c in CIPHERS
        for lib, per in results.items()
        if c in per
        for r in [per[c]]
    ]
    lines += format_table(
        "The 'numbers' are in 1000s of bytes per second processed.",
        rows,
        sizes,
        lambda v: f"{v / 1000:.2f}k",
    )
    lines.append("")
    own = [(c, r) for c, r in results["numbades"].items()]
    lines += format_table(
        "numbades in 8-byte blocks per second.", own, sizes, lambda v: f"{round(v / 8):,}"
    )
    if args.compare:
        for peer in ("openssl", "pycryptodome"):
            ratios = [(c, _ratio(results["numbades"][c], results[peer][c])) for c in CIPHERS]
            lines.append("")
            lines += format_table(
                f"Ratio numbades / {peer} (above 1: numbades is faster).",
                ratios,
                sizes,
                lambda v: f"{v:.2f}",
            )
    missing = [c for c, r in results["numbades"].items() if all(v is None for v in r.values())]
    if missing:
        lines.append("")
        lines.append(f"not available in this numbades: {', '.join(missing)}")
    if args.compare and openssl_version() is None:
        lines.append("openssl not found on PATH: its rows are n/a")
    out.write("\n".join(lines) + "\n")
    return 0
