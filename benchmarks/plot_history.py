"""Draw the kept asv history (``benchmarks/results/``) as PNG files: no browser, no network.

    python -m pip install -e ".[bench]"                    # matplotlib
    python benchmarks/plot_history.py                      # writes benchmarks/plots/*.png
    python benchmarks/plot_history.py --results DIR --out DIR

asv's own site needs JavaScript from public CDNs (docs/benchmarking.md); these
plots are the view that works anywhere. One PNG per headline benchmark
(throughput over commits, one line per machine) and ``summary.png``, all six
on one page. Commits are ordered by commit date; each point is one asv figure:
for the ECB plots asv's median over its samples, with a bar over their
interquartile range, elsewhere the median of three timed loops in one process.
Points drawn hollow were recorded while the host's load average exceeded its
core count (``recordings.tsv``, written by ``benchmarks/record.sh``): read
those as noisy.

A result file that is not asv's (version 2) format, or that does not parse,
is skipped with a warning: the results directory is shared by every host and
asv version that ever recorded into it.
"""

from __future__ import annotations

import argparse
import ast
import csv
import io
import json
import math
import sys
import warnings
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RESULTS = ROOT / "benchmarks" / "results"
DEFAULT_OUT = ROOT / "benchmarks" / "plots"

#: The 1 MiB ECB benchmark the first two headlines read: a ``time_`` benchmark (asv's
#: full statistics, quartiles kept), seconds per call of ``MIB`` bytes.
ECB = "bench_throughput.EcbTime.time_ecb_encrypt_1MiB"
MIB = 1024 * 1024


@dataclass(frozen=True)
class Series:
    """One line of a headline plot: a benchmark, the parameters picked, and how to read it."""

    label: str
    benchmark: str
    params: tuple[str, ...] | None  # exact parameter values; None = best over the rest
    exclude: str = ""  # with params None: the first parameter's value left out of "best"
    nbytes: int = 0  # if set, the figure is seconds per call on this many bytes


@dataclass(frozen=True)
class Headline:
    """A plot: its series, its file name, and the unit on its axis."""

    name: str
    title: str
    series: tuple[Series, ...]
    unit: str  # "MB/s" (from ns/byte), "us/call" or "s"


HEADLINES = (
    Headline("ecb_table_best", "DES-ECB 1 MiB, best table variant",
             (Series("best table variant", ECB, None, "bitslice", MIB),), "MB/s"),
    Headline("ecb_bitslice", "DES-ECB 1 MiB, bitslice engine",
             (Series("bitslice", ECB, ("bitslice",), nbytes=MIB),), "MB/s"),
    Headline("tdes_cbc", "3DES-CBC encrypt 1 MiB (auto)",
             (Series("3DES-CBC", "bench_modes.TripleDesModes.track_3des", ("cbc", "encrypt")),),
             "MB/s"),
    Headline("des_ctr", "DES-CTR encrypt 1 MiB (auto)",
             (Series("DES-CTR", "bench_modes.DesModes.track_des", ("ctr", "encrypt")),), "MB/s"),
    Headline("small_calls", "One small encrypt(bytes) call (auto)",
             tuple(Series(case, "bench_small.SmallCalls.track_call", (case,))
                   for case in ("DES-ECB 8 B", "DES-ECB 16 B", "3DES-ECB 16 B")), "us/call"),
    Headline("first_call", "Import + first 4 KiB encrypt, fresh process (auto)",
             tuple(Series(f"{cache} Numba cache", "bench_compile.FirstCall.track_first_call_seconds",
                          ("auto", cache)) for cache in ("cold", "warm")), "s"),
)

AXIS_LABELS = {
    "MB/s": "MB/s (10^6 bytes/s, one core; higher is better)",
    "us/call": "µs per call (lower is better)",
    "s": "seconds (lower is better)",
}


@dataclass
class Commit:
    """One commit's figures on one machine: {benchmark: {param tuple: value}}, and for
    ``time_`` benchmarks the interquartile range of asv's samples."""

    hash: str
    date: int  # commit date, ms since the epoch (asv's field)
    values: dict[str, dict[tuple[str, ...], float]] = field(default_factory=dict)
    quartiles: dict[str, dict[tuple[str, ...], tuple[float, float]]] = field(
        default_factory=dict)


@dataclass
class Machine:
    name: str
    cpus: int
    commits: dict[str, Commit] = field(default_factory=dict)
    noisy: set[str] = field(default_factory=set)  # commit hash prefixes recorded under load


def _param_value(text: str) -> str:
    """asv stores parameter values as their repr ("'1 MiB'", "64"): the plain value."""
    try:
        return str(ast.literal_eval(text))
    except (ValueError, SyntaxError):
        return text


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def parse_result_file(path: Path) -> Commit:
    """One asv results file (format version 2) as a :class:`Commit`; ValueError if it is not one."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON ({exc})") from exc
    if not isinstance(doc, dict) or doc.get("version") != 2:
        raise ValueError("not an asv results file of format version 2")
    columns, results = doc.get("result_columns"), doc.get("results")
    commit_hash, date = doc.get("commit_hash"), doc.get("date")
    if (not isinstance(columns, list) or "result" not in columns or "params" not in columns
            or not isinstance(results, dict) or not isinstance(commit_hash, str)
            or not isinstance(date, int)):
        raise ValueError("missing or mistyped asv fields (result_columns, results, commit_hash, date)")
    commit = Commit(commit_hash, date)
    r_col, p_col = columns.index("result"), columns.index("params")
    q_cols = [columns.index(c) for c in ("stats_q_25", "stats_q_75") if c in columns]
    for name, row in results.items():
        try:
            values, params = row[r_col], row[p_col] if len(row) > p_col else []
            if not params:
                combos, values = [()], [values] if not isinstance(values, list) else values
            else:
                combos = list(product(*([_param_value(v) for v in axis] for axis in params)))
            if not isinstance(values, list) or len(values) != len(combos):
                raise ValueError("results do not match the parameter grid")
            commit.values[name] = {
                combo: float(v) for combo, v in zip(combos, values, strict=True) if _finite(v)}
            if len(q_cols) == 2 and len(row) > max(q_cols):
                q25, q75 = row[q_cols[0]], row[q_cols[1]]
                if isinstance(q25, list) and isinstance(q75, list) and len(q25) == len(combos):
                    commit.quartiles[name] = {
                        combo: (float(a), float(b))
                        for combo, a, b in zip(combos, q25, q75, strict=True)
                        if _finite(a) and _finite(b)}
        except (TypeError, ValueError, IndexError) as exc:
            warnings.warn(f"{path}: skipping benchmark {name!r}: {exc}", stacklevel=2)
    return commit


def _noisy_commits(machine_dir: Path, cpus: int) -> set[str]:
    """Commits whose ``recordings.tsv`` line shows a load average above the core count."""
    log = machine_dir / "recordings.tsv"
    noisy: set[str] = set()
    if not log.is_file() or cpus <= 0:
        return noisy
    with log.open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            try:
                loads = [float(row[k].split("/")[0]) for k in ("load_before", "load_after")]
            except (KeyError, ValueError, AttributeError):
                continue
            if max(loads) > cpus:
                noisy.add(row["commit"])
    return noisy


def load_results(results_dir: Path) -> list[Machine]:
    """Every machine directory under ``results_dir`` with the commits it holds.

    A directory without a readable asv ``machine.json`` and a file that is not
    an asv result are skipped with a warning.
    """
    machines = []
    for machine_dir in sorted(p for p in results_dir.iterdir() if p.is_dir()):
        try:
            info = json.loads((machine_dir / "machine.json").read_text(encoding="utf-8"))
            name = str(info["machine"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            warnings.warn(f"{machine_dir}: skipped, no asv machine.json ({exc})", stacklevel=2)
            continue
        try:
            cpus = int(info.get("num_cpu", 0))
        except (TypeError, ValueError):
            cpus = 0
        machine = Machine(name, cpus, noisy=_noisy_commits(machine_dir, cpus))
        for path in sorted(machine_dir.glob("*.json")):
            if path.name == "machine.json":
                continue
            try:
                commit = parse_result_file(path)
            except ValueError as exc:
                warnings.warn(f"{path}: skipped: {exc}", stacklevel=2)
                continue
            merged = machine.commits.setdefault(commit.hash, Commit(commit.hash, commit.date))
            merged.values.update(commit.values)
            merged.quartiles.update(commit.quartiles)
        if machine.commits:
            machines.append(machine)
    return machines


def _pick(commit: Commit, series: Series) -> tuple[str, ...] | None:
    """The parameters ``series`` reads on ``commit``: its own, or the best (lowest cost) variant."""
    table = commit.values.get(series.benchmark, {})
    if series.params is not None:
        return series.params if series.params in table else None
    candidates = [combo for combo in table if combo[0] != series.exclude]
    return min(candidates, key=table.__getitem__) if candidates else None


def _cost(raw: float, series: Series) -> float:
    """A raw figure as the suite's cost unit: seconds per call become ns/byte."""
    return raw * 1e9 / series.nbytes if series.nbytes else raw


def series_value(commit: Commit, series: Series) -> float | None:
    """The cost ``series`` plots for ``commit`` (ns/byte, us/call or s), or None."""
    combo = _pick(commit, series)
    return None if combo is None else _cost(commit.values[series.benchmark][combo], series)


def series_quartiles(commit: Commit, series: Series) -> tuple[float, float] | None:
    """The interquartile range of that figure (``time_`` benchmarks only), as costs."""
    combo = _pick(commit, series)
    spread = commit.quartiles.get(series.benchmark, {}).get(combo) if combo else None
    return None if spread is None else (_cost(spread[0], series), _cost(spread[1], series))


def to_unit(value: float, unit: str) -> float:
    """A cost in the plotted unit: ns/byte becomes MB/s (1000 / ns per byte)."""
    return 1000.0 / value if unit == "MB/s" else value


def _commit_axis(machines: list[Machine]) -> list[Commit]:
    seen: dict[str, Commit] = {}
    for machine in machines:
        for commit in machine.commits.values():
            seen.setdefault(commit.hash, commit)
    return sorted(seen.values(), key=lambda c: (c.date, c.hash))


def draw(ax, headline: Headline, machines: list[Machine], axis: list[Commit]) -> int:
    """Draw one headline on ``ax``; returns the number of points drawn."""
    position = {c.hash: i for i, c in enumerate(axis)}
    styles, markers = ("-", "--", ":"), ("o", "s", "^")
    drawn = 0
    for m_index, machine in enumerate(machines):
        color = f"C{m_index % 10}"
        for s_index, series in enumerate(headline.series):
            points = []
            for commit in machine.commits.values():
                value = series_value(commit, series)
                if value is not None and value > 0:
                    spread = series_quartiles(commit, series)
                    points.append((position[commit.hash], to_unit(value, headline.unit),
                                   commit.hash[:8] in machine.noisy,
                                   spread and sorted(to_unit(q, headline.unit) for q in spread)))
            if not points:
                continue
            points.sort(key=lambda p: p[0])
            label = machine.name if len(headline.series) == 1 else f"{machine.name}: {series.label}"
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            ax.plot(xs, ys, styles[s_index % len(styles)] + markers[s_index % len(markers)],
                    color=color, label=label, linewidth=1.2, markersize=5)
            for x, y, noisy, spread in points:
                if spread:  # asv's interquartile range of the samples
                    ax.plot([x, x], spread, "-", color=color, linewidth=3, alpha=0.4)
                ax.plot([x], [y], markers[s_index % len(markers)], color=color, markersize=5,
                        markerfacecolor="white" if noisy else color)
            drawn += len(points)
    ax.set_title(headline.title, fontsize=10)
    ax.set_ylabel(AXIS_LABELS[headline.unit], fontsize=8)
    ax.set_ylim(bottom=0)
    step = max(1, math.ceil(len(axis) / 12))
    ticks = list(range(0, len(axis), step))
    ax.set_xticks(ticks)
    ax.set_xticklabels([axis[i].hash[:7] for i in ticks], rotation=60, fontsize=7,
                       family="monospace")
    ax.set_xlim(-0.5, max(len(axis) - 0.5, 0.5))
    ax.grid(True, alpha=0.3)
    if drawn:
        ax.legend(fontsize=7, loc="best")
    else:
        ax.text(0.5, 0.5, "no results", ha="center", va="center", transform=ax.transAxes)
    return drawn


NOTE = ("Commits in commit-date order (short hashes); one asv figure per point (ECB: median of asv's "
        "samples, bar = interquartile range). Hollow points were recorded with the load average "
        "above the core count (a shared, busy host): read trends over several commits, not "
        "single points.")


def _save_png(fig, path: Path, **savefig_kwargs) -> None:
    """Save ``fig`` as a 256-colour PNG: a third of the size of matplotlib's RGBA file,
    which matters for ``summary.png``, kept in git and redrawn as history grows."""
    from PIL import Image  # Pillow: a matplotlib dependency

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", **savefig_kwargs)
    buffer.seek(0)
    Image.open(buffer).convert("RGB").quantize(256).save(path, optimize=True)


def plot_all(results_dir: Path, out_dir: Path) -> list[Path]:
    """Write one PNG per headline and ``summary.png`` into ``out_dir``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    machines = load_results(results_dir)
    axis = _commit_axis(machines)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for headline in HEADLINES:
        fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
        draw(ax, headline, machines, axis)
        ax.set_xlabel("commit", fontsize=8)
        path = out_dir / f"{headline.name}.png"
        _save_png(fig, path, dpi=100)
        plt.close(fig)
        written.append(path)
    fig, axes = plt.subplots(2, 3, figsize=(16, 9), layout="constrained")
    for ax, headline in zip(axes.flat, HEADLINES, strict=True):
        draw(ax, headline, machines, axis)
    names = ", ".join(m.name for m in machines) or "none"
    fig.suptitle(f"numbades performance history: {len(axis)} commits; machines: {names}",
                 fontsize=13)
    fig.text(0.5, -0.01, NOTE, ha="center", va="top", fontsize=8, wrap=True)
    path = out_dir / "summary.png"
    _save_png(fig, path, dpi=90, bbox_inches="tight")
    plt.close(fig)
    written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS,
                        help="asv results_dir to read (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="directory for the PNG files (default: %(default)s)")
    args = parser.parse_args(argv)
    if not args.results.is_dir():
        parser.error(f"no results directory: {args.results}")
    warnings.simplefilter("always")
    warnings.formatwarning = lambda msg, category, *rest: f"plot_history: warning: {msg}\n"
    for path in plot_all(args.results, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
