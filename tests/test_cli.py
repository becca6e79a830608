"""The command line, driven as a user drives it: through a subprocess.

Runs use tiny time budgets (the figures are not checked, only the shape of
the report); throughput claims belong to the benchmarks.  All subprocesses
share one Numba cache directory so only the first pays for compilation.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import numbades
from numbades.engines.registry import options as variant_options

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["--seconds", "0.03", "--size", "1k"]

# <OS> - <CPU> [<MHz>] - Python x.y numba a.b LLVM c - <OPTIONS> [n]...   <blocks/s> <k>k/s
LINE = re.compile(
    r"^(?P<machine>.+?) - (?P<cpu>.+?) - Python \d+\.\d+ numba \S+(?: LLVM \S+)? -"
    r"(?P<options>(?: [A-Z0-9]+)*)(?P<notes>(?: \[\d+\])*)"
    r" {3,}(?P<blocks>\d{1,3}(?:,\d{3})*) +(?P<kbytes>\d+)k/s$"
)


@pytest.fixture(scope="session")
def numba_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("numba-cache")


@pytest.fixture
def python(numba_cache: Path, tmp_path: Path):
    """Run ``python ARGV`` with this checkout importable and a private choice cache."""

    def _python(*argv: str) -> subprocess.CompletedProcess:
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        env = {
            **os.environ,
            "PYTHONPATH": path,
            "NUMBA_CACHE_DIR": str(numba_cache),
            "NUMBADES_CACHE_DIR": str(tmp_path / "choices"),
        }
        return subprocess.run(
            [sys.executable, *argv],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=600,
            check=False,
        )

    return _python


@pytest.fixture
def run(python):
    """Run ``python -m numbades ARGS``; return the finished process."""
    return lambda *args: python("-m", "numbades", *args)


def _report_lines(stdout: str) -> list[str]:
    """The per-engine lines: everything before the blank line that opens the notes,
    after the header."""
    header, *lines = stdout.split("\n\n", 1)[0].splitlines()
    columns = "machine - libdes options of the engine [notes]   DES blocks/s 1000 bytes/s"
    assert header.split() == columns.split()
    return lines


def test_opts_prints_one_line_per_variant_fastest_first(run, numba_cache: Path) -> None:
    proc = run("opts", *QUICK)
    assert proc.returncode == 0, proc.stderr
    lines = _report_lines(proc.stdout)
    engines = numbades.variants()
    # stderr is a pipe here: a line per engine compiled and timed, not only per phase
    for name in engines:
        assert re.search(rf"\] {re.escape(name)}( |$)", proc.stderr, re.MULTILINE), proc.stderr
    assert f"Kernels compiled into {numba_cache.resolve()}" in proc.stdout
    assert len(lines) == len(engines), proc.stdout
    matches = [LINE.match(line) for line in lines]
    assert all(matches), [line for line, m in zip(lines, matches, strict=True) if not m]
    printed = sorted(tuple(m["options"].split()) for m in matches)
    assert printed == sorted(variant_options(v) for v in engines)
    rates = [int(m["blocks"].replace(",", "")) for m in matches]
    assert rates == sorted(rates, reverse=True)
    assert "\nNotes.\n[1] " in proc.stdout
    assert proc.stderr.strip(), "expected a progress display on stderr"


def test_opts_json_lists_every_variant(run) -> None:
    proc = run("opts", *QUICK, "--json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert {r["variant"] for r in doc["results"]} == set(numbades.variants())
    for r in doc["results"]:
        assert r["error"] is None
        assert r["blocks_per_second"] > 0
        assert r["bytes_per_second"] == pytest.approx(8 * r["blocks_per_second"])
        assert r["options"] == list(variant_options(r["variant"]))
    assert doc["settings"]["size"] == 1024
    assert doc["machine"]["fingerprint"]
    assert doc["notes"]


def test_opts_save_then_auto_uses_saved_choice(run, python, tmp_path: Path) -> None:
    proc = run("opts", *QUICK, "--save", "--json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    saved = json.loads(proc.stdout)["saved"]
    assert saved is not None
    assert set(saved["choices"]) == {"small", "medium", "large"}
    assert Path(saved["path"]).parent == tmp_path / "choices"
    probe = (
        "import json, warnings; warnings.simplefilter('error');"
        "from numbades.tuning import saved_choice as s;"
        "print(json.dumps({c: s.load_saved_choice(c) for c in s.SIZE_CLASSES}))"
    )
    check = python("-c", probe)
    assert check.returncode == 0, check.stderr
    assert json.loads(check.stdout) == saved["choices"]


def test_corrupt_saved_file_warns_and_auto_still_encrypts(python, tmp_path: Path) -> None:
    (tmp_path / "choices").mkdir()
    (tmp_path / "choices" / "choices.json").write_text("{ this is not json")
    probe = (
        "import numbades, numpy as np;"
        "from numbades.tuning import saved_choice as s;"
        "assert s.load_saved_choice('small') is None;"
        "print(bytes(numbades.DES(bytes(8)).encrypt(bytes(16))).hex())"
    )
    check = python("-c", probe)
    assert check.returncode == 0, check.stderr
    assert "SavedChoiceWarning" in check.stderr
    assert check.stdout.strip() == "8ca64de9c1b123a7" * 2


def test_speed_report(run) -> None:
    proc = run("speed", "--seconds", "0.02", "--sizes", "16,1k")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Key set-up: everything a new key costs before its first block" in out
    assert re.search(r"numbades with bitslice key planes\s+[\d,]+ keys/s", out)
    assert re.search(r"DES-ECB 16 B\s+numbades\s+\d+\.\d\d us/call", out)
    assert "The 'numbers' are in 1000s of bytes per second processed." in out
    header = next(line for line in out.splitlines() if line.startswith("type"))
    assert header.split()[1:] == ["16", "bytes", "1024", "bytes"]
    ecb = next(line for line in out.splitlines() if line.startswith("des-ecb "))
    assert re.fullmatch(r"des-ecb\s+\d+\.\d\dk\s+\d+\.\d\dk", ecb)


def test_speed_json(run) -> None:
    proc = run("speed", "--seconds", "0.02", "--sizes", "16", "--json", "--quiet")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc["key_setups_per_second"]) == {
        "numbades DES(key) only", "numbades with table key form", "numbades with bitslice key planes"}
    assert all(v > 0 for v in doc["key_setups_per_second"].values())
    assert doc["small_calls_per_second"]["3DES-ECB 16 B"]["numbades"] > 0
    assert doc["bytes_per_second"]["numbades"]["des-ecb"]["16"] > 0


def test_speed_compare(run) -> None:
    proc = run("speed", "--seconds", "0.05", "--sizes", "16", "--compare", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "Ratio numbades / openssl" in proc.stdout
    assert "Ratio numbades / pycryptodome" in proc.stdout
    assert re.search(r"DES-ECB 8 B .*pycryptodome\s+\d+\.\d\d us/call, time ratio \d+\.\d\d",
                     proc.stdout)
    assert "pycryptodome DES.new" in proc.stdout
    if shutil.which("openssl"):
        ecb = next(ln for ln in proc.stdout.splitlines() if ln.startswith("openssl des-ecb"))
        assert "n/a" not in ecb, "openssl speed des-ecb did not run"


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["frobnicate"],
        ["opts", "--bogus"],
        ["opts", "--size", "7"],
        ["opts", "--size", "lots"],
        ["opts", "--seconds", "-1"],
        ["opts", "--threads", "0"],
        ["speed", "--sizes", "16,x"],
        ["speed", "--seconds"],
    ],
    ids=lambda a: " ".join(a) or "no-command",
)
def test_bad_flags_are_usage_errors(run, args: list[str]) -> None:
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "usage:" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_help_exits_zero(run) -> None:
    proc = run("opts", "--help")
    assert proc.returncode == 0
    assert "--save" in proc.stdout


def test_main_returns_exit_code_without_exiting() -> None:
    from numbades.cli import main

    assert main(["opts", "--size", "7"]) == 2


@pytest.mark.skipif(shutil.which("numbades") is None, reason="package not installed as a script")
def test_console_script() -> None:
    proc = subprocess.run(
        ["numbades", "speed", "--help"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0
    assert "--compare" in proc.stdout


def test_asm_normalisation_ignores_names_and_comments() -> None:
    from numbades.cli.asm import normalise_asm

    a = (
        '\t.file\t"<string>"\n'
        "_ZN8numbades14_table_kernels9ecb_table17h1234E:  # @ecb_table\n"
        "\tmovq\t(%rdi), %rax   # load\n"
        '\t.asciz "ecb_table"\n'
    )
    b = a.replace("9ecb_table17h1234", "16ecb_table_unroll5h99").replace(
        "ecb_table", "ecb_table_unroll"
    )
    c = a.replace("(%rdi)", "8(%rdi)")
    na = normalise_asm(a, ["ecb_table"])
    assert na == normalise_asm(b, ["ecb_table_unroll"])
    assert na != normalise_asm(c, ["ecb_table"])
    assert "load" not in na and ".file" not in na


@pytest.mark.parametrize("where", ["file", "file/below"])
def test_opts_save_checks_where_it_saves_before_measuring(tmp_path: Path, where: str) -> None:
    """NUMBADES_CACHE_DIR at a regular file: one line, exit 2, no measuring (issue 39, item 6)."""
    (tmp_path / "file").write_text("not a directory\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBADES_CACHE_DIR": str(tmp_path / where)}
    proc = subprocess.run([sys.executable, "-m", "numbades", "opts", "--save", *QUICK],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
                          check=False)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("numbades opts: error: --save cannot write its file:"), lines
    assert str(tmp_path / "file") in lines[0]
