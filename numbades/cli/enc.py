"""``numbades enc``: ``openssl enc`` for the DES family, streaming, all-or-nothing output.

The flags are OpenSSL's (single dash): ``-e``/``-d``, ``-in``/``-out``
(stdin/stdout by default), a cipher name (``-des-ede3-cbc``, ``-des3``, ...),
``-k``/``-pass``, ``-K``/``-iv``/``-S`` (hex), ``-nosalt``, ``-md``,
``-pbkdf2``, ``-iter``, ``-a``/``-base64``, ``-A``, ``-nopad``, ``-p``/``-P``,
``-v``; plus ``-q`` and ``--progress``.  Failures print OpenSSL's message
(``bad decrypt``, ``bad magic number``, ...) on stderr and exit with 1;
usage errors exit with 2.  A file named by ``-out`` is replaced only once
the whole input was processed and the padding checked.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import signal
import stat
import sys
import textwrap
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from .. import openssl_enc as oe
from ..openssl_enc import job, kdf
from ..openssl_enc.atomic import atomic_output

DEPRECATED_KDF = "*** WARNING : deprecated key derivation used.\nUsing -iter or -pbkdf2 would be better."


class Failure(Exception):
    """An ``openssl enc`` style failure: print the message, exit 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``numbades enc`` (OpenSSL's spelling)."""
    parser.add_argument("-e", dest="decrypt", action="store_false", help="encrypt (default)")
    parser.add_argument("-d", dest="decrypt", action="store_true", help="decrypt")
    parser.add_argument("-in", dest="infile", metavar="FILE", help="input file (default stdin)")
    parser.add_argument("-out", dest="outfile", metavar="FILE",
                        help="output file (default stdout); replaced only on success")
    parser.add_argument("-k", dest="password", help="the password")
    parser.add_argument("-pass", dest="passarg", metavar="SOURCE",
                        help="password source: pass:PW, env:VAR, file:PATH, fd:N, stdin")
    parser.add_argument("-K", dest="hkey", metavar="HEX", help="raw key, hex")
    parser.add_argument("-iv", dest="hiv", metavar="HEX", help="raw IV, hex")
    parser.add_argument("-S", dest="hsalt", metavar="HEX",
                        help="salt, hex (then no Salted__ header is written or read)")
    parser.add_argument("-salt", dest="nosalt", action="store_false", help="use a salt (default)")
    parser.add_argument("-nosalt", dest="nosalt", action="store_true", help="derive without salt")
    parser.add_argument("-md", default=kdf.DEFAULT_MD, help="digest for key derivation (sha256)")
    parser.add_argument("-pbkdf2", action="store_true", help="derive the key with PBKDF2")
    parser.add_argument("-iter", type=_iterations, default=None,
                        help="PBKDF2 iterations (implies -pbkdf2; default 10000)")
    parser.add_argument("-a", "-base64", dest="base64", action="store_true",
                        help="base64: encode after encrypting, decode before decrypting")
    parser.add_argument("-A", dest="single_line", action="store_true",
                        help="with -a, base64 on one line")
    parser.add_argument("-nopad", action="store_true", help="no PKCS#7 padding (ECB, CBC)")
    parser.add_argument("-p", dest="printkey", action="store_const", const=1, default=0,
                        help="print the salt, key and IV")
    parser.add_argument("-P", dest="printkey", action="store_const", const=2,
                        help="print the salt, key and IV, then stop")
    parser.add_argument("-v", dest="verbose", action="store_true", help="print byte counts")
    parser.add_argument("-ciphers", action="store_true", help="list the cipher names")
    parser.add_argument("-q", dest="progress", action="store_false", default=None,
                        help="no progress bar")
    parser.add_argument("--progress", dest="progress", action="store_true",
                        help="a progress bar on stderr even when it is not a terminal")
    parser.add_argument("--chunk-size", type=int, default=oe.DEFAULT_CHUNK, help=argparse.SUPPRESS)
    parser.add_argument("--no-overlap", dest="overlap", action="store_false",
                        help=argparse.SUPPRESS)  # no I/O thread (benchmarks)
    for name in oe.names():
        parser.add_argument(f"-{name}", dest="cipher", action="store_const", const=name,
                            help=argparse.SUPPRESS)
    parser.epilog = "ciphers: " + " ".join(f"-{n}" for n in oe.names())
    parser.formatter_class = _KeepNames
    parser.set_defaults(cipher=None, decrypt=False, nosalt=False)


class _KeepNames(argparse.HelpFormatter):
    """Help text wrapped between words only, never inside ``-des-ede3-cbc``."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False)


def _iterations(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'can\'t parse "{text}" as a number') from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f'non-positive number "{text}" for option -iter')
    return value


def set_hex(text: str, size: int, what: str) -> bytes:
    """OpenSSL's hex reading: cut or zero-pad to ``size`` bytes, warning on stderr."""
    if len(text) > 2 * size:
        print("hex string is too long, ignoring excess", file=sys.stderr)
        text = text[:2 * size]
    elif len(text) < 2 * size:
        print("hex string is too short, padding with zero bytes to length", file=sys.stderr)
    if any(c not in "0123456789abcdefABCDEF" for c in text):
        raise Failure(f"non-hex digit\ninvalid hex {what} value")
    return bytes.fromhex(text.ljust(2 * size, "0"))


def _first_line(f: Any) -> bytes:
    line = f.readline()
    if isinstance(line, str):
        line = os.fsencode(line)
    return line.rstrip(b"\r\n")


def read_password(arg: str) -> bytes:
    """The password a ``-pass`` argument names (pass:, env:, file:, fd:, stdin)."""
    kind, _, value = arg.partition(":")
    try:
        if kind == "pass" and _:
            return os.fsencode(value)
        if kind == "env" and _:
            if value not in os.environ:
                raise Failure(f"Can't read environment variable {value}")
            return os.fsencode(os.environ[value])
        if kind == "file" and _:
            with open(value, "rb") as f:
                return _first_line(f)
        if kind == "fd" and _:
            with os.fdopen(int(value), "rb", closefd=False) as f:
                return _first_line(f)
        if arg == "stdin":
            return _first_line(sys.stdin.buffer)
    except (OSError, ValueError) as exc:
        raise Failure(f"Can't access password source {arg!r}: {exc}") from None
    raise Failure(f'Invalid password argument "{arg}" (pass:, env:, file:, fd: or stdin)')


def _prompt(name: str, decrypt: bool) -> bytes:
    what = "decryption" if decrypt else "encryption"
    try:
        first = getpass.getpass(f"enter {name} {what} password:")
        if not decrypt and getpass.getpass(f"Verifying - enter {name} {what} password:") != first:
            raise Failure("Verify failure\nbad password read")
    except (EOFError, OSError):
        raise Failure("bad password read (give -k, -pass or -K)") from None
    return os.fsencode(first)


def _params(args: argparse.Namespace) -> oe.Params:
    spec = oe.lookup(args.cipher)
    password = os.fsencode(args.password) if args.password is not None else None
    if password is None and args.passarg is not None:
        password = read_password(args.passarg)
    if password is None and args.hkey is None:
        password = _prompt(spec.name, args.decrypt)
    salt = set_hex(args.hsalt, kdf.SALT_LEN, "salt") if args.hsalt is not None else None
    iv = None
    if args.hiv is not None:
        if not spec.iv_len:
            print("warning: iv not used by this cipher", file=sys.stderr)
        else:
            iv = set_hex(args.hiv, spec.iv_len, "iv")
    if password is None and spec.iv_len and iv is None:
        raise Failure("iv undefined")
    key = set_hex(args.hkey, spec.key_len, "key") if args.hkey is not None else None
    return oe.Params(cipher=spec, password=password, key=key, iv=iv, salt=salt,
                     use_salt=not args.nosalt, md=args.md, pbkdf2=args.pbkdf2 or bool(args.iter),
                     iterations=args.iter or kdf.DEFAULT_ITERATIONS, base64=args.base64,
                     single_line=args.single_line, padding=not args.nopad)


def _print_keys(keys: oe.Keys, out: BinaryIO) -> None:
    lines = []
    if keys.salt is not None:
        lines.append(f"salt={keys.salt.hex().upper()}")
    lines.append(f"key={keys.key.hex().upper()}")
    if keys.iv is not None:
        lines.append(f"iv ={keys.iv.hex().upper()}")
    out.write(("\n".join(lines) + "\n").encode())
    out.flush()


def _input_size(f: Any) -> int | None:
    try:
        st = os.fstat(f.fileno())
    except (OSError, AttributeError, ValueError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


@contextlib.contextmanager
def _progress_bar(wanted: bool | None, total: int | None) -> Iterator[Callable[[int], None] | None]:
    """tqdm on stderr (the ``cli`` extra) when wanted: by default only on a terminal."""
    show = wanted if wanted is not None else (sys.stderr.isatty() and total is not None)
    if not show:
        yield None
        return
    try:
        from tqdm import tqdm
    except ImportError:
        if wanted:
            print("numbades enc: no progress bar: install tqdm (pip install 'numbades[cli]')",
                  file=sys.stderr)
        yield None
        return
    with tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, file=sys.stderr,
              dynamic_ncols=True, leave=False) as bar:
        yield lambda done: bar.update(done - bar.n)


@contextlib.contextmanager
def _terminate_cleanly() -> Iterator[None]:
    """SIGTERM / SIGHUP unwind like Ctrl-C, so a half-written temporary file is removed."""
    def stop(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            previous[sig] = signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run(args: argparse.Namespace) -> int:
    """Run ``enc``: 0 on success, 1 on an OpenSSL-style failure."""
    if args.ciphers:
        print("Supported ciphers:\n" + " ".join(f"-{n}" for n in oe.names()))
        return 0
    if args.cipher is None:
        return _usage(args, "a cipher is required, e.g. -des-ede3-cbc (see -ciphers)")
    try:
        kdf.hash_name(args.md)
    except ValueError:
        return _usage(args, f"Unknown option or message digest: {args.md}")
    with _terminate_cleanly():
        try:
            return _run(args)
        except Failure as exc:
            print(exc, file=sys.stderr)
            return 1
        except oe.BadDecrypt:
            print("bad decrypt\nnumbades enc: wrong password or key, or the input is corrupted "
                  "or truncated; no output was written", file=sys.stderr)
            return 1
        except oe.EncError as exc:
            print(exc, file=sys.stderr)
            return 1


def _usage(args: argparse.Namespace, message: str) -> int:
    """A usage error: usage line and message on stderr, status 2 (as argparse)."""
    parser = getattr(args, "parser", None)
    if parser is not None:
        parser.print_usage(sys.stderr)
    print(f"numbades enc: error: {message}", file=sys.stderr)
    return 2


def _open_input(path: str | None) -> Any:
    if path is None:
        return contextlib.nullcontext(sys.stdin.buffer)
    try:
        return open(path, "rb")
    except OSError as exc:
        raise Failure(f'Can\'t open "{path}" for reading, {exc.strerror}') from None


def _open_output(path: str | None) -> Any:
    if path is None:
        return contextlib.nullcontext(sys.stdout.buffer)
    directory = os.path.dirname(os.path.realpath(path)) or "."
    if not os.access(directory, os.W_OK | os.X_OK) and not _is_special(path):
        raise Failure(f'Can\'t open "{path}" for writing: numbades writes a temporary file in '
                      f"{directory} and renames it, and that directory is not writable")
    return atomic_output(path)


def _is_special(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _run(args: argparse.Namespace) -> int:
    params = _params(args)
    if params.password is not None and not params.pbkdf2:
        print(DEPRECATED_KDF, file=sys.stderr)
    stdout = sys.stdout.buffer

    def on_keys(keys: oe.Keys) -> bool:
        if args.printkey:
            _print_keys(keys, stdout)
        return args.printkey != 2

    with _open_input(args.infile) as fin:
        if args.printkey == 2:  # -P: print the keys (reading a salt header), write nothing
            on_keys(job.start_keys(params, fin, args.decrypt))
            return 0
        with _progress_bar(args.progress, _input_size(fin)) as progress, \
                _open_output(args.outfile) as fout:
            stats = job.run(params, fin, fout, args.decrypt, chunk_size=args.chunk_size,
                               overlap=args.overlap, on_keys=on_keys, progress=progress)
            fout.flush()
    if args.verbose:
        print(f"bytes read   : {stats.bytes_read:8d}\nbytes written: {stats.bytes_written:8d}",
              file=sys.stderr)
    return 0
