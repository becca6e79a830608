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
from . import startup
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
    pycryptodome_call,
    pycryptodome_key_call,
    pycryptodome_small_call,
)
from .peers import missing as missing_peers

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


#: Key set-up as measured: construction alone, then with each engine's key form.
KEY_SETUPS = ("DES(key) only", "with table key form", "with bitslice key planes")
#: Small calls as measured: (label, cipher, message bytes), ``bytes`` in and out.
SMALL_CALLS = (("DES-ECB 8 B", "des", 8), ("DES-ECB 16 B", "des", 16),
               ("3DES-ECB 16 B", "3des", 16))


def numbades_key_call(setup: str) -> Callable[[], object]:
    """A no-argument new-key set-up, cycling over keys: everything before the first block.

    ``setup`` is one of ``KEY_SETUPS``: ``DES(key)`` alone (16 round keys),
    or also the key form the engine that runs the first block builds.
    """
    from ..cipher import DES
    from ..engines import chains

    keys = [bytes([i]) * 8 for i in range(1, 255, 2)]
    engine = {KEY_SETUPS[1]: ENGINES["table"], KEY_SETUPS[2]: ENGINES["bitslice"]}.get(setup)
    it = iter(range(1 << 62))

    def make() -> object:
        cipher = DES(keys[next(it) % len(keys)])
        if engine is not None:
            cipher._schedule.form(engine, chains.ECB_ENCRYPT)
        return cipher

    make()  # compile / load the key-schedule kernels
    return make


def numbades_small_call(cipher: str, nbytes: int) -> Callable[[], object]:
    """One ``encrypt`` of ``nbytes`` of ``bytes`` on a reused cipher object (auto engine)."""
    from ..cipher import DES, TripleDES

    obj = TripleDES(KEY24) if cipher == "3des" else DES(KEY8)
    data = bytes(nbytes)
    obj.encrypt(data)
    return lambda: obj.encrypt(data)


@dataclass
class Measurements:
    """Everything ``speed`` measured: rates per library, cipher and size; key set-ups."""

    sizes: Sequence[int]
    rates: dict[str, dict[str, Rates]] = field(default_factory=dict)
    keys: dict[str, float | None] = field(default_factory=dict)  # key set-ups per second
    small: dict[str, dict[str, float | None]] = field(default_factory=dict)  # calls/s
    missing: dict[str, str] = field(default_factory=dict)  # peer -> why it was not measured


def measure_all(args: argparse.Namespace, progress: Progress) -> Measurements:
    """Step 1: key set-up and throughput of numbades (and with ``--compare``, the peers)."""
    m = Measurements(args.sizes, {lib: {} for lib in LIBRARIES})
    if args.compare:
        m.missing = missing_peers()
    for setup in KEY_SETUPS:
        progress.update("speed: numbades set_key", setup)
        m.keys[f"numbades {setup}"] = rate(numbades_key_call(setup), 1, args.seconds)
    if args.compare:
        progress.update("speed: pycryptodome DES.new")
        m.keys["pycryptodome DES.new"] = rate(pycryptodome_key_call(), 1, args.seconds)
    for label, cipher, nbytes in SMALL_CALLS:
        progress.update("speed: small calls", label)
        m.small[label] = {"numbades": rate(numbades_small_call(cipher, nbytes), 1, args.seconds)}
        if args.compare:
            peer = pycryptodome_small_call(cipher, nbytes)
            m.small[label]["pycryptodome"] = rate(peer, 1, args.seconds)
    libraries = [lib for lib in LIBRARIES if lib not in m.missing] if args.compare else ["numbades"]
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
    lines = [f"numbades speed - {machine.line_prefix()} - variant {args.variant}"]
    lines += [f"Not compared with {peer}: {why}" for peer, why in m.missing.items()]
    lines.append("")
    lines.append("Key set-up: everything a new key costs before its first block, per key.")
    peer_keys = m.keys.get("pycryptodome DES.new")
    for name, value in m.keys.items():
        if value is not None:
            ratio = f"  ({value / peer_keys:.2f}x pycryptodome)" if peer_keys else ""
            lines.append(f"{name:<42}{round(value):>10,} keys/s ({1e6 / value:.2f} us each)"
                         f"{ratio if name.startswith('numbades') else ''}")
    lines.append("")
    lines.append("Small calls: encrypt(bytes) on a reused cipher object, auto engine.")
    for label, per in m.small.items():
        ours, peer = per.get("numbades"), per.get("pycryptodome")
        text = f"{label:<16}numbades {1e6 / ours:6.2f} us/call" if ours else f"{label:<16}n/a"
        if ours and peer:
            text += (f", pycryptodome {1e6 / peer:6.2f} us/call, time ratio "
                     f"{peer / ours:.2f} (numbades/pycryptodome; below 1: numbades faster)")
        lines.append(text)
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
            lines.append("")
            if peer in m.missing:
                lines.append(f"Ratio numbades / {peer}: not measured ({m.missing[peer]}).")
                continue
            ratios = [(c, _ratio(m.rates["numbades"][c], m.rates[peer][c])) for c in CIPHERS]
            lines += format_table(f"Ratio numbades / {peer} (above 1: numbades is faster).",
                                  ratios, m.sizes, lambda v: f"{v:.2f}")
    out.write("\n".join(lines) + "\n")


def render_json(m: Measurements, args: argparse.Namespace, out: TextIO) -> None:
    """Step 2 (``--json``): the same figures, machine-readable."""
    doc = {
        "machine": machine.describe(),
        "variant": args.variant,
        "seconds": args.seconds,
        "key_setups_per_second": m.keys,
        "small_calls_per_second": m.small,
        "missing_peers": m.missing,
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
    startup.add_arguments(parser)


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``speed`` (or ``speed --startup``: :mod:`.startup`); 0 on success."""
    problem = startup.check_arguments(args)
    if problem:
        print(f"numbades speed: error: {problem}", file=sys.stderr)
        return 2
    if args.startup:
        return startup.run(args, out)
    set_threads(1)
    m = measure_all(args, Progress(sys.stderr, enabled=not args.quiet))
    if args.json:
        render_json(m, args, out)
    else:
        render_text(m, args, out)
    return 0
