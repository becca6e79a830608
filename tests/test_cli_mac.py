"""``numbades mac`` on tiny inputs, checked against psec and pycryptodome."""

from __future__ import annotations

import io
import sys
import warnings

import pytest

from numbades.cli import main

KEY16 = "0123456789ABCDEFFEDCBA9876543210"


def _psec_retail(data: bytes, padding: int = 1) -> str:
    import psec

    key = bytes.fromhex(KEY16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return psec.mac.generate_retail_mac(key[:8], key[8:], data, padding).hex().upper()


def test_retail_per_line(tmp_path, capsys):
    lines = [b"4000123412341234", b"", b"amount=100.00;terminal=7", b"4000123412341235"]
    path = tmp_path / "tx.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["mac", "-K", KEY16, "--padding", "2", "--lines", str(path)]) == 0
    assert capsys.readouterr().out.split() == [_psec_retail(m, 2) for m in lines]


def test_whole_file_from_stdin_cmac_and_cbc(monkeypatch, capsys):
    from Crypto.Cipher import DES
    from Crypto.Hash import CMAC

    data = b"one file\nof two lines\n"
    key = bytes.fromhex("133457799BBCDFF1")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["mac", "-a", "cmac", "-K", key.hex(), "--length", "4"]) == 0
    assert capsys.readouterr().out == CMAC.new(key, data, ciphermod=DES).hexdigest()[:8].upper() + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    iv = bytes(range(8))
    assert main(["mac", "-a", "cbc", "-K", key.hex(), "--iv", iv.hex()]) == 0
    padded = data + bytes(-len(data) % 8)
    want = DES.new(key, DES.MODE_CBC, iv=iv).encrypt(padded)[-8:].hex().upper()
    assert capsys.readouterr().out == want + "\n"


def test_hex_lines(tmp_path, capsys):
    path = tmp_path / "hex.txt"
    path.write_text("1234567890ABCDEF\n00\n")
    assert main(["mac", "-K", KEY16, "--lines", "--hex-input", str(path)]) == 0
    assert capsys.readouterr().out.split() == [_psec_retail(bytes.fromhex("1234567890ABCDEF")),
                                               _psec_retail(b"\0")]


@pytest.mark.parametrize("argv", [
    ["mac", "-K", "0123"],                                 # retail key too short
    ["mac", "-K", "zz"],                                   # not hex
    ["mac", "-a", "retail", "-K", KEY16, "--iv", "00" * 8],
    ["mac", "-a", "cmac", "-K", KEY16, "--padding", "2"],
    ["mac", "-K", KEY16, "--length", "9"],
    ["mac", "-K", KEY16, "/nonexistent/file"],
    ["mac", "-K", KEY16, "--padding", "4"],
])
def test_usage_errors_exit_2(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x")))
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def test_bad_hex_input_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("12345\n")
    assert main(["mac", "-K", KEY16, "--lines", "--hex-input", str(path)]) == 2
    assert "not hex" in capsys.readouterr().err
