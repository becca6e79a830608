"""Polarity assignment for gate circuits: as few NOT gates as possible.

Written for numbades' S-box circuit generator (:mod:`tools.gen_sbox_circuits`).
In the basis AND, OR, XOR, ANDNOT (``x & ~y``) and NOT, a circuit's logic
fixes every gate's output *polarity* once the polarities of its operands are
fixed, so the NOTs that the synthesis leaves (mostly in front of outputs) are
the price of the polarities it happened to pick.  Seen as logic over
literals, every non-XOR gate is ``oc ^ ((x ^ cx) & (y ^ cy))``; with operand
signals ``x ^ qx`` and ``y ^ qy`` available it costs one gate, producing
``x & y`` polarity ``oc`` unless both literals need an inverted operand
(``cx ^ qx`` and ``cy ^ qy`` both 1), when it is an OR producing polarity
``oc ^ 1``.  An XOR gate's polarity is the parity of its operands'.

A NOT on a node makes both polarities available to each of its consumers.
:func:`fix_polarity` searches for the smallest set of nodes (inputs
included) to give a NOT such that some choice of polarity per consumer edge
makes every output come out uncomplemented: sets of size 0, 1, 2, ... up to
one less than the NOTs the circuit has now.  For a given set, all edge
choices are propagated at once, bitsliced over the choice combinations with
Python integers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

Ops = list[tuple[str, int, int]]
Circuit = tuple[Ops, list[int]]

#: Edge choices bitsliced per node (2**MAX_EDGES combinations at once).
MAX_EDGES = 12


@dataclass(frozen=True)
class Gate:
    """A non-NOT gate over base nodes: XOR, or ``oc ^ ((x ^ cx) & (y ^ cy))``."""

    xor: bool
    x: int
    y: int
    cx: int
    cy: int
    oc: int  # for XOR: the constant complement of the result


def normalize(
    ops: Sequence[tuple[str, int, int]], outs: Sequence[int]
) -> tuple[dict[int, Gate], list[tuple[int, int]]]:
    """Gates over base (non-NOT) nodes, and the outputs as (base, complement).

    NOT nodes become complemented references to their operand's base node.
    """
    lit: dict[int, tuple[int, int]] = {}
    gates: dict[int, Gate] = {}
    for i, (op, a, b) in enumerate(ops):
        if op == "in":
            lit[i] = (i, 0)
            continue
        if op == "not":
            base, c = lit[a]
            lit[i] = (base, c ^ 1)
            continue
        (x, cx), (y, cy) = lit[a], lit[b]
        if op == "xor":
            gates[i] = Gate(True, x, y, 0, 0, cx ^ cy)
        elif op == "and":
            gates[i] = Gate(False, x, y, cx, cy, 0)
        elif op == "andnot":
            gates[i] = Gate(False, x, y, cx, cy ^ 1, 0)
        elif op == "or":
            gates[i] = Gate(False, x, y, cx ^ 1, cy ^ 1, 1)
        else:
            raise ValueError(op)
        lit[i] = (i, 0)
    return gates, [lit[o] for o in outs]


def _choice_patterns(n_edges: int) -> list[int]:
    """Bit masks over 2**n_edges combinations: bit j of pattern k is bit k of j."""
    width = 1 << n_edges
    pats = []
    for k in range(n_edges):
        block = ((1 << (1 << k)) - 1) << (1 << k)  # 2**k zeros then 2**k ones
        period = 1 << (k + 1)
        pat = 0
        for start in range(0, width, period):
            pat |= block << start
        pats.append(pat)
    return pats


def _solve(
    gates: dict[int, Gate],
    order: Sequence[int],
    outs: Sequence[tuple[int, int]],
    nots: frozenset[int],
) -> dict[tuple[int, int], int] | None:
    """Edge choices making every output uncomplemented with NOTs on ``nots``.

    Returns {(gate, operand slot): operand polarity} for edges from ``nots``
    nodes, or None if no choice works.
    """
    edges = [(g, s) for g in order for s, src in ((0, gates[g].x), (1, gates[g].y)) if src in nots]
    if len(edges) > MAX_EDGES:
        return None
    full = (1 << (1 << len(edges))) - 1
    pats = dict(zip(edges, _choice_patterns(len(edges)), strict=True))
    pol: dict[int, int] = {}

    def operand(g: int, slot: int, src: int) -> int:
        if src in nots:
            return pats[(g, slot)]
        return pol.get(src, 0)  # inputs have polarity 0

    for g in order:
        gate = gates[g]
        qx = operand(g, 0, gate.x)
        qy = operand(g, 1, gate.y)
        if gate.xor:
            pol[g] = qx ^ qy ^ (full if gate.oc else 0)
        else:
            ex = qx ^ (full if gate.cx else 0)
            ey = qy ^ (full if gate.cy else 0)
            pol[g] = (ex & ey) ^ (full if gate.oc else 0)
    ok = full
    for base, c in outs:
        if base not in nots:
            ok &= ~(pol.get(base, 0) ^ (full if c else 0))
    if not ok:
        return None
    combo = (ok & -ok).bit_length() - 1
    return {e: (combo >> k) & 1 for k, e in enumerate(edges)}


def _emit(
    n_inputs: int,
    gates: dict[int, Gate],
    order: Sequence[int],
    outs: Sequence[tuple[int, int]],
    nots: frozenset[int],
    choice: dict[tuple[int, int], int],
) -> Circuit:
    """Write the circuit out with the chosen polarities and NOTs."""
    ops: Ops = [("in", i, -1) for i in range(n_inputs)]
    phys: dict[int, int] = {i: i for i in range(n_inputs)}  # base -> op index
    inv: dict[int, int] = {}  # base -> op index of its NOT
    pol: dict[int, int] = {}

    def add_not(base: int) -> None:
        if base in nots:
            ops.append(("not", phys[base], -1))
            inv[base] = len(ops) - 1

    for i in range(n_inputs):
        add_not(i)

    def operand(g: int, slot: int, src: int) -> tuple[int, int]:
        """(op index, polarity) of the signal gate g reads."""
        p = pol.get(src, 0)
        if src in nots and choice[(g, slot)] != p:
            return inv[src], p ^ 1
        return phys[src], p

    for g in order:
        gate = gates[g]
        ix, qx = operand(g, 0, gate.x)
        iy, qy = operand(g, 1, gate.y)
        if gate.xor:
            ops.append(("xor", ix, iy))
            pol[g] = qx ^ qy ^ gate.oc
        else:
            ex, ey = qx ^ gate.cx, qy ^ gate.cy
            if ex and ey:
                ops.append(("or", ix, iy))
            elif ex:
                ops.append(("andnot", iy, ix))
            elif ey:
                ops.append(("andnot", ix, iy))
            else:
                ops.append(("and", ix, iy))
            pol[g] = (ex & ey) ^ gate.oc
        phys[g] = len(ops) - 1
        add_not(g)
    out_idx = []
    for base, c in outs:
        if pol.get(base, 0) == c:
            out_idx.append(phys[base])
        else:
            out_idx.append(inv[base])
    return ops, out_idx


def count_nots(ops: Sequence[tuple[str, int, int]]) -> int:
    """Number of NOT gates in a circuit."""
    return sum(op == "not" for op, _, _ in ops)


def fix_polarity(circ: Circuit, n_inputs: int = 6, max_nots: int = 3) -> Circuit:
    """The circuit with the fewest NOTs found (searching NOT sets up to ``max_nots``).

    The logic is unchanged apart from NOT placement, so the result computes the
    same outputs; it is returned only if it has fewer gates.
    """
    ops, outs = circ
    have = count_nots(ops)
    if have == 0:
        return circ
    gates, lits = normalize(ops, outs)
    order = sorted(gates)
    # Nodes that feed a gate or an output (only those can usefully carry a NOT).
    used = sorted(
        {g.x for g in gates.values()} | {g.y for g in gates.values()} | {b for b, _ in lits}
    )
    for size in range(min(have, max_nots + 1)):
        for nots in itertools.combinations(used, size):
            key = frozenset(nots)
            choice = _solve(gates, order, lits, key)
            if choice is not None:
                return _emit(n_inputs, gates, order, lits, key, choice)
    return circ
