"""``numbades mac``: ISO/IEC 9797-1 MAC algorithm 1 or 3, or CMAC, over a file or each line.

One tag for the whole input (a file, or standard input), or with
``--lines`` one tag per line (line ends not included), computed as batches
of equal-length lines.  Tags are printed as hex, one per line.  A bad key,
IV or hex input is a usage error (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from typing import BinaryIO, TextIO

import numpy as np

from .. import mac

ALGORITHMS = {"cbc": "ISO/IEC 9797-1 algorithm 1 (CBC-MAC)",
              "retail": "ISO/IEC 9797-1 algorithm 3 (retail MAC, X9.19)",
              "cmac": "NIST SP 800-38B CMAC"}


def _hex(text: str) -> bytes:
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not hex: {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``numbades mac``."""
    parser.add_argument("-a", "--algorithm", choices=list(ALGORITHMS), default="retail",
                        help="; ".join(f"{k}: {v}" for k, v in ALGORITHMS.items())
                        + " (default: retail)")
    parser.add_argument("-K", dest="key", type=_hex, required=True,
                        help="the key as hex: 8, 16 or 24 bytes (retail: 16 or 24)")
    parser.add_argument("--iv", type=_hex, default=None, help="cbc only: the IV as hex")
    parser.add_argument("--padding", type=int, choices=(1, 2, 3), default=None,
                        help="ISO/IEC 9797-1 padding method (cbc, retail; default 1)")
    parser.add_argument("--length", type=int, default=8, help="tag bytes, 4 to 8 (default 8)")
    parser.add_argument("--lines", action="store_true",
                        help="one tag per line of the input (line ends not MACed)")
    parser.add_argument("--hex-input", action="store_true",
                        help="the input (each line, with --lines) is hex text")
    parser.add_argument("file", nargs="?", default="-",
                        help="input file (default: standard input)")


def _messages(raw: bytes, lines: bool, hex_input: bool) -> list[bytes]:
    pieces = raw.splitlines() if lines else [raw]
    if hex_input:
        pieces = [bytes.fromhex(p.decode("ascii")) for p in pieces]
    return pieces


def _tags(args: argparse.Namespace, messages: list[bytes]) -> list[bytes]:
    """Tags of ``messages``, in order; equal-length messages go through one batch call."""
    kw: dict = {"length": args.length}
    if args.algorithm != "cmac":
        kw["padding"] = 1 if args.padding is None else args.padding
    if args.iv is not None:
        kw["iv"] = args.iv
    fn = getattr(mac, args.algorithm)
    tags: list[bytes] = [b""] * len(messages)
    by_length: dict[int, list[int]] = {}
    for i, m in enumerate(messages):
        by_length.setdefault(len(m), []).append(i)
    for n, where in by_length.items():
        if len(where) == 1:
            tags[where[0]] = fn(args.key, messages[where[0]], **kw)
            continue
        rows = np.frombuffer(b"".join(messages[i] for i in where), np.uint8).reshape(-1, n)
        for i, tag in zip(where, fn(args.key, rows, **kw), strict=True):
            tags[i] = tag.tobytes()
    return tags


def _read(name: str, stdin: BinaryIO) -> bytes:
    if name == "-":
        return stdin.read()
    with open(name, "rb") as f:
        return f.read()


def _usage(problem: str) -> int:
    print(f"numbades mac: error: {problem}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace, out: TextIO | None = None, stdin: BinaryIO | None = None) -> int:
    """Run ``mac``: print one hex tag (or one per line); 2 on a bad key, IV or input."""
    if args.iv is not None and args.algorithm != "cbc":
        return _usage("--iv is for -a cbc only")
    if args.padding is not None and args.algorithm == "cmac":
        return _usage("cmac takes no --padding")
    try:
        raw = _read(args.file, stdin or sys.stdin.buffer)
    except OSError as exc:
        return _usage(f"{args.file}: {exc.strerror}")
    try:
        messages = _messages(raw, args.lines, args.hex_input)
    except (ValueError, UnicodeDecodeError):
        return _usage("the input is not hex text")
    try:
        tags = _tags(args, messages)
    except (ValueError, TypeError) as exc:
        return _usage(str(exc))
    (out or sys.stdout).writelines(tag.hex().upper() + "\n" for tag in tags)
    return 0
