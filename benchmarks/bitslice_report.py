#!/usr/bin/env python
"""What the bitslice engine does on this machine: ``python benchmarks/bitslice_report.py``.

Prints, each figure from this one run:

* **SIMD**: the vector registers and instructions LLVM emitted for the round
  code (``inspect_asm`` of the shared round kernel, compiled afresh):
  xmm/ymm/zmm, and whether ``vpternlogq`` (AVX-512's 3-input functions)
  appears; per iteration of the S-box loops, the vector logic operations and
  the vector stores and loads to the stack (register spills and reloads);
* **compile time**: a fresh process with an empty Numba cache, then one with
  the cache it filled (import, then one 4 KiB bitslice encryption);
* **where a pass goes**: the rounds alone against a whole ECB pass (the rest
  is transposes, IP/FP renaming, loads and stores); with the explicit
  512-bit round code (AVX-512), its vector logic operations per block, the
  two-vector-port limit they imply, and the share of it the rounds reach at
  this core's clock (estimated from a chain of dependent multiplications);
  beside it the limit this core really has, from a loop of ternary-logic
  and XOR instructions in the round code's proportions (Zen 4 issues
  512-bit ``vpternlogq`` at one per cycle, not two);
* **two-core scaling**: the engine on 2 threads (its pool of threads over
  the cached serial kernel) against 1, calls interleaved, median of the
  per-pair ratios; beside it, the machine's own ceiling: two processes, each
  on half the bytes, started together, against one alone;
* **modes**: CTR, CBC decryption and CFB decryption against ECB, DES and 3DES;
* **512-bit vectors** (AVX-512 hosts only): the kernels ask LLVM for 512-bit
  vectors (``numbades.engines.bitslice.cpu.vector_width``) where it would otherwise prefer 256;
  this builds the ECB kernel both ways in fresh processes with empty caches
  and times them, the two processes alternating, median of the per-pair
  ratios (the explicit 512-bit round code and passes are 512-bit either
  way: the preference now decides only the lane-loop code around them).

Timings are medians of ``--repeats`` calls on ``--size`` bytes.  The machine
should be otherwise idle for the scaling figure: a busy second core shows up
directly as a lower ratio.

Unlike the other benchmark scripts, this report reaches into the engine's own
modules (``numbades.engines.bitslice``) on purpose: a pass breakdown and the
assembly of the round kernel are about the engine's insides.  It is the one
documented exception to "benchmarks use the public API".
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable

if __name__ == "__main__":
    # Two Numba threads for the scaling figure; must be set before numba loads.
    os.environ.setdefault("NUMBA_NUM_THREADS", str(min(2, os.cpu_count() or 1)))

import numba
import numpy as np
from benchmarks.bench_compile import cold_then_warm
from llvmlite import binding as llvm

import numbades
from benchmarks import interleaved, seconds  # the asv suite's helpers, beside this script
from numbades.cli.measure import KEY24, format_size, parse_size
from numbades.des import keyschedule as _keyschedule
from numbades.engines.bitslice.cpu import target as _target
from numbades.engines.bitslice.cpu import vector_width as _vector_width
from numbades.engines.bitslice.cpu.simd import LANES_PER_VECTOR
from numbades.engines.bitslice.engine import ENGINE
from numbades.engines.bitslice.layout import transpose as _bitslice_transpose
from numbades.engines.bitslice.layout.prefetch import NOTHING_AHEAD
from numbades.engines.bitslice.rounds import lane_rounds as _bitslice
from numbades.engines.bitslice.sboxes import dispatch as _dispatch
from numbades.engines.bitslice.sboxes import sbox_circuits_gen as _sbox_gates
from numbades.engines.bitslice.sboxes import sbox_folded_gen as _sbox_folded
from numbades.engines.bitslice.sboxes import sbox_luts_gen as _sbox_luts
from numbades.tuning import machine as _machine

KEY = bytes.fromhex("133457799bbcdff1")
MiB = 1024 * 1024


# ---------------------------------------------------------------- SIMD


def round_asm() -> str:
    """The assembly of the shared round kernel, compiled afresh here (a copy without
    ``cache=True``: a kernel loaded from Numba's cache has no assembly to inspect)."""
    fresh = numba.njit(nogil=True)(_bitslice.crypt_work.py_func)
    work = np.zeros(64 * _bitslice.LANES, np.uint64)
    fresh(work, _bitslice.key_planes(_keyschedule.round_keys48(KEY)), NOTHING_AHEAD)
    return "\n".join(fresh.inspect_asm().values())


def simd_counts(asm: str | None = None) -> tuple[dict[str, int], collections.Counter[str]]:
    """Vector register references and vector instruction counts of the round code
    (``asm``, by default :func:`round_asm`)."""
    asm = round_asm() if asm is None else asm
    ops = collections.Counter(m.group(1) for m in re.finditer(r"^\s+(v\w+)\s", asm, re.MULTILINE))
    regs = {r: asm.count(f"%{r}") for r in ("xmm", "ymm", "zmm")}
    return regs, ops


#: Vector logic in either domain: LLVM may pick the floating-point forms
#: (``vxorps``, ``vandnps``, ...), the same operation on the same ports.
_LOGIC = re.compile(r"\s+v(?:p(?:and|andn|or|xor|ternlog)[dq]?|(?:and|andn|or|xor)p[sd])\s")
_TO_STACK = re.compile(r"mm\d+, -?\d*\(%rsp\)")


def sbox_loops(asm: str) -> list[tuple[int, int, int]]:
    """(vector logic operations, vector stores to the stack, vector loads from it) per
    iteration of each S-box loop: an aligned block ending in a branch back to its start,
    with no other branch and at least 16 logic operations (the rounds' only such loops)."""
    lines = asm.splitlines()
    starts = {line[:-1]: i for i, line in enumerate(lines)
              if line.startswith(".LBB") and line.endswith(":") and ".p2align" in lines[i - 1]}
    loops = []
    for i, line in enumerate(lines):
        jump = re.match(r"\s+j\w+\s+(\.LBB\w+)$", line)
        if not jump or starts.get(jump.group(1), i) >= i:
            continue
        body = [x for x in lines[starts[jump.group(1)]:i] if x.startswith("\t")
                and not x.lstrip().startswith(".")]
        logic = sum(1 for x in body if _LOGIC.match(x))
        if logic < 16 or any(x.lstrip().startswith("j") for x in body):
            continue
        stack = [x for x in body if "(%rsp)" in x and "mm" in x]
        stores = sum(1 for x in stack if _TO_STACK.search(x))
        loops.append((logic, stores, len(stack) - stores))
    return loops


def sbox_loop_reading(asm: str) -> str:
    """The S-box loops' vector logic operations and stack traffic per iteration, averaged."""
    loops = sbox_loops(asm)
    if not loops:
        return "S-box loops: none found in the assembly"
    n = len(loops)
    logic, stores, loads = (sum(loop[k] for loop in loops) / n for k in range(3))
    return (f"S-box loops: {n}, per iteration {logic:.1f} vector logic operations, "
            f"{stores:.2f} vector stores to the stack (spills), {loads:.2f} loads from it "
            "(reloads: spilled values, loop-invariant key masks)")


def simd_reading() -> list[str]:
    """Vector register use, the commonest vector instructions and the S-box loops of the round code."""
    asm = round_asm()
    regs, ops = simd_counts(asm)
    top = ", ".join(f"{op} {n}" for op, n in ops.most_common(6))
    return [
        (
            f"LLVM host cpu {llvm.get_host_cpu_name()}; LANES = {_bitslice.LANES} "
            f"({64 * _bitslice.LANES} blocks per pass)"
        ),
        "register references: " + ", ".join(f"{r} {n}" for r, n in regs.items()),
        f"vpternlogq: {ops.get('vpternlogq', 0)}; commonest vector instructions: {top}",
        f"S-box circuits: {_circuits_reading()}",
        sbox_loop_reading(asm),
    ]


def _circuits_reading() -> str:
    """Which generated circuit set the kernels run here, and its size per S-box."""
    chosen = _dispatch.circuits()
    if chosen is _sbox_luts:
        return f"3-input LUTs (sbox_luts_gen), {_sbox_luts.AVERAGE} per S-box"
    return (f"2-input gates (sbox_circuits_gen), {_sbox_gates.AVERAGE_GATES} per S-box; under one "
            f"key and in crypt(3) without their NOTs (sbox_folded_gen), "
            f"{_sbox_folded.AVERAGE_GATES} per S-box")


# ---------------------------------------------------------------- compile time

def compile_times() -> list[str]:
    """Import and first bitslice call in fresh processes, cold then warm cache."""
    return [
        f"{state} cache: import {t['import']:.2f} s, first bitslice encrypt "
        f"{t['first_encrypt']:.2f} s"
        for state, t in cold_then_warm("bitslice").items()
    ]


# ---------------------------------------------------------------- pass breakdown


@numba.njit(nogil=True)
def _rounds_only(work, kplanes, passes):
    """The rounds of ``passes`` ECB passes on one work array, without their transposes."""
    for _ in range(passes):
        _bitslice.crypt_work(work, kplanes, NOTHING_AHEAD)


@numba.njit(nogil=True)
def _imul_chain(n, x):
    """n dependent 64-bit multiplications: 3 cycles each on current x86-64 cores."""
    for _ in range(n):
        x = x * x
    return x


def clock_ghz(repeats: int = 5) -> float:
    """This core's clock, from a chain of dependent multiplications (latency 3 cycles)."""
    n = 100_000_000
    _imul_chain(10, np.uint64(3))
    best = min(seconds(lambda: _imul_chain(n, np.uint64(3))) for _ in range(repeats))
    return 3 * n / best / 1e9


#: Accumulators of the logic-throughput loop: enough independent chains that
#: latency never limits it.
_CHAINS = 16


def _logic_loop(ternaries: int, xors: int) -> Callable:
    """A compiled loop whose body is ``ternaries`` ``vpternlogq`` and ``xors`` ``vpxorq``
    on explicit 512-bit vectors, spread evenly over ``_CHAINS`` accumulators.

    Every accumulator is read by several operations, so LLVM cannot fuse two
    XORs into one ternary-logic instruction (it does so for single-use XORs).
    """
    total = ternaries + xors
    body = []
    for k in range(total):
        a, b, c = (f"a{(k + d) % _CHAINS}" for d in (0, 1, 5))
        is_xor = (k + 1) * xors // total > k * xors // total
        body.append(f"        {a} = xor({a}, {b})" if is_xor else f"        {a} = ternary({a}, {b}, {c}, 0x96)")
    from numbades.engines.bitslice.cpu.simd import ternary, xor

    return _compiled_loop(body, 8, {"ternary": ternary, "xor": xor})


def _compiled_loop(body: list[str], step: int, names: dict) -> Callable:
    """``loop(w, n)``: ``_CHAINS`` vectors loaded from ``w`` (``step`` words apart), ``body``
    (lines over ``a0``, ``a1``, ...) run ``n`` times on them, the vectors stored back."""
    from numbades.engines.bitslice.cpu.simd import load, store

    chains = ", ".join(f"a{i}" for i in range(_CHAINS))
    loads = ", ".join(f"load(w, {step * i})" for i in range(_CHAINS))
    source = "\n".join([
        "def loop(w, n):",
        f"    {chains} = {loads}",
        "    for _ in range(n):",
        *body,
        *(f"    store(w, {step * i}, a{i})" for i in range(_CHAINS)),
    ])
    scope = {"load": load, "store": store, **names}
    exec(source, scope)  # noqa: S102 - a loop body of our own making
    return numba.njit(nogil=True)(scope["loop"])


def logic_ops_per_cycle(ternaries: int, others: int, ghz: float, repeats: int = 5) -> float:
    """Vector logic operations per cycle this core sustains at the round code's mix.

    A loop of 32 operations, ternary logic and XORs in the proportion
    ``ternaries : others``, timed at ``ghz``.  Cores differ here: Intel's
    server cores issue 512-bit ``vpternlogq`` and ``vpxorq`` alike on two
    ports; AMD's Zen 4 splits 512-bit operations in two and issues
    ``vpternlogq`` at half the rate of ``vpxorq``.
    """
    xors = round(32 * others / (ternaries + others))
    loop = _logic_loop(32 - xors, xors)
    words = np.arange(8 * _CHAINS, dtype=np.uint64)
    n = 2_000_000
    loop(words, 10)
    best = min(seconds(lambda: loop(words, n)) for _ in range(repeats))
    return 32 * n / (best * ghz * 1e9)


def _gate_loop() -> tuple[Callable, int]:
    """A compiled loop of 2-input gates (``^ & |``) on explicit vectors over ``_CHAINS``
    accumulators, and its vector logic operations per iteration (counted in its assembly)."""
    body = []
    for k in range(48):
        a, b, c = (f"a{(k + d) % _CHAINS}" for d in (0, 1, 5))
        op = {0: "^", 2: "|", 3: "^"}.get(k % 4)
        body.append(f"        {a} = ({a} & {b}) ^ {c}" if op is None else f"        {a} = {a} {op} {b}")
    loop = _compiled_loop(body, LANES_PER_VECTOR, {})
    loop(np.arange(LANES_PER_VECTOR * _CHAINS, dtype=np.uint64), 10)
    asm = "\n".join(loop.inspect_asm().values())
    found = [ops for ops, _, _ in sbox_loops(asm)]
    return loop, found[0] if found else 0


def seconds_per_gate(repeats: int = 5) -> float:
    """Seconds per vector logic operation this core sustains on independent 2-input gates."""
    loop, ops = _gate_loop()
    words = np.arange(LANES_PER_VECTOR * _CHAINS, dtype=np.uint64)
    n = 2_000_000
    return min(seconds(lambda: loop(words, n)) for _ in range(repeats)) / (n * ops)


def pass_breakdown(nbytes: int, repeats: int) -> list[str]:
    """Shares of one ECB pass: the rounds, and everything else (transposes, loads, stores)."""
    passes = max(1, nbytes // (8 * _bitslice_transpose.BLOCKS))
    src = np.zeros(passes * _bitslice_transpose.BLOCKS, np.uint64)
    work = _bitslice_transpose.new_work()
    kp = _bitslice.key_planes(_keyschedule.round_keys48(KEY))
    calls = {
        "ecb": lambda: _bitslice.ecb(src, src, kp, True),
        "rounds": lambda: _rounds_only(work, kp, passes),
    }
    times = interleaved(calls, repeats)
    whole, rounds = times["ecb"], times["rounds"]
    blocks = passes * _bitslice_transpose.BLOCKS
    lines = [
        f"per pass of {_bitslice_transpose.BLOCKS} blocks: whole {whole / passes * 1e6:.1f} us",
        (
            f"rounds {rounds / whole:.0%}, the rest (transposes, IP/FP renaming, loads and "
            f"stores) {(whole - rounds) / whole:.0%}"
        ),
    ]
    # the one-key rounds run as simd_rounds on every target: each box's loop runs once
    # per 64 * LANES_PER_VECTOR blocks, so the static logic instructions of the
    # two-round body, times 8 bodies, are the work of that many blocks
    _, ops = simd_counts()
    ternaries = ops.get("vpternlogq", 0)
    gates = ("vpxorq", "vpandq", "vporq", "vpandnq") if _target.AVX512 else (
        "vpxor", "vpand", "vpor", "vpandn", "vxorps", "vandps", "vorps", "vandnps")
    logic = ternaries + sum(ops.get(op, 0) for op in gates)
    step = 64 * LANES_PER_VECTOR
    per_block = logic * 8 / step
    ghz = clock_ghz()
    cycles = rounds / blocks * ghz * 1e9
    lines.append(
        f"round code: {logic} vector logic ops ({ternaries} vpternlogq) per two rounds of "
        f"{step} blocks = {per_block:.2f} per block; measured {cycles:.2f} cycles per block "
        f"at {ghz:.2f} GHz (clock from a multiply chain)"
    )
    if not _target.AVX512:
        # 256-bit logic issues on three ports on Intel cores (p0, p1, p5), four on AMD Zen
        lines.append(
            f"vector ALU ports: >= {per_block / 3:.2f} cycles per block on three "
            f"(Intel), {per_block / 3 / cycles:.0%} of that limit reached; >= "
            f"{per_block / 4:.2f} on four (AMD Zen), {per_block / 4 / cycles:.0%} reached"
        )
        # the same without the clock: time per logic operation, rounds against a loop
        # of independent gates (which no dependency chain or load holds back)
        gate = seconds_per_gate()
        lines.append(
            f"this core's own limit: {1 / (gate * ghz * 1e9):.2f} logic ops per cycle on "
            f"independent 2-input gates; the rounds reach {gate * per_block * blocks / rounds:.0%} "
            "of its rate (time per operation, no clock needed)"
        )
    if _target.AVX512:
        rate = logic_ops_per_cycle(ternaries, logic - ternaries, ghz)
        lines.append(
            f"two vector ports: >= {per_block / 2:.2f} cycles per block, "
            f"{per_block / 2 / cycles:.0%} of that limit reached; this core measured "
            f"{rate:.2f} logic ops per cycle at the round code's mix: >= "
            f"{per_block / rate:.2f} cycles per block, {per_block / rate / cycles:.0%} reached"
        )
    return lines


# ---------------------------------------------------------------- scaling


def scaling(nbytes: int, repeats: int) -> list[str]:
    """The engine on 2 threads (its thread pool over the cached kernel) against 1, interleaved."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        return ["only one Numba thread available (NUMBA_NUM_THREADS / CPU count)"]
    x = np.zeros(nbytes // 8, np.uint64)
    kp = _bitslice.key_planes(_keyschedule.round_keys48(KEY))

    def serial() -> None:
        numba.set_num_threads(1)
        ENGINE.ecb(x, x, kp, True)

    def parallel() -> None:
        numba.set_num_threads(2)
        ENGINE.ecb(x, x, kp, True)

    serial(), parallel()
    pairs = [(seconds(serial), seconds(parallel)) for _ in range(repeats)]
    ratios = sorted(s / p for s, p in pairs)
    one = statistics.median(s for s, _ in pairs)
    two = statistics.median(p for _, p in pairs)
    load = _machine.load_average()
    return [
        f"1 thread {nbytes / one / 1e6:,.0f} MB/s, 2 threads {nbytes / two / 1e6:,.0f} MB/s",
        (
            f"2-thread / 1-thread: median {statistics.median(ratios):.2f} "
            f"(range {ratios[0]:.2f}-{ratios[-1]:.2f}; load average {load})"
        ),
        process_pair_ceiling(nbytes, repeats),
    ]


def pair_worker(nbytes: int, repeats: int) -> float:
    """In a worker process: serial ECB on ``nbytes``, ``repeats`` calls; seconds.

    Says "ready" once the kernel is loaded and waits for a line on stdin, so
    the workers of a pair start together.
    """
    numba.set_num_threads(1)
    x = np.zeros(nbytes // 8, np.uint64)
    kp = _bitslice.key_planes(_keyschedule.round_keys48(KEY))
    _bitslice.ecb(x, x, kp, True)
    print("ready", flush=True)
    sys.stdin.readline()
    return sum(seconds(lambda: _bitslice.ecb(x, x, kp, True)) for _ in range(repeats))


def process_pair_ceiling(nbytes: int, repeats: int, rounds: int = 3) -> str:
    """What this machine allows two cores: two processes at once against one alone.

    Each process runs the serial kernel on half the bytes, sharing nothing;
    their slowdown together (memory bandwidth, shared caches, a busy or
    throttled second core) bounds any two-thread ratio, so the thread figure
    above reads against this one.
    """

    def run(count: int) -> list[float]:
        procs = [
            subprocess.Popen(
                [sys.executable, __file__, "--pair-worker", "--size", str(nbytes // 2),
                 "--repeats", str(repeats)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            for _ in range(count)
        ]
        for p in procs:  # every worker has its kernel loaded ...
            if p.stdout.readline().strip() != "ready":
                raise RuntimeError("a pair worker failed to start")
        for p in procs:  # ... before any starts timing
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = [p.communicate()[0] for p in procs]
        if any(p.returncode for p in procs):
            raise RuntimeError("a pair worker failed")
        return [float(out.splitlines()[-1]) for out in outs]

    ratios = []
    for _ in range(rounds):
        alone = run(1)[0]
        together = max(run(2))
        ratios.append(2 * alone / together)
    ratios.sort()
    return (
        f"two processes, half the bytes each, together against one alone (the machine's "
        f"ceiling): {statistics.median(ratios):.2f} (range {ratios[0]:.2f}-{ratios[-1]:.2f}, "
        f"{rounds} rounds)"
    )


# ---------------------------------------------------------------- modes


def mode_ratios(nbytes: int, repeats: int) -> list[str]:
    """Bitslice modes against DES-ECB per round, one thread, as users call them.

    The variant is named (not ``auto``), so nothing is timed on a table engine
    while the bitslice kernels still compile in the background.  A ratio is
    DES-ECB's time per round over the mode's (3DES does three times the
    rounds per block), so 1.00 means "as cheap per round as ECB".
    """
    numba.set_num_threads(1)
    x = np.zeros(nbytes, np.uint8)
    iv = bytes(8)
    des = numbades.DES(KEY, "bitslice")
    tdes = numbades.TripleDES(KEY24, "bitslice")
    calls: dict[str, Callable[[], object]] = {}
    for name, c in (("DES", des), ("3DES", tdes)):
        calls[f"{name} ecb"] = lambda c=c: c.encrypt(x, out=x)
        calls[f"{name} ctr"] = lambda c=c: c.encrypt(x, "ctr", iv=iv, out=x)
        calls[f"{name} cbc-decrypt"] = lambda c=c: c.decrypt(x, "cbc", iv=iv, out=x)
        calls[f"{name} cfb-decrypt"] = lambda c=c: c.decrypt(x, "cfb", iv=iv, out=x)
    times = interleaved(calls, repeats)
    ecb = times["DES ecb"]
    lines = [f"DES-ECB {nbytes / ecb / 1e6:,.0f} MB/s; per round against it:"]
    for name, rounds in (("DES", 1), ("3DES", 3)):
        lines.append(
            f"{name}: "
            + ", ".join(
                f"{k.split()[1]} {ecb * rounds / t:.2f}x"
                for k, t in times.items()
                if k.startswith(name + " ") and k != "DES ecb"
            )
        )
    return lines


# ---------------------------------------------------------------- 512-bit vectors


def ecb_worker(nbytes: int, repeats: int, bits: int) -> dict[str, object]:
    """In a fresh worker process: build with ``bits``-wide vectors, time serial ECB."""
    _vector_width.PREFERRED_BITS = bits  # before anything compiles (empty cache dir)
    numba.set_num_threads(1)
    x = np.zeros(nbytes // 8, np.uint64)
    kp = _bitslice.key_planes(_keyschedule.round_keys48(KEY))
    _bitslice.ecb(x, x, kp, True)
    best = statistics.median(seconds(lambda: _bitslice.ecb(x, x, kp, True)) for _ in range(repeats))
    regs, ops = simd_counts()
    return {"mbps": nbytes / best / 1e6, "vpternlogq": ops.get("vpternlogq", 0), **regs}


def wide_vectors(nbytes: int, repeats: int, rounds: int = 3) -> list[str]:
    """The shipped 512-bit build against a 256-bit build, alternating processes."""
    if not _machine.has_avx512():
        return ["no AVX-512 on this host: the width preference changes nothing"]
    builds = {"256-bit": 256, "512-bit (shipped)": 512}
    results: dict[str, list[dict]] = {k: [] for k in builds}
    with tempfile.TemporaryDirectory(prefix="numbades-wide-") as cache:
        for _ in range(rounds):
            for name, bits in builds.items():
                env = {**os.environ, "NUMBA_CACHE_DIR": f"{cache}/{bits}"}
                out = subprocess.run(
                    [sys.executable, __file__, "--ecb-worker", str(bits), "--size", str(nbytes),
                     "--repeats", str(repeats)],
                    env=env, capture_output=True, text=True, check=True,
                )
                results[name].append(json.loads(out.stdout.splitlines()[-1]))
    lines = []
    for name, runs in results.items():
        r = runs[0]
        mbps = statistics.median(run["mbps"] for run in runs)
        lines.append(
            f"{name}: {mbps:,.0f} MB/s; ymm {r['ymm']}, zmm {r['zmm']}, vpternlogq {r['vpternlogq']}"
        )
    narrow, wide = results.values()
    ratios = sorted(w["mbps"] / n["mbps"] for n, w in zip(narrow, wide, strict=True))
    lines.append(
        f"512-bit / 256-bit: median {statistics.median(ratios):.2f} "
        f"(range {ratios[0]:.2f}-{ratios[-1]:.2f}, {rounds} alternating pairs)"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=parse_size, default=32 * MiB)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument(
        "--skip-compile",
        action="store_true",
        help="skip the sections that compile in fresh processes (compile time, 512-bit vectors)",
    )
    parser.add_argument("--ecb-worker", type=int, metavar="BITS", help=argparse.SUPPRESS)
    parser.add_argument("--pair-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.ecb_worker:
        print(json.dumps(ecb_worker(args.size, args.repeats, args.ecb_worker)))
        return 0
    if args.pair_worker:
        print(pair_worker(args.size, args.repeats))
        return 0
    print(f"numbades bitslice report - {_machine.line_prefix()}")
    print(f"{format_size(args.size)} per call, median of {args.repeats}")
    sections = [
        ("SIMD", lambda: simd_reading()),
        ("Compile time (fresh processes)", None if args.skip_compile else compile_times),
        ("One ECB pass, one thread", lambda: pass_breakdown(args.size, args.repeats)),
        ("Two-core scaling", lambda: scaling(args.size, args.repeats)),
        ("Modes against ECB, one thread", lambda: mode_ratios(args.size // 4, args.repeats)),
        (
            "512-bit vectors (fresh processes, one thread)",
            None if args.skip_compile else lambda: wide_vectors(args.size, args.repeats),
        ),
    ]
    for title, make in sections:
        if make is None:
            continue
        print(f"\n{title}:")
        for line in make():
            print(f"  {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
