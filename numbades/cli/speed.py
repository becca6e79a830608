"""``numbades speed``: libdes's ``speed`` report, laid out like ``openssl speed``.

Key schedules per second, then DES-ECB, DES-CBC and 3DES-CBC throughput for a
few message sizes, one encrypt call per message, in a table shaped like
``openssl speed``'s (1000s of bytes per second) so the two read side by
side.  ``--compare`` runs ``openssl speed`` and pycryptodome in the same run,
where they are present, and prints numbades's ratio to each.

``run`` reads as its three steps: :func:`measure_all`, then :func:`render_text`
or :func:`render_json`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from ..engines.registry import ENGINES
from ..tuning import machine
from .measure import (
    IV,
    KEY8,
    KEY24,
    Progress,
    format_size,
    parse_size,
    positive_float,
    rate,
    set_threads,
)
from .peers import (
    CIPHERS,
    openssl_speed,
    openssl_version,
    pycryptodome_call,
    pycryptodome_key_call,
)

SIZES = (16, 64, 1024, 8192, 1024 * 1024)
LIBRARIES = ("numbades", "pycryptodome", "openssl")

Rates = dict[int, float | None]  # message size -> bytes/s (None: not available)


def numbades_call(cipher: str, nbytes: int, variant: str) -> Callable[[], object]:
    """A no-argument numbades encrypt of one ``nbytes`` message into a preallocated buffer."""
    from ..cipher import DES, TripleDES

    src = np.zeros(nbytes, dtype=np.uint8)
    dst = np.empty_like(src)
    obj = TripleDES(KEY24, variant=variant) if cipher == "des-ede3-cbc" else DES(KEY8, variant)
    kwargs: dict[str, object] = {"mode": "ecb"} if cipher == "des-ecb" else {"mode": "cbc", "iv": IV}

    def call() -> object:
        return obj.encrypt(src, out=dst, **kwargs)

    call()  # compile (or load from the cache) outside the timing
    return call


def numbades_key_call(variant: str) -> Callable[[], object]:
    """A no-argument ``numbades.DES(key)`` construction, cycling over keys."""
    from ..cipher import DES

    keys = [bytes([i]) * 8 for i in range(1, 255, 2)]
    DES(keys[0], variant=variant)
    it = iter(range(1 << 62))
    return lambda: DES(keys[next(it) % len(keys)], variant=variant)


@dataclass
class Measurements:
    """Everything ``speed`` measured: rates per library, cipher and size; key set-ups."""

    sizes: Sequence[int]
    rates: dict[str, dict[str, Rates]] = field(default_factory=dict)
    keys: dict[str, float | None] = field(default_factory=dict)


def measure_all(args: argparse.Namespace, progress: Progress) -> Measurements:
    """Step 1: key set-up and throughput of numbades (and with ``--compare``, the peers)."""
    m = Measurements(args.sizes, {lib: {} for lib in LIBRARIES})
    progress.update("speed: numbades set_key")
    m.keys["numbades"] = rate(numbades_key_call(args.variant), 1, args.seconds)
    if args.compare:
        progress.update("speed: pycryptodome DES.new")
        m.keys["pycryptodome"] = rate(pycryptodome_key_call(), 1, args.seconds)
    libraries = LIBRARIES if args.compare else ("numbades",)
    for cipher in CIPHERS:
        for lib in libraries:
            rates: Rates = {}
            for n in args.sizes:
                progress.update(f"speed: {lib} {cipher}", format_size(n))
                if lib == "openssl":
                    rates[n] = openssl_speed(cipher, n, args.seconds)
                elif lib == "pycryptodome":
                    rates[n] = rate(pycryptodome_call(cipher, n), n, args.seconds)
                else:
                    rates[n] = rate(numbades_call(cipher, n, args.variant), n, args.seconds)
            m.rates[lib][cipher] = rates
    progress.done()
    return m


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


def render_text(m: Measurements, args: argparse.Namespace, out: TextIO) -> None:
    """Step 2 (text): key set-up lines, the openssl-shaped table, blocks/s, ratios."""
    lines = [f"numbades speed - {machine.line_prefix()} - variant {args.variant}", ""]
    for lib, value in m.keys.items():
        if value is not None:
            lines.append(
                f"{lib + ' set_key':<28}{round(value):>10,} key schedules/s "
                f"({1e6 / value:.2f} us each)"
            )
    if args.compare and m.keys.get("numbades") and m.keys.get("pycryptodome"):
        lines.append(f"{'ratio numbades/pycryptodome':<28}"
                     f"{m.keys['numbades'] / m.keys['pycryptodome']:>10.2f}")
    lines.append("")
    rows = [
        (f"{lib} {c}" if args.compare else c, per[c])
        for c in CIPHERS
        for lib, per in m.rates.items()
        if c in per
    ]
    lines += format_table("The 'numbers' are in 1000s of bytes per second processed.", rows,
                          m.sizes, lambda v: f"{v / 1000:.2f}k")
    lines.append("")
    own = list(m.rates["numbades"].items())
    lines += format_table("numbades in 8-byte blocks per second.", own, m.sizes,
                          lambda v: f"{round(v / 8):,}")
    if args.compare:
        for peer in ("openssl", "pycryptodome"):
            ratios = [(c, _ratio(m.rates["numbades"][c], m.rates[peer][c])) for c in CIPHERS]
            lines.append("")
            lines += format_table(f"Ratio numbades / {peer} (above 1: numbades is faster).",
                                  ratios, m.sizes, lambda v: f"{v:.2f}")
        if openssl_version() is None:
            lines.append("openssl not found on PATH: its rows are n/a")
    out.write("\n".join(lines) + "\n")


def render_json(m: Measurements, args: argparse.Namespace, out: TextIO) -> None:
    """Step 2 (``--json``): the same figures, machine-readable."""
    doc = {
        "machine": machine.describe(),
        "variant": args.variant,
        "seconds": args.seconds,
        "key_schedules_per_second": m.keys,
        "bytes_per_second": {
            lib: {c: {str(n): v for n, v in r.items()} for c, r in per.items()}
            for lib, per in m.rates.items()
            if per
        },
    }
    json.dump(doc, out, indent=2)
    out.write("\n")


def _sizes_arg(text: str) -> tuple[int, ...]:
    sizes = tuple(parse_size(part) for part in text.split(",") if part.strip())
    if not sizes:
        raise argparse.ArgumentTypeError(f"no sizes in {text!r} (try 16,1k,1M)")
    return sizes


def _variant_arg(text: str) -> str:
    if text != "auto" and text not in ENGINES:
        raise argparse.ArgumentTypeError(
            f"unknown variant {text!r}; choose from auto, {', '.join(ENGINES)}")
    return text


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
    parser.add_argument("--variant", type=_variant_arg, default="auto",
                        help="numbades engine (default auto)")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run `openssl speed` and pycryptodome, and print ratios",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress display on stderr")


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``speed``; 0 on success."""
    set_threads(1)
    m = measure_all(args, Progress(sys.stderr, enabled=not args.quiet))
    if args.json:
        render_json(m, args, out)
    else:
        render_text(m, args, out)
    return 0
