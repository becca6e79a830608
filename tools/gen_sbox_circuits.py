"""Generate small Boolean circuits for the eight DES S-boxes (2-input gates).

The output, ``numbades/engines/bitslice/sboxes/sbox_circuits_gen.py``, holds one
straight-line function per S-box over AND, OR, XOR, ANDNOT (``x & ~y``) and
NOT, for the bitsliced kernel.  The synthesis (:mod:`tools.sbox_synth`) is
restarted over numbered attempts (:func:`attempt`), then polished by rip-up
and reroute (:func:`reroute`) and inner-node resynthesis (:func:`resynth`);
the circuits themselves are :mod:`tools.sbox_core`'s.  The default run
replays the recorded winners (:mod:`tools.sbox_records`) and rewrites the
committed module exactly; the searches only print what to record.  Everything is deterministic for a given
``--seed`` (independent of ``--jobs``).

The method in full, and every search run with its result:
``docs/sbox_search.md``.

Run: ``python -m tools.gen_sbox_circuits [--seed N] [--restarts N] [--jobs N]``
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tools import generated, stamp_kernel_sources
from tools.sbox_core import (
    FULL,
    Circuit,
    State,
    WindowStep,
    box_targets,
    evaluate,
    node_context,
    parse_boxes,
    prune,
    rebuild_node,
    rebuild_window,
    signature,
    state_of,
)
from tools.sbox_polarity import fix_polarity
from tools.sbox_records import GATE_BEST_ATTEMPTS, GATE_REROUTES, GATE_WINDOWS
from tools.sbox_synth import RESUB_PLATEAU, Params, resub, synth, synth_box_once


def apply_windows(
    box: int, circ: Circuit, steps: Sequence[WindowStep | tuple[int, int]]
) -> Circuit:
    """Apply recorded window rewrites in turn, each polarity-fixed, self-checked.

    A two-number step is a :func:`reroute` / :func:`resynth` step (as in
    :data:`GATE_REROUTES`) found by a search run after the window rewrites before it.
    """
    for step in steps:
        if len(step) == 2:
            circ = apply_reroutes(box, circ, (step,))  # type: ignore[arg-type]
        else:
            circ = fix_polarity(rebuild_window(circ, step))  # type: ignore[arg-type]
        assert evaluate(*circ) == box_targets(box)
    return circ















def reroute_order(oi: int) -> tuple[int, ...] | None:
    """Selector order number ``oi`` for :func:`reroute`: -1 is the free search,
    else ``PREFIXES[oi % 120]`` followed by the other inputs ascending (order
    numbers 120 and up repeat the prefixes with another rng, see
    :func:`reroute_variant`)."""
    if oi < 0:
        return None
    prefix = PREFIXES[oi % len(PREFIXES)]
    return prefix + tuple(x for x in range(6) if x not in prefix)


def reroute_variant(oi: int) -> int:
    """The rng variant of order number ``oi`` (0 for -1..119, 1 for 120..239, ...)."""
    return max(oi, 0) // len(PREFIXES)


def apply_reroutes(box: int, circ: Circuit, steps: Sequence[tuple[int, int]]) -> Circuit:
    """Apply recorded :func:`reroute` steps ``(output, order number)`` in turn
    (an "output" ``NODE_STEP + n`` is a :func:`resynth` of node ``n``)."""
    for k, oi in steps:
        if k >= NODE_STEP:
            circ = resynth(box, circ, k - NODE_STEP, oi)
        else:
            circ = reroute(box, circ, k, reroute_order(oi), reroute_variant(oi))
    return circ


#: Steps ``(NODE_STEP + n, order number)`` in :data:`GATE_REROUTES` are :func:`resynth`
#: of node ``n`` (node numbers of the circuit at that step, inputs 0..5).
NODE_STEP = 100


def resynth(box: int, circ: Circuit, n: int, oi: int) -> Circuit:
    """Rip up node ``n``'s maximum fan-out-free cone and rebuild the node with
    :func:`synth` under its observability don't-cares, over the nodes outside
    its fan-out and cone (like :func:`reroute`, but for an inner node, whose
    care set is usually smaller than all 64 inputs).  ``oi`` picks the selector
    order and rng variant as in :func:`reroute` (-1: free search).  The result
    is post-optimised by :func:`resub` and polarity-fixed."""
    ops, outs = circ
    vals, care, tfo, mffc = node_context(ops, outs, n)
    allowed = [i for i in range(len(ops)) if i not in tfo and i not in mffc]
    assert allowed[:6] == list(range(6))
    st = State()
    st.vals = [vals[i] for i in allowed]
    st.ops = [("ref", i, -1) for i in allowed]
    st.index = {}
    for k, v in enumerate(st.vals):
        st.index.setdefault(v, k)
    variant = reroute_variant(oi)
    widths, lib = reroute_params(variant)
    node_sel = variant >= NODE_VARIANT
    order = reroute_order(oi)
    if order is not None:
        params = Params(widths, order=order, lib_leaf=lib, node_sel=node_sel)
    else:
        params = Params((12, 2, 1), lib_leaf=lib, node_sel=node_sel)
    rng = random.Random(f"{box}:node{n}:{variant}")
    st, sig = synth(st, vals[n], care, tuple(range(6)), 0, params, rng)
    new = rebuild_node(ops, outs, n, allowed, st.ops, sig)
    new = fix_polarity(resub(new))
    assert evaluate(*new) == box_targets(box)
    return new


def search_resynth(
    box: int, circ: Circuit, orders: Sequence[int], min_cone: int = 2, plateau: int = 0
) -> tuple[Circuit, tuple[tuple[int, int], ...]]:
    """Greedy :func:`resynth`: over the gates whose cone has at least ``min_cone``
    gates (largest cones first), the order that shrinks the circuit most;
    repeated until no gate gives a gain.  Returns the circuit and the steps.
    With ``plateau`` > 0, up to that many times when nothing shrinks, the
    first equal-size rebuild to a circuit not met before is taken instead (as
    in :func:`search_reroutes`); the steps up to the smallest circuit met are
    returned."""
    steps: list[tuple[int, int]] = []
    best, best_steps = circ, ()
    seen = {signature(circ)}
    improved = True
    while improved:
        improved = False
        ops, outs = circ
        cones = []
        for n in range(6, len(ops)):
            cones.append((-len(node_context(ops, outs, n)[3]), n))
        cones.sort()
        side: Circuit | None = None
        side_step = (-1, -1)
        for neg, n in cones:
            if -neg < min_cone:
                break
            cand: Circuit | None = None
            cand_oi = -2
            for oi in orders:
                new = resynth(box, circ, n, oi)
                if len(new[0]) < len(circ[0]) and (cand is None or len(new[0]) < len(cand[0])):
                    cand, cand_oi = new, oi
                elif (
                    plateau > 0
                    and side is None
                    and len(new[0]) == len(circ[0])
                    and signature(new) not in seen
                ):
                    side, side_step = new, (NODE_STEP + n, oi)
            if cand is not None:
                circ = cand
                steps.append((NODE_STEP + n, cand_oi))
                print(f"S{box + 1} step {steps[-1]}: {len(circ[0]) - 6} gates", flush=True)
                improved = True
                break
        if not improved and side is not None and plateau > 0:
            plateau -= 1
            circ = side
            steps.append(side_step)
            print(f"S{box + 1} side step {side_step}: {len(circ[0]) - 6} gates", flush=True)
            improved = True
        seen.add(signature(circ))
        if len(circ[0]) < len(best[0]):
            best, best_steps = circ, tuple(steps)
    return best, best_steps


#: Rip-up "outputs" 4..15 of :func:`reroute`: ordered pairs of outputs,
#: rebuilt together (the first, then the second) with one selector order.
OUTPUT_PAIRS: tuple[tuple[int, int], ...] = tuple(itertools.permutations(range(4), 2))

#: Rip-up "outputs" 16..39: ordered triples of outputs (only one output's
#: gates are kept, the other three are rebuilt over them in this order).
OUTPUT_TRIPLES: tuple[tuple[int, int, int], ...] = tuple(itertools.permutations(range(4), 3))

#: Reroute rng variants from this number on also offer :func:`tools.sbox_synth.lib_leaf`
#: (``Params.lib_leaf``) in the rebuilt outputs.
LIB_VARIANT = 1000

#: Reroute rng variants from ``WIDE_VARIANTS[i][0]`` on (and below the next
#: entry) rebuild with the wider search ``WIDE_VARIANTS[i][1]`` (more mux
#: options tried at the upper depths) and without :func:`tools.sbox_synth.lib_leaf`.
WIDE_VARIANTS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (2000, (6, 6, 2, 1)),
    (3000, (6, 6, 6, 1)),
)


#: Reroute rng variants from this number on use the plain widths (6, 2, 1)
#: and also try every remaining gate as the top selector of the rebuilt
#: output (``Params.node_sel``, ``sbox_synth._try_node_option``).
NODE_VARIANT = 4000


def reroute_params(variant: int) -> tuple[tuple[int, ...], bool]:
    """(widths, lib_leaf) of a :func:`reroute` with a selector order and rng ``variant``."""
    widths: tuple[int, ...] = (6, 2, 1)
    lib = variant >= LIB_VARIANT
    for first, wide in WIDE_VARIANTS:
        if variant >= first:
            widths, lib = wide, False
    if variant >= NODE_VARIANT:
        widths, lib = (6, 2, 1), False
    return widths, lib


def ripped(k: int) -> tuple[int, ...]:
    """The outputs a :func:`reroute` step ``k`` rebuilds (0..3 one, 4..15 a pair,
    16..39 a triple)."""
    if k < 4:
        return (k,)
    if k < 4 + len(OUTPUT_PAIRS):
        return OUTPUT_PAIRS[k - 4]
    return OUTPUT_TRIPLES[k - 4 - len(OUTPUT_PAIRS)]


def reroute(
    box: int, circ: Circuit, k: int, order: tuple[int, ...] | None, variant: int = 0
) -> Circuit:
    """Rip up output ``k`` of ``circ`` and rebuild it over the other outputs' gates.

    ``order`` is the selector order for the rebuilt output (None: free
    search), ``variant`` picks the rng of the option shuffle; the result is
    post-optimised by :func:`resub` and :func:`tools.sbox_polarity.fix_polarity`.
    ``k`` >= 4 rips up a pair of outputs (:data:`OUTPUT_PAIRS`), ``k`` >= 16 a
    triple (:data:`OUTPUT_TRIPLES`), and variants
    from :data:`LIB_VARIANT` on use :func:`tools.sbox_synth.lib_leaf` too (from the first
    :data:`WIDE_VARIANTS` on, a wider search instead).
    """
    targets = box_targets(box)
    ks = ripped(k)
    others = [j for j in range(4) if j not in ks]
    st = state_of(circ, others)
    widths, lib = reroute_params(variant)
    node_sel = variant >= NODE_VARIANT
    if order is not None:
        params = Params(widths, order=order, lib_leaf=lib, node_sel=node_sel)
    else:
        params = Params((12, 2, 1), lib_leaf=lib, node_sel=node_sel)
    rng = _reroute_rng(box, k, variant)
    sigs = {}
    for kk in ks:
        st, sigs[kk] = synth(st, targets[kk], FULL, tuple(range(6)), 0, params, rng)
        st = st.copy()
    outs = [0] * 4
    for j in others:
        outs[j] = st.index[targets[j]]
    for kk in ks:
        outs[kk] = st.output(sigs[kk])
    new = fix_polarity(resub(prune(st, outs)))
    assert evaluate(*new) == targets
    return new


def _reroute_rng(box: int, k: int, variant: int) -> random.Random:
    """The rng of :func:`reroute` (variant 0 keeps the original seeding)."""
    return random.Random(f"{box}:{k}" if variant == 0 else f"{box}:{k}:{variant}")


def search_reroutes(
    box: int,
    circ: Circuit,
    orders: Sequence[int],
    outputs: Sequence[int] = range(4),
    plateau: int = 0,
) -> tuple[Circuit, tuple[tuple[int, int], ...]]:
    """Greedy rip-up and reroute: for each output in turn, the order that shrinks most.

    Passes over the four outputs repeat until one brings no gain; returns the
    circuit and the steps taken (the form :data:`GATE_REROUTES` records).  With
    ``plateau`` > 0, up to that many steps may keep the size but move to a
    circuit not met before (the first such order, when none shrinks); the
    steps up to the smallest circuit met are returned.
    """
    steps: list[tuple[int, int]] = []
    best, best_steps = circ, ()
    seen = {signature(circ)}
    improved = True
    while improved:
        improved = False
        for k in outputs:
            cand: Circuit | None = None
            cand_oi = side_oi = -2
            side: Circuit | None = None
            for oi in orders:
                new = reroute(box, circ, k, reroute_order(oi), reroute_variant(oi))
                if len(new[0]) < len(circ[0]) and (cand is None or len(new[0]) < len(cand[0])):
                    cand, cand_oi = new, oi
                elif (
                    plateau > 0
                    and side is None
                    and len(new[0]) == len(circ[0])
                    and signature(new) not in seen
                ):
                    side, side_oi = new, oi
            if cand is None and side is not None:
                cand, cand_oi = side, side_oi
                plateau -= 1
            if cand is not None:
                circ = cand
                seen.add(signature(circ))
                steps.append((k, cand_oi))
                improved = True
                if len(circ[0]) < len(best[0]):
                    best, best_steps = circ, tuple(steps)
                print(f"S{box + 1} step {(k, cand_oi)}: {len(circ[0]) - 6} gates", flush=True)
    return best, best_steps




@dataclass(frozen=True)
class Polish:
    """Which local searches :func:`polish` runs, with their options (from the command line)."""

    orders: tuple[int, ...]
    reroute: bool
    outputs: tuple[int, ...]
    reroute_plateau: int
    resynth: bool
    min_cone: int
    resynth_plateau: int


def polish(
    box: int, start: tuple[str, int], circ: Circuit, how: Polish
) -> tuple[int, tuple[str, int], Circuit, tuple[tuple[int, int], ...]]:
    """Rip-up and reroute, then inner-node resynthesis, from one circuit of ``box``.

    Returns (box, start, circuit, steps), ``start`` being the attempt the
    circuit came from; the steps replay with :func:`apply_reroutes`.
    """
    steps: tuple[tuple[int, int], ...] = ()
    if how.reroute:
        circ, steps = search_reroutes(box, circ, how.orders, how.outputs, how.reroute_plateau)
    if how.resynth:
        circ, more = search_resynth(box, circ, how.orders, how.min_cone, how.resynth_plateau)
        steps += more
    return box, start, circ, steps


def _polish_star(
    args: tuple[int, tuple[str, int], Circuit, Polish],
) -> tuple[int, tuple[str, int], Circuit, tuple[tuple[int, int], ...]]:
    return polish(*args)


def polish_starts(
    ranked: Sequence[tuple[int, tuple[str, int], Circuit]], count: int
) -> list[tuple[tuple[str, int], Circuit]]:
    """The ``count`` smallest of one box's attempts (``(gates, attempt, circuit)``),
    one per set of computed functions: the starting points of ``--polish-top``."""
    seen: set[frozenset[int]] = set()
    starts = []
    for _, r, circ in sorted(ranked, key=lambda t: (t[0], t[1][1], t[1][0])):
        functions = signature(circ)
        if functions not in seen:
            seen.add(functions)
            starts.append((r, circ))
        if len(starts) == count:
            break
    return starts


#: The search used by the generator: at the top two depths all six
#: (polarity, form) options of the selector are tried, then one, with one
#: random selector order per attempt shared by the four outputs.
#: "free": the older per-output selector search (wider at the top).
PARAMS: dict[str, Params] = {
    "shared": Params(widths=(6, 2, 1), order=()),
    "free": Params(widths=(12, 2, 1)),
    "perm": Params(widths=(6, 2, 1), order=()),
    "lperm": Params(widths=(6, 2, 1), order=(), lib_leaf=True),
}

#: Mode "perm" enumerates the first three selectors of the shared order
#: systematically: attempt ``r`` uses prefix ``PREFIXES[r % 120]`` (the rest of
#: the order and the output order are drawn from the attempt's rng).
PREFIXES: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(6), 3))



def attempt(box: int, seed: int, r: tuple[str, int]) -> tuple[int, tuple[str, int], Circuit]:
    """Attempt ``r`` = (mode, number) for ``box``: (box, r, circuit), self-checked."""
    params = PARAMS[r[0]]
    if r[0] in ("perm", "lperm"):
        rng = random.Random(f"{seed}:{box}:perm:{r[1]}")
        prefix = PREFIXES[r[1] % len(PREFIXES)]
        rest = [x for x in range(6) if x not in prefix]
        rng.shuffle(rest)
        params = Params(params.widths, params.leaf_level, prefix + tuple(rest), params.lib_leaf)
    else:
        rng = random.Random(f"{seed}:{box}:{r[1]}")
    ops, outs = fix_polarity(resub(synth_box_once(box, params, rng), plateau=RESUB_PLATEAU))
    assert evaluate(ops, outs) == box_targets(box)
    return box, r, (ops, outs)


def best_circuit(box: int) -> Circuit:
    """The committed circuit of ``box``: its recorded best attempt (seed 1) with
    the recorded reroute, resynthesis and window steps replayed, self-checked
    (replayed once per process; each call returns fresh lists)."""
    ops, outs = _replay(box)
    return list(ops), list(outs)


@functools.cache
def _replay(box: int) -> tuple[tuple[tuple[str, int, int], ...], tuple[int, ...]]:
    _, _, circ = attempt(box, 1, GATE_BEST_ATTEMPTS[box])
    circ = apply_reroutes(box, circ, GATE_REROUTES.get(box, ()))
    ops, outs = apply_windows(box, circ, GATE_WINDOWS.get(box, ()))
    return tuple(ops), tuple(outs)


def _attempt_star(
    args: tuple[int, int, tuple[str, int]],
) -> tuple[int, tuple[str, int], Circuit]:
    return attempt(*args)


def _name(i: int) -> str:
    return f"a{i + 1}" if i < 6 else f"t{i - 5}"


def render_function(name: str, ops: Sequence[tuple[str, int, int]], outs: Sequence[int]) -> str:
    """Python source of one straight-line S-box function."""
    sym = {"and": "&", "or": "|", "xor": "^"}
    lines = [f"def {name}(a1, a2, a3, a4, a5, a6):"]
    for i, (op, a, b) in enumerate(ops):
        if op == "in":
            continue
        if op == "not":
            expr = f"~{_name(a)}"
        elif op == "andnot":
            expr = f"{_name(a)} & ~{_name(b)}"
        else:
            expr = f"{_name(a)} {sym[op]} {_name(b)}"
        lines.append(f"    {_name(i)} = {expr}")
    lines.append(f"    return ({', '.join(_name(o) for o in outs)})")
    return "\n".join(lines) + "\n"


def render_module(
    circuits: Sequence[tuple[list[tuple[str, int, int]], list[int]]],
    command: str,
    seed: int,
    attempts: Sequence[str],
    seconds: float,
) -> str:
    """The whole generated module."""
    counts = [len(ops) - 6 for ops, _ in circuits]
    avg = sum(counts) / len(counts)
    head = [
        "# Generated by python -m tools.gen_sbox_circuits -- do not edit by hand.",
        f"# Command: {command}",
        f"# Seed: {seed}, attempts: {', '.join(map(str, attempts))}, search time: {seconds:.0f} s",
        "# Gate basis: AND, OR, XOR, ANDNOT (x & ~y, one gate), NOT.",
        "# Gates per S-box: " + ", ".join(f"S{j + 1}={c}" for j, c in enumerate(counts)),
        f"# Average: {avg:.3f} gates",
        '"""Bitslice Boolean circuits for the DES S-boxes (generated; see header)."""',
        "",
    ]
    body = [render_function(f"s{j + 1}", ops, outs) for j, (ops, outs) in enumerate(circuits)]
    tail = [
        f"GATE_COUNTS = ({', '.join(str(c) for c in counts)})",
        f"AVERAGE_GATES = {avg!r}",
        "",
    ]
    return "\n".join(head) + "\n\n" + "\n\n".join(body) + "\n\n" + "\n".join(tail)


def _record_in(box: int) -> str:
    """Where the steps a search finds for ``box`` are recorded (see :data:`GATE_WINDOWS`)."""
    where = "GATE_WINDOWS, after its steps" if GATE_WINDOWS.get(box) else "GATE_REROUTES"
    return f"tools/sbox_records.py {where}"




def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--restarts",
        type=int,
        default=0,
        help="search attempts 0..N-1 per box (default: replay the recorded best attempts)",
    )
    ap.add_argument(
        "--first", type=int, default=0, help="with --restarts: start at attempt N instead of 0"
    )
    ap.add_argument(
        "--prefixes",
        help="with --restarts: only perm attempts whose prefix number (attempt mod 120) "
        "is in this comma list, e.g. 16,17,18,19,100,101,102,103 (a1 and a6 first); with "
        "--reroute-search: only these selector prefixes",
    )
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--modes", default="shared,free,perm", help="search modes for --restarts")
    ap.add_argument(
        "--reroute-search",
        action="store_true",
        help="greedy rip-up-and-reroute over all selector orders on each box's best circuit "
        "(prints the steps to record in tools/sbox_records.py; writes no file)",
    )
    ap.add_argument(
        "--reroute-variants",
        default="0",
        help="with --reroute-search: rng variants to try with each selector prefix, e.g. 1,2 "
        "(order numbers 120*v + prefix; variant 0 also tries the free search)",
    )
    ap.add_argument(
        "--reroute-outputs",
        default="0-3",
        help="with --reroute-search: rip-up steps to try, 0-3 single outputs, 4-15 ordered "
        "pairs of outputs (OUTPUT_PAIRS), 16-39 ordered triples (OUTPUT_TRIPLES)",
    )
    ap.add_argument(
        "--reroute-plateau",
        type=int,
        default=0,
        help="with --reroute-search: equal-size steps to new circuits allowed (see search_reroutes)",
    )
    ap.add_argument(
        "--resynth-search",
        action="store_true",
        help="greedy resynthesis of inner nodes (search_resynth) on each box's best circuit, "
        "after --reroute-search if given, with the orders of --reroute-variants/--prefixes "
        "(prints the steps to record in tools/sbox_records.py; writes no file)",
    )
    ap.add_argument(
        "--polish-top",
        type=int,
        default=0,
        help="with --restarts and --reroute-search/--resynth-search: run the searches from "
        "each of the N smallest attempts per box (distinct circuits), not only the "
        "smallest, and keep the best result (prints what to record in tools/sbox_records.py)",
    )
    ap.add_argument(
        "--resynth-min-cone", type=int, default=2, help="with --resynth-search: smallest cone"
    )
    ap.add_argument(
        "--resynth-plateau",
        type=int,
        default=0,
        help="with --resynth-search: equal-size steps to new circuits allowed",
    )
    ap.add_argument("--boxes", default="1-8", help="e.g. 1-8 or 1,3 (partial runs only print)")
    ap.add_argument(
        "--output",
        type=Path,
        default=generated.SBOX_CIRCUITS,
    )
    args = ap.parse_args(argv)
    boxes = parse_boxes(args.boxes)
    modes = args.modes.split(",")
    numbers = range(args.first, args.restarts)
    if args.prefixes:
        chosen = {int(x) for x in args.prefixes.split(",")}
        numbers = [r for r in numbers if r % len(PREFIXES) in chosen]
        modes = [m for m in modes if m in ("perm", "lperm")] or ["perm"]
    tasks = {(b, (m, r)) for b in boxes for m in modes for r in numbers}
    if args.seed == 1:
        tasks |= {(b, GATE_BEST_ATTEMPTS[b]) for b in boxes}
    elif not args.restarts:
        tasks |= {(b, ("shared", 0)) for b in boxes}
    start = time.monotonic()
    best: dict[int, tuple[int, tuple[str, int], Circuit]] = {}
    ranked: dict[int, list[tuple[int, tuple[str, int], Circuit]]] = {b: [] for b in boxes}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [(b, args.seed, r) for b, r in sorted(tasks, key=lambda t: (t[1][1], t[1][0], t[0]))]
        for box, r, circ in pool.map(_attempt_star, jobs):
            gates = len(circ[0]) - 6
            key = (gates, r[1], r[0])
            old = best.get(box)
            if old is None or key < (len(old[2][0]) - 6, old[1][1], old[1][0]):
                best[box] = (box, r, circ)
            ranked[box].append((gates, r, circ))
            if args.restarts:
                print(f"S{box + 1} attempt {r}: {gates} gates", flush=True)
    for b in boxes:
        if args.seed == 1 and best[b][1] == GATE_BEST_ATTEMPTS[b] and GATE_REROUTES.get(b):
            best[b] = (b, best[b][1], apply_reroutes(b, best[b][2], GATE_REROUTES[b]))
        if args.seed == 1 and best[b][1] == GATE_BEST_ATTEMPTS[b] and GATE_WINDOWS.get(b):
            best[b] = (b, best[b][1], apply_windows(b, best[b][2], GATE_WINDOWS[b]))
    variants = [int(v) for v in args.reroute_variants.split(",")]
    orders = [-1] if 0 in variants else []
    prefixes = range(len(PREFIXES))
    if args.prefixes:
        prefixes = [int(x) for x in args.prefixes.split(",")]
    orders += [v * len(PREFIXES) + p for v in variants for p in prefixes]
    if args.reroute_search or args.resynth_search:
        lo, hi = (int(x) for x in args.reroute_outputs.split("-"))
        how = Polish(tuple(orders), args.reroute_search, tuple(range(lo, hi + 1)),
                     args.reroute_plateau, args.resynth_search, args.resynth_min_cone,
                     args.resynth_plateau)
        if args.polish_top:
            starts = {b: polish_starts(ranked[b], args.polish_top) for b in boxes}
        else:
            starts = {b: [(best[b][1], best[b][2])] for b in boxes}
        jobs = [(b, r, circ, how) for b in boxes for r, circ in starts[b]]
        polished: dict[int, tuple[tuple[str, int], Circuit, tuple[tuple[int, int], ...]]] = {}
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for b, r, circ, steps in pool.map(_polish_star, jobs):
                gates = len(circ[0]) - 6
                print(f"S{b + 1} from attempt {r}: steps {steps}: {gates} gates", flush=True)
                if b not in polished or len(circ[0]) < len(polished[b][1][0]):
                    polished[b] = (r, circ, steps)
        for b, (r, circ, steps) in polished.items():
            if not args.polish_top:
                print(f"S{b + 1}: record the steps {steps!r} in {_record_in(b)}")
                best[b] = (b, r, circ)
            elif len(circ[0]) < len(best[b][2][0]):
                # From other starts only a smaller circuit replaces the best.
                drop = f" and drop GATE_WINDOWS[{b}]" if GATE_WINDOWS.get(b) else ""
                print(f"S{b + 1}: record in tools/sbox_records.py GATE_BEST_ATTEMPTS[{b}] = {r!r} and "
                      f"GATE_REROUTES[{b}] = {steps!r}{drop}")
                best[b] = (b, r, circ)
    seconds = time.monotonic() - start
    circuits = [best[b][2] for b in boxes]
    for box in boxes:
        print(f"S{box + 1}: {len(best[box][2][0]) - 6} gates (attempt {best[box][1]})")
    print(f"best attempts: {{{', '.join(f'{b}: {best[b][1]}' for b in boxes)}}}")
    print(f"average {sum(len(o) - 6 for o, _ in circuits) / len(circuits):.3f}, {seconds:.0f} s")
    if boxes == list(range(8)) and not args.reroute_search and not args.resynth_search:
        command = f"python -m tools.gen_sbox_circuits --seed {args.seed}"
        if args.restarts:
            command += f" --restarts {args.restarts}"
        if args.first:
            command += f" --first {args.first}"
        if args.prefixes:
            command += f" --prefixes {args.prefixes}"
        attempts = [f"{best[b][1][0]} {best[b][1][1]}" for b in boxes]
        args.output.write_text(render_module(circuits, command, args.seed, attempts, seconds))
        print(f"wrote {args.output}")
        for name in stamp_kernel_sources.restamp():
            print(f"restamped {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
