"""``numbades speed --startup``: its options, the build it names, and the shape of its report.

The slow steps (cold caches, the bitslice compile, the openssl ratio) are not
run here; only ``import numba`` in a fresh process, which is quick.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from numbades.cli import main, startup

ROOT = Path(__file__).resolve().parents[1]
ALL_BUT_NUMBA = "cold,foreground,compile,warm,ratio"


@pytest.mark.parametrize(
    "args",
    [
        ["--runs", "3"],  # a --startup option without --startup
        ["--avx2-build"],
        ["--startup", "--build", "sse2"],
        ["--startup", "--skip", "numba,bogus"],
        ["--startup", "--skip", ""],
        ["--startup", "--runs", "0"],
        ["--startup", "--cold-runs", "-1"],
        ["--startup", "--runs", "two"],
        ["--startup", "--compare"],
        ["--startup", "--variant", "table"],
    ],
    ids=" ".join,
)
def test_bad_startup_options_are_usage_errors(args: list[str], capsys) -> None:
    assert main(["speed", *args]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_build_kind_names_host_and_build() -> None:
    avx512 = ["+avx2", "+avx512f", "+avx512bw"]
    avx2 = ["+avx2", "-avx512f", "-avx512bw"]
    assert startup.build_kind(avx512, None) == "AVX-512"
    assert startup.build_kind(avx512, avx2) == "AVX2 build on an AVX-512 host"
    assert startup.build_kind(avx2, None) == "AVX2"
    assert startup.build_kind(["+sse2", "-avx2"], None) == "no AVX2"


def test_avx2_build_env_turns_every_avx512_feature_off() -> None:
    env = startup.avx2_build_env()
    features = env["NUMBA_CPU_FEATURES"].split(",")
    assert env["NUMBA_CPU_NAME"] == "haswell"
    assert not [f for f in features if f.startswith("+avx512")]
    host = startup.host_features()
    assert len(features) == len(host)
    expected = "AVX2 build on an AVX-512 host" if "+avx512f" in host else "AVX2"
    assert startup.build_kind(host, features) == expected


def test_children_never_see_the_users_caches(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/users/own/cache")
    monkeypatch.setenv("NUMBADES_CACHE_DIR", "/users/own/numbades")
    monkeypatch.setenv("NUMBADES_VARIANT", "table")
    kids = startup.Children({"NUMBA_CPU_NAME": "haswell"}, str(tmp_path))
    assert not {"NUMBA_CACHE_DIR", "NUMBADES_CACHE_DIR", "NUMBADES_VARIANT"} & set(kids.env)
    assert kids.env["NUMBA_CPU_NAME"] == "haswell"
    assert kids.env["PYTHONPATH"].split(os.pathsep)[0] == str(ROOT)
    script = "import os, json; print(json.dumps([os.getcwd(), os.environ['NUMBA_CACHE_DIR']]))"
    cwd, cache = kids.json(script, [], str(tmp_path / "c"))
    assert cwd == str(tmp_path) and cache == str(tmp_path / "c")


def test_engine_seconds_reads_compile_report() -> None:
    report = (
        "numbades compile - Linux 6.1 - AMD EPYC 7B13 - Python 3.11 numba 0.68.1 LLVM 22.1.0\n"
        "bitslice                 128.4 s\n"
        "table+unroll+risc2+ptr    16.9 s\n"
        "helpers                    1.2 s  (crypt(3) encoding, quad_cksum, payments)\n"
        "total                    132.0 s wall on 2 process(es); 146.5 s of engine time\n"
        "kernels cached in /tmp/x\n"
    )
    found = startup.engine_seconds(report)
    assert found == {"bitslice": 128.4, "table+unroll+risc2+ptr": 16.9, "helpers": 1.2,
                     "total": 132.0}


def test_report_runs_import_numba_and_names_the_host(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "numbades", "speed", "--startup", "--skip", ALL_BUT_NUMBA,
         "--runs", "2", "--quiet"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert re.match(r"numbades speed --startup - .+ - Python \d+\.\d+ numba \S+", lines[0])
    rows = [line for line in lines if line.startswith("| ")]
    assert len(rows) == 1 + len(startup.ROWS)  # the header, then one row per figure
    build = [c.strip() for c in rows[0].split("|")][2]
    assert build in ("AVX-512", "AVX2", "AVX2 build on an AVX-512 host", "no AVX2")
    numba_row = next(r for r in rows if "`import numba` alone" in r)
    assert re.search(r"\| \d+\.\d\d s \(median of 2, \d+\.\d\d-\d+\.\d\d\) +\|$", numba_row)
    assert sum("| skipped" in r for r in rows) == len(startup.ROWS) - 1


def test_json_report_keeps_every_figure() -> None:
    figures = [startup.Figure(step, startup.LABELS[step]) for step in startup.ROWS]
    figures[0].text, figures[0].values = "0.62 s", {"seconds": [0.6, 0.62, 0.7]}
    figures[-1].failed, figures[-1].text = True, "failed: boom"
    other = [startup.Figure(step, startup.LABELS[step], "1 s") for step in startup.ROWS]
    builds = [startup.Build("AVX-512", figures), startup.Build("AVX2 build on an AVX-512 host",
                                                               other)]
    report = startup.Report("Linux - CPU - Python 3.11 numba 0.68.1", builds, 12.0)
    out = io.StringIO()
    startup.render_json(report, None, out)
    doc = json.loads(out.getvalue())
    assert list(doc["builds"]) == ["AVX-512", "AVX2 build on an AVX-512 host"]
    mine = doc["builds"]["AVX-512"]
    assert list(mine) == list(startup.ROWS)
    assert mine["warm"]["seconds"] == [0.6, 0.62, 0.7]
    assert mine["ratio"] == {"label": startup.LABELS["ratio"], "text": "failed: boom",
                             "failed": True}
    assert doc["builds"]["AVX2 build on an AVX-512 host"]["cold"]["text"] == "1 s"


def test_text_report_has_a_column_per_build() -> None:
    builds = [startup.Build(name, [startup.Figure(step, startup.LABELS[step], f"{i} s")
                                   for step in startup.ROWS])
              for i, name in enumerate(("AVX-512", "AVX2 build on an AVX-512 host"))]
    args = argparse.Namespace(runs=5, cold_runs=3, repeats=5)
    out = io.StringIO()
    startup.render_text(startup.Report("Linux - CPU", builds, 3.0, (0.5, 9.0)), args, out)
    assert "load (1-minute average) 0.50 before, 9.00 after" in out.getvalue()
    assert "other work was running" in out.getvalue()
    rows = [line for line in out.getvalue().splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    assert cells[0] == ["figure", "AVX-512", "AVX2 build on an AVX-512 host"]
    assert set(cells[1][0]) == {"-"}  # the Markdown separator
    assert [c[0] for c in cells[2:]] == [startup.LABELS[s] for s in startup.ROWS]
    assert all(c[1:] == ["0 s", "1 s"] for c in cells[2:])
    assert len({len(row) for row in rows}) == 1  # columns aligned


def test_each_step_fills_its_own_row(monkeypatch) -> None:
    """Every step runs once, in order, writing only its own figure; the background
    window comes from the cold step, and warm and ratio share the compiled cache."""
    calls = []

    def fake(step, keeps=False):
        def measure(kids, args, fig, *rest):
            calls.append((step, rest[-1] if step in ("warm", "ratio") else None))
            fig.text = f"{step} done"
            if step == "cold":
                rest[0].text = "background done"  # the background figure
            if keeps:
                rest[-1]("/tmp/kept-by-" + step)
        return measure

    for step in ("numba", "foreground"):
        monkeypatch.setattr(startup, f"_measure_{step}", fake(step))
    monkeypatch.setattr(startup, "_measure_cold", fake("cold", keeps=True))
    monkeypatch.setattr(startup, "_measure_compile", fake("compile", keeps=True))
    monkeypatch.setattr(startup, "_measure_warm", fake("warm"))
    monkeypatch.setattr(startup, "_measure_ratio", fake("ratio"))
    monkeypatch.setattr(startup, "_remove", lambda path: None)
    args = argparse.Namespace(skip=())
    build = startup.measure_build(args, {}, startup.Progress(enabled=False))
    assert [step for step, _ in calls] == ["numba", "cold", "foreground", "compile", "warm",
                                          "ratio"]
    assert dict(calls)["warm"] == dict(calls)["ratio"] == "/tmp/kept-by-compile"
    assert {f.step: f.text for f in build.figures} == {
        step: f"{step} done" for step in startup.ROWS} | {"background": "background done"}
