"""Command line: ``python -m numbades <command>`` (also the ``numbades`` script).

Commands:
    opts     time every engine on this machine, libdes ``options.txt`` style
    speed    libdes ``speed`` report, ``openssl speed`` layout; ``--compare`` for peers
    compile  fill Numba's cache with every engine's kernels (images, CI, workers)
    crypt    which users of a user:hash file a password (or a word list) matches

Usage errors (unknown command, bad flag or value) exit with status 2, as
argparse does; a finished run exits 0, or 1 if an engine failed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import compile as compile_command
from . import crypt as crypt_command
from . import opts, speed

COMMANDS = {
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
        description="Measure numbades's DES engines on this machine.",
        allow_abbrev=False,
    )
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
