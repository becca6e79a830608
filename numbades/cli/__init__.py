"""Command line: ``python -m numbades <command>`` (also the ``numbades`` script).

Commands:
    enc      encrypt / decrypt files as ``openssl enc`` does (DES family), streaming
    kcv      key check values of a key file (8-, 16-, 24-byte keys mixed)
    opts     time every engine on this machine, libdes ``options.txt`` style
    speed    libdes ``speed`` report, ``openssl speed`` layout; ``--compare`` for peers
    compile  fill Numba's cache with every engine's kernels (images, CI, workers)
    mac      ISO/IEC 9797-1 MAC algorithms 1 and 3, or CMAC, over a file or each line
    crypt    which users of a user:hash file a password (or a word list) matches

Usage errors (unknown command, bad flag or value) exit with status 2, as
argparse does; a finished run exits 0, or 1 if an engine failed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from . import compile as compile_command
from . import crypt as crypt_command
from . import enc, kcv, opts, speed
from . import mac as mac_command

COMMANDS = {
    "enc": (
        enc,
        "encrypt or decrypt a file as `openssl enc` does (-des-ede3-cbc, -des, ...)",
        (
            "openssl enc for the DES family: the same flags, files and key derivation "
            "(EVP_BytesToKey, -pbkdf2), streamed in chunks; -out is replaced only when the "
            "whole input was processed. Failures print openssl's message and exit 1."
        ),
    ),
    "kcv": (
        kcv,
        "key check values of a key file ('label hexkey' lines) or of keys on stdin",
        (
            "Print a table of key check values (the first bytes of E_K(0)) for 8-, 16- and "
            "24-byte DES / Triple-DES keys, one 'label hexkey' (or bare 'hexkey') per line."
        ),
    ),
    "opts": (
        opts,
        "time every engine, print an options.txt-style table",
        (
            "Time every engine (ECB) and print one options.txt-style line per engine, "
            "fastest first, then numbered notes."
        ),
    ),
    "speed": (
        speed,
        "key schedules and ECB/CBC/3DES throughput, openssl speed layout",
        (
            "libdes's speed report: key schedules per second and ECB, CBC and 3DES-CBC "
            "throughput for several message sizes, laid out like `openssl speed`."
        ),
    ),
    "compile": (
        compile_command,
        "compile every engine's kernels into Numba's cache, using every core",
        (
            "Compile (or load) every engine's kernels into Numba's on-disk cache, spread "
            "over several processes, so that later processes start without compiling."
        ),
    ),
    "mac": (
        mac_command,
        "ISO/IEC 9797-1 MAC (algorithm 1 or 3) or CMAC of a file, or of each line",
        (
            "ISO/IEC 9797-1 MAC algorithm 1 (cbc) or 3 (retail), or NIST SP 800-38B CMAC, "
            "over a file or standard input, or over each line (--lines); hex tags out."
        ),
    ),
    "crypt": (
        crypt_command,
        "check a password (or word list) against a file of user:hash crypt(3) lines",
        (
            "Print the users of a user:hash file (shadow, passwd or htpasswd style) whose "
            "DES crypt(3) hash a password matches; exit 0 if any did, 1 if none."
        ),
    ),
}


def build_parser() -> argparse.ArgumentParser:
    """The ``numbades`` argument parser with its subcommands."""
    parser = argparse.ArgumentParser(
        prog="numbades",
        description=(
            "DES and Triple-DES jobs from the command line (openssl-compatible file "
            "encryption, key check values, MACs, crypt(3) password files) and "
            "measurements of numbades's engines."
        ),
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"numbades {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, summary, description) in COMMANDS.items():
        command = sub.add_parser(name, help=summary, description=description, allow_abbrev=False)
        module.add_arguments(command)
        command.set_defaults(run=module.run, parser=command)
    return parser


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse, naming unknown flags as such before complaining of a missing command."""
    args, unknown = parser.parse_known_args(argv)
    owner = getattr(args, "parser", parser)
    if unknown:
        owner.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.error(f"a command is required: {', '.join(COMMANDS)}")
    return args


def _check_environment() -> str | None:
    """A usage problem in the environment (``NUMBADES_VARIANT``), or None."""
    from ..tuning.policy import resolve

    try:
        resolve("auto")
    except ValueError as exc:
        return str(exc)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's arguments) and run the command."""
    parser = build_parser()
    try:
        args = _parse(parser, argv)
    except SystemExit as exc:  # argparse: --help exits 0, usage errors exit 2
        return int(exc.code or 0)
    problem = _check_environment()
    if problem:
        print(f"numbades {args.command}: error: {problem}", file=sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `numbades opts | head`
        return 0
