"""Exact resynthesis of small windows of an S-box circuit with a SAT solver.

A *window* is a convex set of gates (or LUTs); the CP-SAT solver (OR-tools)
is asked for a program one gate smaller that reads any node outside the
window's fan-out cone and keeps all four S-box outputs right under the
window's joint don't-cares (the method of Kojevnikov, Kulikov and
Yaroslavtsev, "Finding efficient circuits using SAT-solvers", SAT 2009).  A
gain is printed as an explicit step for :mod:`tools.sbox_records`, which the
generators replay with no solver, so only this search needs OR-tools
(``pip install ortools``; not a dependency of numbades or its tests).

The method in full, and every run with its result: ``docs/sbox_search.md``.

Run: ``python -m tools.sbox_windows --boxes 1,6 --sizes 3-9 --tries 40 --seconds 10``
(add ``--luts`` for the 3-input-LUT circuits).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tools import gen_sbox_circuits as gen
from tools import gen_sbox_luts as luts
from tools import sbox_core

#: Solver outcomes over a run (OPTIMAL = a smaller program was found).
STATS: collections.Counter[str] = collections.Counter()

#: A window rewrite: (window output nodes, input nodes, program, output
#: choices); program gates are (operands..., table), see :func:`solve_window`.
Step = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, bool], ...]]


@dataclass(frozen=True)
class Basis:
    """How the window search sees one kind of circuit.

    ``fanins(circ)`` lists each node's operands (``()`` for the six inputs);
    ``free`` nodes (NOTs) cost nothing and are never read by a program;
    ``forced(circ, forced)`` is the truth tables of all nodes with some nodes
    forced to constants, ``output_nodes(circ)`` the nodes of the S-box
    outputs and ``outputs(circ, vals)`` their values from such tables;
    ``splice`` applies a step (self-checked), ``size`` counts gates and
    ``recorded(box)`` replays the generator's recorded circuit.
    """

    arity: int
    fanins: Callable[[Any], list[tuple[int, ...]]]
    free: Callable[[Any, int], bool]
    forced: Callable[[Any, dict[int, int]], list[int]]
    output_nodes: Callable[[Any], set[int]]
    outputs: Callable[[Any, list[int]], list[int]]
    splice: Callable[[int, Any, Step], Any]
    size: Callable[[Any], int]
    recorded: Callable[[int], Any]


# --- 2-input gate circuits (tools.gen_sbox_circuits) -------------------------


def _gate_fanins(circ: sbox_core.Circuit) -> list[tuple[int, ...]]:
    return [() if op == "in" else ((a,) if op == "not" else (a, b)) for op, a, b in circ[0]]


GATES = Basis(
    arity=2,
    fanins=_gate_fanins,
    free=lambda circ, i: circ[0][i][0] == "not",
    forced=lambda circ, forced: sbox_core.eval_all(circ[0], forced=forced),
    output_nodes=lambda circ: set(circ[1]),
    outputs=lambda circ, vals: [vals[o] for o in circ[1]],
    splice=lambda box, circ, step: gen.apply_windows(box, circ, (step,)),
    size=lambda circ: len(circ[0]) - 6,
    recorded=gen.best_circuit,
)


# --- 3-input LUT circuits (tools.gen_sbox_luts) -------------------------------


LUTS = Basis(
    arity=3,
    fanins=lambda circ: [()] * 6 + [op[1:] for op in circ[0]],
    free=lambda circ, i: False,
    forced=lambda circ, forced: luts.eval_all(circ[0], forced=forced),
    output_nodes=lambda circ: {i for i, _ in circ[1]},
    outputs=lambda circ, vals: [vals[i] ^ (luts.FULL if neg else 0) for i, neg in circ[1]],
    splice=lambda box, circ, step: luts.apply_windows(box, circ, (step,)),
    size=lambda circ: len(circ[0]),
    recorded=lambda box: luts.best_circuit(box, 1),
)


# --- windows ------------------------------------------------------------------


def fanouts(fanins: Sequence[tuple[int, ...]]) -> dict[int, set[int]]:
    """Consumers of every node."""
    out: dict[int, set[int]] = {i: set() for i in range(len(fanins))}
    for i, ins in enumerate(fanins):
        for x in ins:
            out[x].add(i)
    return out


def fanout_cone(fo: dict[int, set[int]], window: set[int] | frozenset[int]) -> set[int]:
    """Every node reachable from the window's gates (not the gates themselves,
    unless a path leads back to them)."""
    below: set[int] = set()
    stack = [j for i in window for j in fo[i]]
    while stack:
        j = stack.pop()
        if j not in below:
            below.add(j)
            stack.extend(fo[j])
    return below


def convex_closure(
    fanins: Sequence[tuple[int, ...]], fo: dict[int, set[int]], window: set[int]
) -> set[int]:
    """``window`` plus every node on a path from it back into it."""
    below = fanout_cone(fo, window)
    above: set[int] = set()  # gates reaching the window
    stack = [x for i in window for x in fanins[i]]
    while stack:
        x = stack.pop()
        if x not in above and fanins[x]:
            above.add(x)
            stack.extend(fanins[x])
    return window | (below & above)


#: Random windows are kept when their convex closure has at most this many
#: gates more than asked for.
CLOSURE_SLACK = 2


def random_windows(
    fanins: Sequence[tuple[int, ...]], size: int, tries: int, rng: random.Random,
    starts: Sequence[int] | None = None,
) -> list[frozenset[int]]:
    """Convex sets of ``size`` to ``size + CLOSURE_SLACK`` gates, grown at random
    from one gate (any, or one of ``starts``) over fan-ins and fan-outs, then
    closed (:func:`convex_closure`)."""
    fo = fanouts(fanins)
    gates = list(starts) if starts else [i for i, ins in enumerate(fanins) if ins]
    found: set[frozenset[int]] = set()
    for _ in range(tries):
        w = {rng.choice(gates)}
        while len(w) < size:
            border = {x for i in w for x in fanins[i] if fanins[x]} | {j for i in w for j in fo[i]}
            border -= w
            if not border:
                break
            w.add(rng.choice(sorted(border)))
        w = convex_closure(fanins, fo, w)
        if size <= len(w) <= size + CLOSURE_SLACK:
            found.add(frozenset(w))
    return sorted(found, key=sorted)


def cone_windows(
    fanins: Sequence[tuple[int, ...]], out_nodes: set[int], size: int
) -> list[frozenset[int]]:
    """Every gate's fan-out-free cone (the gate and the gates above it used only
    inside the cone) of exactly ``size`` gates: single-output windows, all of
    them, in node order (convex by construction)."""
    fo = fanouts(fanins)
    found: list[frozenset[int]] = []
    for n in range(len(fanins)):
        if not fanins[n]:
            continue
        cone = {n}
        for g in range(n - 1, -1, -1):
            if fanins[g] and g not in out_nodes and fo[g] and fo[g] <= cone:
                cone.add(g)
        if len(cone) == size:
            found.append(frozenset(cone))
    return found


def window_io(
    basis: Basis, circ: Any, window: frozenset[int], pool: bool
) -> tuple[list[int], list[int]]:
    """(inputs, outputs) of a convex ``window``: the nodes a program may read
    (its own fan-ins, or with ``pool`` every node outside its fan-out cone
    that is not free) and the gates of the window used outside it."""
    fanins = basis.fanins(circ)
    fo = fanouts(fanins)
    if pool:
        below = fanout_cone(fo, window) | window
        inputs = [i for i in range(len(fanins)) if i not in below and not basis.free(circ, i)]
    else:
        inputs = sorted({x for i in window for x in fanins[i] if x not in window})
    out_nodes = basis.output_nodes(circ)
    outputs = sorted(i for i in window if i in out_nodes or fo[i] - window)
    return inputs, outputs


def allowed_rows(
    basis: Basis, circ: Any, targets: Sequence[int], inputs: Sequence[int], outputs: Sequence[int]
) -> dict[tuple[int, ...], frozenset[tuple[int, ...]]]:
    """For each combination of input values that occurs: the window-output
    value vectors that keep every S-box output right on all its rows."""
    vals = basis.forced(circ, {})
    ok_rows: dict[tuple[int, ...], int] = {}
    for alpha in itertools.product((0, 1), repeat=len(outputs)):
        got = basis.forced(circ, {o: sbox_core.FULL if a else 0 for o, a in zip(outputs, alpha, strict=True)})
        wrong = 0
        for have, want in zip(basis.outputs(circ, got), targets, strict=True):
            wrong |= have ^ want
        ok_rows[alpha] = ~wrong & sbox_core.FULL
    allowed: dict[tuple[int, ...], frozenset[tuple[int, ...]]] = {}
    for x in range(64):
        key = tuple((vals[i] >> x) & 1 for i in inputs)
        here = frozenset(alpha for alpha, rows in ok_rows.items() if (rows >> x) & 1)
        allowed[key] = allowed.get(key, here) & here
    return allowed


# --- the SAT model --------------------------------------------------------------


def _table_bits(arity: int) -> list[tuple[tuple[int, ...], int]]:
    """(operand values, table bit) for every operand combination except all-zero
    (f(0, ..., 0) = 0).  Two inputs: bit 0 f(0,1), bit 1 f(1,0), bit 2 f(1,1)
    (:func:`tools.gen_sbox_circuits.window_gate`); three: bit (A<<2)|(B<<1)|C,
    as in a LUT's truth table byte."""
    combos = [c for c in itertools.product((0, 1), repeat=arity) if any(c)]
    if arity == 2:
        return [(c, k) for k, c in enumerate(combos)]
    return [(c, (c[0] << 2) | (c[1] << 1) | c[2]) for c in combos]


def solve_window(
    allowed: dict[tuple[int, ...], frozenset[tuple[int, ...]]],
    n_in: int, n_out: int, gates: int, seconds: float, arity: int = 2,
    positive: Sequence[int] = (),
    differ: tuple[int, Sequence[int]] | None = None, avoid: Sequence[Sequence[int]] = (),
    seed: int = 0,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, bool], ...]] | None:
    """A program of ``gates`` gates of ``arity`` inputs over ``n_in`` inputs whose
    ``n_out`` outputs (each a gate or an input, either polarity) take an allowed
    value vector on every row of ``allowed`` (:func:`allowed_rows`), or None
    (none exists, or the solver ran out of time).  Program gates are
    ``(operand, ..., table)`` with operands numbered inputs first, then gates.
    The outputs numbered in ``positive`` must come uncomplemented (for 2-input
    gates, whose tables all have f(0, 0) = 0: then no NOT is needed there).
    ``differ`` = (output o, its current value on each row of ``allowed``):
    output o must take another value on some row, and no program gate may
    compute a function of ``avoid`` (values on each row) or its complement
    (plateau moves, see :func:`try_window`); ``seed`` seeds the solver."""
    from ortools.sat.python import cp_model

    keys = list(allowed)
    m, k, nr = n_in, gates, len(keys)
    bits = _table_bits(arity)
    model = cp_model.CpModel()
    v = [[model.NewBoolVar("") for _ in range(nr)] for _ in range(k)]  # gate g on row r
    f = [{bit: model.NewBoolVar("") for _, bit in bits} for _ in range(k)]  # tables
    sels: list[list[list]] = []  # sels[g][slot][p]: operand ``slot`` of gate g is node p
    for g in range(k):
        n_prev = m + g
        slots = [[model.NewBoolVar("") for _ in range(n_prev)] for _ in range(arity)]
        for s in slots:
            model.AddExactlyOne(s)
        for lo, hi in itertools.pairwise(slots):  # operands strictly increasing
            for q in range(n_prev):
                model.AddBoolOr([hi[q].Not(), *lo[:q]])
        model.AddBoolOr(list(f[g].values()))  # not constant
        if arity == 2:  # not a copy of one operand (tables 0b110 = x, 0b101 = y)
            model.AddBoolOr([f[g][0], f[g][1].Not(), f[g][2].Not()])
            model.AddBoolOr([f[g][0].Not(), f[g][1], f[g][2].Not()])
        sels.append(slots)
        ops = [[model.NewBoolVar("") for _ in range(nr)] for _ in range(arity)]
        for sel, operand in zip(slots, ops, strict=True):
            for p in range(n_prev):
                for r in range(nr):
                    if p < m:
                        model.AddImplication(sel[p], operand[r] if keys[r][p] else operand[r].Not())
                    else:
                        w = v[p - m][r]
                        model.AddBoolOr([sel[p].Not(), operand[r].Not(), w])
                        model.AddBoolOr([sel[p].Not(), operand[r], w.Not()])
        for r in range(nr):
            out = v[g][r]
            model.AddBoolOr([*(o[r] for o in ops), out.Not()])  # f(0, ..., 0) = 0
            for combo, bit in bits:
                away = [o[r].Not() if c else o[r] for o, c in zip(ops, combo, strict=True)]
                model.AddBoolOr([*away, out.Not(), f[g][bit]])
                model.AddBoolOr([*away, out, f[g][bit].Not()])
    # y[o][r]: window output o on row r = the chosen node's value xor its polarity.
    y = [[model.NewBoolVar("") for _ in range(nr)] for _ in range(n_out)]
    choice_vars = []
    for o in range(n_out):
        pol = model.NewBoolVar("")
        if o in positive:
            model.Add(pol == 0)
        cands = []
        for n in range(m + k):
            c = model.NewBoolVar("")
            cands.append((n, c))
            for r in range(nr):
                yo = y[o][r]
                if n < m:  # y == input value xor pol
                    lit = pol if keys[r][n] else pol.Not()
                    model.AddBoolOr([c.Not(), yo, lit])
                    model.AddBoolOr([c.Not(), yo.Not(), lit.Not()])
                else:  # y == v xor pol
                    val = v[n - m][r]
                    for bv, bp in itertools.product((0, 1), repeat=2):
                        lv = val.Not() if bv else val
                        lp = pol.Not() if bp else pol
                        ly = yo if bv ^ bp else yo.Not()
                        model.AddBoolOr([c.Not(), lv, lp, ly])
        model.AddExactlyOne([c for _, c in cands])
        choice_vars.append((pol, cands))
    # Every gate is used (by a later gate or as an output): no dead gates, so
    # the solver need not prove the same thing for every place of a spare one.
    for g in range(k):
        n = m + g
        users = [s[n] for h in range(g + 1, k) for s in sels[h]]
        users += [c for _, cands in choice_vars for nn, c in cands if nn == n]
        model.AddBoolOr(users)
    if differ is not None:
        o, current = differ
        model.AddBoolOr([y[o][r].Not() if bit else y[o][r] for r, bit in enumerate(current)])
    for banned, g in itertools.product(avoid, range(k)):
        model.AddBoolOr([v[g][r].Not() if bit else v[g][r] for r, bit in enumerate(banned)])
        model.AddBoolOr([v[g][r] if bit else v[g][r].Not() for r, bit in enumerate(banned)])
    for r, key in enumerate(keys):
        for alpha in itertools.product((0, 1), repeat=n_out):
            if alpha not in allowed[key]:
                model.AddBoolOr([y[o][r] if bit == 0 else y[o][r].Not()
                                 for o, bit in enumerate(alpha)])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    status = solver.Solve(model)
    STATS[solver.StatusName(status)] += 1
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    program = []
    for g in range(k):
        operands = [next(p for p, lit in enumerate(s) if solver.Value(lit)) for s in sels[g]]
        table = sum(solver.Value(lit) << bit for bit, lit in f[g].items())
        program.append((*operands, table))
    choice = []
    for pol, cands in choice_vars:
        n = next(n for n, c in cands if solver.Value(c))
        choice.append((n, bool(solver.Value(pol))))
    return tuple(program), tuple(choice)


# --- search ---------------------------------------------------------------------


def try_window(
    basis: Basis, box: int, circ: Any, window: frozenset[int], seconds: float,
    max_inputs: int, pool: bool, strict: bool = False, plateau: random.Random | None = None,
) -> tuple[Any, Step] | None:
    """The circuit with ``window`` rebuilt from one gate fewer, when that
    makes the whole circuit smaller.

    NOTs count as free inside a window (the program's complements are free
    and :func:`tools.sbox_polarity.fix_polarity` places the NOTs that remain),
    so a program has one paid gate fewer than the window.  ``strict`` (2-input
    gates, windows holding a NOT) instead asks for as many 2-input gates as
    the window has, with every window output uncomplemented: the rest of the
    circuit sees the same signals, and the NOT is what goes.

    ``plateau`` (a random source) instead asks for as many paid gates as the
    window has, either with one inner window output (drawn at random)
    computing another function inside its don't-cares, or without one of the
    window's inner gates' functions (either polarity), and keeps the result
    when the circuit does not grow: a sideways move that changes the
    don't-cares and the readable nodes of the windows around it.
    """
    inputs, outputs = window_io(basis, circ, window, pool)
    if len(inputs) > max_inputs:
        return None
    paid = sum(not basis.free(circ, i) for i in window)
    gates, positive = paid - 1, []
    if strict:
        if paid == len(window):
            return None
        gates, positive = paid, list(range(len(outputs)))
    allowed = allowed_rows(basis, circ, sbox_core.box_targets(box), inputs, outputs)
    differ, avoid, seed = None, [], 0
    if plateau is not None:
        # Only inner nodes have don't-cares: the S-box outputs are fixed.
        box_outputs = basis.output_nodes(circ)
        inner = [o for o, node in enumerate(outputs) if node not in box_outputs]
        hidden = [i for i in window if i not in outputs and not basis.free(circ, i)]
        if not inner and not hidden:
            return None
        gates, seed = paid, plateau.randrange(1 << 30)
        vals = basis.forced(circ, {})
        rows = {tuple((vals[i] >> x) & 1 for i in inputs): x for x in range(64)}
        if inner and (not hidden or plateau.random() < 0.5):
            o = plateau.choice(inner)
            differ = (o, [(vals[outputs[o]] >> rows[key]) & 1 for key in allowed])
        else:
            avoid = [[(vals[plateau.choice(hidden)] >> rows[key]) & 1 for key in allowed]]
    found = solve_window(allowed, len(inputs), len(outputs), gates, seconds, basis.arity,
                         positive, differ, avoid, seed)
    if found is None:
        return None
    program, choice = found
    step = (tuple(outputs), tuple(inputs), program, choice)
    new = basis.splice(box, circ, step)
    sideways = plateau is not None and basis.size(new) == basis.size(circ)
    if basis.size(new) < basis.size(circ) or sideways:
        return new, step
    return None


def search(
    basis: Basis, box: int, circ: Any, sizes: Sequence[int], tries: int, seconds: float,
    max_inputs: int, seed: int, budget: float, pool: bool = True, strict: bool = False,
    cones: bool = False, plateau: float = 0.0,
) -> tuple[Any, list[Step]]:
    """Greedy: the first window (smallest sizes first) that shrinks the circuit,
    repeated until none does or ``budget`` seconds have passed.  Windows are
    drawn at random (:func:`random_windows`), or with ``cones`` are all
    fan-out-free cones (:func:`cone_windows`).

    With ``plateau`` > 0, a window that cannot shrink is, with that
    probability, rebuilt sideways (same size, an inner output changed inside
    its don't-cares or an inner gate's function avoided; see
    :func:`try_window`), and the search goes on from there.
    Returns the smallest circuit met and the steps that lead to it."""
    rng = random.Random(f"{seed}:{box}")
    steps: list[Step] = []
    best = (basis.size(circ), circ, 0)
    start = time.monotonic()
    tried: set[tuple[frozenset[int], int]] = set()
    improved = fresh = True
    # Greedy passes until one changes nothing; with sideways moves, until the
    # budget is spent or a pass finds no window it has not tried.
    while (improved or (plateau and fresh)) and time.monotonic() - start < budget:
        improved = fresh = False
        for size in sizes:
            starts = [i for i in range(len(basis.fanins(circ))) if basis.free(circ, i)]
            if strict and not starts:
                return circ, steps
            if cones:
                windows = cone_windows(basis.fanins(circ), basis.output_nodes(circ), size)
            else:
                windows = random_windows(basis.fanins(circ), size, tries, rng,
                                         starts if strict else None)
            for w in windows:
                if time.monotonic() - start > budget:
                    break
                if (w, len(steps)) in tried:
                    continue
                tried.add((w, len(steps)))
                fresh = True
                got = try_window(basis, box, circ, w, seconds, max_inputs, pool, strict)
                kind = "window"
                if got is None and rng.random() < plateau:
                    got = try_window(basis, box, circ, w, seconds, max_inputs, pool, strict, rng)
                    kind = "sideways"
                if got is not None:
                    circ, step = got
                    steps.append(step)
                    if basis.size(circ) < best[0]:
                        best = (basis.size(circ), circ, len(steps))
                    print(f"S{box + 1} {kind} {sorted(w)}: {basis.size(circ)} gates "
                          f"({time.monotonic() - start:.0f} s)\n    step {step!r}", flush=True)
                    improved = True
                    break
            if improved:
                break
    return best[1], steps[: best[2]]


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point: search, print the steps to record."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--boxes", default="1-8")
    ap.add_argument("--luts", action="store_true", help="the 3-input-LUT circuits")
    ap.add_argument("--sizes", default="3-9", help="window sizes in gates, e.g. 3-9")
    ap.add_argument("--tries", type=int, default=40, help="random windows drawn per size")
    ap.add_argument("--seconds", type=float, default=10.0, help="solver time per window")
    ap.add_argument("--max-inputs", type=int, default=99)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=1200.0, help="seconds per box")
    ap.add_argument("--no-pool", action="store_true",
                    help="programs read only the window's own inputs")
    ap.add_argument("--strict", action="store_true",
                    help="2-input gates: windows around a NOT, rebuilt without it "
                    "(same output signals, no complements)")
    ap.add_argument("--cones", action="store_true",
                    help="every fan-out-free cone of each size instead of random windows")
    ap.add_argument("--plateau", type=float, default=0.0,
                    help="probability of a sideways rebuild of a window that cannot shrink")
    args = ap.parse_args(argv)
    basis = LUTS if args.luts else GATES
    lo, hi = (int(x) for x in args.sizes.split("-"))
    for box in sbox_core.parse_boxes(args.boxes):
        circ = basis.recorded(box)
        start = time.monotonic()
        print(f"S{box + 1}: {basis.size(circ)} gates", flush=True)
        circ, steps = search(basis, box, circ, range(lo, hi + 1), args.tries, args.seconds,
                             args.max_inputs, args.seed, args.budget, not args.no_pool,
                             args.strict, args.cones, args.plateau)
        print(f"S{box + 1}: {basis.size(circ)} gates after {len(steps)} window steps "
              f"({time.monotonic() - start:.0f} s, solver {dict(STATS)})\n  steps {tuple(steps)!r}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
