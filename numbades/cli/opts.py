"""``numbades opts``: libdes's ``options.txt`` table, measured on this machine.

libdes shipped its inner loop in several compile-time shapes (UNROLL, RISC1,
RISC2, PTR) and a ``des_opts`` program that timed them all so a builder could
pick the fastest for their CPU; ``options.txt`` collected the results.
numbades carries those shapes as run-time engines, so this command times every
engine here and prints one line per engine in the same shape, fastest first,
followed by numbered notes.  ``--save`` records the fastest engine per size
class so that ``auto`` uses measured choices on this machine.

Before timing it compiles what it times, over several processes: each
engine's ECB kernel, and the default table variant whole (it serves ``auto``
meanwhile).  The bitslice engine's other kernels then compile in the one
background process ``auto`` itself would start (``tuning.warmup``), so the
command does not wait for kernels it does not time, and the cache ends up
warm; with ``NUMBADES_BACKGROUND_COMPILE=0`` they compile before timing.

Run from a source checkout's root with the package also installed (the
README's first command: ``pip install . && python -m numbades opts``), the
checkout's copy is the one imported, but later imports anywhere else load the
installed one, whose kernels Numba caches beside *its* sources.  ``opts``
then runs itself again from the installed package's directory
(:func:`installed_elsewhere`), so it measures and warms the copy later
imports load, and says so; ``--here`` measures the checkout's copy instead.

``run`` reads as its three steps: :func:`measure_all`, :func:`write_notes`,
then :func:`render_text` or :func:`render_json`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TextIO

import numpy as np

from ..engines import chains
from ..engines.registry import BITSLICE, DEFAULT_TABLE_VARIANT, ENGINES, options, variants
from ..tuning import machine, saved_choice, warmup
from .asm import code_digest, identical_code_groups
from .compile import cache_location, cache_note, installed_package
from .measure import (
    KEY8,
    Progress,
    format_size,
    parse_size,
    positive_float,
    positive_int,
    set_threads,
    time_calls,
)

DEFAULT_SIZE = 64 * 1024
DEFAULT_SECONDS = 1.0
ROUNDS = 3


@dataclass
class Result:
    """One engine's measurement at one message size."""

    variant: str
    nbytes: int
    rates: list[float] = field(default_factory=list)  # blocks/s, one per round
    compile_seconds: float = 0.0
    error: str | None = None

    @property
    def blocks_per_second(self) -> float:
        """Best round: the least disturbed by other work on the machine."""
        return max(self.rates) if self.rates else 0.0

    @property
    def bytes_per_second(self) -> float:
        return 8 * self.blocks_per_second


@dataclass
class Measurements:
    """Everything ``opts`` measured, before any of it is written up."""

    main: list[Result]
    per_class: dict[str, list[Result]]
    compile_wall: float  # compiling every engine first, over several processes
    groups: list[list[str]] | None  # identical machine code; None: not determined
    load_before: float | None
    load_after: float | None
    wall: float
    finishing: bool = False  # the rest of the bitslice kernels compiling in the background


def _ecb_call(variant: str, nbytes: int) -> tuple[Callable[[], object], np.ndarray]:
    """A no-argument ECB encrypt of an ``nbytes`` buffer into a preallocated output."""
    from ..cipher import DES

    cipher = DES(KEY8, variant=variant)
    src = np.arange(nbytes // 8, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    dst = np.empty_like(src)
    return (lambda: cipher.encrypt(src, out=dst)), dst


def measure(
    engines: Sequence[str], nbytes: int, seconds: float, progress: Progress, label: str = ""
) -> list[Result]:
    """Time every engine at ``nbytes`` per call: compile and check first, then
    ``ROUNDS`` interleaved rounds so slow drift on the machine hits all alike."""
    results = {name: Result(name, nbytes) for name in engines}
    calls: dict[str, Callable[[], object]] = {}
    reference: np.ndarray | None = None
    for i, name in enumerate(engines, 1):
        progress.update(f"opts{label}: compiling {len(engines)} engines", f"[{i}] {name}")
        start = time.perf_counter()
        try:
            call, output = _ecb_call(name, nbytes)
            call()
        except Exception as exc:  # noqa: BLE001 - reported in the notes
            results[name].error = f"{type(exc).__name__}: {exc}"
            continue
        results[name].compile_seconds = time.perf_counter() - start
        if reference is None:
            reference = output.copy()
        elif not np.array_equal(output, reference):
            results[name].error = f"output differs from {engines[0]}'s"
            continue
        calls[name] = call
    per_round = seconds / ROUNDS
    for r in range(ROUNDS):
        for i, (name, call) in enumerate(calls.items(), 1):
            progress.update(f"opts{label}: timing, round {r + 1}/{ROUNDS}", f"[{i}] {name}")
            count, elapsed = time_calls(call, per_round)
            results[name].rates.append(count * (nbytes // 8) / elapsed)
    return list(results.values())


def prepare(name: str, nbytes: int, full: bool) -> tuple[float, str | None]:
    """Compile (or load) what timing engine ``name`` runs, in a compiling process.

    Its ECB kernel for ``nbytes`` calls and the key schedule, and with
    ``full`` every other kernel of the engine too (:meth:`Engine.warm_up`).
    Returns the seconds, and for a table engine the :func:`code_digest` of its
    ECB kernel if it was compiled here (then reading it is free), not in
    ``opts``'s own process, which loads it from the cache (and would compile
    it again); None if it came from the cache (the remembered answer, or
    ``opts``'s process, decides then).
    """
    start = time.perf_counter()
    with _compiling_here():
        call, _ = _ecb_call(name, nbytes)
        call()
    kernel = getattr(ENGINES[name], "ecb_kernel", None)
    digest = None if kernel is None else code_digest(kernel, copy=False)
    if full:
        ENGINES[name].warm_up()
    return time.perf_counter() - start, digest


@contextlib.contextmanager
def _compiling_here() -> Iterator[None]:
    """Background compiles off for a while: the call compiles its kernels here, as timed
    (on an empty cache the default table variant would otherwise serve it without them)."""
    before = os.environ.get(warmup.ENV_BACKGROUND)
    os.environ[warmup.ENV_BACKGROUND] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ[warmup.ENV_BACKGROUND]
        else:
            os.environ[warmup.ENV_BACKGROUND] = before


def prepare_all(engines: Sequence[str], nbytes: int, full: set[str], jobs: int,
                progress: Progress) -> dict[str, str | None]:
    """:func:`prepare` every engine over ``jobs`` processes, slow ones first; the digests."""
    order = sorted(engines, key=lambda n: not ENGINES[n].slow_to_compile)
    pending, digests = list(order), {}
    phase = "opts: compiling what is timed"
    progress.update(phase, f"({len(order)} engines on {jobs} process(es))")

    def still() -> str:
        more = f" and {len(pending) - 3} more" if len(pending) > 3 else ""
        return f"compiling {', '.join(pending[:3])}{more}"

    # spawn, not fork: this process may hold LLVM and thread-pool state a fork would copy
    with progress.heartbeat(still), \
            ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(prepare, n, nbytes, n in full): n for n in order}
        for done, future in enumerate(as_completed(futures), 1):
            name = futures[future]
            pending.remove(name)
            try:
                seconds, digests[name] = future.result()
            except Exception as exc:  # noqa: BLE001 - timing tries again and reports it
                progress.update(phase, f"[{done}/{len(order)}] {name} failed: {exc}")
                continue
            progress.update(phase, f"[{done}/{len(order)}] {name} {seconds:.1f} s")
    return digests


def compiled_fully(background: bool) -> set[str]:
    """Engines ``opts`` compiles whole before timing, not only what it times: the default
    table variant (it serves ``auto`` while the rest compiles), and every slow engine when
    background compiles are off (``NUMBADES_BACKGROUND_COMPILE=0``)."""
    slow = {n for n in variants() if ENGINES[n].slow_to_compile}
    return {DEFAULT_TABLE_VARIANT} | (set() if background else slow)


def finish_in_background() -> bool:
    """After timing: have the bitslice engine's other kernels (CTR, CBC/CFB decryption, many
    messages, key arrays, crypt(3), MACs) compiled in the one background process ``auto``
    uses (``tuning.warmup``), unless they are cached; True if that compile is running."""
    engine = ENGINES.get(BITSLICE)
    if engine is None or not warmup.background_enabled():
        return False
    cached = getattr(engine, "cbc_mac_ready", lambda: True)  # warm_up compiles it last
    return not warmup.ready_or_started(BITSLICE, chains.ECB_ENCRYPT,
                                       lambda: engine.ready(chains.CTR) and cached())


def _table_ecb_kernels(engines: Sequence[str]) -> dict[str, object]:
    """Compiled ECB dispatchers of the table engines among ``engines``."""
    return {n: ENGINES[n].ecb_kernel for n in engines if hasattr(ENGINES[n], "ecb_kernel")}


def measure_all(args: argparse.Namespace, progress: Progress) -> Measurements:
    """Step 1: every engine at ``--size`` (and per size class with ``--save``), and the asm check."""
    engines = variants()
    load_before = machine.load_average()
    started = time.perf_counter()
    background = warmup.background_enabled()
    digests = prepare_all(engines, args.size, compiled_fully(background),
                          min(machine.cpu_count(), len(engines)), progress)
    compile_wall = time.perf_counter() - started
    main = measure(engines, args.size, args.seconds, progress)
    per_class: dict[str, list[Result]] = {}
    if args.save:
        for cls, nbytes in saved_choice.REPRESENTATIVE_SIZES.items():
            per_class[cls] = main if nbytes == args.size else measure(
                engines, nbytes, args.seconds, progress, f" ({cls}, {format_size(nbytes)})")
    memo = saved_choice.user_cache_dir() / "identical_code.json"
    groups = identical_code_groups(_table_ecb_kernels(engines), memo, progress, digests)
    load_after = machine.load_average()
    finishing = finish_in_background()
    progress.done()
    return Measurements(main, per_class, compile_wall, groups, load_before,
                        load_after, time.perf_counter() - started, finishing)


def _load_note(before: float | None, after: float | None) -> str:
    cpus = machine.cpu_count()
    if before is None or after is None:
        return f"Machine load unknown on this OS ({cpus} CPUs)."
    note = (
        f"Machine load (1-minute average) {before:.2f} before and {after:.2f} after, on {cpus} CPUs"
    )
    busy = max(before, after) - 1.0  # this run itself keeps one CPU busy
    if busy > 0.5:
        note += "; other work was running, so figures may be low (cf. libdes note [3])"
    return note + "."


def _fastest_per_class(per_class: dict[str, list[Result]]) -> dict[str, str]:
    choices = {}
    for cls, res in per_class.items():
        ok = [r for r in res if r.error is None and r.rates]
        if ok:
            choices[cls] = max(ok, key=lambda r: r.blocks_per_second).variant
    return choices


@dataclass
class Notes:
    """The numbered notes and which engines' lines point at which note."""

    texts: list[str] = field(default_factory=list)
    marks: dict[str, list[int]] = field(default_factory=dict)
    saved: dict[str, object] | None = None  # path and choices written by --save

    def add(self, text: str, engines: Sequence[str] = ()) -> None:
        self.texts.append(text)
        for name in engines:
            self.marks.setdefault(name, []).append(len(self.texts))


def write_notes(m: Measurements, args: argparse.Namespace) -> Notes:
    """Step 2: the notes under the table (and, with ``--save``, the saved choices)."""
    notes = Notes()
    ok = [r for r in m.main if r.error is None]
    warm = m.compile_wall + sum(r.compile_seconds for r in m.main)
    notes.add(
        f"ECB encryption of {format_size(args.size)} per call into a preallocated buffer, "
        f"{args.threads} thread(s); each engine timed for {args.seconds:g} s in {ROUNDS} "
        f"interleaved rounds, best round shown; k/s is 1000 bytes/s. Compilation and "
        f"warm-up ({warm:.1f} s in all, {m.compile_wall:.1f} s of it compiling what is "
        f"timed over several processes) came first and is not in the figures."
    )
    if any(not options(r.variant) for r in ok):
        notes.add("The line with no options is the default loop, 4 rounds per iteration (`table`).")
    if m.groups is None:
        notes.add("Identical-code check unavailable: the kernels' assembly could not be read.")
    elif not m.groups:
        notes.add("No two table engines compiled to identical machine code.")
    for group in m.groups or []:
        notes.add(f"{', '.join(group)} compiled to identical machine code.", group)
    notes.add(_load_note(m.load_before, m.load_after))
    other_copy = cache_note()
    notes.add(f"Kernels compiled into {cache_location()}"
              + (f"; {other_copy}." if other_copy else " (later imports load them)."))
    if m.finishing:
        notes.add(f"The {BITSLICE} engine's other kernels (CTR, CBC/CFB decryption, many "
                  f"messages, key arrays, crypt(3), MACs) are compiling into the same cache in "
                  f"one background process (`python -m numbades.tuning.warmup {BITSLICE}`); "
                  f"until it finishes `auto` serves that work with the {DEFAULT_TABLE_VARIANT} "
                  f"engine (same results). `python -m numbades compile` compiles everything "
                  f"in the foreground.")
    for res in m.main:
        if res.error is not None:
            notes.add(f"{res.variant} left out: {res.error}", [res.variant])
    choices = _fastest_per_class(m.per_class) if args.save else {}
    if choices:
        details = {
            cls: {r.variant: round(r.bytes_per_second) for r in res if r.rates}
            for cls, res in m.per_class.items()
        }
        path = saved_choice.save_choices(choices, details)
        picks = ", ".join(f"{cls} {v}" for cls, v in choices.items())
        notes.add(f"Saved the fastest engine per size class to {path}: {picks}.")
        notes.saved = {"path": str(path), "choices": choices}
    return notes


def _ranked(m: Measurements) -> tuple[list[Result], list[Result]]:
    ok = sorted((r for r in m.main if r.error is None), key=lambda r: -r.blocks_per_second)
    return ok, [r for r in m.main if r.error is not None]


#: The header of the table's three columns (``format_lines``).
HEADER = ("machine - libdes options of the engine [notes]", "DES blocks/s", "1000 bytes/s")


def format_lines(prefix: str, ranked: Sequence[Result], marks: dict[str, list[int]]) -> list[str]:
    """A header naming the columns, then options.txt lines: text left, figures right-aligned."""
    texts = []
    for res in ranked:
        words = [*options(res.variant), *(f"[{n}]" for n in marks.get(res.variant, []))]
        texts.append(f"{prefix} - {' '.join(words)}".rstrip())
    blocks = [f"{round(r.blocks_per_second):,}" for r in ranked]
    kbytes = [f"{round(r.bytes_per_second / 1000)}k/s" for r in ranked]
    tw, bw, kw = (max(map(len, [h, *col])) for h, col in zip(HEADER, (texts, blocks, kbytes),
                                                              strict=True))
    rows = [(*HEADER,), *zip(texts, blocks, kbytes, strict=True)]
    return [f"{t:<{tw}}   {b:>{bw}} {k:>{kw}}".rstrip() for t, b, k in rows]


def render_text(m: Measurements, notes: Notes, out: TextIO) -> None:
    """Step 3 (text): the options.txt table, then the notes."""
    ok, _ = _ranked(m)
    out.writelines(line + "\n" for line in format_lines(machine.line_prefix(), ok, notes.marks))
    out.write("\nNotes.\n")
    out.writelines(f"[{i}] {text}\n" for i, text in enumerate(notes.texts, 1))


def render_json(m: Measurements, notes: Notes, args: argparse.Namespace, out: TextIO) -> None:
    """Step 3 (``--json``): the same content, machine-readable."""
    ok, failed = _ranked(m)
    doc = {
        "machine": machine.describe(),
        "settings": {"mode": "ecb", "size": args.size, "seconds": args.seconds,
                     "threads": args.threads, "rounds": ROUNDS},
        "wall_seconds": round(m.wall, 3),
        "results": [
            {
                "variant": r.variant,
                "options": list(options(r.variant)),
                "blocks_per_second": r.blocks_per_second,
                "bytes_per_second": r.bytes_per_second,
                "round_blocks_per_second": r.rates,
                "compile_seconds": r.compile_seconds,
                "error": r.error,
                "notes": notes.marks.get(r.variant, []),
            }
            for r in [*ok, *failed]
        ],
        "identical_code": m.groups,
        "saved": notes.saved,
        "notes": notes.texts,
    }
    json.dump(doc, out, indent=2)
    out.write("\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``numbades opts``."""
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=DEFAULT_SECONDS,
        help=f"timing budget per engine, split over {ROUNDS} rounds (default %(default)s)",
    )
    parser.add_argument(
        "--size",
        type=parse_size,
        default=DEFAULT_SIZE,
        help="bytes per encrypt call, e.g. 4k, 64k, 1M (default 64k)",
    )
    parser.add_argument(
        "--threads",
        type=positive_int,
        default=1,
        help="Numba threads for engines that run in parallel (default 1: one core)",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument(
        "--save",
        action="store_true",
        help="also time one message size per size class and save the fastest engine "
        "for each, so that `auto` uses it on this machine",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress display on stderr")
    parser.add_argument(
        "--here",
        action="store_true",
        help="run from a source checkout's root with numbades also installed: measure "
        "(and warm) the checkout's copy, not the installed one later imports load",
    )


def installed_elsewhere() -> Path | None:
    """``numbades/__init__.py`` of the installed copy ``opts`` should measure instead of this one.

    That is when this process imported a source checkout's copy only because
    it runs from the checkout's root (``python -m`` puts the current
    directory first on ``sys.path``) and another copy is installed: later
    imports from anywhere else load that one.  None when no other copy is
    installed, or when the checkout is on ``PYTHONPATH`` (every import sees it).
    """
    installed = installed_package()
    if installed is None:
        return None
    root = Path(__file__).resolve().parents[2]
    if root != Path.cwd().resolve():
        return None
    path = os.environ.get("PYTHONPATH", "")
    if any(Path(p).resolve() == root for p in path.split(os.pathsep) if p):
        return None
    return installed


def _own_arguments(args: argparse.Namespace) -> list[str]:
    """``args`` as ``opts`` command-line arguments (for running it again elsewhere)."""
    flags = [f"--{name}" for name in ("json", "save", "quiet") if getattr(args, name)]
    return [f"--seconds={args.seconds!r}", f"--size={args.size}", f"--threads={args.threads}",
            *flags]


def run_installed(installed: Path, args: argparse.Namespace, out: TextIO) -> int:
    """Run ``opts`` (with ``--here``) in a child importing the ``installed`` copy; its status.

    The child runs in the installed package's directory, so ``python -m``
    finds that copy first; its report is copied to ``out``, its progress goes
    straight to stderr.
    """
    if not args.quiet:
        print(f"opts: measuring and warming the installed numbades ({installed.parent}), the "
              f"copy later imports load; this directory's copy would warm only itself "
              f"(--here measures it instead)", file=sys.stderr, flush=True)
    child = subprocess.run([sys.executable, "-m", "numbades", "opts", *_own_arguments(args),
                            "--here"], cwd=installed.parent.parent, stdout=subprocess.PIPE,
                           text=True, check=False)
    out.write(child.stdout)
    out.flush()
    return child.returncode


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``opts``; 0 on success, 1 if an engine failed or disagreed."""
    installed = None if getattr(args, "here", False) else installed_elsewhere()
    if installed is not None:
        return run_installed(installed, args, out)
    problem = set_threads(args.threads)
    if problem is None and args.save:  # before a minute of measuring, not after
        why = saved_choice.save_problem()
        problem = None if why is None else f"--save cannot write its file: {why}"
    if problem:
        print(f"numbades opts: error: {problem}", file=sys.stderr)
        return 2
    progress = Progress(sys.stderr, enabled=not args.quiet)
    with progress.heartbeat():
        m = measure_all(args, progress)
    notes = write_notes(m, args)
    if args.json:
        render_json(m, notes, args, out)
    else:
        render_text(m, notes, out)
    out.flush()
    if not args.quiet:
        print(f"opts: done in {m.wall:.1f} s", file=sys.stderr)
    return 1 if any(r.error is not None for r in m.main) else 0
