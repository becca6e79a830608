"""``numbades kcv`` and ``numbades --version`` / ``--help``, in-process.

Check values are compared with the ``openssl`` command's encryption of a
zero block under each key (``-K``, ``-nopad``), degenerate Triple-DES keys
included, which OpenSSL accepts.
"""

from __future__ import annotations

import io
import sys

import pytest

import numbades
from numbades.cli import main

from .test_openssl_enc import OPENSSL, openssl, payload

CIPHER = {8: "-des-ecb", 16: "-des-ede-ecb", 24: "-des-ede3-ecb"}


def openssl_kcv(key: bytes, length: int = 3) -> str:
    return openssl(CIPHER[len(key)], "-K", key.hex(), "-nopad", data=bytes(8)).stdout[:length] \
        .hex().upper()


def run(monkeypatch, capsys, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.skipif(OPENSSL is None, reason="the openssl command is not installed")
@pytest.mark.parametrize("length", [3, 8])
def test_mixed_key_sizes_against_openssl(tmp_path, monkeypatch, capsys, length):
    k = payload(8, 1)
    keys = {
        "single": payload(8, 2),
        "double": payload(16, 3),
        "triple": payload(24, 4),
        "k1_is_k2": k + k + payload(8, 5),  # collapses to single DES
        "k2_is_k3": payload(8, 6) + k + k,
        "halves": k + k,
    }
    lines = ["# HSM export", ""] + [f"{label} {key.hex()}" for label, key in keys.items()]
    lines.append("0123 4567 89ab cdef")  # no label: it is named by its line number
    path = tmp_path / "keys.txt"
    path.write_text("\n".join(lines) + "\n")
    status, out, _ = run(monkeypatch, capsys, "kcv", str(path), "--length", str(length))
    assert status == 0
    table = [line.split() for line in out.splitlines()[1:]]
    assert [row[0] for row in table] == [*keys, str(len(lines))]
    want = [openssl_kcv(key, length) for key in keys.values()]
    want.append(openssl_kcv(bytes.fromhex("0123456789abcdef"), length))
    assert [row[-1] for row in table] == want
    assert [row[1] for row in table][:3] == ["DES", "3DES-2", "3DES-3"]


def test_stdin_and_library_agree(monkeypatch, capsys):
    key = bytes.fromhex("0123456789abcdeffedcba9876543210")
    status, out, _ = run(monkeypatch, capsys, "kcv", stdin=f"ZMK {key.hex()}\n")
    assert status == 0
    assert out.split()[-1] == numbades.key_check_values([key])[0].tobytes().hex().upper()


def test_bad_lines_are_named_and_nothing_printed(monkeypatch, capsys):
    status, out, err = run(monkeypatch, capsys, "kcv",
                           stdin="a 0123456789abcdef\nb 0123\nc xyz\n")
    assert status == 1 and out == ""
    assert "line 2" in err and "2 bytes" in err and "line 3" in err and "not hex" in err


def test_version_and_help(monkeypatch, capsys):
    status, out, _ = run(monkeypatch, capsys, "--version")
    assert status == 0 and out.strip() == f"numbades {numbades.__version__}"
    status, out, _ = run(monkeypatch, capsys, "--help")
    assert status == 0 and "enc" in out and "kcv" in out and "jobs" in out
