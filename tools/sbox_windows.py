"""Exact resynthesis of small windows of an S-box circuit with a SAT solver.

The searches in :mod:`tools.gen_sbox_circuits` are heuristic: they build a
gate at a time.  This one is exact, on a small scale.  It is written for
numbades and follows the published *method* of SAT-based circuit
minimisation (Kojevnikov, Kulikov and Yaroslavtsev, "Finding efficient
circuits using SAT-solvers", SAT 2009: encode "a circuit of k gates computes
these functions" as a satisfiability problem and let a solver search):

* A *window* is a convex set W of gates: no path leaves W and comes back.
  Its inputs are the nodes outside W that feed it; its outputs are the gates
  of W used outside W (or as S-box outputs).
* Over the 64 S-box inputs, each window input and output is a known truth
  table.  Only the rows (combinations of window-input values) that occur
  matter; the others are don't-cares, which is where the savings hide.
* The CP-SAT solver (Google OR-tools) is asked for a program of |W| - 1
  two-input gates over the window inputs that computes every window output,
  up to complement (complements are free in the signed-signal circuits, and
  :func:`tools.sbox_polarity.fix_polarity` places the NOTs that remain).
* With ``--pool`` the program may also read any other node of the circuit
  that does not depend on the window (every node outside the window's fan-out
  cone, S-box inputs included): the rows are then the 64 S-box inputs, and a
  window can shrink by reusing gates another output already built.  This is
  the mode that found gains; with the window's own inputs only, windows of
  3-10 gates on S4, S6 and S8 were already optimal or timed out.
* A program found is spliced in (:func:`tools.gen_sbox_circuits.rebuild_window`)
  and kept when the polarity-fixed circuit is smaller.  The greedy search
  restarts after every gain.

Each gain is printed as an explicit step (window, inputs, program, output
choices): the generator replays the steps from
``tools.gen_sbox_circuits.WINDOWS`` with no solver, so only this search needs
OR-tools (``pip install ortools``; not a dependency of numbades or its
tests).

Run: ``python -m tools.sbox_windows --boxes 1,6 --sizes 3-9 --tries 40 --seconds 10
--max-inputs 99 --pool``
"""

from __future__ import annotations

import argparse
import collections
import itertools
import random
import time
from collections.abc import Sequence

from tools import gen_sbox_circuits as gen

Circuit = gen.Circuit


def fanouts(ops: Sequence[tuple[str, int, int]]) -> dict[int, set[int]]:
    """Consumers of every node."""
    out: dict[int, set[int]] = {i: set() for i in range(len(ops))}
    for i, (op, a, b) in enumerate(ops):
        if op == "in":
            continue
        out[a].add(i)
        if b >= 0:
            out[b].add(i)
    return out


def window_io(circ: Circuit, window: frozenset[int]) -> tuple[list[int], list[int]] | None:
    """(inputs, outputs) of ``window``, or None when it is not convex."""
    ops, outs = circ
    fo = fanouts(ops)
    inputs = sorted(
        {x for i in window for x in ops[i][1:] if x >= 0 and x not in window}
    )
    outputs = sorted(i for i in window if i in outs or fo[i] - window)
    # Convex: nothing reachable from the window outside it feeds back into it.
    stack = [j for i in window for j in fo[i] if j not in window]
    seen: set[int] = set()
    while stack:
        j = stack.pop()
        if j in seen:
            continue
        seen.add(j)
        if fo[j] & window:
            return None
        stack.extend(fo[j] - window)
    return inputs, outputs


#: Solver outcomes so far (printed by :func:`main`).
STATS: collections.Counter[str] = collections.Counter()

#: A grown window may gain this many gates from its convex closure.
CLOSURE_SLACK = 2


def random_windows(
    circ: Circuit, size: int, tries: int, rng: random.Random
) -> list[frozenset[int]]:
    """Convex sets of ``size`` to ``size + CLOSURE_SLACK`` gates, grown at random
    from one gate over fan-ins and fan-outs, then closed (:func:`convex_closure`)."""
    ops, _ = circ
    fo = fanouts(ops)
    gates = list(range(6, len(ops)))
    found: set[frozenset[int]] = set()
    for _ in range(tries):
        w = {rng.choice(gates)}
        while len(w) < size:
            border = sorted(
                {x for i in w for x in ops[i][1:] if x >= 6}
                | {j for i in w for j in fo[i]}
            )
            border = [x for x in border if x not in w]
            if not border:
                break
            w.add(rng.choice(border))
        w = convex_closure(ops, fo, w)
        if size <= len(w) <= size + CLOSURE_SLACK:
            found.add(frozenset(w))
    return sorted(found, key=sorted)


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
    ops: Sequence[tuple[str, int, int]], fo: dict[int, set[int]], window: set[int]
) -> set[int]:
    """``window`` plus every node on a path from it back into it."""
    below = fanout_cone(fo, window)
    above: set[int] = set()  # reaching the window
    stack = [x for i in window for x in ops[i][1:] if x >= 0]
    while stack:
        x = stack.pop()
        if x not in above and ops[x][0] != "in":
            above.add(x)
            stack.extend(y for y in ops[x][1:] if y >= 0)
    return window | (below & above)


def allowed_rows(
    circ: Circuit, targets: Sequence[int], inputs: Sequence[int], outputs: Sequence[int]
) -> dict[tuple[int, ...], frozenset[tuple[int, ...]]]:
    """For each combination of window-input values that occurs: the window-output
    value vectors that keep every S-box output right on all its rows.

    This is the window's joint don't-care set: the circuit is evaluated
    (bitsliced over the 64 S-box inputs) once per output vector, with the
    window outputs forced to it.
    """
    ops, outs = circ
    vals = gen._eval_all(ops)
    ok_rows: dict[tuple[int, ...], int] = {}
    for alpha in itertools.product((0, 1), repeat=len(outputs)):
        forced = dict(zip(outputs, alpha, strict=True))
        got: list[int] = []
        for i, (op, a, b) in enumerate(ops):
            if i in forced:
                got.append(gen.FULL if forced[i] else 0)
            elif op == "in":
                got.append(gen.INPUTS[a])
            elif op == "not":
                got.append(got[a] ^ gen.FULL)
            elif op == "and":
                got.append(got[a] & got[b])
            elif op == "andnot":
                got.append(got[a] & ~got[b] & gen.FULL)
            elif op == "or":
                got.append(got[a] | got[b])
            else:
                got.append(got[a] ^ got[b])
        wrong = 0
        for o, t in zip(outs, targets, strict=True):
            wrong |= got[o] ^ t
        ok_rows[alpha] = ~wrong & gen.FULL
    allowed: dict[tuple[int, ...], frozenset[tuple[int, ...]]] = {}
    for x in range(64):
        key = tuple((vals[i] >> x) & 1 for i in inputs)
        here = frozenset(alpha for alpha, rows in ok_rows.items() if (rows >> x) & 1)
        allowed[key] = allowed.get(key, here) & here
    return allowed


def solve_window(
    allowed: dict[tuple[int, ...], frozenset[tuple[int, ...]]],
    n_in: int, n_out: int, gates: int, seconds: float,
) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, bool], ...]] | None:
    """A program of ``gates`` 2-input gates over ``n_in`` inputs whose ``n_out``
    outputs (each a gate or an input, either polarity) take an allowed value
    vector on every row of ``allowed`` (:func:`allowed_rows`), or None (none
    exists, or the solver ran out of time)."""
    from ortools.sat.python import cp_model

    keys = list(allowed)
    m, k, nr = n_in, gates, len(keys)
    model = cp_model.CpModel()
    # v[g][r]: value of gate g on row r; table bits f[g][0..2] = f(0,1), f(1,0), f(1,1).
    v = [[model.NewBoolVar("") for _ in range(nr)] for _ in range(k)]
    f = [[model.NewBoolVar("") for _ in range(3)] for _ in range(k)]
    left: list[list] = []
    right: list[list] = []
    for g in range(k):
        n_prev = m + g
        lf = [model.NewBoolVar("") for _ in range(n_prev)]
        rt = [model.NewBoolVar("") for _ in range(n_prev)]
        model.AddExactlyOne(lf)
        model.AddExactlyOne(rt)
        for q in range(n_prev):  # left operand strictly before the right one
            model.AddBoolOr([rt[q].Not(), *lf[:q]])
        model.AddBoolOr(f[g])  # not constant 0
        # Not a copy of one operand (tables 0b110 = x, 0b101 = y).
        model.AddBoolOr([f[g][0], f[g][1].Not(), f[g][2].Not()])
        model.AddBoolOr([f[g][0].Not(), f[g][1], f[g][2].Not()])
        left.append(lf)
        right.append(rt)
        # a, b: the operands' values on each row.
        a = [model.NewBoolVar("") for _ in range(nr)]
        b = [model.NewBoolVar("") for _ in range(nr)]
        for sel, operand in ((lf, a), (rt, b)):
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
            model.AddBoolOr([a[r], b[r], out.Not()])  # f(0, 0) = 0
            for bit, (pa, pb) in enumerate(((0, 1), (1, 0), (1, 1))):
                la = a[r].Not() if pa else a[r]
                lb = b[r].Not() if pb else b[r]
                model.AddBoolOr([la, lb, out.Not(), f[g][bit]])
                model.AddBoolOr([la, lb, out, f[g][bit].Not()])
    # y[o][r]: window output o on row r = the chosen node's value xor its polarity.
    y = [[model.NewBoolVar("") for _ in range(nr)] for _ in range(n_out)]
    choice_vars = []
    for o in range(n_out):
        pol = model.NewBoolVar("")
        cands = []
        for n in range(m + k):
            c = model.NewBoolVar("")
            cands.append((n, c))
            for r in range(nr):
                yo = y[o][r]
                if n < m:  # y == key bit xor pol
                    if keys[r][n]:
                        model.AddBoolOr([c.Not(), yo, pol])
                        model.AddBoolOr([c.Not(), yo.Not(), pol.Not()])
                    else:
                        model.AddBoolOr([c.Not(), yo.Not(), pol])
                        model.AddBoolOr([c.Not(), yo, pol.Not()])
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
        users = [left[h][n] for h in range(g + 1, k)] + [right[h][n] for h in range(g + 1, k)]
        users += [c for _, cands in choice_vars for nn, c in cands if nn == n]
        model.AddBoolOr(users)
    for r, key in enumerate(keys):
        for alpha in itertools.product((0, 1), repeat=n_out):
            if alpha not in allowed[key]:
                model.AddBoolOr([y[o][r] if bit == 0 else y[o][r].Not()
                                 for o, bit in enumerate(alpha)])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    status = solver.Solve(model)
    STATS[solver.StatusName(status)] += 1
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    program = []
    for g in range(k):
        x = next(p for p, lit in enumerate(left[g]) if solver.Value(lit))
        yy = next(p for p, lit in enumerate(right[g]) if solver.Value(lit))
        table = sum(solver.Value(f[g][bit]) << bit for bit in range(3))
        program.append((x, yy, table))
    choice = []
    for pol, cands in choice_vars:
        n = next(n for n, c in cands if solver.Value(c))
        choice.append((n, bool(solver.Value(pol))))
    return tuple(program), tuple(choice)


def pool_inputs(circ: Circuit, window: frozenset[int]) -> list[int]:
    """Every node the window may read without making a cycle: all nodes except
    the window's gates and everything reachable from them."""
    ops, _ = circ
    below = fanout_cone(fanouts(ops), window) | window
    return [i for i in range(len(ops)) if i not in below and ops[i][0] != "not"]


def try_window(
    box: int, circ: Circuit, window: frozenset[int], seconds: float, max_inputs: int,
    pool: bool = False,
) -> tuple[Circuit, gen.WindowStep] | None:
    """The circuit with ``window`` rebuilt from one gate fewer, when that is
    smaller once polarity-fixed.  With ``pool`` the program may read any node
    outside the window's fan-out cone, not just the window's own inputs."""
    io = window_io(circ, window)
    if io is None:
        return None
    inputs, outputs = io
    if len(inputs) > max_inputs:
        return None
    if pool:
        inputs = pool_inputs(circ, window)
    ops = circ[0]
    # NOTs are free inside the program (its outputs come in either polarity),
    # so ask for one 2-input gate fewer than the window has.
    two_input = sum(ops[i][0] != "not" for i in window)
    allowed = allowed_rows(circ, gen.box_targets(box), inputs, outputs)
    found = solve_window(allowed, len(inputs), len(outputs), two_input - 1, seconds)
    if found is None:
        return None
    program, choice = found
    step = (tuple(outputs), tuple(inputs), program, choice)
    new = gen.fix_polarity(gen.rebuild_window(circ, step))
    assert gen.evaluate(*new) == gen.box_targets(box)
    if len(new[0]) < len(circ[0]):
        return new, step
    return None


def search(
    box: int, circ: Circuit, sizes: Sequence[int], tries: int, seconds: float,
    max_inputs: int, seed: int, budget: float, pool: bool = False,
) -> tuple[Circuit, list[gen.WindowStep]]:
    """Greedy: the first window (smallest sizes first) that shrinks the circuit,
    repeated until none does or ``budget`` seconds have passed."""
    rng = random.Random(f"{seed}:{box}")
    steps: list[gen.WindowStep] = []
    start = time.monotonic()
    tried: set[tuple[frozenset[int], tuple]] = set()
    improved = True
    while improved and time.monotonic() - start < budget:
        improved = False
        key_ops = tuple(circ[0])
        for size in sizes:
            for w in random_windows(circ, size, tries, rng):
                if time.monotonic() - start > budget:
                    break
                if (w, key_ops) in tried:
                    continue
                tried.add((w, key_ops))
                got = try_window(box, circ, w, seconds, max_inputs, pool)
                if got is not None:
                    circ, step = got
                    steps.append(step)
                    print(f"S{box + 1} window {sorted(w)}: {len(circ[0]) - 6} gates "
                          f"({time.monotonic() - start:.0f} s)\n    step {step!r}", flush=True)
                    improved = True
                    break
            if improved:
                break
    return circ, steps


def recorded(box: int) -> Circuit:
    """The circuit the generator records for ``box`` (0-based)."""
    _, _, circ = gen.attempt(box, 1, gen.BEST_ATTEMPTS[box])
    circ = gen.apply_reroutes(box, circ, gen.REROUTES.get(box, ()))
    return gen.apply_windows(box, circ, gen.WINDOWS.get(box, ()))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", default="1-8")
    ap.add_argument("--sizes", default="3-7", help="window sizes in gates, e.g. 3-7")
    ap.add_argument("--tries", type=int, default=400, help="random windows drawn per size")
    ap.add_argument("--seconds", type=float, default=5.0, help="solver time per window")
    ap.add_argument("--max-inputs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per box")
    ap.add_argument("--pool", action="store_true",
                    help="let programs read any node outside the window's fan-out cone")
    args = ap.parse_args(argv)
    boxes = gen.parse_boxes(args.boxes)
    lo, hi = (int(x) for x in args.sizes.split("-"))
    for box in boxes:
        circ = recorded(box)
        start = time.monotonic()
        print(f"S{box + 1}: {len(circ[0]) - 6} gates", flush=True)
        circ, steps = search(box, circ, range(lo, hi + 1), args.tries, args.seconds,
                             args.max_inputs, args.seed, args.budget, args.pool)
        print(f"S{box + 1}: {len(circ[0]) - 6} gates after {len(steps)} window steps "
              f"({time.monotonic() - start:.0f} s, solver {dict(STATS)})\n  steps {tuple(steps)!r}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
