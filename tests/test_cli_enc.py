"""``numbades enc`` against the real ``openssl enc``: flags, pipes, messages, interruption.

Most runs call ``numbades.cli.main`` in this process (with stdin/stdout
replaced); a few run the command as a subprocess, as a user would, for
pipes and signals.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from numbades import openssl_enc as oe
from numbades.cli import main

from .test_openssl_enc import LEGACY, OPENSSL, openssl, payload

pytestmark = pytest.mark.skipif(OPENSSL is None, reason="the openssl command is not installed")
ROOT = Path(__file__).resolve().parents[1]


def enc(monkeypatch, capsys, *argv: str, data: bytes = b"") -> tuple[int, bytes, str]:
    """``numbades enc ARGV`` in-process: (exit status, stdout bytes, stderr text)."""
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, write_through=True))
    capsys.readouterr()
    status = main(["enc", *argv])
    sys.stdout.flush()
    return status, out.getvalue(), capsys.readouterr().err


def command(*argv: str, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "numbades", *argv], env=env, check=False,
                          timeout=300, **kw)


@pytest.mark.parametrize("name", oe.names())
def test_every_cipher_name_with_files(tmp_path, monkeypatch, capsys, name):
    data = payload(17)
    (tmp_path / "p").write_bytes(data)
    status, _, _ = enc(monkeypatch, capsys, f"-{name}", "-k", "pw", "-in", str(tmp_path / "p"),
                       "-out", str(tmp_path / "e"))
    assert status == 0
    assert openssl("-d", f"-{name}", "-k", "pw", "-in", str(tmp_path / "e")).stdout == data
    theirs = openssl("-e", f"-{name}", "-k", "pw", data=data).stdout
    assert enc(monkeypatch, capsys, "-d", f"-{name}", "-k", "pw", data=theirs)[:2] == (0, data)


@pytest.mark.parametrize("source", ["pass", "env", "file", "fd", "stdin", "k"])
def test_password_sources(tmp_path, monkeypatch, capsys, source):
    salt = "0011223344556677"
    want = openssl("-des3", "-pass", "pass:s3cret", "-S", salt, "-P").stdout
    stdin = b""
    if source == "pass":
        args = ["-pass", "pass:s3cret"]
    elif source == "env":
        monkeypatch.setenv("NUMBADES_TEST_PW", "s3cret")
        args = ["-pass", "env:NUMBADES_TEST_PW"]
    elif source == "file":
        (tmp_path / "pw").write_bytes(b"s3cret\nsecond line\n")
        args = ["-pass", f"file:{tmp_path / 'pw'}"]
    elif source == "fd":
        r, w = os.pipe()
        os.write(w, b"s3cret\n")
        os.close(w)
        args = ["-pass", f"fd:{r}"]
    elif source == "stdin":
        args, stdin = ["-pass", "stdin"], b"s3cret\n"
    else:
        args = ["-k", "s3cret"]
    status, out, _ = enc(monkeypatch, capsys, "-des3", *args, "-S", salt, "-P", data=stdin)
    if source == "fd":
        os.close(r)
    assert (status, out) == (0, want)


@pytest.mark.parametrize(
    "flags",
    [
        ("-des3", "-k", "pw", "-S", "0102", "-p"),  # short hex: zero-padded, with OpenSSL's warning
        ("-des-cbc", "-k", "pw", "-nosalt", "-md", "md5", "-p"),
        ("-des-ede-ofb", "-k", "pw", "-pbkdf2", "-iter", "3", "-S", "010203040506070809", "-p"),
        ("-des-ecb", "-K", "0123", "-iv", "00", "-p"),  # iv not used by this cipher
        ("-des-ede3-cfb8", "-K", "00112233445566778899aabbccddeeff0011223344556677", "-iv",
         "0102030405060708", "-a", "-p"),
        ("-des-cbc", "-K", "00", "-iv", "00", "-nopad", "-a", "-A", "-p"),
    ],
)
def test_same_output_and_warnings_as_openssl(monkeypatch, capsys, flags):
    data = payload(48, 9)
    theirs = openssl(*flags, data=data)
    want = theirs.stdout
    if "-k" not in flags:  # no salt is used; openssl prints uninitialised bytes, numbades nothing
        assert want.startswith(b"salt=")
        want = want.split(b"\n", 1)[1]
    status, out, err = enc(monkeypatch, capsys, *flags, data=data)
    assert (status, out) == (0, want)
    assert err.splitlines() == theirs.stderr.decode().splitlines()


@pytest.mark.parametrize(
    ("flags", "data", "message"),
    [
        (("-d", "-des3", "-k", "wrong"), "ciphertext", "bad decrypt"),
        (("-d", "-des3", "-k", "pw"), "truncated", "bad decrypt"),
        (("-d", "-des3", "-k", "pw"), "header", "error reading input file"),
        (("-d", "-des3", "-k", "pw"), "plain", "bad magic number"),
        (("-des3", "-k", "pw", "-nopad", "-nosalt"), "plain", "bad encrypt"),
        (("-des3", "-K", "00"), "plain", "iv undefined"),
        (("-des3", "-K", "0g", "-iv", "00"), "plain", "invalid hex key value"),
        (("-des3", "-k", "pw", "-iv", "zz"), "plain", "invalid hex iv value"),
        (("-des3", "-pass", "nonsense"), "plain", "Invalid password argument"),
        (("-des3", "-pass", "env:NUMBADES_NO_SUCH_VARIABLE"), "plain", "environment variable"),
    ],
)
def test_failures_as_openssl(tmp_path, monkeypatch, capsys, flags, data, message):
    ct = openssl("-e", "-des3", "-k", "pw", data=payload(99)).stdout
    data = {"ciphertext": ct, "truncated": ct[:-3], "header": ct[:12], "plain": payload(99)}[data]
    theirs = openssl(*flags, data=data, check=False)
    assert theirs.returncode == 1 and message in theirs.stderr.decode()
    (tmp_path / "in").write_bytes(data)
    status, _, err = enc(monkeypatch, capsys, *flags, "-in", str(tmp_path / "in"), "-out",
                         str(tmp_path / "out"))
    assert status == 1 and message in err
    assert sorted(os.listdir(tmp_path)) == ["in"]  # no output, no temporary file


@pytest.mark.parametrize("argv", [("-des3", "-k", "x", "-iter", "0"), ("-des3", "-md", "nope"),
                                  ("-k", "x"), ("-des3", "-bogus")])
def test_usage_errors(monkeypatch, capsys, argv):
    status, _, err = enc(monkeypatch, capsys, *argv)
    assert status == 2 and "usage:" in err


def test_out_equal_to_in_and_verbose(tmp_path, monkeypatch, capsys):
    data = payload(1000)
    path = tmp_path / "f"
    path.write_bytes(data)
    status, _, err = enc(monkeypatch, capsys, "-des3", "-k", "pw", "-in", str(path), "-out",
                         str(path), "-v", "--chunk-size", "64")
    assert status == 0 and "bytes read   :     1000\nbytes written:     1024" in err
    assert openssl("-d", "-des3", "-k", "pw", "-in", str(path)).stdout == data
    assert enc(monkeypatch, capsys, "-d", "-des3", "-k", "pw", "-in", str(path), "-out",
               str(path))[0] == 0
    assert path.read_bytes() == data


def test_progress_forced_and_quiet(tmp_path, monkeypatch, capsys):
    pytest.importorskip("tqdm")
    (tmp_path / "p").write_bytes(payload(5000))
    args = ["-des3", "-k", "pw", "-in", str(tmp_path / "p"), "-out", str(tmp_path / "e"),
            "--chunk-size", "1024"]
    assert "B/s" in enc(monkeypatch, capsys, *args, "--progress")[2]
    assert "B/s" not in enc(monkeypatch, capsys, *args, "-q")[2]


def test_ciphers_list(monkeypatch, capsys):
    status, out, _ = enc(monkeypatch, capsys, "-ciphers")
    assert status == 0 and b"-des-ede3-cbc" in out and b"-des3" in out


def test_pipes_both_ways():
    data = payload(3000)
    ours = command("enc", "-des-ede3-cbc", "-pbkdf2", "-k", "pw", "-a", input=data,
                   capture_output=True)
    assert ours.returncode == 0, ours.stderr
    assert openssl("-d", "-des-ede3-cbc", "-pbkdf2", "-k", "pw", "-a", data=ours.stdout).stdout \
        == data
    theirs = subprocess.run(f"{OPENSSL} enc {' '.join(LEGACY)} -des-cbc -k pw | "
                            f"{sys.executable} -m numbades enc -d -des-cbc -k pw",
                            shell=True, input=data, capture_output=True, check=False,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert theirs.returncode == 0 and theirs.stdout == data


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


@contextlib.contextmanager
def _sigint_not_ignored() -> Iterator[None]:
    """Children started inside get Ctrl-C's default meaning, as at a terminal.

    A runner that starts the tests in the background (``cmd &`` without job
    control) leaves SIGINT ignored, which every child inherits, and Python
    then keeps it ignored rather than raising KeyboardInterrupt: the child
    would decrypt the whole file and exit 0. A handled signal is reset to
    the default at exec, so handling it here for the moment of the fork is
    enough.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_decryption_leaves_target_untouched(tmp_path, sig):
    src, target = tmp_path / "big", tmp_path / "target"
    with open(src, "wb") as f:  # sparse: 2 GiB of zeros, quick to make; interrupted long before
        f.truncate(2 << 30)
    target.write_bytes(b"precious")
    with _sigint_not_ignored():
        proc = subprocess.Popen(
            [sys.executable, "-m", "numbades", "enc", "-d", "-des-ede3-cbc", "-nopad",
             "-K", "11" * 24, "-iv", "00", "-in", str(src), "-out", str(target),
             "--chunk-size", str(1 << 20)],
            env={**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1"},
            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        while not any(p.endswith(".part") and _size(tmp_path / p) > 0
                      for p in os.listdir(tmp_path)):  # mid-file: some output written
            assert proc.poll() is None, "finished before it could be interrupted"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(sig)
        status = proc.wait(timeout=120)
    finally:
        proc.kill()
    assert status == (130 if sig == signal.SIGINT else 128 + sig)
    assert target.read_bytes() == b"precious"
    assert sorted(os.listdir(tmp_path)) == ["big", "target"]
