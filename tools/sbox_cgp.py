"""Shrink a whole S-box circuit by evolution (Cartesian genetic programming).

A genome is the recorded circuit plus spare nodes; a (1 + lambda) evolution
strategy mutates it a gene at a time and accepts every correct offspring that
is not larger, so it drifts along neutral networks (Miller's CGP; Vasicek and
Sekanina's optimisation of small gate-level circuits).  Every candidate is
checked exhaustively on the 64 S-box inputs (one word per signal).  Kinds:
2-input gates with free complements (NOTs placed after, by
:mod:`tools.sbox_polarity`), ``--exact`` (gates and NOTs as they are),
``--luts`` (3-input LUTs).  A smaller circuit is printed as one window step
over the whole circuit, for :mod:`tools.sbox_records`.  So far no run found
one.

The method in full, and every run with its result: ``docs/sbox_search.md``.

Run: ``python -m tools.sbox_cgp --boxes 1 --seconds 600 [--luts] [--exact] [--seed N]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

from tools import gen_sbox_luts as luts
from tools import sbox_core, sbox_windows

#: A genome: function genes (n,), operand genes (n, 3), output nodes (4,),
#: output complements (4,); node i of the genome is node i + 6 of the circuit.
Genome = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

#: The 2-input gate tables with f(0, 0) = 0: bit 0 f(0, 1), bit 1 f(1, 0),
#: bit 2 f(1, 1) (AND, x & ~y, ~x & y, OR, XOR); a tuple, so that the compiled
#: kernels see a constant.
GATE_TABLES = (0b100, 0b010, 0b001, 0b111, 0b011)
#: Function code of a NOT node (exact basis): the complement of operand 0.
NOT = 8
#: The exact basis's function codes (``--exact``): the gates and NOT.
EXACT_TABLES = (*GATE_TABLES, NOT)

_INPUTS = np.array(sbox_core.INPUTS, dtype=np.uint64)


@numba.njit(cache=True)
def _node_value(arity: int, fn: int, a: np.uint64, b: np.uint64, c: np.uint64) -> np.uint64:
    """One node's truth table from its operands' (``c`` unused for gates)."""
    r = np.uint64(0)
    if arity == 2:
        if fn == NOT:
            return ~a
        if fn & 4:
            r |= a & b
        if fn & 2:
            r |= a & ~b
        if fn & 1:
            r |= ~a & b
        return r
    for m in range(8):
        if (fn >> m) & 1:
            x = a if m & 4 else ~a
            y = b if m & 2 else ~b
            z = c if m & 1 else ~c
            r |= x & y & z
    return r


@numba.njit(cache=True)
def mark_active(
    arity: int, fn: np.ndarray, ops: np.ndarray, outs: np.ndarray, active: np.ndarray
) -> None:
    """Set ``active`` (one flag per node, inputs first) on the nodes the
    outputs depend on; a NOT node (2-input genomes) reads only operand 0."""
    active[:] = False
    for o in range(4):
        active[outs[o]] = True
    for i in range(fn.shape[0] + 5, 5, -1):
        if active[i]:
            active[ops[i - 6, 0]] = True
            if arity == 3 or fn[i - 6] != NOT:
                active[ops[i - 6, 1]] = True
            if arity == 3:
                active[ops[i - 6, 2]] = True


@numba.njit(cache=True)
def _cost(
    arity: int, fn: np.ndarray, ops: np.ndarray, outs: np.ndarray, neg: np.ndarray,
    targets: np.ndarray, active: np.ndarray, vals: np.ndarray,
) -> int:
    """Cost of a genome (see the module doc), or -1 if it is not correct."""
    n = fn.shape[0]
    mark_active(arity, fn, ops, outs, active)
    cost = 0
    for i in range(6, n + 6):
        if active[i]:
            cost += 1
            a = vals[ops[i - 6, 0]]
            b = vals[ops[i - 6, 1]]
            c = vals[ops[i - 6, 2]] if arity == 3 else np.uint64(0)
            vals[i] = _node_value(arity, fn[i - 6], a, b, c)
    for o in range(4):
        v = vals[outs[o]]
        if neg[o]:
            v = ~v
        if v != targets[o]:
            return -1
    return cost


@numba.njit(cache=True)
def _mutate(
    arity: int, exact: bool, fn: np.ndarray, ops: np.ndarray, outs: np.ndarray, neg: np.ndarray,
    active: np.ndarray,
) -> None:
    """Change random genes until one of an active node or an output has changed."""
    n = fn.shape[0]
    per_node = 1 + arity
    genes = n * per_node + 8
    while True:
        g = np.random.randint(genes)
        if g >= n * per_node:
            o = (g - n * per_node) >> 1
            if (g - n * per_node) & 1:
                if arity == 3 or exact:
                    continue  # LUTs: complements are free; exact basis: outputs are plain
                neg[o] = not neg[o]
            else:
                outs[o] = np.random.randint(6, n + 6)
            return
        i, s = divmod(g, per_node)
        if s == 0:
            old = fn[i]
            if exact:
                while fn[i] == old:
                    fn[i] = EXACT_TABLES[np.random.randint(len(EXACT_TABLES))]
            elif arity == 2:
                while fn[i] == old:
                    fn[i] = GATE_TABLES[np.random.randint(len(GATE_TABLES))]
            elif np.random.randint(2):
                fn[i] ^= 1 << np.random.randint(8)
            else:
                while fn[i] == old:
                    fn[i] = np.random.randint(256)
        else:
            old = ops[i, s - 1]
            while ops[i, s - 1] == old:
                ops[i, s - 1] = np.random.randint(i + 6)
        if active[i + 6]:
            return


@numba.njit(cache=True, nogil=True)
def evolve(
    arity: int, exact: bool, fn: np.ndarray, ops: np.ndarray, outs: np.ndarray, neg: np.ndarray,
    targets: np.ndarray, inputs: np.ndarray, generations: int, offspring: int, seed: int,
    stop_below: int, ceiling: int, p_worse: float,
) -> tuple[int, int]:
    """Run the (1 + ``offspring``) strategy for ``generations`` from the correct
    genome given (changed in place into the final parent), or until its cost
    drops below ``stop_below``.  A generation whose offspring are all worse
    than the parent still moves, with probability ``p_worse``, to the best of
    them if it costs at most ``ceiling`` (uphill steps that let the walk cross
    from one neutral network to another).  Returns (the final cost, the number
    of accepted moves)."""
    np.random.seed(seed)
    n = fn.shape[0]
    vals = np.zeros(n + 6, dtype=np.uint64)
    vals[:6] = inputs
    active = np.zeros(n + 6, dtype=np.bool_)
    cost = _cost(arity, fn, ops, outs, neg, targets, active, vals)
    moves = 0
    cfn, cops, couts, cneg = fn.copy(), ops.copy(), outs.copy(), neg.copy()
    bfn, bops, bouts, bneg = fn.copy(), ops.copy(), outs.copy(), neg.copy()
    pactive = active.copy()
    for _ in range(generations):
        best = -1
        limit = cost
        if cost < ceiling and np.random.random() < p_worse:
            limit = ceiling
        for _ in range(offspring):
            cfn[:] = fn
            cops[:] = ops
            couts[:] = outs
            cneg[:] = neg
            _mutate(arity, exact, cfn, cops, couts, cneg, pactive)
            c = _cost(arity, cfn, cops, couts, cneg, targets, active, vals)
            if c >= 0 and c <= limit and (best < 0 or c <= best):
                best = c
                bfn[:] = cfn
                bops[:] = cops
                bouts[:] = couts
                bneg[:] = cneg
        if best >= 0:
            fn[:] = bfn
            ops[:] = bops
            outs[:] = bouts
            neg[:] = bneg
            cost = best
            moves += 1
            mark_active(arity, fn, ops, outs, pactive)
            if cost < stop_below:
                break
    return cost, moves


# --- genomes from and to the generators' circuits ------------------------------


def gate_genome(circ: sbox_core.Circuit) -> Genome:
    """A 2-input circuit (ops, outs) as a genome of normalised gates: every gate
    becomes a table of :data:`GATE_TABLES` over uncomplemented nodes, NOTs
    vanish into the signal's complement bit."""
    ops, outs = circ
    sig: dict[int, tuple[int, bool]] = {}
    fn: list[int] = []
    operands: list[tuple[int, int, int]] = []
    for i, (op, a, b) in enumerate(ops):
        if op == "in":
            sig[i] = (a, False)
            continue
        if op == "not":
            sig[i] = (sig[a][0], not sig[a][1])
            continue
        (x, nx), (y, ny) = sig[a], sig[b]
        func = {"and": lambda u, v: u & v, "andnot": lambda u, v: u & (1 - v),
                "or": lambda u, v: u | v, "xor": lambda u, v: u ^ v}[op]
        table = [func(u ^ nx, v ^ ny) for u, v in ((0, 0), (0, 1), (1, 0), (1, 1))]
        flip = bool(table[0])
        bits = [t ^ flip for t in table]
        fn.append(bits[1] | bits[2] << 1 | bits[3] << 2)
        operands.append((x, y, 0))
        sig[i] = (5 + len(fn), flip)
    out_nodes = [sig[o][0] for o in outs]
    negs = [sig[o][1] for o in outs]
    return (np.array(fn, np.int64), np.array(operands, np.int64).reshape(-1, 3),
            np.array(out_nodes, np.int64), np.array(negs, np.bool_))


#: The exact basis's function codes for the generator's gate names.
EXACT_CODES = {"and": 4, "andnot": 2, "or": 7, "xor": 3, "not": NOT}


def exact_genome(circ: sbox_core.Circuit) -> Genome:
    """A 2-input circuit node for node as a genome of the exact basis (AND,
    ANDNOT, OR, XOR and NOT nodes; S-box outputs uncomplemented)."""
    ops, outs = circ
    assert all(op == "in" and a == i for i, (op, a, _) in enumerate(ops[:6]))
    gates = ops[6:]
    return (np.array([EXACT_CODES[op] for op, _, _ in gates], np.int64),
            np.array([(a, a if op == "not" else b, 0) for op, a, b in gates], np.int64).reshape(-1, 3),
            np.array(outs, np.int64), np.zeros(4, np.bool_))


def exact_circuit(genome: Genome) -> sbox_core.Circuit:
    """An exact-basis genome's active nodes as a generator circuit (ops, outs)."""
    fn, ops, outs, _ = genome
    used = np.zeros(fn.shape[0] + 6, np.bool_)
    mark_active(2, fn, ops, outs, used)
    number = {i: i for i in range(6)}
    circ_ops: list[tuple[str, int, int]] = [("in", i, 0) for i in range(6)]
    for i in range(6, fn.shape[0] + 6):
        if not used[i]:
            continue
        code = int(fn[i - 6])
        x, y = number[int(ops[i - 6, 0])], number[int(ops[i - 6, 1])] if code != NOT else 0
        if code == 1:  # ~x & y is ANDNOT with the operands swapped
            x, y = y, x
        name = {4: "and", 2: "andnot", 1: "andnot", 7: "or", 3: "xor", NOT: "not"}[code]
        number[i] = len(circ_ops)
        circ_ops.append((name, x, y))
    return circ_ops, [number[int(o)] for o in outs]


def lut_genome(circ: luts.Circuit) -> Genome:
    """A LUT circuit as a genome (the same nodes and tables)."""
    ops, outs = circ
    return (np.array([op[0] for op in ops], np.int64),
            np.array([op[1:] for op in ops], np.int64).reshape(-1, 3),
            np.array([i for i, _ in outs], np.int64), np.array([neg for _, neg in outs], np.bool_))


def with_spares(
    genome: Genome, arity: int, spare: int,
    rng: np.random.Generator,
) -> Genome:
    """The genome with ``spare`` random nodes inserted at random places among
    its own (inactive: nothing reads them yet), so that new gates can feed
    early ones as well as late ones."""
    fn, ops, outs, neg = genome
    n = fn.shape[0]
    slots = np.sort(rng.choice(n + spare, spare, replace=False))
    is_spare = np.zeros(n + spare, bool)
    is_spare[slots] = True
    renumber = np.arange(n + 6)
    renumber[6:] = 6 + np.flatnonzero(~is_spare)
    new_fn = np.zeros(n + spare, np.int64)
    new_ops = np.zeros((n + spare, 3), np.int64)
    new_fn[~is_spare] = fn
    new_ops[~is_spare] = renumber[ops]
    for i in slots:
        new_fn[i] = rng.choice(GATE_TABLES) if arity == 2 else rng.integers(1, 255)
        new_ops[i] = rng.integers(0, i + 6, 3)
    if arity == 2:
        new_ops[:, 2] = 0
    return new_fn, new_ops, renumber[outs], neg.copy()


def window_step(
    arity: int, genome: Genome,
    out_nodes: Sequence[tuple[int, bool]],
) -> sbox_windows.Step:
    """The genome's active part as a window step over the whole circuit whose
    S-box outputs are ``out_nodes`` (node, complemented after it; in output
    order): each such node becomes the genome's output, complemented if
    the two complements differ."""
    fn, ops, outs, neg = genome
    n = fn.shape[0]
    active = np.zeros(n + 6, np.bool_)
    mark_active(arity, fn, ops, outs, active)
    number = {i: i for i in range(6)}
    program: list[tuple[int, ...]] = []
    for i in range(6, n + 6):
        if not active[i]:
            continue
        xs = [number[int(x)] for x in ops[i - 6, :arity]]
        table = int(fn[i - 6])
        if arity == 2 and xs[0] > xs[1]:  # the window programs list operands in order
            xs.reverse()
            table = (table & 4) | (table & 1) << 1 | (table & 2) >> 1
        number[i] = 6 + len(program)
        program.append((*xs, table))
    choice = {node: (number[int(o)], bool(ng) != after)
              for (node, after), o, ng in zip(out_nodes, outs, neg, strict=True)}
    window_outs = tuple(sorted(choice))
    return window_outs, tuple(range(6)), tuple(program), tuple(choice[w] for w in window_outs)


def output_nodes(arity: int, circ: object) -> list[tuple[int, bool]]:
    """The nodes of the four S-box outputs and whether the circuit complements
    them after the node (only LUT circuits do), in output order."""
    if arity == 2:
        return [(i, False) for i in circ[1]]  # type: ignore[index]
    return list(circ[1])  # type: ignore[index]


@dataclass(frozen=True)
class Options:
    """How :func:`run_box` searches (see the command-line help)."""

    seconds: float = 600.0
    seed: int = 1
    spare: int = 10
    offspring: int = 4
    chunk: int = 200_000
    slack: int = 0
    p_worse: float = 0.0
    drift: float = 0.0
    window_budget: float = 120.0


#: The genome kinds: 2-input gates with free complements (NOTs placed after),
#: 2-input gates and NOTs as they are, 3-input LUTs.
KINDS = ("signed", "exact", "luts")


def genome_of(kind: str, circ: object) -> Genome:
    """A circuit as a genome of ``kind`` (no spare nodes)."""
    make = {"signed": gate_genome, "exact": exact_genome, "luts": lut_genome}[kind]
    return make(circ)  # type: ignore[operator]


def step_of(
    kind: str, genome: Genome,
    out_nodes: Sequence[tuple[int, bool]],
) -> sbox_windows.Step:
    """The genome as a whole-circuit window step (:func:`window_step`)."""
    if kind == "exact":
        return window_step(2, gate_genome(exact_circuit(genome)), out_nodes)
    return window_step(3 if kind == "luts" else 2, genome, out_nodes)


def genome_cost(kind: str, basis: sbox_windows.Basis, circ: object) -> int:
    """What the evolution counts for ``circ`` (see :func:`_cost`): its size,
    less its NOTs unless the genome is ``exact`` (NOTs are genes there)."""
    nots = sum(basis.free(circ, i) for i in range(len(basis.fanins(circ))))
    return basis.size(circ) - (0 if kind == "exact" else nots)


def run_box(box: int, kind: str, opts: Options) -> sbox_windows.Step | None:
    """Evolve ``box``'s recorded circuit for ``opts.seconds``; the whole-circuit
    step of the smallest circuit met if it is smaller than the recorded one.

    With ``opts.drift`` > 0, every ``drift`` seconds the walk's current
    circuit (same size as the best, but drifted far from it) is handed to the
    SAT window search (:func:`tools.sbox_windows.search`, ``window_budget``
    seconds), and the walk goes on from what that returns."""
    arity = 3 if kind == "luts" else 2
    basis = sbox_windows.LUTS if kind == "luts" else sbox_windows.GATES
    rng = np.random.default_rng(opts.seed)
    recorded = basis.recorded(box)
    outs = output_nodes(arity, recorded)
    best, best_size = recorded, basis.size(recorded)
    genome = with_spares(genome_of(kind, recorded), arity, opts.spare, rng)
    targets = np.array(sbox_core.box_targets(box), np.uint64)
    gates = genome_cost(kind, basis, recorded)
    start = last_windows = time.monotonic()
    k = 0
    while time.monotonic() - start < opts.seconds:
        cost, moves = evolve(arity, kind == "exact", *genome, targets, _INPUTS, opts.chunk, opts.offspring,
                             opts.seed * 100003 + k, gates, gates + opts.slack, opts.p_worse)
        k += 1
        now = basis.splice(box, recorded, step_of(kind, genome, outs))
        if basis.size(now) < best_size:
            best, best_size = now, basis.size(now)
            print(f"S{box + 1}: evolved to {best_size} ({time.monotonic() - start:.0f} s)", flush=True)
        gates = min(gates, cost)
        print(f"S{box + 1} chunk {k}: {cost} gates, size {basis.size(now)}, {moves} moves, "
              f"{time.monotonic() - start:.0f} s", flush=True)
        if opts.drift and time.monotonic() - last_windows >= opts.drift:
            found, steps = sbox_windows.search(basis, box, now, range(3, 9), 30, 8.0, 99,
                                               opts.seed + k, opts.window_budget)
            print(f"S{box + 1} windows after drift: {basis.size(now)} -> {basis.size(found)} "
                  f"({len(steps)} steps, {time.monotonic() - start:.0f} s)", flush=True)
            if basis.size(found) < best_size:
                best, best_size = found, basis.size(found)
            if basis.size(found) < basis.size(now):
                genome = with_spares(genome_of(kind, found), arity, opts.spare, rng)
                gates = genome_cost(kind, basis, found)
            last_windows = time.monotonic()
    if best is recorded:
        return None
    step = step_of(kind, genome_of(kind, best), outs)
    assert basis.size(basis.splice(box, recorded, step)) == best_size
    print(f"S{box + 1}: {basis.size(recorded)} -> {best_size}, record in WINDOWS[{box}]:\n"
          f"    {step!r}", flush=True)
    return step


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--boxes", default="1", help="e.g. 1,5")
    ap.add_argument("--luts", action="store_true", help="the 3-input-LUT circuits")
    ap.add_argument("--exact", action="store_true",
                    help="2-input gates with NOTs as genes (cost = real size) instead of "
                    "free complements")
    ap.add_argument("--seconds", type=float, default=600.0, help="per box")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spare", type=int, default=10, help="inactive nodes added to the genome")
    ap.add_argument("--offspring", type=int, default=4, help="lambda")
    ap.add_argument("--chunk", type=int, default=200_000, help="generations between reports")
    ap.add_argument("--slack", type=int, default=0, help="gates above the best the walk may climb")
    ap.add_argument("--drift", type=float, default=0.0,
                    help="seconds of evolution between SAT window searches (0: none)")
    ap.add_argument("--window-budget", type=float, default=120.0,
                    help="seconds per window search after a drift")
    ap.add_argument("--worse", type=float, default=0.0,
                    help="chance per generation of an uphill step (within --slack)")
    args = ap.parse_args(argv)
    kind = "luts" if args.luts else "exact" if args.exact else "signed"
    opts = Options(args.seconds, args.seed, args.spare, args.offspring, args.chunk, args.slack,
                   args.worse, args.drift, args.window_budget)
    for box in sbox_core.parse_boxes(args.boxes):
        run_box(box, kind, opts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
