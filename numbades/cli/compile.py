"""``numbades compile``: fill Numba's disk cache with every engine's kernels, up front.

For Docker images, CI runners and cluster workers: run it once where the
package is installed (or with the same ``NUMBA_CACHE_DIR``), and every later
process loads the kernels instead of compiling them.  Engines are spread
over ``--jobs`` processes (default: the CPUs this process may use), the slow
bitslice engine first, in two parts side by side (``warmup.compile_parts``:
its seconds are then the two parts' summed); a progress line goes to stderr and a summary to
stdout: per engine, the wall seconds and the CPU seconds of each kernel
group (ECB, the chains, key arrays, crypt(3), ...), then the CPU seconds
per group over all table variants and for bitslice.  ``opts`` compiles the same way before it
measures.  The public face's own small kernels (:mod:`.public_kernels`, the "helpers": mostly
``numbades.payments``) compile in the same pool, beside the engines
(``warmup.pool_tasks``), not after them.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from ..engines.registry import ENGINES, variants
from ..tuning import machine, warmup
from .measure import Progress, comma_names, positive_int
from .public_kernels import warm_public_kernels

#: ``__init__.py`` of the numbades this process imported.
_PACKAGE_INIT = Path(__file__).resolve().parents[1] / "__init__.py"


def cache_location() -> str:
    """The directory Numba fills with this process's kernels (``NUMBA_CACHE_DIR``, else the
    ``__pycache__`` directories beside the sources of the numbades this process imported)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return str(Path(configured).resolve())
    return str(_PACKAGE_INIT.resolve().parent / "**" / "__pycache__")


def other_copy_note(running: Path, installed: Path | None) -> str | None:
    """A warning when the package file ``running`` is not ``installed`` (the distribution's).

    Numba keys its cache on each kernel's source file, so kernels compiled
    for a source checkout on ``sys.path`` (e.g. the current directory) are
    not loaded by the installed package: it would compile again.
    """
    if installed is None or running.resolve() == installed.resolve():
        return None
    return (f"this run imported numbades from {running.parent}, not the installed package "
            f"at {installed.parent}, so the installed package's kernels were not compiled: "
            f"run the command from another directory to warm them")


def installed_package() -> Path | None:
    """``numbades/__init__.py`` of an installed copy other than the one running; None if
    there is none (not installed, or installed in editable mode: the checkout is then
    the installed package).

    Every distribution named numbades counts, because a source checkout's own
    ``numbades.egg-info`` (left there by ``pip install .``) is found first
    when the checkout is the current directory.
    """
    running = _PACKAGE_INIT.resolve()
    for dist in importlib.metadata.distributions(name="numbades"):
        init = Path(str(dist.locate_file("numbades/__init__.py")))
        if init.is_file() and init.resolve() != running:
            return init
    return None


def cache_note() -> str | None:
    """:func:`other_copy_note` for this process."""
    return other_copy_note(_PACKAGE_INIT, installed_package())


def compile_engines(names: list[str], jobs: int, progress: Progress,
                    timers: dict | None = None, command: str = "compile",
                    groups: warmup.GroupTimes | None = None,
                    then: warmup.Then | None = None) -> dict[str, float]:
    """Compile ``names`` (and ``then``, ``warmup.compile_all``) over ``jobs`` processes with a
    progress line (``command`` names the command in it); seconds per engine (``groups``: per
    kernel group, ``warmup.warm_up``)."""
    pending = list(names) + ([then[0]] if then is not None else [])
    phase = f"{command}: compiling engines"

    def report(name: str, seconds: float, done: int, total: int) -> None:
        pending.remove(name)
        progress.update(phase, f"[{done}/{total}] {name} {seconds:.1f} s")

    def still() -> str:
        shown = ", ".join(pending[:3]) + (f" and {len(pending) - 3} more" if len(pending) > 3 else "")
        return f"compiling {shown}"

    progress.update(phase, f"({len(names)} on {jobs} process(es))")
    with progress.heartbeat(still):
        return warmup.compile_all(names, jobs, report, timers, groups, then)


def engine_line(name: str, seconds: float, groups: warmup.GroupTimes, width: int) -> str:
    """One engine's compile: wall seconds, CPU seconds, and the CPU seconds of each kernel group."""
    mine = [(group, cpu) for (engine, group), (_, cpu) in groups.items() if engine == name]
    if not mine:
        return f"{name:<{width}}  {seconds:7.1f} s\n"
    parts = ", ".join(f"{group} {cpu:.1f}" for group, cpu in mine)
    return f"{name:<{width}}  {seconds:7.1f} s  {sum(c for _, c in mine):7.1f} s cpu: {parts}\n"


def group_total_lines(groups: warmup.GroupTimes) -> list[str]:
    """CPU seconds per kernel group summed over the table variants, and bitslice's, one line each.

    A group's time is its kernels' compile given what the engine compiled
    before it (a helper shared by two groups counts in the first); CPU
    seconds of the compiling process, so that a loaded machine does not
    inflate them as it does wall seconds.
    """
    families: dict[str, dict[str, float]] = {}
    counts: dict[str, set[str]] = {}
    for (engine, group), (_, cpu) in groups.items():
        family = "table variants" if engine.startswith("table") else engine
        totals = families.setdefault(family, {})
        totals[group] = totals.get(group, 0.0) + cpu
        counts.setdefault(family, set()).add(engine)
    lines = []
    for family, totals in families.items():
        label = f"{family} ({len(counts[family])})" if family == "table variants" else family
        parts = ", ".join(f"{group} {cpu:.1f}" for group, cpu in totals.items())
        lines.append(f"  {label}: {sum(totals.values()):.1f} s cpu = {parts}")
    return lines


def breakdown_lines(timers: dict[str, tuple[float, float]], top: int = 25) -> list[str]:
    """The kernels that took longest to compile: Numba (typing, lowering) vs LLVM seconds."""
    ranked = sorted(timers.items(), key=lambda item: -item[1][0])[:top]
    if not ranked:
        return ["no kernel compiled here (all loaded from the cache)"]
    width = max(len(name) for name, _ in ranked)
    header = "kernel (inclusive of helpers it compiled)"
    lines = [f"{header:<{width}}  {'all':>7}  {'numba':>7}  {'llvm':>7}"]
    lines += [f"{name:<{width}}  {total:7.2f}  {total - llvm:7.2f}  {llvm:7.2f}"
              for name, (total, llvm) in ranked]
    return lines


def _engines_arg(text: str) -> list[str]:
    return comma_names(text, list(ENGINES), "engine(s)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``numbades compile``."""
    parser.add_argument("--engines", type=_engines_arg, default=None,
                        help="comma-separated engine names (default: every engine)")
    parser.add_argument("--jobs", type=positive_int, default=machine.cpu_count(),
                        help="processes compiling at once (default: the CPUs available)")
    parser.add_argument("--breakdown", action="store_true",
                        help="also list the slowest kernels: Numba's typing/lowering vs LLVM time")
    parser.add_argument("--quiet", action="store_true", help="no progress display on stderr")


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``compile``; 0 on success."""
    names = args.engines or variants()
    jobs = int(min(args.jobs, len(names) + 1))  # + 1: the helpers
    started = time.perf_counter()
    progress = Progress(sys.stderr, enabled=not args.quiet)
    timers: dict[str, tuple[float, float]] = {}
    groups: warmup.GroupTimes = {}
    seconds = compile_engines(names, jobs, progress, timers if args.breakdown else None,
                              groups=groups, then=("helpers", warm_public_kernels))
    helpers = seconds.pop("helpers")
    progress.done()
    wall = time.perf_counter() - started
    width = max(len(n) for n in [*names, "helpers"])
    out.write(f"numbades compile - {machine.line_prefix()}\n")
    out.writelines(engine_line(name, seconds[name], groups, width) for name in names)
    out.write(f"{'helpers':<{width}}  {helpers:7.1f} s  (crypt(3) encoding, quad_cksum, payments)\n")
    out.write(f"{'total':<{width}}  {wall:7.1f} s wall on {jobs} process(es); "
              f"{sum(seconds.values()):.1f} s of engine time\n")
    out.write(f"kernels cached in {cache_location()}\n")
    note = cache_note()
    if note:
        out.write(f"warning: {note}\n")
    if any(cpu for _, cpu in groups.values()):
        out.write("compile CPU seconds by kernel group (in each engine's compile order):\n")
        out.writelines(line + "\n" for line in group_total_lines(groups))
    if args.breakdown:
        out.write("\n" + "\n".join(breakdown_lines(timers)) + "\n")
    return 0
