"""``numbades kcv``: a table of key check values from a key file or stdin.

Each line is ``label hexkey`` or a bare ``hexkey`` (labelled by its line
number); the hex may be split by spaces (``ZMK1 0123 4567 ...``; a line
of hex groups alone is a bare key when the first group is not needed as a
label for the rest to be a key of 8, 16 or 24 bytes); blank lines and ``#`` comments are skipped.  8-, 16- and 24-byte keys
may be mixed.  A Triple-DES key with K1 == K2 or K2 == K3, which the library
refuses as a cipher key, gets the check value of the single DES it
collapses to, as an HSM or ``openssl`` computes it.  Any bad line is reported
(with its number) before anything is printed, and the status is then 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

import numpy as np

from ..key_arrays import key_check_values

SIZES = {8: "DES", 16: "3DES-2", 24: "3DES-3"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``numbades kcv``."""
    parser.add_argument("file", nargs="?", default="-",
                        help="key file of 'label hexkey' lines (default: stdin)")
    parser.add_argument("--length", type=int, default=3, choices=range(1, 9), metavar="N",
                        help="bytes of E_K(0) to show, 1..8 (default 3)")


def parse_keys(lines: list[str]) -> tuple[list[tuple[str, bytes]], list[str]]:
    """``(label, key)`` rows and the error messages of bad lines."""
    rows: list[tuple[str, bytes]] = []
    errors: list[str] = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        tokens = text.split()
        label, hexkey = str(number), "".join(tokens)
        if len(tokens) > 1 and (not _is_hex(tokens[0]) or _key_hex(tokens[1:])
                                or not _key_hex(tokens)):
            label, hexkey = tokens[0], "".join(tokens[1:])
        try:
            key = bytes.fromhex(hexkey)
        except ValueError:
            errors.append(f"line {number}: {hexkey!r} is not hex")
            continue
        if len(key) not in SIZES:
            errors.append(f"line {number}: a key of {len(key)} bytes (8, 16 or 24 expected)")
            continue
        rows.append((label, key))
    return rows, errors


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


def _key_hex(tokens: list[str]) -> bool:
    """The tokens together are the hex of a key of a valid size."""
    joined = "".join(tokens)
    return _is_hex(joined) and len(joined) // 2 in SIZES and len(joined) % 2 == 0


def _equivalent(key: bytes) -> bytes:
    """The key itself, or for a Triple-DES key that collapses to single DES that DES key."""
    if len(key) == 8:
        return key
    k1, k2 = key[:8], key[8:16]
    k3 = key[16:] if len(key) == 24 else k1

    def same(a: bytes, b: bytes) -> bool:
        return all((x ^ y) & 0xFE == 0 for x, y in zip(a, b, strict=True))

    if same(k1, k2):
        return k3
    if same(k2, k3):
        return k1
    return key


def check_values(keys: list[bytes], length: int) -> list[bytes]:
    """One check value per key, keys of every size mixed (grouped by size for the library)."""
    keys = [_equivalent(k) for k in keys]
    out: list[bytes] = [b""] * len(keys)
    for size in SIZES:
        rows = [i for i, k in enumerate(keys) if len(k) == size]
        if rows:
            group = np.frombuffer(b"".join(keys[i] for i in rows), np.uint8).reshape(-1, size)
            for i, kcv in zip(rows, key_check_values(group, length), strict=True):
                out[i] = kcv.tobytes()
    return out


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Print the table (on stdout by default); 1 if a line is bad (nothing printed then)."""
    out = out or sys.stdout
    try:
        if args.file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.file, encoding="utf-8") as f:
                lines = f.read().splitlines()
    except OSError as exc:
        print(f"numbades kcv: can't read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    rows, errors = parse_keys(lines)
    if errors:
        for message in errors:
            print(f"numbades kcv: {message}", file=sys.stderr)
        return 1
    kcvs = check_values([key for _, key in rows], args.length)
    width = max([5, *(len(label) for label, _ in rows)])
    print(f"{'label':<{width}}  {'type':<6}  KCV", file=out)
    for (label, key), kcv in zip(rows, kcvs, strict=True):
        print(f"{label:<{width}}  {SIZES[len(key)]:<6}  {kcv.hex().upper()}", file=out)
    return 0
