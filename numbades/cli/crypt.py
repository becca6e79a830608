"""``numbades crypt``: which users of a password file a password (or a word list) unlocks.

Reads ``user:hash`` lines (``/etc/shadow``, ``/etc/passwd`` or ``htpasswd``
style: fields after the hash are ignored) and checks a candidate password
against every DES crypt(3) hash at once (``numbades.crypt_verify_many``:
bitsliced for many hashes, constant-time comparison per row).  Locked
entries (``*``, ``!...``) and hashes of other algorithms (``$1$``, ``$6$``,
...) match nothing.  Prints one line per match: the user, followed by
``:word`` with ``--wordlist``.  Exit status 0 when something matched, 1
when nothing did, 2 for a usage error (an unreadable file, a line without
``:``).  Meant for auditing and migrating legacy hashes you are responsible
for.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..unix_crypt import crypt_verify_many


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``numbades crypt``."""
    parser.add_argument("file", help="password file of user:hash lines ('-' for stdin)")
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--password", help="the password to check (default: read one line "
                                          "from stdin)")
    given.add_argument("--wordlist", metavar="FILE",
                       help="candidate passwords, one per line (empty lines skipped)")


def _lines(path: str, stdin: TextIO) -> list[str]:
    if path == "-":
        return stdin.read().splitlines()
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
        return fh.read().splitlines()


def read_entries(lines: list[str]) -> tuple[list[str], list[str]]:
    """(users, hashes) of ``user:hash[:...]`` lines; blank lines and ``#`` comments skipped.

    ``ValueError`` naming the first line without a ``:``.
    """
    users, hashes = [], []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        user, colon, rest = line.partition(":")
        if not colon:
            raise ValueError(f"line {number} is not user:hash")
        users.append(user)
        hashes.append(rest.split(":", 1)[0])
    return users, hashes


def run(args: argparse.Namespace, out: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run ``crypt``; 0 if a candidate matched some user, 1 if none did, 2 on bad input."""
    out = sys.stdout if out is None else out
    stdin = sys.stdin if stdin is None else stdin
    try:
        users, hashes = read_entries(_lines(args.file, stdin))
        if args.wordlist is not None:
            words = [w for w in _lines(args.wordlist, stdin) if w]
        elif args.password is not None:
            words = [args.password]
        else:
            words = [stdin.readline().rstrip("\r\n")]
    except (OSError, ValueError) as exc:
        print(f"numbades crypt: error: {exc}", file=sys.stderr)
        return 2
    matched = False
    for word in words:
        try:
            found = crypt_verify_many(word, hashes)
        except ValueError as exc:  # a NUL byte in a candidate: it cannot be a crypt(3) password
            print(f"numbades crypt: skipping a candidate: {exc}", file=sys.stderr)
            continue
        for i in found.nonzero()[0].tolist():
            out.write(f"{users[i]}:{word}\n" if args.wordlist is not None else f"{users[i]}\n")
            matched = True
    out.flush()
    return 0 if matched else 1
