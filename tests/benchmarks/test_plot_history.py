"""benchmarks/plot_history.py: the kept asv history draws, and stray files do not stop it.

Runs the script on the results committed in ``benchmarks/results/`` (so the
test also checks that history is there and holds the headline benchmarks), on
a copy with a malformed and a foreign file added, and on a small synthetic
result whose figures are known.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import struct
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
SCRIPT = ROOT / "benchmarks" / "plot_history.py"
# The machine this project's history was first recorded on (benchmarks/record.sh names it).
RECORDED_MACHINE = "amd-epyc-avx2"


def _load_script():
    spec = importlib.util.spec_from_file_location("plot_history", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


plot_history = _load_script()


def _png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk; fails if the file is not a PNG."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def _expected_files(out: Path) -> list[Path]:
    return [out / f"{h.name}.png" for h in plot_history.HEADLINES] + [out / "summary.png"]


def test_committed_history_has_every_headline_for_five_commits():
    machines = {m.name: m for m in plot_history.load_results(RESULTS)}
    assert RECORDED_MACHINE in machines
    commits = machines[RECORDED_MACHINE].commits.values()
    for headline in plot_history.HEADLINES:
        for series in headline.series:
            with_value = [c for c in commits if plot_history.series_value(c, series)]
            assert len(with_value) >= 5, f"{headline.name}/{series.label}: {len(with_value)} commits"


def test_plots_the_committed_results(tmp_path, capsys):
    assert plot_history.main(["--results", str(RESULTS), "--out", str(tmp_path)]) == 0
    expected = _expected_files(tmp_path)
    assert sorted(tmp_path.iterdir()) == sorted(expected)
    printed = capsys.readouterr().out.split()
    assert printed == [str(p) for p in expected]
    for path in expected[:-1]:
        assert _png_size(path) == (800, 450)  # 8 x 4.5 inches at 100 dpi
    width, height = _png_size(expected[-1])
    assert width > 1200 and height > 700  # the one-page summary


def test_malformed_and_foreign_files_are_skipped_with_a_warning(tmp_path):
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results)
    machine_dir = results / RECORDED_MACHINE
    (machine_dir / "broken.json").write_text('{"commit_hash": "abc', encoding="utf-8")
    (machine_dir / "foreign.json").write_text(json.dumps({"hello": "world"}), encoding="utf-8")
    (results / "not-a-machine").mkdir()
    (results / "not-a-machine" / "notes.json").write_text("{}", encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        files = plot_history.plot_all(results, tmp_path / "out")
    messages = "\n".join(str(w.message) for w in caught)
    for stray in ("broken.json", "foreign.json", "not-a-machine"):
        assert stray in messages
    assert files == _expected_files(tmp_path / "out")
    assert all(_png_size(p) for p in files)
    clean = {m.name: sorted(m.commits) for m in plot_history.load_results(RESULTS)}
    with pytest.warns(UserWarning):
        dirty = {m.name: sorted(m.commits) for m in plot_history.load_results(results)}
    assert dirty == clean


def _result_file(path: Path, ecb: list[float | None]) -> None:
    """A minimal asv (format 2) result: 1 MiB ECB over 3 engines (seconds per call, with
    quartiles), and the small calls (us per call, no statistics)."""
    engines = ["'table'", "'table+ptr'", "'bitslice'"]
    quartile = [None if v is None else v * 0.9 for v in ecb], [
        None if v is None else v * 1.2 for v in ecb]
    path.write_text(json.dumps({
        "commit_hash": "0123456789abcdef0123456789abcdef01234567",
        "date": 1_700_000_000_000,
        "result_columns": ["result", "params", "version", "stats_q_25", "stats_q_75"],
        "results": {
            plot_history.ECB: [ecb, [engines], "v", *quartile],
            "bench_small.SmallCalls.track_call": [[2.5, None, 4.0],
                                                  [["'DES-ECB 8 B'", "'DES-ECB 16 B'",
                                                    "'3DES-ECB 16 B'"]], "v"],
        },
        "version": 2,
    }), encoding="utf-8")


def test_figures_are_read_and_converted_as_documented(tmp_path):
    path = tmp_path / "r.json"
    _result_file(path, [0.020, 0.016, 0.004])  # seconds per 1 MiB: table, table+ptr, bitslice
    commit = plot_history.parse_result_file(path)
    best, bitslice, ctr = (plot_history.HEADLINES[0].series[0], plot_history.HEADLINES[1].series[0],
                           plot_history.HEADLINES[3].series[0])
    # table+ptr is the best table variant (bitslice is left out of "best"): 0.016 s per MiB.
    assert plot_history.series_value(commit, best) == pytest.approx(0.016e9 / 2**20)
    assert plot_history.to_unit(plot_history.series_value(commit, best), "MB/s") == \
        pytest.approx(2**20 / 1e6 / 0.016)  # 65.5 MB/s
    assert plot_history.series_quartiles(commit, best) == pytest.approx(
        (0.016 * 0.9e9 / 2**20, 0.016 * 1.2e9 / 2**20))
    assert plot_history.series_value(commit, bitslice) == pytest.approx(0.004e9 / 2**20)
    assert plot_history.series_value(commit, ctr) is None  # not recorded
    small = plot_history.HEADLINES[4].series
    assert [plot_history.series_value(commit, s) for s in small] == [2.5, None, 4.0]
    assert plot_history.series_quartiles(commit, small[0]) is None  # track_: no samples


def test_a_grid_that_does_not_match_its_parameters_is_skipped_not_guessed(tmp_path):
    path = tmp_path / "r.json"
    _result_file(path, [0.02, 0.016])  # 2 values for 3 engines
    with pytest.warns(UserWarning, match="do not match"):
        commit = plot_history.parse_result_file(path)
    assert plot_history.ECB not in commit.values
    assert commit.values["bench_small.SmallCalls.track_call"][("DES-ECB 8 B",)] == 2.5
