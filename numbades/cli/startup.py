"""``numbades speed --startup``: this host's first-call, compile and speed figures, one table.

What a new user meets before the steady-state rates: how long ``import
numbades`` and a first call take with a warm and with an empty Numba cache,
how long ``auto`` serves big batches with a table variant while the bitslice
engine compiles in the background, what a first call costs with that
background compile off, how long ``numbades compile`` takes, and the
bitslice engine's DES-ECB rate against ``openssl speed -evp des-ecb`` on one
core.  Every figure is taken in fresh child processes that import the same
numbades as this one; every cold figure gets a new temporary
``NUMBA_CACHE_DIR`` (and ``NUMBADES_CACHE_DIR``), so the user's caches are
never read or written.  ``--build avx2`` (``--avx2-build``) runs the children as an AVX2 build
(``NUMBA_CPU_NAME=haswell``, the AVX-512 features off), ``--build both``
measures both builds, one column each; the report names the host, and each
column its build (``AVX2 build on an AVX-512 host`` where that is what it is).

``run`` reads as its three steps: :func:`measure_all`, then :func:`render_text`
or :func:`render_json`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..tuning import machine
from .measure import KEY8, Progress, comma_names, format_size

#: The steps, in the order they run; ``--skip`` takes these names.
STEPS = ("numba", "cold", "background", "foreground", "compile", "warm", "ratio")
#: What ``--quick`` skips: the steps that compile the bitslice engine (minutes).
SLOW_STEPS = ("background", "foreground", "compile")
#: First calls encrypt this much (ECB, ``auto``): 512 blocks, a bitslice-sized batch.
FIRST_CALL_BYTES = 4096
#: The bitslice / openssl ratio encrypts this much per call.
RATIO_BYTES = 8 * 1024 * 1024
#: A big batch for ``auto`` (1 MiB of blocks): bitslice once it is ready.
BIG_BLOCKS = 1 << 17
#: Longest wait for one child (a cold bitslice compile on a busy machine takes minutes).
CHILD_TIMEOUT = 3600.0

# Child: import numbades, time a first ECB encrypt of argv[3] bytes under key
# argv[2]; then, by argv[1], "wait": poll auto's choice for an ECB batch of
# argv[4] blocks until it is bitslice (the background window, from the first
# call on; at most argv[5] s); "stop": end the background compile this first
# call started (the next cold run needs the CPU); "none": nothing.
_FIRST_CALL = """
import json, sys, time
t0 = time.perf_counter()
import numbades
t1 = time.perf_counter()
numbades.DES(bytes.fromhex(sys.argv[2])).encrypt(bytes(int(sys.argv[3])))
t2 = time.perf_counter()
doc = {"import": t1 - t0, "first_encrypt": t2 - t1, "total": t2 - t0}
if sys.argv[1] == "wait":
    from numbades.engines import chains
    from numbades.tuning import policy
    request = policy.resolve("auto")
    while policy.pick(request, chains.ECB_ENCRYPT, int(sys.argv[4])) != "bitslice":
        if time.perf_counter() - t1 > float(sys.argv[5]):
            raise SystemExit("auto still serves big batches with a table variant")
        time.sleep(0.25)
    doc["background"] = time.perf_counter() - t1
elif sys.argv[1] == "stop":
    from numbades.tuning import warmup
    for child in list(warmup._children.values()):
        child.kill()
        child.wait()
print(json.dumps(doc))
"""

_IMPORT_NUMBA = """
import json, time
t0 = time.perf_counter()
import numba
print(json.dumps({"total": time.perf_counter() - t0}))
"""

# Child: pinned to one CPU with one Numba thread, the bitslice engine's DES-ECB
# rate over argv[4] bytes (median of argv[2] calls after a warm one) before and
# after openssl speed -evp des-ecb for argv[3] seconds on the same CPU.
_RATIO = """
import json, os, statistics, sys, time
import numpy as np
try:
    cpu = sorted(os.sched_getaffinity(0))[-1]
    os.sched_setaffinity(0, {cpu})
    where = f"pinned to CPU {cpu}"
except (AttributeError, OSError):
    where = "not pinned"
import numbades
from numbades.cli.peers import openssl_speed
src = np.zeros(int(sys.argv[4]), np.uint8)
dst = np.empty_like(src)
c = numbades.DES(bytes.fromhex(sys.argv[1]), variant="bitslice")
c.encrypt(src, out=dst)
def ours():
    times = []
    for _ in range(int(sys.argv[2])):
        t = time.perf_counter()
        c.encrypt(src, out=dst)
        times.append(time.perf_counter() - t)
    return src.size / statistics.median(times)
before = ours()
peer = openssl_speed("des-ecb", 16384, float(sys.argv[3]))
after = ours()
print(json.dumps({"numbades": (before + after) / 2, "openssl": peer, "where": where,
                  "numbades_before_after": [before, after]}))
"""


@dataclass
class Figure:
    """One row of the report: what was measured, its value as text, and the raw numbers."""

    step: str
    label: str
    text: str = "skipped"
    values: dict[str, object] = field(default_factory=dict)
    failed: bool = False


@dataclass
class Build:
    """One build's column: its name (:func:`build_kind`) and its figures, in :data:`ROWS` order."""

    name: str
    figures: list[Figure]


@dataclass
class Report:
    """Everything ``--startup`` measured, and where: one column per build."""

    host: str
    builds: list[Build]
    wall: float = 0.0
    load: tuple[float | None, float | None] = (None, None)  # 1-minute load before, after


# ---------------------------------------------------------------- the build


def host_features() -> list[str]:
    """The host CPU's ``+feature`` / ``-feature`` list, as LLVM sees it."""
    from llvmlite import binding

    return binding.get_host_cpu_features().flatten().split(",")


def avx2_build_env() -> dict[str, str]:
    """Environment that makes Numba build for an AVX2-only CPU on this host:
    ``NUMBA_CPU_NAME=haswell`` and the host's features with every AVX-512 one off."""
    features = ["-" + f[1:] if f.startswith("+avx512") else f for f in host_features()]
    return {"NUMBA_CPU_NAME": "haswell", "NUMBA_CPU_FEATURES": ",".join(features)}


def build_kind(host: Sequence[str], target: Sequence[str] | None) -> str:
    """``AVX-512``, ``AVX2``, ``AVX2 build on an AVX-512 host`` (or ``no AVX2``):
    the vector ISA the kernels are built for (``target``: ``NUMBA_CPU_FEATURES``,
    None for the host's own), said against the host's."""
    host_512 = "+avx512f" in host
    target = host if target is None else target
    if "+avx512f" in target:
        return "AVX-512" if host_512 else "AVX-512 build on a host without AVX-512"
    isa = "AVX2" if "+avx2" in target else "no AVX2"
    return f"{isa} build on an AVX-512 host" if host_512 else isa


# ---------------------------------------------------------------- children


class Children:
    """Runs the measuring children: same numbades, same build, a given cache."""

    def __init__(self, build_env: dict[str, str], workdir: str) -> None:
        package_root = str(Path(__file__).resolve().parents[2])
        base = {k: v for k, v in os.environ.items()
                if not k.startswith(("NUMBADES_", "NUMBA_CACHE_DIR"))}
        path = os.environ.get("PYTHONPATH")
        base["PYTHONPATH"] = package_root + (os.pathsep + path if path else "")
        self.env = {**base, **build_env}
        self.workdir = workdir  # children run here, so "." is never the checkout

    def run(self, argv: Sequence[str], cache: str | None,
            extra: dict[str, str] | None = None) -> tuple[str, float]:
        """Run ``python argv`` with ``cache`` as its caches; (stdout, wall seconds).

        Raises ``RuntimeError`` with the child's last error line if it fails.
        """
        env = {**self.env, **(extra or {})}
        if cache is not None:
            env["NUMBA_CACHE_DIR"] = cache
            env["NUMBADES_CACHE_DIR"] = os.path.join(cache, "numbades")
        start = time.perf_counter()
        try:
            out = subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                                 env=env, cwd=self.workdir, timeout=CHILD_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"no answer in {CHILD_TIMEOUT:.0f} s") from None
        wall = time.perf_counter() - start
        if out.returncode != 0:
            lines = out.stderr.strip().splitlines() or [f"exit status {out.returncode}"]
            raise RuntimeError(lines[-1])
        return out.stdout, wall

    def json(self, script: str, args: Sequence[str], cache: str | None,
             extra: dict[str, str] | None = None) -> dict:
        """Run ``python -c script *args``; its last stdout line, parsed as JSON."""
        stdout, _ = self.run(["-c", script, *args], cache, extra)
        return json.loads(stdout.strip().splitlines()[-1])


def _first_call_args(mode: str) -> list[str]:
    """``_FIRST_CALL``'s arguments: ``mode`` ("wait", "stop" or "none") and the constants."""
    return [mode, KEY8.hex(), str(FIRST_CALL_BYTES), str(BIG_BLOCKS), str(CHILD_TIMEOUT)]


def _seconds(values: Sequence[float]) -> str:
    """``0.62 s`` for one value; the median and range of several."""
    med = statistics.median(values)
    text = f"{med:.2f} s" if med < 10 else f"{med:.0f} s"
    if len(values) > 1:
        text += f" (median of {len(values)}, {min(values):.2f}-{max(values):.2f})"
    return text


# ---------------------------------------------------------------- steps


def _measure_numba(kids: Children, args: argparse.Namespace, fig: Figure) -> None:
    totals = [kids.json(_IMPORT_NUMBA, [], None)["total"] for _ in range(args.runs)]
    fig.values = {"seconds": totals}
    fig.text = _seconds(totals)


def _measure_cold(kids: Children, args: argparse.Namespace, cold: Figure,
                  background: Figure, keep: Callable[[str], None]) -> None:
    """Cold first calls, each on a new empty cache; the first also times the background
    window (unless skipped) and its cache, then holding bitslice, is kept for later steps."""
    wait = background.step not in args.skip
    totals, imports = [], []
    for i in range(args.cold_runs):
        cache = tempfile.mkdtemp(prefix="numbades-startup-cold-")
        mode = "wait" if wait and i == 0 else "stop"
        try:
            doc = kids.json(_FIRST_CALL, _first_call_args(mode), cache)
        except RuntimeError:
            _remove(cache)
            raise
        totals.append(doc["total"])
        imports.append(doc["import"])
        if "background" in doc:
            background.values = {"seconds": doc["background"]}
            background.text = f"{doc['background']:.0f} s"
            keep(cache)
        else:
            _remove(cache)
    cold.values = {"seconds": totals, "import_seconds": imports}
    cold.text = _seconds(totals) + f", import {statistics.median(imports):.2f} s"


def _measure_foreground(kids: Children, args: argparse.Namespace, fig: Figure) -> None:
    cache = tempfile.mkdtemp(prefix="numbades-startup-fg-")
    try:
        doc = kids.json(_FIRST_CALL, _first_call_args("none"), cache,
                        {"NUMBADES_BACKGROUND_COMPILE": "0"})
    finally:
        _remove(cache)
    fig.values = {"seconds": doc["total"], "import_seconds": doc["import"]}
    fig.text = _seconds([doc["total"]])


def _measure_compile(kids: Children, args: argparse.Namespace, fig: Figure,
                     keep: Callable[[str], None]) -> None:
    cache = tempfile.mkdtemp(prefix="numbades-startup-compile-")
    keep(cache)  # removed at the end, whatever happens
    stdout, wall = kids.run(["-m", "numbades", "compile", "--quiet"], cache)
    engines = engine_seconds(stdout)
    fig.values = {"wall_seconds": wall, "engine_seconds": engines}
    bits = f"; bitslice {engines['bitslice']:.0f} s" if "bitslice" in engines else ""
    fig.text = f"{wall:.0f} s wall on {machine.cpu_count()} CPUs{bits}"


def engine_seconds(report: str) -> dict[str, float]:
    """Seconds per engine (and ``helpers``) from ``numbades compile``'s report lines
    (``<name>  <seconds> s ...``)."""
    found = {}
    for line in report.splitlines():
        name, _, rest = line.partition("  ")
        words = rest.split()
        if name and " " not in name and len(words) >= 2 and words[1] == "s":
            try:
                found[name] = float(words[0])
            except ValueError:
                continue
    return found


def _measure_warm(kids: Children, args: argparse.Namespace, fig: Figure, cache: str) -> None:
    docs = [kids.json(_FIRST_CALL, _first_call_args("none"), cache) for _ in range(args.runs)]
    totals = [d["total"] for d in docs]
    imports = [d["import"] for d in docs]
    fig.values = {"seconds": totals, "import_seconds": imports}
    fig.text = _seconds(totals) + f", import {statistics.median(imports):.2f} s"


def _measure_ratio(kids: Children, args: argparse.Namespace, fig: Figure, cache: str) -> None:
    doc = kids.json(_RATIO, [KEY8.hex(), str(args.repeats), str(args.seconds), str(RATIO_BYTES)], cache,
                    {"NUMBA_NUM_THREADS": "1"})
    ours, peer = doc["numbades"], doc["openssl"]
    fig.values = {"numbades_bytes_per_second": ours, "openssl_bytes_per_second": peer,
                  "numbades_before_after_openssl": doc["numbades_before_after"],
                  "where": doc["where"]}
    if peer:
        fig.text = (f"{ours / peer:.1f}x ({ours / 1e6:,.0f} / {peer / 1e6:,.0f} MB/s, "
                    f"{doc['where']})")
    else:
        fig.text = f"{ours / 1e6:,.0f} MB/s; openssl speed did not run (openssl on PATH?)"


def _remove(path: str) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


LABELS = {
    "warm": f"warm `import numbades` + first {format_size(FIRST_CALL_BYTES)} `encrypt`",
    "numba": "`import numba` alone",
    "cold": "cold first call (empty cache, background compile on)",
    "background": "background compile of bitslice (until `auto` serves big batches with it)",
    "foreground": "first call with `NUMBADES_BACKGROUND_COMPILE=0`",
    "compile": "`python -m numbades compile`, empty cache",
    "ratio": "bitslice DES-ECB / `openssl speed -evp des-ecb`, one core",
}
#: The order of the rows (the issue's table), not the order the steps run in.
ROWS = ("warm", "numba", "cold", "background", "foreground", "compile", "ratio")


def measure_build(args: argparse.Namespace, build_env: dict[str, str],
                  progress: Progress) -> Build:
    """One build's figures: each step not skipped, in :data:`STEPS` order, in fresh
    children run with ``build_env`` added to the environment."""
    target = build_env.get("NUMBA_CPU_FEATURES", os.environ.get("NUMBA_CPU_FEATURES"))
    name = build_kind(host_features(), target.split(",") if target else None)
    build = Build(name, [Figure(step, LABELS[step]) for step in ROWS])
    figures = {f.step: f for f in build.figures}
    kept: list[str] = []  # caches holding bitslice: the last one serves warm and ratio
    with tempfile.TemporaryDirectory(prefix="numbades-startup-") as workdir:
        kids = Children(build_env, workdir)
        try:
            for step in STEPS:
                fig = figures[step]
                if step in args.skip or step == "background":  # timed within "cold"
                    continue
                progress.update(f"speed --startup: {name}:", LABELS[step])
                try:
                    if step == "numba":
                        _measure_numba(kids, args, fig)
                    elif step == "cold":
                        _measure_cold(kids, args, fig, figures["background"], kept.append)
                    elif step == "foreground":
                        _measure_foreground(kids, args, fig)
                    elif step == "compile":
                        _measure_compile(kids, args, fig, kept.append)
                    elif step in ("warm", "ratio"):
                        if not kept:  # fill one cache: every engine, as `compile` does
                            cache = tempfile.mkdtemp(prefix="numbades-startup-fill-")
                            kept.append(cache)
                            kids.run(["-m", "numbades", "compile", "--quiet"], cache)
                        measure = _measure_warm if step == "warm" else _measure_ratio
                        measure(kids, args, fig, kept[-1])
                except (RuntimeError, KeyError, ValueError) as exc:
                    fig.failed = True
                    fig.text = f"failed: {exc}"
        finally:
            for cache in kept:
                _remove(cache)
    if "cold" in args.skip and "background" not in args.skip:
        figures["background"].text = "skipped (it is timed from a cold first call)"
    return build


def measure_all(args: argparse.Namespace, progress: Progress) -> Report:
    """Step 1: every build asked for (``--build``), one after the other."""
    started, load_before = time.perf_counter(), machine.load_average()
    envs = {"host": {}, "avx2": avx2_build_env()}
    wanted = ("host", "avx2") if args.build == "both" else (args.build,)
    builds = [measure_build(args, envs[b], progress) for b in wanted]
    progress.done()
    return Report(machine.line_prefix(), builds, time.perf_counter() - started,
                  (load_before, machine.load_average()))


def load_text(load: tuple[float | None, float | None]) -> str:
    """The machine's load around the run: figures taken beside other work are slow."""
    before, after = load
    if before is None or after is None:
        return "Machine load unknown on this OS."
    text = (f"Machine load (1-minute average) {before:.2f} before, {after:.2f} after, "
            f"on {machine.cpu_count()} CPUs")
    if max(before, after) > machine.cpu_count():
        text += ": other work was running, so these times are longer than on a quiet machine"
    return text + "."


# ---------------------------------------------------------------- output


def render_text(report: Report, args: argparse.Namespace, out: TextIO) -> None:
    """Step 2 (text): a title naming the host, then a Markdown table to paste, one
    column per build."""
    head = ["figure", *(b.name for b in report.builds)]
    rows = [[label, *(b.figures[i].text for b in report.builds)]
            for i, label in enumerate(LABELS[step] for step in ROWS)]
    widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(f"{c:<{w}}" for c, w in zip(cells, widths, strict=True)) + " |"

    lines = [f"numbades speed --startup - {report.host}", "", line(head),
             "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)]
    lines += ["", (f"Fresh processes; each cold figure on a new empty Numba cache; warm figures "
                   f"and the ratio on a cache filled by `numbades compile`; {args.runs} runs per "
                   f"warm figure, {args.cold_runs} cold; the ratio with one Numba thread, "
                   f"{format_size(RATIO_BYTES)} per call, median of {args.repeats}. "
                   f"{report.wall:.0f} s in all. {load_text(report.load)}")]
    out.write("\n".join(line.rstrip() for line in lines) + "\n")


def render_json(report: Report, args: argparse.Namespace, out: TextIO) -> None:
    """Step 2 (``--json``): the same figures, machine-readable."""
    doc = {
        "machine": machine.describe(),
        "host": report.host,
        "wall_seconds": round(report.wall, 3),
        "load_average_before_after": list(report.load),
        "builds": {b.name: {f.step: {"label": f.label, "text": f.text, "failed": f.failed,
                                     **f.values} for f in b.figures} for b in report.builds},
    }
    json.dump(doc, out, indent=2)
    out.write("\n")


# ---------------------------------------------------------------- arguments


def skip_arg(text: str) -> tuple[str, ...]:
    """``--skip``: comma-separated step names."""
    return tuple(comma_names(text, list(STEPS), "step(s)"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options ``--startup`` adds to ``numbades speed``."""
    group = parser.add_argument_group("startup figures (--startup)")
    group.add_argument("--startup", action="store_true",
                       help="instead of throughput: this host's first-call, compile and "
                       "bitslice/openssl figures, measured in fresh processes and empty "
                       "temporary caches (minutes: the bitslice engine compiles three times)")
    group.add_argument("--skip", type=skip_arg, default=None,
                       help=f"comma-separated steps to leave out: {', '.join(STEPS)}")
    group.add_argument("--quick", action="store_true",
                       help=f"leave out the steps that compile bitslice: {', '.join(SLOW_STEPS)}")
    group.add_argument("--runs", type=int, default=None,
                       help="fresh processes per warm figure (default 5)")
    group.add_argument("--cold-runs", type=int, default=None,
                       help="cold first calls, each on a new empty cache (default 3)")
    group.add_argument("--build", choices=("host", "avx2", "both"), default=None,
                       help="what the children compile for: this host (default), an AVX2-only "
                       "CPU (NUMBA_CPU_NAME=haswell, AVX-512 off), or both, one column each")
    group.add_argument("--avx2-build", action="store_const", const="avx2", dest="build",
                       help="the same as --build avx2")


def check_arguments(args: argparse.Namespace) -> str | None:
    """A usage problem with the ``--startup`` options, or None; fills in their defaults."""
    given = [flag for flag, value in (("--skip", args.skip), ("--quick", args.quick),
                                      ("--runs", args.runs), ("--cold-runs", args.cold_runs),
                                      ("--build", args.build)) if value]
    if not args.startup:
        return f"{given[0]} needs --startup" if given else None
    if args.compare or args.variant != "auto":
        return "--startup measures auto and bitslice against openssl: drop --compare/--variant"
    for flag, value in (("--runs", args.runs), ("--cold-runs", args.cold_runs)):
        if value is not None and value < 1:
            return f"{flag} must be positive: {value}"
    args.build = args.build or "host"
    args.runs = args.runs or 5
    args.cold_runs = args.cold_runs or 3
    args.skip = tuple(args.skip or ()) + (SLOW_STEPS if args.quick else ())
    args.repeats = 5
    return None


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``speed --startup`` (arguments checked); 0 if every step measured, else 1."""
    progress = Progress(sys.stderr, enabled=not args.quiet)
    with progress.heartbeat():
        report = measure_all(args, progress)
    if args.json:
        render_json(report, args, out)
    else:
        render_text(report, args, out)
    return 1 if any(f.failed for b in report.builds for f in b.figures) else 0
