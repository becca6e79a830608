"""``numbades opts``: libdes's ``options.txt`` table, measured on this machine.

libdes shipped its inner loop in several compile-time shapes (UNROLL, RISC1,
RISC2, PTR) and a ``des_opts`` program that timed them all so a builder could
pick the fastest for their CPU; ``options.txt`` collected the results.
numbades carries those shapes as run-time engines, so this command times every
engine here and prints one line per engine in the same shape, fastest first,
followed by numbered notes.  ``--save`` records the fastest engine per size
class so that ``auto`` uses measured choices on this machine.

The small measuring helpers (sizes, progress display, timed loops) live here
too and are shared with ``numbades speed`` and ``benchmarks/compare.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from . import _machine, _saved_choice

KEY = bytes.fromhex("0123456789abcdef")
DEFAULT_SIZE = 64 * 1024
DEFAULT_SECONDS = 1.0
ROUNDS = 3

_SIZE_RE = re.compile(r"^\s*(\d+)\s*([kmg]?)(i?b?)\s*$", re.IGNORECASE)
_SCALE = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


# ---------------------------------------------------------------- shared helpers


def parse_size(text: str) -> int:
    """A message size such as ``64k``, ``4KiB``, ``1M`` or ``4096``, in bytes.

    Sizes are whole DES blocks; anything else is an argparse usage error.
    """
    match = _SIZE_RE.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 16, 4k, 1M)")
    nbytes = int(match.group(1)) * _SCALE[match.group(2).lower()]
    if nbytes < 8 or nbytes % 8:
        raise argparse.ArgumentTypeError(f"size must be a positive multiple of 8 bytes: {text!r}")
    return nbytes


def _positive(kind: type, smallest: float, what: str) -> Callable[[str], float]:
    """argparse type converting with ``kind`` and requiring a value >= ``smallest``."""

    def convert(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number: {text!r}")
        if not value >= smallest:
            raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
        return value

    return convert


positive_float = _positive(float, 1e-9, "a number")
positive_int = _positive(int, 1, "an integer")


def format_size(nbytes: int) -> str:
    """``16 B``, ``64 KiB``, ``1 MiB``: binary units where they divide exactly."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if nbytes >= scale and nbytes % scale == 0:
            return f"{nbytes // scale} {unit}"
    return f"{nbytes} B"


def time_calls(fn: Callable[[], object], budget: float) -> tuple[int, float]:
    """Call ``fn`` repeatedly for about ``budget`` seconds; return (calls, elapsed).

    Always at least one call.  The clock is read every call, which costs far
    less than one call of even a 16-byte encryption through the public API.
    """
    clock = time.perf_counter
    calls = 0
    start = clock()
    deadline = start + budget
    while True:
        fn()
        calls += 1
        now = clock()
        if now >= deadline:
            return calls, now - start


def set_threads(threads: int) -> str | None:
    """Limit Numba's parallel kernels to ``threads``; an error message if impossible."""
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    if threads > limit:
        return (
            f"--threads {threads} exceeds numba's thread limit {limit} "
            f"(set NUMBA_NUM_THREADS={threads} before starting)"
        )
    numba.set_num_threads(threads)
    return None


class Progress:
    """A status display on stderr: one line rewritten in place on a terminal;
    elsewhere (logs, pipes) one plain line per phase, without the per-item detail."""

    def __init__(self, stream: TextIO = sys.stderr, enabled: bool = True) -> None:
        self.stream = stream
        self.enabled = enabled
        self.tty = enabled and hasattr(stream, "isatty") and stream.isatty()
        self._width = 0
        self._phase = ""

    def update(self, phase: str, detail: str = "") -> None:
        """Show ``phase`` (and, on a terminal, ``detail``) as the current status."""
        if not self.enabled:
            return
        if self.tty:
            text = f"{phase} {detail}".rstrip()
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self._width = len(text)
        elif phase != self._phase:
            self.stream.write(phase + "\n")
        self._phase = phase
        self.stream.flush()

    def done(self) -> None:
        """Clear the status line (terminal) before the report is printed."""
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
        self._phase = ""


# ---------------------------------------------------------------- engine names


def variant_options(name: str) -> tuple[str, ...]:
    """libdes option words of an engine: ``table+unroll+ptr`` -> (UNROLL, PTR)."""
    try:
        from ._engines import variant_options as library_options
    except ImportError:
        library_options = None
    if library_options is not None:
        try:
            return tuple(library_options(name))
        except (KeyError, ValueError):
            pass
    return tuple(part.upper() for part in name.split("+") if part != "table")


# ---------------------------------------------------------------- identical code


_ASM_COMMENT = re.compile(r"\s*(#|//|;).*$")
_MANGLED = re.compile(r"_ZN[\w$.]+|\.L(func_end|tmp|_MergedGlobals)\w*")
_SKIPPED_DIRECTIVES = (".file", ".ident", ".loc", ".size", ".section\t.note", ".section .note")


def normalise_asm(text: str, names: Sequence[str]) -> str:
    """Assembly with comments, debug directives and the kernel's own names removed.

    Two kernels whose normalised text is equal compiled to the same machine code.
    """
    lines = []
    for raw in text.splitlines():
        line = _ASM_COMMENT.sub("", raw).rstrip()
        if not line.strip() or line.strip().startswith(_SKIPPED_DIRECTIVES):
            continue
        line = _MANGLED.sub("SYM", line)
        for name in names:
            if name:
                line = line.replace(name, "FUNC")
        lines.append(line)
    return "\n".join(lines)


def _ecb_kernel(entry: object) -> tuple[object | None, list[str]]:
    """The ECB dispatcher in a ``KERNELS`` entry, and the Python names to normalise away.

    An entry is a dispatcher or a tuple holding one (e.g. block function, ECB
    kernel, flag); the ECB kernel is the dispatcher named ``ecb_*``, else the last.
    """
    parts = entry if isinstance(entry, (tuple, list)) else (entry,)
    dispatchers = [p for p in parts if hasattr(p, "inspect_asm")]
    if not dispatchers:
        return None, []
    names: set[str] = set()
    for d in dispatchers:
        py_func = getattr(d, "py_func", None)
        names |= {getattr(py_func, "__qualname__", ""), getattr(py_func, "__name__", "")}
    ecb = [d for d in dispatchers if getattr(d, "__name__", "").startswith("ecb")]
    return (ecb or dispatchers)[-1], sorted(names - {""}, key=len, reverse=True)


def _kernel_asm(kernel: object) -> dict:
    """``inspect_asm()`` of a compiled dispatcher, by signature.

    Numba disables inspection of code loaded from its on-disk cache (it warns
    and returns a stub), so such a kernel is compiled again as an uncached copy
    for the same signatures, and the copy is inspected.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asm = kernel.inspect_asm()
    if asm and not any("disabled for cached code" in str(w.message) for w in caught):
        return asm
    import numba

    options = {k: v for k, v in getattr(kernel, "targetoptions", {}).items() if k != "cache"}
    options.pop("nopython", None)  # implied by njit, which warns if it is given
    copy = numba.njit(**options)(kernel.py_func)
    for sig in kernel.signatures:
        copy.compile(sig)
    return copy.inspect_asm()


def _code_check_key(entries: dict[str, tuple[object, list[str]]]) -> str:
    """Hash of everything that decides the machine code: sources, signatures, toolchain, CPU."""
    import inspect

    from llvmlite import binding

    parts = [_machine.toolchain(), binding.get_host_cpu_name(), binding.get_host_cpu_features()]
    for name, (kernel, _) in sorted(entries.items()):
        try:
            source = inspect.getsource(kernel.py_func)
        except (OSError, TypeError):
            source = repr(kernel.py_func)
        parts += [name, source, repr(sorted(map(str, kernel.signatures)))]
    return hashlib.sha256("\x00".join(map(str, parts)).encode()).hexdigest()


def identical_code_groups(
    engines: Sequence[str], progress: Progress | None = None
) -> list[list[str]] | None:
    """Groups (two or more) of ``engines`` whose ECB kernels compiled identically.

    Uses ``numbades._table_kernels.KERNELS`` (engine name -> dispatcher, or a
    tuple holding it); returns None when the library does not expose it.  Only
    kernels already compiled are compared, so call this after the warm-up.  The
    answer is remembered in the user cache directory, keyed on the kernels'
    source, signatures, toolchain and CPU, because finding it may mean
    compiling every kernel again (see :func:`_kernel_asm`).
    """
    try:
        from ._table_kernels import KERNELS
    except ImportError:
        return None
    entries = {}
    for name in engines:
        kernel, names = _ecb_kernel(KERNELS.get(name))
        if kernel is not None and getattr(kernel, "signatures", None):
            entries[name] = (kernel, names)
    memo = _saved_choice.user_cache_dir() / "identical_code.json"
    key = _code_check_key(entries)
    try:
        saved = json.loads(memo.read_text())
        if saved.get("key") == key:
            return saved["groups"]
    except (OSError, ValueError, AttributeError, KeyError):
        pass
    by_code: dict[str, list[str]] = {}
    for i, (name, (kernel, names)) in enumerate(entries.items(), 1):
        if progress is not None:
            progress.update("opts: comparing machine code", f"[{i}/{len(entries)}] {name}")
        try:
            asm = _kernel_asm(kernel)
        except Exception:  # noqa: BLE001 - inspection is a note, never a failure
            asm = {}
        if not asm:
            continue
        text = "\n".join(normalise_asm(asm[sig], names) for sig in sorted(asm, key=str))
        by_code.setdefault(text, []).append(name)
    groups = [group for group in by_code.values() if len(group) > 1]
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        memo.write_text(json.dumps({"key": key, "groups": groups}))
    except OSError:
        pass
    return groups


# ---------------------------------------------------------------- measuring


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


def _make_call(variant: str, nbytes: int) -> tuple[Callable[[], object], Callable[[], np.ndarray]]:
    """A no-argument ECB encrypt of an ``nbytes`` buffer, and a way to read its output."""
    import numbades

    cipher = numbades.DES(KEY, variant=variant)
    src = np.arange(nbytes // 8, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    dst = np.empty_like(src)
    try:
        cipher.encrypt(src[:1], out=dst[:1])
    except TypeError:  # a library without out=: time the allocating call instead
        box = [dst]

        def call() -> object:
            box[0] = cipher.encrypt(src)
            return box[0]

        return call, lambda: box[0]

    def call_out() -> object:
        return cipher.encrypt(src, out=dst)

    return call_out, lambda: dst


def measure(
    engines: Sequence[str],
    nbytes: int,
    seconds: float,
    progress: Progress,
    label: str = "",
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
            call, output = _make_call(name, nbytes)
            call()
        except Exception as exc:  # noqa: BLE001 - reported in the notes
            results[name].error = f"{type(exc).__name__}: {exc}"
            continue
        results[name].compile_seconds = time.perf_counter() - start
        if reference is None:
            reference = output().copy()
        elif not np.array_equal(output(), reference):
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


# ---------------------------------------------------------------- report


def format_lines(prefix: str, ranked: Sequence[Result], marks: dict[str, list[int]]) -> list[str]:
    """options.txt lines, text left, figures right-aligned in two columns."""
    texts = []
    for res in ranked:
        words = [*variant_options(res.variant), *(f"[{n}]" for n in marks.get(res.variant, []))]
        texts.append(f"{prefix} - {' '.join(words)}".rstrip())
    blocks = [f"{round(r.blocks_per_second):,}" for r in ranked]
    kbytes = [f"{round(r.bytes_per_second / 1000)}k/s" for r in ranked]
    tw = max(map(len, texts), default=0)
    bw = max(map(len, blocks), default=0)
    kw = max(map(len, kbytes), default=0)
    return [
        f"{t:<{tw}}   {b:>{bw}} {k:>{kw}}" for t, b, k in zip(texts, blocks, kbytes, strict=True)
    ]


def _load_note(before: float | None, after: float | None) -> str:
    cpus = _machine.cpu_count()
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


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``opts``; 0 on success, 1 if an engine failed or disagreed."""
    import numbades

    problem = set_threads(args.threads)
    if problem:
        print(f"numbades opts: error: {problem}", file=sys.stderr)
        return 2
    engines = list(numbades.variants())
    progress = Progress(sys.stderr, enabled=not args.quiet)
    load_before = _machine.load_average()
    started = time.perf_counter()
    main = measure(engines, args.size, args.seconds, progress)
    per_class: dict[str, list[Result]] = {}
    if args.save:
        for cls, nbytes in _saved_choice.REPRESENTATIVE_SIZES.items():
            if nbytes == args.size:
                per_class[cls] = main
            else:
                per_class[cls] = measure(
                    engines, nbytes, args.seconds, progress, f" ({cls}, {format_size(nbytes)})"
                )
    groups = identical_code_groups(engines, progress)
    progress.done()
    load_after = _machine.load_average()
    wall = time.perf_counter() - started

    ok = sorted((r for r in main if r.error is None), key=lambda r: -r.blocks_per_second)
    failed = [r for r in main if r.error is not None]
    notes: list[str] = []
    marks: dict[str, list[int]] = {}

    def note(text: str, variants: Sequence[str] = ()) -> None:
        notes.append(text)
        for v in variants:
            marks.setdefault(v, []).append(len(notes))

    compile_total = sum(r.compile_seconds for r in main)
    note(
        f"ECB encryption of {format_size(args.size)} per call into a preallocated buffer, "
        f"{args.threads} thread(s); each engine timed for {args.seconds:g} s in {ROUNDS} "
        f"interleaved rounds, best round shown; k/s is 1000 bytes/s. Compilation and "
        f"warm-up ({compile_total:.1f} s in all) came first and is not in the figures."
    )
    if any(not variant_options(r.variant) for r in ok):
        note("The line with no options is the default loop, 4 rounds per iteration (`table`).")
    if groups is None:
        note("Identical-code check unavailable: this library does not expose its kernels.")
    elif not groups:
        note("No two table engines compiled to identical machine code.")
    for group in groups or []:
        note(f"{', '.join(group)} compiled to identical machine code.", group)
    note(_load_note(load_before, load_after))
    for res in failed:
        note(f"{res.variant} left out: {res.error}", [res.variant])
    choices = _fastest_per_class(per_class) if args.save else {}
    saved_path = None
    if choices:
        details = {
            cls: {r.variant: round(r.bytes_per_second) for r in res if r.rates}
            for cls, res in per_class.items()
        }
        saved_path = _saved_choice.save_choices(choices, details)
        picks = ", ".join(f"{cls} {v}" for cls, v in choices.items())
        note(f"Saved the fastest engine per size class to {saved_path}: {picks}.")

    prefix = _machine.line_prefix()
    if args.json:
        doc = {
            "machine": _machine.describe(),
            "settings": {
                "mode": "ecb",
                "size": args.size,
                "seconds": args.seconds,
                "threads": args.threads,
                "rounds": ROUNDS,
            },
            "wall_seconds": round(wall, 3),
            "results": [
                {
                    "variant": r.variant,
                    "options": list(variant_options(r.variant)),
                    "blocks_per_second": r.blocks_per_second,
                    "bytes_per_second": r.bytes_per_second,
                    "round_blocks_per_second": r.rates,
                    "compile_seconds": r.compile_seconds,
                    "error": r.error,
                    "notes": marks.get(r.variant, []),
                }
                for r in [*ok, *failed]
            ],
            "identical_code": groups,
            "saved": {"path": str(saved_path), "choices": choices} if saved_path else None,
            "notes": notes,
        }
        json.dump(doc, out, indent=2)
        out.write("\n")
    else:
        out.writelines(line + "\n" for line in format_lines(prefix, ok, marks))
        out.write("\nNotes.\n")
        out.writelines(f"[{i}] {text}\n" for i, text in enumerate(notes, 1))
    out.flush()
    if not args.quiet:
        print(f"opts: done in {wall:.1f} s", file=sys.stderr)
    return 1 if failed else 0
