"""Getting compiled kernels ready: in the background for ``auto``, up front for ``numbades compile``.

A cold Numba cache makes the first call of a slow-to-compile engine (the
bitslice kernels: tens of seconds) wait for the compiler.  ``auto`` does not
make a caller wait: when the engine it would pick is not ready
(:meth:`Engine.ready`: neither compiled in this process nor in Numba's disk
cache), it serves the call with the default table variant (about a second
to compile, or already cached) and starts **one child process** that
compiles the slow engine into Numba's disk cache
(``python -m numbades.tuning.warmup bitslice``), kernel group by kernel
group, the group the call needed first.  One per machine, not one
per process: the child holds an exclusive lock on a file in numbades's user
cache directory (named for the engine, the Python and ``NUMBA_CACHE_DIR``),
and a process that finds the lock held starts nothing and keeps serving
with the table variant, so a pool of fresh processes on a cold cache
compiles once instead of once each.  The window closes kernel by kernel:
while the child runs, a call asks (at most every ``RECHECK_SECONDS``)
whether the kernel it needs is in the cache yet, and once it is, loads it
and ``auto`` uses it, while the child goes on with the other groups.  Results are identical whichever engine serves (every engine computes
the same function); forced engines (``variant="bitslice"``) compile on
demand, as before.

``NUMBADES_BACKGROUND_COMPILE=0`` turns this off (``auto`` then compiles in
the foreground, on the first call that needs the engine); the child itself
runs with it off.  ``python -m numbades compile`` fills the cache up front
(Docker images, CI, cluster workers), using several processes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

from ..des.keyschedule import round_keys48
from ..engines import chains
from ..engines.registry import DEFAULT_TABLE_VARIANT, ENGINES
from .saved_choice import user_cache_dir

try:
    import fcntl
except ImportError:  # Windows: no advisory locks, one child per process as a fallback
    fcntl = None  # type: ignore[assignment]

ENV_BACKGROUND = "NUMBADES_BACKGROUND_COMPILE"

#: While a compile runs, how often a call asks again whether its kernel is cached (each
#: ask reads the kernel's cache index; seconds).
RECHECK_SECONDS = 0.2

_children: dict[str, subprocess.Popen] = {}
_lock = threading.Lock()
#: (engine, what) -> when a call last found that kernel not ready while a compile ran.
_last_miss: dict[tuple[str, object], float] = {}


def background_enabled() -> bool:
    """Whether ``auto`` may compile slow engines in a child process (default: yes)."""
    return os.environ.get(ENV_BACKGROUND, "1").strip().lower() not in ("0", "false", "no", "off")


def ready_or_started(name: str, chain: int,
                     ready: Callable[[], bool] | None = None, first: str | None = None,
                     *, aside: bool = False) -> bool:
    """True if engine ``name`` can serve ``chain`` now without compiling in the foreground.

    Otherwise (a slow engine, not compiled, background compiles on) makes
    sure one child is compiling it and returns False: the caller serves this
    call with another engine.  ``ready`` replaces ``engine.ready(chain)`` for
    work outside the ``Engine`` protocol (key arrays, crypt(3)); the child
    compiles every kernel group of the engine either way, ``first`` (a group
    name of :func:`engine_groups`) before the others.  While a compile runs
    (this process's child or another's), the kernel counts as ready as soon
    as it is in the cache: asked at most every ``RECHECK_SECONDS``.  ``aside=True``
    does the same for a quick engine (the default table variant's first calls).
    """
    engine = ENGINES[name]
    if not (engine.slow_to_compile or aside) or not background_enabled():
        return True
    is_ready = (lambda: engine.ready(chain)) if ready is None else ready
    what = (chain, getattr(ready, "__name__", None))
    with _lock:
        child = _children.get(name)
        if child is not None and child.poll() is None:
            return _ready_while_compiling(name, what, is_ready)
        if is_ready():
            return True
        if child is not None and child.returncode != 0:
            return True  # the child failed: compile here, so the error surfaces
        claim = claim_compile_lock(name)
        if claim is None:  # another process's child is compiling it
            return _ready_while_compiling(name, what, is_ready)
        try:
            _children[name] = subprocess.Popen(
                [sys.executable, "-m", "numbades.tuning.warmup", name,
                 *(() if first is None else ("--first", first))],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env={**os.environ, ENV_BACKGROUND: "0"}, start_new_session=True,
                pass_fds=() if claim < 0 else (claim,),  # the child holds the lock until it exits
            )
        finally:
            if claim >= 0:
                os.close(claim)
        _last_miss[name, what] = time.monotonic()
        return False


def _ready_while_compiling(name: str, what: object, is_ready: Callable[[], bool]) -> bool:
    """``is_ready()`` while a compile of ``name`` runs, asked again only ``RECHECK_SECONDS``
    after the last miss (the caller holds ``_lock``)."""
    now = time.monotonic()
    last = _last_miss.get((name, what))
    if last is not None and now - last < RECHECK_SECONDS:
        return False
    if is_ready():
        _last_miss.pop((name, what), None)
        return True
    _last_miss[name, what] = now
    return False


def _table_compiling_aside() -> bool:
    """The default table variant's :attr:`TableEngine.compiling_aside`: compiling in a child?

    Once this process's child has ended, no: a kernel still not cached then
    (an unwritable cache, a failed child) compiles in the foreground.
    """
    child = _children.get(DEFAULT_TABLE_VARIANT)
    if child is not None and child.poll() is not None:
        return False
    return not ready_or_started(DEFAULT_TABLE_VARIANT, chains.ECB_ENCRYPT, lambda: False,
                                aside=True)


ENGINES[DEFAULT_TABLE_VARIANT].compiling_aside = _table_compiling_aside


def compile_lock_path(name: str) -> Path:
    """The lock file a background compile of engine ``name`` holds while it runs.

    Named for what the compile fills: the engine, this Python and Numba's
    cache location (``NUMBA_CACHE_DIR``, else the package's own directory).
    """
    where = "\0".join([name, sys.executable, os.environ.get("NUMBA_CACHE_DIR", ""),
                        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))])
    digest = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return user_cache_dir() / f"compiling-{name}-{digest}.lock"


def claim_compile_lock(name: str) -> int | None:
    """An open descriptor holding the exclusive lock for compiling ``name``, or None if held.

    The lock belongs to the open file, so a child given the descriptor keeps
    it after this process closes its copy, and the system drops it when the
    child exits, however it ends.  Where locks are unavailable (no
    ``fcntl``, an unwritable cache directory) returns -1: start the child
    without one, as a process on its own would.
    """
    if fcntl is None:
        return -1
    try:
        path = compile_lock_path(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return -1
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:
        os.close(fd)
        return -1
    return fd


def wait_for_background(timeout: float | None = None) -> None:
    """Wait until every background compile this process started has finished (tests, scripts)."""
    with _lock:
        children = list(_children.values())
    for child in children:
        child.wait(timeout)


#: (engine, kernel group) -> (wall seconds, CPU seconds of this process) of its compile.
GroupTimes = dict[tuple[str, str], tuple[float, float]]


def engine_groups(name: str, first: str | None = None) -> list[tuple[str, Callable[[], None]]]:
    """Engine ``name``'s kernel groups in compile order (``compile_groups``), else one group;
    the group named ``first`` (if it is one) moved to the front."""
    engine = ENGINES[name]
    groups = getattr(engine, "compile_groups", None)
    found = groups() if groups is not None else [("all", engine.warm_up)]
    return sorted(found, key=lambda group: group[0] != first)  # stable: the rest keep their order


def warm_up(names: Sequence[str], groups: GroupTimes | None = None,
            first: str | None = None, only: Sequence[str] | None = None) -> dict[str, float]:
    """Compile (or load) the kernels of each named engine here; seconds per engine.

    The key schedule every cipher object runs comes first, counted in the
    first engine's time.  ``groups``, if given, receives the wall and CPU
    seconds of each engine's kernel groups (:func:`engine_groups`); CPU
    seconds are this process's, so they hold on a loaded machine where wall
    seconds do not.  ``first``: a kernel group compiled before the others (``engine_groups``);
    ``only``: just these groups (a part of ``compile_parts``).
    """
    seconds = {}
    start = time.perf_counter()
    round_keys48(bytes(8))
    for name in names:
        for group, compile_group in engine_groups(name, first):
            if only is not None and group not in only:
                continue
            wall, cpu = time.perf_counter(), time.process_time()
            compile_group()
            if groups is not None:
                groups[name, group] = (time.perf_counter() - wall, time.process_time() - cpu)
        seconds[name] = time.perf_counter() - start
        start = time.perf_counter()
    return seconds


def kernel_timers() -> dict[str, tuple[float, float]]:
    """Numba's compile timers of every kernel compiled in this process, by qualified name.

    (all seconds, LLVM seconds), summed over signatures; LLVM's share is the
    optimisation and code generation, the rest Numba's typing and lowering.
    A kernel's figures include the helpers it compiled on the way (Numba's
    timers are inclusive); kernels loaded from the cache have none.
    """
    from numba.core.registry import CPUDispatcher

    timers: dict[str, tuple[float, float]] = {}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("numbades.") or module is None:
            continue
        for obj in vars(module).values():
            if not isinstance(obj, CPUDispatcher) or not obj.signatures:
                continue
            name = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"
            total = llvm = 0.0
            for signature in obj.signatures:
                found = (obj.get_metadata(signature) or {}).get("timers") or {}
                total += found.get("compiler_lock", 0.0)
                llvm += found.get("llvm_lock", 0.0)
            timers[name] = (total, llvm)
    return timers


def compile_parts(name: str, jobs: int) -> list[list[str] | None]:
    """The parts engine ``name`` compiles in, one process each: its ``compile_parts`` (group
    names) when ``jobs`` > 1 and it has them, else one part of every group (None)."""
    parts = getattr(ENGINES[name], "compile_parts", None)
    return parts() if jobs > 1 and parts is not None else [None]


#: A function a pool task runs after its engines (``numbades compile``'s helpers): its name
#: in the report, and the function (picklable, returning its seconds).
Then = tuple[str, Callable[[], float]]


def _warm_then(names: Sequence[str], only: Sequence[str] | None, then: Then | None
               ) -> tuple[dict[str, float], dict, GroupTimes]:
    """A pool task: :func:`warm_up` of ``names`` (the groups ``only``, if given), then
    ``then``'s function, whose seconds join the engines' under its name; also the
    :func:`kernel_timers` of what the task compiled (a pool process runs several) and
    the group times."""
    before = kernel_timers()
    groups: GroupTimes = {}
    seconds = warm_up(names, groups, only=only) if names else {}
    if then is not None:
        seconds[then[0]] = then[1]()
    timers = {kernel: found for kernel, found in kernel_timers().items()
              if before.get(kernel) != found}
    return seconds, timers, groups


Task = tuple[list[str], "list[str] | None", "Then | None"]


def pool_tasks(order: Sequence[str], jobs: int, then: Then | None) -> list[Task]:
    """The tasks of :func:`compile_all`'s pool, in submission order: (engines, part, then).

    The pool hands them out first come, first served, so the longest go
    first: the slow engines' first (biggest) parts; then ``then`` (``numbades
    compile``'s helpers: a quarter of the CPU time, mostly payments kernels),
    after the default table variant, whose kernels the helpers call (in the
    same task, so they compile once); then the slow engines' other parts;
    then the other table variants, which fill both processes till the end.
    """
    slow = [name for name in order if ENGINES[name].slow_to_compile]
    quick = [name for name in order if not ENGINES[name].slow_to_compile]
    parts = [(name, part) for name in slow for part in compile_parts(name, jobs)]
    tasks: list[Task] = [([name], part, None) for name, part in parts[:1]]
    if then is not None:
        host = [DEFAULT_TABLE_VARIANT] if DEFAULT_TABLE_VARIANT in quick else []
        tasks.append((host, None, then))
        quick = [name for name in quick if name not in host]
    tasks += [([name], part, None) for name, part in parts[1:]]
    tasks += [([name], None, None) for name in quick]
    return tasks


def compile_all(names: Sequence[str], jobs: int,
                progress: Callable[[str, float, int, int], None] | None = None,
                timers: dict[str, tuple[float, float]] | None = None,
                groups: GroupTimes | None = None, then: Then | None = None) -> dict[str, float]:
    """Warm every named engine, spread over ``jobs`` processes; seconds per engine.

    Slow engines go first, each in parts that compile side by side
    (:func:`compile_parts`; an engine's seconds are then its parts' summed),
    so the table variants fill the other processes meanwhile.  ``then``
    (name, function), if given, runs in the pool too (:func:`pool_tasks`), or
    last with one job; its seconds are returned under its name.
    ``progress(name, seconds, done, total)`` is called as each engine (and
    ``then``) finishes, in the order they finish; ``timers``, if given,
    collects every process's :func:`kernel_timers`, ``groups`` the times of
    every engine's kernel groups (:func:`warm_up`).
    """
    order = sorted(names, key=lambda n: not ENGINES[n].slow_to_compile)
    seconds: dict[str, float] = {}
    found_groups: GroupTimes = {}
    total = len(order) + (then is not None)

    def finished(name: str, spent: float) -> None:
        seconds[name] = spent
        if progress:
            progress(name, spent, len(seconds), total)

    if jobs <= 1:
        for name in order:
            finished(name, warm_up([name], found_groups)[name])
        if then is not None:
            finished(then[0], then[1]())
        if timers is not None:
            timers.update(kernel_timers())
    else:
        parts_left = {name: len(compile_parts(name, jobs)) for name in order}
        if then is not None:
            parts_left[then[0]] = 1
        spent = dict.fromkeys(parts_left, 0.0)
        # spawn, not fork: the parent may hold LLVM and thread-pool state a fork would copy
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(_warm_then, *task) for task in pool_tasks(order, jobs, then)]
            for future in as_completed(futures):  # report each engine as it finishes
                done, found, its_groups = future.result()
                found_groups.update(its_groups)
                if timers is not None:
                    for kernel, (all_s, llvm) in found.items():
                        old = timers.get(kernel, (0.0, 0.0))
                        timers[kernel] = (old[0] + all_s, old[1] + llvm)
                for name, its_seconds in done.items():
                    spent[name] += its_seconds
                    parts_left[name] -= 1
                    if parts_left[name] == 0:
                        finished(name, spent[name])
    if groups is not None:  # each engine's groups in its parts' order, whichever finished first
        rank = {(name, group): i for name in order
                for i, group in enumerate(g for part in compile_parts(name, jobs) if part
                                          for g in part)}
        groups.update(sorted(found_groups.items(), key=lambda item: rank.get(item[0], -1)))
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    """The background child: ``python -m numbades.tuning.warmup ENGINE... [--first GROUP]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    first = None
    if "--first" in args:
        at = args.index("--first")
        first = args[at + 1]
        del args[at:at + 2]
    warm_up(args, first=first)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
