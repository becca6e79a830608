"""``numbades crypt``: a password file of user:hash lines checked against glibc's hashes.

The hashes are made by glibc's crypt(3) through Python 3.11's ``crypt``
module (the outside reference); locked entries and other algorithms'
hashes must match nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from numbades.cli import main

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    libc = pytest.importorskip("crypt", reason="Python 3.13 removed the crypt module")

ROOT = Path(__file__).resolve().parents[1]


def glibc(password: str, setting: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return libc.crypt(password, setting)


@pytest.fixture
def shadow(tmp_path: Path) -> Path:
    lines = [
        "# a comment, then a blank line",
        "",
        f"alice:{glibc('hunter2', 'ab')}:19000:0:99999:7:::",
        f"bob:{glibc('tr0ub4dor', '_J9..CCCC')}:19000::::::",
        f"carol:{glibc('hunter2', 'zz')}",
        "daemon:*:19000:0:99999:7:::",
        f"locked:!{glibc('hunter2', 'cd')}:19000::::::",
        f"md5:{glibc('hunter2', '$1$saltsalt')}:19000::::::",
        f"dave:{glibc('a longer passphrase', '_/...abcd')}",
    ]
    path = tmp_path / "shadow"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_one_password(shadow, capsys):
    assert main(["crypt", str(shadow), "--password", "hunter2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["alice", "carol"]
    assert main(["crypt", str(shadow), "--password", "nothing"]) == 1
    assert capsys.readouterr().out == ""


def test_a_word_list(shadow, tmp_path, capsys):
    words = tmp_path / "words"
    words.write_text("password\nhunter2\n\ntr0ub4dor\na longer passphrase\n")
    assert main(["crypt", str(shadow), "--wordlist", str(words)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "alice:hunter2", "carol:hunter2", "bob:tr0ub4dor", "dave:a longer passphrase"]


def test_bad_input_is_one_line_and_status_2(shadow, tmp_path, capsys):
    assert main(["crypt", str(tmp_path / "missing"), "--password", "x"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    bad = tmp_path / "bad"
    bad.write_text(f"alice:{glibc('x', 'ab')}\nno colon here\n")
    assert main(["crypt", str(bad), "--password", "x"]) == 2
    assert "line 2 is not user:hash" in capsys.readouterr().err
    assert main(["crypt", str(shadow), "--password", "x", "--wordlist", str(bad)]) == 2


def test_the_password_from_stdin(shadow):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "numbades", "crypt", str(shadow)],
                         input="tr0ub4dor\n", capture_output=True, text=True, env=env,
                         timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "bob\n"
