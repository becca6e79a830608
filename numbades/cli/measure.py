"""Measuring helpers shared by the commands and the benchmark scripts.

Sizes and their parsing, positive-number argument types, a timed call loop,
Numba's thread count, a progress line on stderr, and the fixed key and IV
every measurement uses (so figures from different commands compare).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

#: Fixed measurement inputs: the key and IV values do not change a DES rate.
KEY8 = bytes.fromhex("0123456789abcdef")
KEY24 = bytes.fromhex("0123456789abcdef23456789abcdef01456789abcdef0123")
IV = bytes.fromhex("1234567890abcdef")

_SIZE_RE = re.compile(r"^\s*(\d+)\s*([kmg]?)(i?b?)\s*$", re.IGNORECASE)
_SCALE = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


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
    """argparse type converting with ``kind`` and requiring a finite value >= ``smallest``."""

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


def comma_names(text: str, choices: Sequence[str], what: str) -> list[str]:
    """argparse helper: a comma-separated list of ``what`` (plural noun), each one of ``choices``."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in choices]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown {what} {unknown or text!r}; choose from {', '.join(choices)}")
    return names


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


def rate(call: Callable[[], object] | None, units_per_call: int, seconds: float) -> float | None:
    """Units per second of ``call`` timed for ``seconds`` (None when there is no call)."""
    if call is None:
        return None
    calls, elapsed = time_calls(call, seconds)
    return calls * units_per_call / elapsed


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


#: Longest silence of a progress display: a "still ..." line comes after this many seconds.
HEARTBEAT_SECONDS = 5.0


class Progress:
    """A status display on stderr: one line rewritten in place on a terminal;
    elsewhere (logs, pipes) one plain line per update.

    Inside :meth:`heartbeat`, a thread adds a "still ..." line whenever nothing
    was written for ``every`` seconds, so a long compile never looks hung.
    """

    def __init__(self, stream: TextIO = sys.stderr, enabled: bool = True,
                 every: float = HEARTBEAT_SECONDS) -> None:
        self.stream = stream
        self.enabled = enabled
        self.tty = enabled and hasattr(stream, "isatty") and stream.isatty()
        self.every = every
        self._width = 0
        self._phase = ""
        self._text = ""
        self._lock = threading.Lock()
        self._last = time.monotonic()
        self._stills: list[Callable[[], str] | None] = []  # open heartbeat blocks

    def _write(self, text: str) -> None:
        """One status line (caller holds the lock)."""
        if self.tty:
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self._last = time.monotonic()

    def update(self, phase: str, detail: str = "") -> None:
        """Show ``phase`` and ``detail`` as the current status."""
        if not self.enabled:
            return
        text = f"{phase} {detail}".rstrip()
        with self._lock:
            if self.tty or text != self._text:
                self._write(text)
            self._phase, self._text = phase, text

    @contextlib.contextmanager
    def heartbeat(self, still: Callable[[], str] | None = None) -> Iterator[None]:
        """While the block runs, write ``"<command>: still <still()> (<s> s)"`` after each
        ``every`` seconds of silence (``still`` defaults to the current status).  Nested
        blocks share the outer one's thread, the innermost ``still`` speaking."""
        if not self.enabled:
            yield
            return
        self._stills.append(still)
        outermost = len(self._stills) == 1
        stop = threading.Event()
        thread = threading.Thread(target=self._beat, args=(stop, time.monotonic()),
                                  name="numbades-progress", daemon=True)
        if outermost:
            thread.start()
        try:
            yield
        finally:
            if outermost:
                stop.set()
                thread.join()
            self._stills.pop()

    def _beat(self, stop: threading.Event, started: float) -> None:
        while not stop.wait(min(1.0, self.every / 2)):
            with self._lock:
                if time.monotonic() - self._last < self.every:
                    continue
                command, _, status = self._text.partition(": ")
                still = self._stills[-1] if self._stills else None
                what = still() if still is not None else status
                self._write(f"{command or 'numbades'}: still {what} "
                            f"({time.monotonic() - started:.0f} s)")

    def done(self) -> None:
        """Clear the status line (terminal) before the report is printed."""
        with self._lock:
            if self.tty and self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
                self._width = 0
            self._phase = self._text = ""


def machine_line() -> str:
    """``<OS> - <CPU> <MHz> - <toolchain>``: where a measurement ran, as ``opts`` prints it."""
    from ..tuning.machine import line_prefix

    return line_prefix()
