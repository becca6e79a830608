"""Generate 3-input-LUT circuits for the eight DES S-boxes.

The output, ``numbades/engines/bitslice/sboxes/sbox_luts_gen.py``, holds per S-box a
straight-line program of 3-input Boolean functions (each an 8-bit truth
table over three earlier nodes), for vector units with a ternary-logic
instruction (AVX-512 ``vpternlogq``), where any such function costs one
instruction.  It also holds one plain Python function per box using only
``& | ^ ~`` that LLVM can fuse back into one ternary op per LUT.

Method (written for numbades; it follows the *idea* of Kwan's multiplexer
decomposition, extended to 3-input functions, and reuses no published
circuit):

* Signals are 64-bit truth tables over the S-box inputs (bit ``x`` = value on
  input ``x``) and are *signed*: a complement is free, because it folds into
  the truth table of every consumer (and, for an output, of its producer).
* A target is built on a care mask.  Leaf search: an existing node equal to it
  (up to complement) on the mask costs nothing; one new LUT of three existing
  nodes exists iff for some triple all 8 cells of the triple's partition of
  the mask are constant in the target, checked for all triples at once with
  numpy.
* Otherwise the target is decomposed on a selector input ``s`` with one LUT
  ``F(s, g, h)``: the multiplexer (``g`` on ``~s``, ``h`` on ``s``),
  ``g ^ (s & h)``, ``g | (s & h)`` or ``g & ~(s & h)`` (each also with
  ``~s``).  ``g`` is built first with all the freedom the form allows, then
  ``h`` for what is left; both recurse with ``s`` removed.
* One selector order per attempt is shared by the four outputs, whose nodes
  go into one pool (outputs in a random order), so leaves are functions of
  the same inputs on the same care sets and are shared.  Mode ``perm``
  enumerates the first three selectors (attempt ``r`` uses prefix
  ``r mod 120``); the rest of the order is drawn from the attempt's rng.
* Post-passes: dead nodes are removed; *resubstitution* (:func:`resub`)
  re-expresses each node, under its observability don't-cares (computed
  bitsliced by complementing it), as an existing node or one LUT of nodes
  outside its fan-out and its fan-out-free cone, keeping the result when the
  circuit shrinks (this also merges a LUT into its consumer whenever the
  merged function has at most three inputs); the final pass also tries two
  new LUTs ``F(x, y, G)`` with ``x``, ``y`` any existing nodes ("wide");
  *rip-up and reroute* (:func:`reroute`) rebuilds one output over the other outputs' nodes with
  every selector prefix and keeps the smallest circuit.
* *Walk* (:func:`walk`): a random walk over rewrites of single nodes that
  keep the size (the node re-expressed under its care set as an existing
  node or one LUT of any nodes outside its fan-out, including its own cone,
  a few that grow it by one), each followed by resubstitution, escapes the
  local minima of the greedy passes; its steps are recorded and replayed.
* *Pair resubstitution* (:func:`pair_moves`): two nodes become
  ``F1(x1, y1, G)`` and ``F2(x2, y2, G)`` over one shared new LUT ``G`` of an
  existing triple, replacing the pair's joint fan-out-free cone by three
  LUTs.  Per node and operand pair ``(x, y)``, ``G`` must match the node (up
  to one polarity per ``(x, y)`` cell) where it is not constant, which fixes
  some bits of ``G``'s table for every triple at once; the two nodes' sets of
  admissible (triple, table) are intersected.  Used greedily (``--pair``) and
  as a share of the walk's moves (``--walk-pair P``).
* *Window rewrites* (:func:`rebuild_window`, recorded in :data:`WINDOWS`,
  applied last): a convex set of LUTs is replaced by a program of fewer LUTs
  over any nodes outside its fan-out cone, found exactly (under the window's
  joint don't-cares) by a SAT solver in :mod:`tools.sbox_windows` and
  recorded as explicit programs, so the replay needs no solver.

Everything is deterministic for a given ``--seed``.  The winners of the
search are recorded in :data:`BEST_ATTEMPTS`; the default run replays only
those (a few seconds) and rewrites the committed module exactly.

Run: ``python -m tools.gen_sbox_luts`` replays the recorded winners (about a
minute, one process) and writes the module.  Searches only print what to
record: ``--restarts N [--first M] [--prefixes ...] [--wide]`` runs attempts
M..N-1 per box (``--wide`` ranks them after the final wide resubstitution);
``--reroute [--reroute-every K] [--reroute-leaf2 D]`` runs rip-up and reroute
on the recorded winners, ``--walk N [--walk-seed S] [--walk-pair P]`` the walk,
``--pair`` the greedy pair resubstitution.  The searches behind the recorded winners
(one process each) are listed at :data:`BEST_ATTEMPTS`.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools import gen_sbox_circuits as gates
from tools import stamp_kernel_sources

FULL = gates.FULL
INPUTS = gates.INPUTS

Signal = tuple[int, bool]  # (node index, complemented); index -1 is the constant 0
ZERO: Signal = (-1, False)
ONE: Signal = (-1, True)
Lut = tuple[int, int, int, int]  # (truth table byte, a, b, c); bit (A<<2)|(B<<1)|C
Circuit = tuple[list[Lut], list[Signal]]  # non-input steps (node 6+i) and o1..o4

_TRIPLES: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _triples(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index arrays (I, J, K) of all triples i < j < k < n (cached)."""
    if n not in _TRIPLES:
        arr = np.array(list(itertools.combinations(range(n), 3)), dtype=np.intp).reshape(-1, 3)
        _TRIPLES[n] = (arr[:, 0], arr[:, 1], arr[:, 2])
    return _TRIPLES[n]


def lut_value(tt: int, a: int, b: int, c: int) -> int:
    """Truth table of LUT ``tt`` applied to the 64-bit tables ``a``, ``b``, ``c``."""
    val = 0
    for idx in range(8):
        if (tt >> idx) & 1:
            val |= (
                (a if idx & 4 else ~a) & (b if idx & 2 else ~b) & (c if idx & 1 else ~c) & FULL
            )
    return val


class State:
    """A partial LUT circuit: node values, how each was made, and a value index."""

    __slots__ = ("index", "ops", "vals")

    def __init__(self) -> None:
        self.vals: list[int] = list(INPUTS)
        self.ops: list[Lut | None] = [None] * 6
        self.index: dict[int, int] = {v: i for i, v in enumerate(INPUTS)}

    def copy(self) -> State:
        """An independent copy (the search branches by copying)."""
        st = State.__new__(State)
        st.vals = self.vals.copy()
        st.ops = self.ops.copy()
        st.index = self.index.copy()
        return st

    @property
    def luts(self) -> int:
        """Number of LUTs (non-input nodes)."""
        return len(self.vals) - 6

    def value(self, sig: Signal) -> int:
        """Truth table of a signed signal."""
        idx, neg = sig
        v = 0 if idx < 0 else self.vals[idx]
        return v ^ FULL if neg else v

    def make(self, fn: Callable[[int, int, int], int], sigs: Sequence[Signal]) -> Signal:
        """One LUT computing ``fn`` (of three 0/1 values) of three signed signals.

        Constants, complements and repeated nodes fold into the truth table;
        operands the function does not depend on are dropped (a one-operand
        result needs no node); unused operand slots get a dummy node.  A
        value that exists already (or its complement) is reused.
        """
        nodes = sorted({i for i, _ in sigs if i >= 0})
        k = len(nodes)
        table = []
        for assign in range(1 << k):
            bit = {n: (assign >> (k - 1 - p)) & 1 for p, n in enumerate(nodes)}
            vals = [(bit[i] if i >= 0 else 0) ^ int(neg) for i, neg in sigs]
            table.append(fn(*vals) & 1)
        # Drop operands the function ignores.
        for p in range(k - 1, -1, -1):
            sh = k - 1 - p
            if all(table[x] == table[x ^ (1 << sh)] for x in range(1 << k)):
                table = [table[x] for x in range(1 << k) if not (x >> sh) & 1]
                nodes.pop(p)
                k -= 1
        if k == 0:
            return ONE if table[0] else ZERO
        if k == 1:
            return (nodes[0], table[0] == 1)
        while len(nodes) < 3:
            nodes.append(next(i for i in range(len(self.vals)) if i not in nodes))
            table = [table[x >> 1] for x in range(2 * len(table))]
        tt = sum(bit << x for x, bit in enumerate(table))
        return self.add_lut(tt, nodes[0], nodes[1], nodes[2])

    def add_lut(self, tt: int, a: int, b: int, c: int) -> Signal:
        """Add LUT ``tt`` of nodes a, b, c unless its value (or complement) exists."""
        value = lut_value(tt, self.vals[a], self.vals[b], self.vals[c])
        if value in self.index:
            return (self.index[value], False)
        if value ^ FULL in self.index:
            return (self.index[value ^ FULL], True)
        self.vals.append(value)
        self.ops.append((tt, a, b, c))
        self.index[value] = len(self.vals) - 1
        return (len(self.vals) - 1, False)


def leaf_search(st: State, t: int, mask: int, new: bool = True) -> Signal | None:
    """Build ``t`` on ``mask`` from existing nodes with at most one new LUT.

    Returns the signal (a LUT is added to ``st`` if needed) or None.  With
    ``new`` False only an existing node (up to complement) is accepted.
    """
    n = len(st.vals)
    v = np.array(st.vals, dtype=np.uint64)
    m = np.uint64(mask)
    tm = np.uint64(t & mask)
    vm = v & m
    hit = np.flatnonzero((vm == tm) | (vm == (tm ^ m)))
    if hit.size:
        i = int(hit[0])
        return (i, bool((st.vals[i] ^ t) & mask))
    if not new:
        return None
    tri = _triples(n)
    a, b, c = (v[x] for x in tri)
    na, nb, nc = ~a, ~b, ~c
    tt = np.uint64(t)
    ok = np.ones(a.shape, dtype=bool)
    for idx in range(8):
        cell = (a if idx & 4 else na) & (b if idx & 2 else nb) & (c if idx & 1 else nc) & m
        x = cell & tt
        ok &= (x == 0) | (x == cell)
    hits = np.flatnonzero(ok)
    if not hits.size:
        return None
    k = int(hits[0])
    ia, ib, ic = (int(x[k]) for x in tri)
    va, vb, vc = st.vals[ia], st.vals[ib], st.vals[ic]
    table = 0
    for idx in range(8):
        cell = (va if idx & 4 else ~va) & (vb if idx & 2 else ~vb) & (vc if idx & 1 else ~vc)
        if cell & mask & t:
            table |= 1 << idx
    sig = st.add_lut(table, ia, ib, ic)
    if (st.value(sig) ^ t) & mask:
        sig = (sig[0], not sig[1])
    return sig


def _split_patterns(cells: np.ndarray, t: int, quad: Sequence[int], live: Sequence[int]):
    """The triples whose LUT ``G`` can carry ``t`` through a split on two nodes.

    ``quad`` are the four cells of the split (on the care set), ``live`` those
    where ``t`` is not constant.  On each live cell ``G`` passes as itself or
    complemented (one polarity pattern ``pat``, the first live cell's polarity
    fixed); yields ``(pat, xm, y2, hits)`` for every pattern some triple of
    ``cells`` fits: ``xm`` the triples' cells on the live cells, ``y2`` what
    ``G`` must be there, ``hits`` the triples where each cell is constant.
    """
    m2 = 0
    for q in live:
        m2 |= quad[q]
    xm = cells & np.uint64(m2)
    xt = xm & np.uint64(t)
    for bits in range(1 << (len(live) - 1)):
        pat = 0
        for k, q in enumerate(live[1:]):
            if (bits >> k) & 1:
                pat |= quad[q]
        y2 = xt ^ (xm & np.uint64(pat)) if pat else xt
        ok = ((y2 == 0) | (y2 == xm)).all(axis=0)
        hits = np.flatnonzero(ok)
        if hits.size:
            yield pat, xm, y2, hits


def leaf_search2(st: State, t: int, mask: int, wide: bool = False) -> Signal | None:
    """Build ``t`` on ``mask`` as ``F(x, y, G)`` with ``G`` one new LUT of existing nodes.

    ``x`` is an input and ``y`` any existing node (with ``wide``, ``x`` and
    ``y`` are any two existing nodes: slower).  On each ``(x, y)`` cell
    where ``t`` is not constant, ``F`` passes ``G`` or its complement, so
    ``G`` must match ``t ^ pattern`` (one polarity per cell) there: one
    :func:`leaf_search`-style check over all triples per pattern.
    """
    n = len(st.vals)
    v = np.array(st.vals, dtype=np.uint64)
    tri = _triples(n)
    a, b, c = (v[x] for x in tri)
    na, nb, nc = ~a, ~b, ~c
    cells = np.stack(
        [(a if i & 4 else na) & (b if i & 2 else nb) & (c if i & 1 else nc) for i in range(8)]
    )
    for x in range(n if wide else 6):
        vx = st.vals[x]
        for y in range(x + 1 if wide else 0, n):
            if y == x:
                continue
            vy = st.vals[y]
            quad = [
                (vx if qx else ~vx) & (vy if qy else ~vy) & mask for qx in (0, 1) for qy in (0, 1)
            ]
            live = [q for q in range(4) if t & quad[q] not in (0, quad[q])]
            if len(live) < 2:
                continue  # one live cell: plain leaf search would have found it
            m2 = 0
            for q in live:
                m2 |= quad[q]
            for pat, _xm, _y2, hits in _split_patterns(cells, t, quad, live):
                k0 = int(hits[0])
                ia, ib, ic = (int(arr[k0]) for arr in tri)
                va, vb, vc = st.vals[ia], st.vals[ib], st.vals[ic]
                target = t ^ pat
                table = 0
                for idx in range(8):
                    cell = (va if idx & 4 else ~va) & (vb if idx & 2 else ~vb)
                    cell &= vc if idx & 1 else ~vc
                    if cell & m2 & target:
                        table |= 1 << idx
                g = st.add_lut(table, ia, ib, ic)
                gv = st.value(g)
                spec = []
                for q in range(4):
                    if q in live:
                        spec.append(("g", bool((gv ^ t) & quad[q])))
                    else:
                        spec.append(("c", bool(t & quad[q])))

                def fn(p: int, r: int, gbit: int, spec: list[tuple[str, bool]] = spec) -> int:
                    kind, val = spec[p * 2 + r]
                    return (gbit ^ int(val)) if kind == "g" else int(val)

                sig = st.make(fn, [(x, False), (y, False), g])
                assert not (st.value(sig) ^ t) & mask
                return sig
    return None


@dataclass(frozen=True)
class Params:
    """Search effort: options tried per recursion depth, and the selector order."""

    widths: tuple[int, ...]
    #: Recursion depths (below this) where the two-LUT leaf search is tried.
    leaf2_depth: int = 0
    #: Every output splits on the first input of this order that is still
    #: available and splits the care set.
    order: tuple[int, ...] = ()


def _mux(s: int, g: int, h: int) -> int:
    return h if s else g


def _xor_form(s: int, g: int, h: int) -> int:
    return g ^ (s & h)


def _or_form(s: int, g: int, h: int) -> int:
    return g | (s & h)


def _and_form(s: int, g: int, h: int) -> int:
    return g & ~(s & h)


FORMS: tuple[Callable[[int, int, int], int], ...] = (_mux, _xor_form, _or_form, _and_form)


def synth(
    st: State,
    t: int,
    mask: int,
    avail: tuple[int, ...],
    depth: int,
    params: Params,
    rng: random.Random,
) -> tuple[State, Signal]:
    """Return a new state that computes ``t`` on ``mask``, and the signal that does.

    ``avail`` are the input indices still usable as selectors.
    """
    tm = t & mask
    if tm == 0:
        return st, ZERO
    if tm == mask:
        return st, ONE
    st1 = st.copy()
    sig = leaf_search(st1, t, mask)
    if sig is None and depth < params.leaf2_depth:
        sig = leaf_search2(st1, t, mask)
    if sig is not None:
        return st1, sig
    split = [s for s in range(6) if mask & INPUTS[s] and mask & ~INPUTS[s]]
    sels = [s for s in params.order if s in avail and s in split][:1]
    options = [(s, pol, form) for s in sels for pol in (False, True) for form in range(4)]
    rng.shuffle(options)
    width = params.widths[min(depth, len(params.widths) - 1)]
    if not options:
        # Selectors used up (one-sided don't-cares kept the care set wide):
        # the multiplexer on any splitting input strictly shrinks both sides.
        options, width = [(split[0], False, 0)], 1
    best: tuple[State, Signal] | None = None
    for s, pol, form in options[:width]:
        res = _try_option(st, t, mask, avail, depth, params, rng, s, pol, form)
        if best is None or res[0].luts < best[0].luts:
            best = res
    assert best is not None
    return best


def _try_option(
    st: State,
    t: int,
    mask: int,
    avail: tuple[int, ...],
    depth: int,
    params: Params,
    rng: random.Random,
    s: int,
    pol: bool,
    form: int,
) -> tuple[State, Signal]:
    """Decompose on selector input ``s`` (complemented if ``pol``) with form ``form``."""
    sval = INPUTS[s] ^ FULL if pol else INPUTS[s]
    r1 = mask & sval
    r0 = mask & ~sval
    rest = tuple(x for x in avail if x != s)
    if form == 0:
        st, g = synth(st, t, r0, rest, depth + 1, params, rng)
        st, h = synth(st, t, r1, rest, depth + 1, params, rng)
    elif form == 1:
        st, g = synth(st, t, r0, rest, depth + 1, params, rng)
        st, h = synth(st, t ^ st.value(g), r1, rest, depth + 1, params, rng)
    elif form == 2:
        st, g = synth(st, t, r0 | (r1 & ~t), rest, depth + 1, params, rng)
        st, h = synth(st, t, r1 & ~st.value(g), rest, depth + 1, params, rng)
    else:
        st, g = synth(st, t, r0 | (r1 & t), rest, depth + 1, params, rng)
        st, h = synth(st, t ^ FULL, r1 & st.value(g), rest, depth + 1, params, rng)
    st = st.copy()
    out = st.make(FORMS[form], [(s, pol), g, h])
    assert not (st.value(out) ^ t) & mask
    return st, out


def _eval_all(ops: Sequence[Lut], flip: int = -1, forced: dict[int, int] | None = None) -> list[int]:
    """Truth tables of all nodes (inputs first); node ``flip`` (if >= 0)
    complemented; the nodes in ``forced`` take the given tables."""
    vals = list(INPUTS)
    for i, (tt, a, b, c) in enumerate(ops, 6):
        v = forced[i] if forced and i in forced else lut_value(tt, vals[a], vals[b], vals[c])
        vals.append(v ^ FULL if i == flip else v)
    return vals


def evaluate(circ: Circuit) -> list[int]:
    """Truth tables of the outputs of a circuit (for self-checks)."""
    ops, outs = circ
    vals = _eval_all(ops)
    return [vals[i] ^ (FULL if neg else 0) for i, neg in outs]


def prune(st: State, outs: Sequence[Signal]) -> Circuit:
    """Drop dead nodes; return (LUTs with renumbered operands, output signals)."""
    live: set[int] = set()
    stack = [i for i, _ in outs]
    while stack:
        i = stack.pop()
        if i in live or i < 6:
            continue
        live.add(i)
        op = st.ops[i]
        assert op is not None
        stack.extend(op[1:])
    new_index = {i: i for i in range(6)}
    ops: list[Lut] = []
    for i in range(6, len(st.ops)):
        if i in live:
            tt, a, b, c = st.ops[i]  # type: ignore[misc]
            new_index[i] = 6 + len(ops)
            ops.append((tt, new_index[a], new_index[b], new_index[c]))
    return ops, [(new_index[i], neg) for i, neg in outs]


def state_of(circ: Circuit, keep: Sequence[int] | None = None) -> tuple[State, list[Signal]]:
    """A :class:`State` holding ``circ`` (only what outputs ``keep`` need, if given)."""
    ops, outs = circ
    st = State()
    for op in ops:
        st.vals.append(lut_value(op[0], *(st.vals[x] for x in op[1:])))
        st.ops.append(op)
    st.index = {}
    for i, v in enumerate(st.vals):
        st.index.setdefault(v, i)
    if keep is not None:
        ops2, outs2 = prune(st, [outs[k] for k in keep])
        return state_of((ops2, outs2))
    return st, list(outs)


def _rebuild(
    circ: Circuit, node: int, repl: Callable[[State, dict[int, Signal]], Signal]
) -> Circuit:
    """The circuit with ``node`` replaced by what ``repl`` builds (then pruned).

    Everything is re-added through :class:`State`, so complements fold,
    duplicates merge and the operands ``repl`` uses come first.
    """
    ops, outs = circ
    st = State()
    memo: dict[int, Signal] = {i: (i, False) for i in range(6)}

    def get(i: int) -> Signal:
        if i in memo:
            return memo[i]
        if i == node:
            sig = repl(st, memo_get)
        else:
            tt, a, b, c = ops[i - 6]
            sig = st.make(lambda x, y, z, tt=tt: (tt >> (x << 2 | y << 1 | z)) & 1,
                          [get(a), get(b), get(c)])
        memo[i] = sig
        return sig

    memo_get: Callable[[int], Signal] = get  # type: ignore[assignment]
    sigs = [(get(i)[0], get(i)[1] ^ neg) for i, neg in outs]
    return prune(st, sigs)


def _fanout_info(ops: Sequence[Lut], outs: Sequence[Signal], n: int) -> tuple[set[int], set[int]]:
    """(transitive fan-out of ``n`` including it, its maximum fan-out-free cone)."""
    tfo = {n}
    for i, op in enumerate(ops, 6):
        if i > n and any(x in tfo for x in op[1:]):
            tfo.add(i)
    fanouts: dict[int, set[int]] = {}
    for i, op in enumerate(ops, 6):
        for x in set(op[1:]):
            fanouts.setdefault(x, set()).add(i)
    out_nodes = {i for i, _ in outs}
    mffc = {n}
    for i in range(n - 1, 5, -1):
        if i not in out_nodes and i in fanouts and fanouts[i] <= mffc:
            mffc.add(i)
    return tfo, mffc


def resub(circ: Circuit, rounds: int = 10, two: bool = False, wide: bool = False) -> Circuit:
    """Post-optimisation: re-express single LUTs under observability don't-cares.

    For each LUT the care set is where complementing it changes an output.
    It is looked for as an existing node or one new LUT of nodes outside its
    transitive fan-out and its fan-out-free cone (:func:`leaf_search`); the
    circuit is rebuilt with the replacement and kept if it has fewer LUTs.
    Repeated until no gain.  With ``two``, a cone of three or more LUTs may
    also be replaced by two new LUTs (:func:`leaf_search2`, slower; with
    ``wide`` the outer LUT may take any two existing nodes, slower still).
    """
    targets = evaluate(circ)
    for _ in range(rounds):
        improved = False
        n = 6
        while n < 6 + len(circ[0]):
            ops, outs = circ
            vals = _eval_all(ops)
            flipped = _eval_all(ops, n)
            care = 0
            for i, _ in outs:
                care |= vals[i] ^ flipped[i]
            tfo, mffc = _fanout_info(ops, outs, n)
            allowed = [i for i in range(len(vals)) if i not in tfo and i not in mffc]
            tmp = State.__new__(State)
            tmp.vals = [vals[i] for i in allowed]
            tmp.ops = [None] * len(allowed)
            tmp.index = {}
            for k, v in enumerate(tmp.vals):
                tmp.index.setdefault(v, k)
            sig = leaf_search(tmp, vals[n], care, new=len(mffc) > 1)
            if sig is None and two and len(mffc) > 2:
                sig = leaf_search2(tmp, vals[n], care, wide)
            if sig is not None:
                base = len(allowed)
                prog = [op for op in tmp.ops[base:] if op is not None]

                def repl(
                    st: State,
                    get: Callable[[int], Signal],
                    allowed: list[int] = allowed,
                    prog: list[Lut] = prog,
                    sig: Signal = sig,
                ) -> Signal:
                    made = [get(x) for x in allowed]
                    for tt, a, b, c in prog:
                        made.append(
                            st.make(
                                lambda x, y, z, tt=tt: (tt >> (x << 2 | y << 1 | z)) & 1,
                                [made[a], made[b], made[c]],
                            )
                        )
                    out = made[sig[0]]
                    return (out[0], out[1] ^ sig[1])

                new = _rebuild(circ, n, repl)
                if len(new[0]) < len(ops):
                    assert evaluate(new) == targets
                    circ = new
                    improved = True
                    continue
            n += 1
        if not improved:
            break
    return circ


#: Mode "perm": attempt ``r`` uses selector prefix ``PREFIXES[r % 120]``.
PREFIXES: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(6), 3))

#: The search used: all eight (polarity, form) options at the top two depths,
#: two below, then one.
PARAMS = Params(widths=(8, 4, 2, 1), leaf2_depth=3)
#: Rip-up and reroute tries every prefix, so it uses the cheaper leaf search.
REROUTE_PARAMS = Params(widths=(8, 4, 2, 1), leaf2_depth=0)


def order_of(prefix: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """Selector order: ``prefix``, then the other inputs shuffled by ``rng``."""
    rest = [x for x in range(6) if x not in prefix]
    rng.shuffle(rest)
    return prefix + tuple(rest)


def synth_box_once(box: int, params: Params, rng: random.Random) -> Circuit:
    """One randomized attempt at a LUT circuit for all four outputs of ``box``."""
    targets = gates.box_targets(box)
    order = list(range(4))
    rng.shuffle(order)
    st = State()
    outs: list[Signal] = [ZERO] * 4
    for k in order:
        st, outs[k] = synth(st, targets[k], FULL, tuple(range(6)), 0, params, rng)
    return prune(st, outs)


def reroute(
    box: int, circ: Circuit, k: int, prefix: tuple[int, ...], leaf2_depth: int = 0
) -> Circuit:
    """Rip up output ``k`` of ``circ`` and rebuild it over the other outputs' nodes.

    The new output uses selector order ``prefix`` + the rest, and the two-LUT
    leaf search above ``leaf2_depth`` (0: none, the fast default).
    """
    targets = gates.box_targets(box)
    others = [j for j in range(4) if j != k]
    st, _ = state_of(circ, others)
    rng = random.Random(f"reroute:{box}:{k}:{prefix}")
    params = Params(REROUTE_PARAMS.widths, leaf2_depth, order_of(prefix, rng))
    st, sig = synth(st, targets[k], FULL, tuple(range(6)), 0, params, rng)
    outs: list[Signal] = [ZERO] * 4
    for j in others:
        outs[j] = (st.index[targets[j]], False)
    outs[k] = sig
    new = resub(prune(st, outs))
    assert evaluate(new) == targets
    return new


def improve_reroute(
    box: int, circ: Circuit, every: int = 1, leaf2_depth: int = 0
) -> tuple[Circuit, tuple[tuple[int, int, int], ...]]:
    """Greedy rip-up and reroute over every output and selector prefix.

    Passes over the four outputs repeat until one brings no gain; returns the
    circuit and the steps ``(output, prefix number, leaf2 depth)`` taken.
    ``every`` > 1 tries only every that many prefixes (a faster search).
    """
    steps: list[tuple[int, int, int]] = []
    improved = True
    while improved:
        improved = False
        for k in range(4):
            best, best_p = circ, -1
            for p in range(0, len(PREFIXES), every):
                new = reroute(box, circ, k, PREFIXES[p], leaf2_depth)
                if len(new[0]) < len(best[0]):
                    best, best_p = new, p
            if best_p >= 0:
                circ = best
                steps.append((k, best_p, leaf2_depth))
                improved = True
    return circ, tuple(steps)


def apply_reroutes(
    box: int, circ: Circuit, steps: Sequence[tuple[int, int, int]]
) -> Circuit:
    """Apply recorded :func:`reroute` steps ``(output, prefix number, leaf2 depth)``."""
    for k, p, d in steps:
        circ = reroute(box, circ, k, PREFIXES[p], d)
    return circ


def _lut_table(va: int, vb: int, vc: int, t: int, mask: int) -> int:
    """Truth table of a LUT of ``va``, ``vb``, ``vc`` equal to ``t`` on ``mask`` (0 elsewhere)."""
    table = 0
    for idx in range(8):
        cell = (va if idx & 4 else ~va) & (vb if idx & 2 else ~vb) & (vc if idx & 1 else ~vc)
        if cell & mask & t:
            table |= 1 << idx
    return table


def _care(ops: Sequence[Lut], outs: Sequence[Signal], n: int) -> tuple[list[int], int]:
    """(node values, the care set of node ``n``: where complementing it changes an output)."""
    vals = _eval_all(ops)
    flipped = _eval_all(ops, n)
    care = 0
    for i, _ in outs:
        care |= vals[i] ^ flipped[i]
    return vals, care


def walk_moves(circ: Circuit, n: int, min_gain: int = 0) -> list[tuple[int, ...]]:
    """Re-expressions of node ``n`` (under its care set) that shrink the circuit by >= ``min_gain``.

    A move is ``(i,)`` (an existing node, up to complement) or ``(a, b, c)``
    (one new LUT); operands are any nodes outside the transitive fan-out of
    ``n``, including its fan-out-free cone, whose nodes then stay alive (the
    gain counts them).  The LUT ``n`` already is (same operands) is left out.
    """
    ops, outs = circ
    vals, care = _care(ops, outs, n)
    tfo, mffc = _fanout_info(ops, outs, n)
    pos = {m: k for k, m in enumerate(sorted(mffc - {n}))}
    cone = [0] * len(vals)  # the cone nodes (bitmask) a node keeps alive
    for i, (_, a, b, c) in enumerate(ops, 6):
        cone[i] = cone[a] | cone[b] | cone[c] | ((1 << pos[i]) if i in pos else 0)
    cand = [i for i in range(len(vals)) if i not in tfo]
    t = vals[n]
    v = np.array([vals[i] for i in cand], dtype=np.uint64)
    keep = np.array([cone[i] for i in cand], dtype=np.uint64)
    m = np.uint64(care)
    tm = np.uint64(t & care)
    vm = v & m
    moves: list[tuple[int, ...]] = []
    for h in np.flatnonzero((vm == tm) | (vm == (tm ^ m))):
        if len(mffc) - int(np.bitwise_count(keep[h])) >= min_gain:
            moves.append((cand[int(h)],))
    ti, tj, tk = _triples(len(cand))
    a, b, c = v[ti], v[tj], v[tk]
    ok = np.ones(a.shape, dtype=bool)
    tt = np.uint64(t)
    for idx in range(8):
        cell = (a if idx & 4 else ~a) & (b if idx & 2 else ~b) & (c if idx & 1 else ~c) & m
        x = cell & tt
        ok &= (x == 0) | (x == cell)
    hits = np.flatnonzero(ok)
    gains = len(mffc) - 1 - np.bitwise_count(keep[ti] | keep[tj] | keep[tk])[hits].astype(np.int64)
    same = tuple(sorted(set(ops[n - 6][1:])))
    for h in hits[gains >= min_gain]:
        tri = (cand[int(ti[h])], cand[int(tj[h])], cand[int(tk[h])])
        if tri != same:
            moves.append(tri)
    return moves


def apply_move(circ: Circuit, n: int, move: Sequence[int]) -> Circuit:
    """The circuit with node ``n`` re-expressed by ``move`` (see :func:`walk_moves`), pruned."""
    ops, outs = circ
    vals, care = _care(ops, outs, n)
    t = vals[n]
    if len(move) == 1:
        i = move[0]
        neg = bool((vals[i] ^ t) & care)

        def repl(st: State, get: Callable[[int], Signal]) -> Signal:
            sig = get(i)
            return (sig[0], sig[1] ^ neg)
    else:
        ia, ib, ic = move
        table = _lut_table(vals[ia], vals[ib], vals[ic], t, care)

        def repl(st: State, get: Callable[[int], Signal]) -> Signal:
            return st.make(lambda x, y, z: (table >> (x << 2 | y << 1 | z)) & 1,
                           [get(ia), get(ib), get(ic)])
    return _rebuild(circ, n, repl)


#: Walk step: ``(n, *move)`` applies :func:`apply_move`; ``(-1,)`` is
#: :func:`resub`; ``(-2,)`` is the wide two-LUT :func:`resub`; ``(-3, ...)`` is
#: a pair move (:func:`apply_pair`).
Step = tuple[int, ...]


def encode_steps(steps: Sequence[Step]) -> str:
    """Walk steps as text: the steps space-separated, the numbers of a step joined by dots."""
    return " ".join(".".join(map(str, step)) for step in steps)


def decode_steps(text: str) -> list[Step]:
    """Inverse of :func:`encode_steps`."""
    return [tuple(int(x) for x in step.split(".")) for step in text.split()]


def apply_walk(circ: Circuit, steps: Sequence[Step]) -> Circuit:
    """Replay recorded :func:`walk` steps."""
    for step in steps:
        if step[0] == -1:
            circ = resub(circ)
        elif step[0] == -2:
            circ = resub(circ, two=True, wide=True)
        elif step[0] == -3:
            circ = apply_pair(circ, step[1:])
        else:
            circ = apply_move(circ, step[0], step[1:])
    return circ


def walk(
    box: int,
    circ: Circuit,
    iters: int,
    seed: int,
    p_up: float,
    slack: int = 2,
    check: int = 25,
    p_pair: float = 0.0,
) -> tuple[Circuit, list[Step]]:
    """Random walk over equal-size rewrites (:func:`walk_moves`), a few uphill.

    Each iteration re-expresses a random node by a random move that keeps the
    size (with probability ``p_up`` one that grows it by one LUT), then runs
    :func:`resub`; a walk more than ``slack`` LUTs above its best restarts
    there.  Every ``check`` iterations (and on a gain) the wide two-LUT
    resubstitution is tried; the smallest circuit found and the steps that
    lead to it (for :func:`apply_walk`) are returned.  With ``p_pair`` > 0,
    that share of the iterations instead applies a random size-keeping (or,
    uphill, growing) pair move (:func:`pair_moves`) of a random node pair.
    """
    rng = random.Random(f"walk:{box}:{seed}")
    targets = evaluate(circ)
    cur, cur_steps = circ, []
    low, low_steps = circ, []
    best, best_steps = circ, []
    for it in range(iters):
        if p_pair and rng.random() < p_pair:
            up = rng.random() < p_up
            pair = tuple(sorted(rng.sample(range(6, 6 + len(cur[0])), 2)))
            if len(_joint_mffc(*cur, set(pair))) < 3 - up:
                continue
            pmoves = pair_moves(cur, -1 if up else 0, 16, pair)  # type: ignore[arg-type]
            if not pmoves:
                continue
            step = rng.choice(pmoves)
            new = apply_pair(cur, step[1:])
        else:
            n = rng.randrange(6, 6 + len(cur[0]))
            up = rng.random() < p_up
            moves = walk_moves(cur, n, -1 if up else 0)
            if not moves:
                continue
            move = rng.choice(moves)
            step = (n, *move)
            new = apply_move(cur, n, move)
        if len(new[0]) > len(cur[0]) + up:
            continue
        if len(new[0]) > len(low[0]) + slack:
            cur, cur_steps = low, list(low_steps)
            continue
        cur, cur_steps = new, [*cur_steps, step]
        res = resub(cur)
        if len(res[0]) < len(cur[0]):
            cur, cur_steps = res, [*cur_steps, (-1,)]
        if len(cur[0]) <= len(low[0]):
            low, low_steps = cur, list(cur_steps)
        if len(cur[0]) < len(best[0]) or it % check == 0:
            w = resub(cur, two=True, wide=True)
            if len(w[0]) < len(best[0]):
                assert evaluate(w) == targets
                cur, cur_steps = w, [*cur_steps, (-2,)]
                low, low_steps = cur, list(cur_steps)
                best, best_steps = cur, list(cur_steps)
                print(f"S{box + 1} walk iteration {it}: {len(best[0])} LUTs, "
                      f"{len(best_steps)} steps", flush=True)
    return best, best_steps


# ---------------------------------------------------------------------------
# Pair resubstitution: two nodes re-expressed over one shared new LUT
# ---------------------------------------------------------------------------


def _joint_mffc(ops: Sequence[Lut], outs: Sequence[Signal], nodes: set[int]) -> set[int]:
    """Nodes that die when all of ``nodes`` are replaced (``nodes`` included)."""
    fanouts: dict[int, set[int]] = {}
    for i, op in enumerate(ops, 6):
        for x in set(op[1:]):
            fanouts.setdefault(x, set()).add(i)
    out_nodes = {i for i, _ in outs}
    dead = set(nodes)
    for i in range(5 + len(ops), 5, -1):
        if i not in dead and i not in out_nodes and i in fanouts and fanouts[i] <= dead:
            dead.add(i)
    return dead


_COMPAT: list[np.ndarray] = []


def _compat() -> np.ndarray:
    """``[care, val, g]``: table ``g`` or its complement equals ``val`` on the bits ``care``."""
    if not _COMPAT:
        g = np.arange(256)
        care = g[:, None, None]
        val = g[None, :, None]
        _COMPAT.append(((g & care) == val) | (((g ^ 0xFF) & care) == val))
    return _COMPAT[0]


def _pair_constraints(
    vals: Sequence[int], t: int, care: int, allowed: Sequence[int], cells: np.ndarray
) -> tuple[np.ndarray, list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]]:
    """Ways to write ``t`` on ``care`` as ``F(x, y, G)`` with ``G`` one LUT of a triple.

    ``cells`` (8 x triples) are the cells of every node triple.  Returns
    ``(admits, records)``: ``admits[h, g]`` says table ``g`` of triple ``h``
    works for some ``x, y`` in ``allowed``; each record ``(x, y, hits, care8,
    val8)`` says ``G`` of triple ``hits[k]`` must equal ``val8[k]`` on the
    bits ``care8[k]`` (up to complementing ``G`` as a whole).
    """
    compat = _compat()
    admits = np.zeros((cells.shape[1], 256), dtype=bool)
    records = []
    weights = np.array([1 << i for i in range(8)], dtype=np.int64)[:, None]
    for p, x in enumerate(allowed):
        vx = vals[x]
        for y in allowed[p + 1:]:
            vy = vals[y]
            quad = [(vx if qx else ~vx) & (vy if qy else ~vy) & care
                    for qx in (0, 1) for qy in (0, 1)]
            live = [q for q in range(4) if t & quad[q] not in (0, quad[q])]
            if not live:
                continue
            care8 = None
            for _pat, xm, y2, hits in _split_patterns(cells, t, quad, live):
                if care8 is None:
                    care8 = ((xm != 0) * weights).sum(axis=0)
                c8 = care8[hits]
                v8 = ((y2[:, hits] != 0) * weights).sum(axis=0)
                admits[hits] |= compat[c8, v8]
                records.append((x, y, hits, c8, v8))
    return admits, records


def pair_candidates(circ: Circuit, min_gain: int = 1) -> list[tuple[int, int]]:
    """Node pairs whose joint fan-out-free cone has at least ``3 + min_gain`` nodes."""
    ops, outs = circ
    pairs = []
    for n1 in range(6, 6 + len(ops)):
        for n2 in range(n1 + 1, 6 + len(ops)):
            size = len(_joint_mffc(ops, outs, {n1, n2}))
            if size - 3 >= min_gain:
                pairs.append((size, n1, n2))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    return [(n1, n2) for _, n1, n2 in pairs]


def pair_moves(
    circ: Circuit, min_gain: int = 1, limit: int = 1, only: tuple[int, int] | None = None
) -> list[tuple[int, ...]]:
    """Pair moves ``(-3, n1, n2, a, b, c, g, x1, y1, x2, y2)`` that shrink ``circ``.

    Nodes ``n1`` and ``n2`` become ``F1(x1, y1, G)`` and ``F2(x2, y2, G)``
    with the one new LUT ``G`` = table ``g`` of ``a, b, c``: three LUTs for
    the pair's joint fan-out-free cone (operands outside it and outside both
    transitive fan-outs).  Up to ``limit`` verified moves with gain >=
    ``min_gain``, in a fixed order (for the pair ``only``, if given).
    """
    ops, outs = circ
    n_all = 6 + len(ops)
    targets = evaluate(circ)
    vals = _eval_all(ops)
    info = {}
    pairs = [only] if only else pair_candidates(circ, min_gain)
    for n in sorted({n for pair in pairs for n in pair}):
        _, care = _care(ops, outs, n)
        tfo, mffc = _fanout_info(ops, outs, n)
        info[n] = (care, tfo | mffc)
    def tables(nodes: list[int]) -> tuple[tuple[np.ndarray, ...], np.ndarray, list[int]]:
        """Triples of ``nodes`` (as node numbers), their cells, their node bitmasks."""
        tri = tuple(np.array(nodes, dtype=np.intp)[x] for x in _triples(len(nodes)))
        v = np.array(vals, dtype=np.uint64)
        a, b, c = (v[x] for x in tri)
        cells = np.stack(
            [(a if i & 4 else ~a) & (b if i & 2 else ~b) & (c if i & 1 else ~c)
             for i in range(8)]
        )
        bits = [(1 << int(p)) | (1 << int(q)) | (1 << int(r)) for p, q, r in zip(*tri, strict=True)]
        return tri, cells, bits

    if not only:
        tri, cells, tri_bits = tables(list(range(n_all)))
    cons: dict[int, tuple[np.ndarray, list]] = {}
    moves: list[tuple[int, ...]] = []
    compat = _compat()
    for n1, n2 in pairs:
        dead = _joint_mffc(ops, outs, {n1, n2})
        bad = dead | info[n1][1] | info[n2][1]
        badbits = sum(1 << i for i in bad)
        if only:
            # One pair: only the operands it may use, which is much faster.
            good = [i for i in range(n_all) if i not in bad]
            tri, cells, tri_bits = tables(good)
            for n in (n1, n2):
                cons[n] = _pair_constraints(vals, vals[n], info[n][0], good, cells)
        for n in (n1, n2):
            if n not in cons:
                allowed = [i for i in range(n_all) if i not in info[n][1]]
                cons[n] = _pair_constraints(vals, vals[n], info[n][0], allowed, cells)
        both = cons[n1][0] & cons[n2][0]
        for h in np.flatnonzero(both.any(axis=1)):
            h = int(h)
            if tri_bits[h] & badbits:
                continue
            ta, tb, tc = (int(arr[h]) for arr in tri)
            g = int(np.flatnonzero(both[h])[0])
            found = []
            for n in (n1, n2):
                for x, y, hits, c8, v8 in cons[n][1]:
                    if x in bad or y in bad:
                        continue
                    k = np.searchsorted(hits, h)
                    if k < hits.size and hits[k] == h and compat[c8[k], v8[k], g]:
                        found.append((x, y))
                        break
            if len(found) < 2:
                continue
            (x1, y1), (x2, y2) = found
            move = (-3, n1, n2, ta, tb, tc, g, x1, y1, x2, y2)
            try:
                new = apply_pair(circ, move[1:])
            except ValueError:
                continue
            if evaluate(new) != targets or len(ops) - len(new[0]) < min_gain:
                continue
            moves.append(move)
            if len(moves) >= limit:
                return moves
    return moves


def apply_pair(circ: Circuit, move: Sequence[int]) -> Circuit:
    """Apply a pair move ``(n1, n2, a, b, c, g, x1, y1, x2, y2)`` (see :func:`pair_moves`)."""
    n1, n2, ta, tb, tc, g, x1, y1, x2, y2 = move
    ops, outs = circ
    vals = _eval_all(ops)
    gv = lut_value(g, vals[ta], vals[tb], vals[tc])
    tables = {}
    for n, x, y in ((n1, x1, y1), (n2, x2, y2)):
        _, care = _care(ops, outs, n)
        t = vals[n]
        table = 0
        for idx in range(8):
            cell = (vals[x] if idx & 4 else ~vals[x]) & (vals[y] if idx & 2 else ~vals[y])
            cell &= gv if idx & 1 else ~gv
            if cell & care & t:
                if cell & care & ~t:
                    raise ValueError("inconsistent pair move")
                table |= 1 << idx
        tables[n] = (table, x, y)
    st = State()
    memo: dict[int, Signal] = {i: (i, False) for i in range(6)}
    shared: list[Signal] = []

    def lut(tt: int, sigs: list[Signal]) -> Signal:
        return st.make(lambda p, q, r, tt=tt: (tt >> (p << 2 | q << 1 | r)) & 1, sigs)

    def get(i: int) -> Signal:
        if i in memo:
            return memo[i]
        if i in tables:
            if not shared:
                shared.append(lut(g, [get(ta), get(tb), get(tc)]))
            table, x, y = tables[i]
            sig = lut(table, [get(x), get(y), shared[0]])
        else:
            tt, a, b, c = ops[i - 6]
            sig = lut(tt, [get(a), get(b), get(c)])
        memo[i] = sig
        return sig

    sigs = [(get(i)[0], get(i)[1] ^ neg) for i, neg in outs]
    return prune(st, sigs)


def pair_descent(circ: Circuit) -> tuple[Circuit, list[Step]]:
    """Apply shrinking pair moves (each followed by :func:`resub`) until none is left."""
    steps: list[Step] = []
    while True:
        moves = pair_moves(circ)
        if not moves:
            return circ, steps
        circ = apply_pair(circ, moves[0][1:])
        steps.append(moves[0])
        res = resub(circ, two=True, wide=True)
        if len(res[0]) < len(circ[0]):
            circ = res
            steps.append((-2,))
        print(f"pair move {moves[0]}: {len(circ[0])} LUTs", flush=True)


def attempt(box: int, seed: int, number: int) -> Circuit:
    """Attempt ``number`` for ``box``: synthesis with prefix ``number % 120`` plus resub."""
    rng = random.Random(f"{seed}:{box}:lut:{number}")
    params = Params(PARAMS.widths, PARAMS.leaf2_depth, order_of(PREFIXES[number % len(PREFIXES)], rng))
    circ = resub(synth_box_once(box, params, rng))
    assert evaluate(circ) == gates.box_targets(box)
    return circ


def fold_outputs(circ: Circuit) -> tuple[list[Lut], list[int]]:
    """Make every output uncomplemented by complementing its producing LUT.

    The consumers of that node get the complement folded into their truth
    tables, so the LUT count does not change.
    """
    ops = list(circ[0])
    outs: list[int] = []
    for i, neg in circ[1]:
        if neg:
            if i < 6:
                raise ValueError("complemented input as an output")
            tt, a, b, c = ops[i - 6]
            ops[i - 6] = (tt ^ 0xFF, a, b, c)
            for j, (tj, x, y, z) in enumerate(ops):
                for pos, opnd in enumerate((x, y, z)):
                    if opnd == i:
                        sh = 2 - pos
                        tj = sum(((tj >> (idx ^ (1 << sh))) & 1) << idx for idx in range(8))
                ops[j] = (tj, x, y, z)
        outs.append(i)
    if len(set(outs)) != 4:
        raise ValueError("outputs must be distinct nodes")
    return ops, outs


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------


def _expressions() -> dict[int, tuple[int, str]]:
    """Short ``& | ^ ~`` expressions of x, y, z for every non-constant 3-input table.

    Cost = number of binary operators; found by growing expressions until no
    table gets cheaper (deterministic).
    """
    best: dict[int, tuple[int, str]] = {0xF0: (0, "x"), 0xCC: (0, "y"), 0xAA: (0, "z")}

    def neg(e: str) -> str:
        return e[1:] if e.startswith("~") and e[1:].isidentifier() else (
            e[2:-1] if e.startswith("~(") and _balanced(e[2:-1]) else
            (f"~{e}" if e.isidentifier() else f"~({e})")
        )

    for tt in (0xF0, 0xCC, 0xAA):
        best[tt ^ 0xFF] = (0, neg(best[tt][1]))
    changed = True
    while changed:
        changed = False
        items = sorted(best.items())
        for (t1, (c1, e1)), (t2, (c2, e2)) in itertools.product(items, items):
            if t1 >= t2:
                continue
            cost = c1 + c2 + 1
            for val, op in ((t1 & t2, "&"), (t1 | t2, "|"), (t1 ^ t2, "^")):
                if val in (0, 0xFF):
                    continue
                for v, e in (
                    (val, f"{_wrap(e1)} {op} {_wrap(e2)}"),
                    (val ^ 0xFF, f"~({_wrap(e1)} {op} {_wrap(e2)})"),
                ):
                    # Fewest operators, then fewest complements, then shortest.
                    key = (cost, e.count("~"), len(e), e)
                    if v not in best or (best[v][0], *_tie(best[v][1])) > key:
                        best[v] = (cost, e)
                        changed = True
    return best


def _tie(e: str) -> tuple[int, int, str]:
    return (e.count("~"), len(e), e)


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _wrap(e: str) -> str:
    return e if e.isidentifier() or (e.startswith("~") and e[1:].isidentifier()) else f"({e})"


_EXPR: dict[int, tuple[int, str]] = {}


def lut_expression(tt: int, names: Sequence[str]) -> str:
    """Python expression of LUT ``tt`` over the three operand names."""
    if not _EXPR:
        _EXPR.update(_expressions())
    expr = _EXPR[tt][1]
    out = []
    for ch in expr:
        out.append({"x": names[0], "y": names[1], "z": names[2]}.get(ch, ch))
    return "".join(out)


def _name(i: int) -> str:
    return f"a{i + 1}" if i < 6 else f"t{i - 5}"


def render_function(name: str, ops: Sequence[Lut], outs: Sequence[int]) -> str:
    """Python source of one straight-line S-box function (one statement per LUT)."""
    lines = [f"def {name}(a1, a2, a3, a4, a5, a6):"]
    for i, (tt, a, b, c) in enumerate(ops, 6):
        lines.append(f"    {_name(i)} = {lut_expression(tt, [_name(a), _name(b), _name(c)])}")
    lines.append(f"    return ({', '.join(_name(o) for o in outs)})")
    return "\n".join(lines) + "\n"


def render_ternary_function(name: str, ops: Sequence[Lut], outs: Sequence[int]) -> str:
    """The same program as calls of ``ternary`` (one ``vpternlogq`` each on 512-bit vectors)."""
    lines = [f"def {name}(a1, a2, a3, a4, a5, a6):"]
    for i, (tt, a, b, c) in enumerate(ops, 6):
        lines.append(f"    {_name(i)} = ternary({_name(a)}, {_name(b)}, {_name(c)}, 0x{tt:02X})")
    lines.append(f"    return ({', '.join(_name(o) for o in outs)})")
    return "\n".join(lines) + "\n"


def render_module(programs: Sequence[tuple[list[Lut], list[int]]], command: str, seed: int) -> str:
    """The whole generated module."""
    counts = [len(ops) for ops, _ in programs]
    avg = sum(counts) / len(counts)
    head = [
        "# Generated by python -m tools.gen_sbox_luts -- do not edit by hand.",
        f"# Command: {command}",
        f"# Seed: {seed}",
        "# LUTs per S-box: " + ", ".join(f"S{j + 1}={c}" for j, c in enumerate(counts)),
        f"# Average: {avg:.3f} LUTs",
        '"""3-input-LUT programs for the DES S-boxes (generated; see header).',
        "",
        "``LUTS[box]`` is a straight-line program: step ``i`` is node ``6 + i`` =",
        "``(tt, a, b, c)``, the 3-input function with truth table byte ``tt`` (bit",
        "``(A << 2) | (B << 1) | C``) of nodes ``a``, ``b``, ``c``, where nodes 0..5 are",
        "the S-box inputs a1..a6 (a1 the MSB of the 6-bit input).  ``OUTPUTS[box]``",
        "are the nodes of o1..o4 (o1 the MSB of the 4-bit output), uncomplemented.",
        "``s1`` .. ``s8`` evaluate the same programs with one ``& | ^ ~`` expression",
        "per LUT (for bitslice planes, where LLVM matches them to ternary logic);",
        "``ternary_s1`` .. ``ternary_s8`` as one ``simd.ternary`` call per LUT (one",
        "``vpternlogq`` each on explicit 512-bit vectors).",
        '"""',
        "",
        "from ..cpu.simd import ternary",
        "",
    ]
    body = [render_function(f"s{j + 1}", ops, outs) for j, (ops, outs) in enumerate(programs)]
    body += [render_ternary_function(f"ternary_s{j + 1}", ops, outs)
             for j, (ops, outs) in enumerate(programs)]
    luts = ["LUTS: tuple[tuple[tuple[int, int, int, int], ...], ...] = ("]
    for ops, _ in programs:
        luts.append("    (")
        luts.extend(f"        (0x{tt:02X}, {a}, {b}, {c})," for tt, a, b, c in ops)
        luts.append("    ),")
    luts.append(")")
    tail = [
        *luts,
        "OUTPUTS: tuple[tuple[int, int, int, int], ...] = (",
        *(f"    ({', '.join(map(str, outs))})," for _, outs in programs),
        ")",
        f"LUT_COUNTS = ({', '.join(str(c) for c in counts)})",
        f"AVERAGE = {avg!r}",
        "",
    ]
    return "\n".join(head) + "\n\n" + "\n\n".join(body) + "\n\n" + "\n".join(tail)


#: For ``--seed 1``: the attempt number that gave the smallest circuit per
#: S-box (box -> attempt), and the rip-up-and-reroute steps applied to it
#: (box -> steps), found by (one process each):
#: ``--restarts 360 --prefixes 16,17,18,19,100,101,102,103`` (669 s, average
#: 27.750), ``--restarts 24 --first 1 --prefixes 1,...,15,20,...,23 --boxes
#: 1,5`` (162 s; S5 31 -> 30), ``--reroute --reroute-every 2`` (162 s; with the
#: final two-LUT resubstitution 27.250), ``--reroute --reroute-every 6
#: --reroute-leaf2 2 --boxes 1,5,7,2,3,6,8`` (338 s; S5 -> 29), ``--restarts 120
#: --first 24 --boxes 1`` (362 s; S1 32 -> 30; average 26.875).  The final
#: resubstitution then became wide (S1 30 -> 29, S7 29 -> 28 on the same
#: attempts); with attempts ranked after it (``--wide``): ``--restarts 480
#: --first 360 --prefixes 0,...,19,100,...,119 --wide --boxes 1,5,7,2`` (824 s;
#: S1 -> 27, S7 -> 27), the same with ``--boxes 3,6,8`` (637 s; no gain),
#: ``--restarts 600 --first 480 --prefixes 20,...,39 --wide --boxes 5,2``
#: (167 s; S2 28 -> 27), ``--restarts 600 --first 480 --prefixes 40,...,59
#: --wide --boxes 5,6,3`` (259 s; no gain); average 26.125.  Then ``--reroute
#: --boxes 1,2,7`` (245 s; no gain), ``--restarts 900 --first 600 --prefixes
#: 16,17,18,19,100,101,102,103 --wide --boxes 5,3,6,8`` (1108 s; no gain).  The
#: walk (recorded in :data:`WALKS`): ``--walk 4000 --walk-seed 2 --boxes 6,2``
#: (61 s; S6 27 -> 26 at iteration 1000, S2 27 -> 26 at iteration 350), ``--walk
#: 3000 --walk-seed S`` for S = 3 (191 s, boxes 1,2,3,5,6,7,8; no gain) and S = 4..8
#: (683 s, the same boxes; S3 27 -> 26 with seed 4, S5 29 -> 28 with seed 5);
#: then from those, ``--walk 3000 --walk-seed S --walk-up 0.3`` for S = 20..24
#: (stopped in S = 24; 640 s; no gain); average 25.625.  (Wall times on a core shared with
#: another process.)  Then ``--walk 15000 --walk-seed 30 --boxes 1,5,7,2,3,6,8``
#: (431 s; no gain); with pair moves (:func:`pair_moves`): ``--pair --boxes 4,8``
#: (9 s; no gain: no pair move shrinks a recorded winner), ``--walk 4000
#: --walk-seed 41 --walk-pair 0.1 --boxes 1`` (227 s, a slower first version of
#: the pair walk; no gain), ``--walk 4000 --walk-seed 42 --walk-pair 0.1 --boxes
#: 1,5,7,2,3,6,8`` (239 s; S2 26 -> 25 at iteration 245); average 25.500.  Then
#: ``--walk 6000 --walk-seed S --walk-pair 0.2 --boxes 1,5,7,2,3,6,8`` for S = 43
#: (526 s; no gain), 44 (463 s; S8 25 -> 24 at iteration 2075) and 45 (473 s;
#: S7 27 -> 26 at iteration 5525; S8 also 24, at iteration 5275, not kept);
#: average 25.250.  The same for S = 46 (465 s; no gain) and 47 (450 s; S8 24 -> 23
#: at iteration 3000); average 25.125.  Then S = 48 with ``--boxes 8,7,5,1`` (237 s;
#: no gain).  Then S = 49 to 56 with ``--boxes 1,5`` (113-142 s each; no gain).
BEST_ATTEMPTS: dict[int, int] = {0: 367, 1: 505, 2: 19, 3: 222, 4: 6, 5: 341, 6: 468, 7: 221}
REROUTES: dict[int, tuple[tuple[int, int, int], ...]] = {
    2: ((0, 20, 0), (0, 0, 0)),
    4: ((3, 0, 2),),
}


#: Recorded :func:`walk` steps per box (box -> steps as :func:`encode_steps` writes them),
#: applied last.
WALKS: dict[int, str] = {
    1: (
        "27.5.13.20 9.0.8.20 17.0.7.21 8.2.3.18 16.8.12.15 8.0.4.7 18.3.9.17 18.3.6.17 12.3.6.10 "
        "10.0.6.9 24.20.22.23 14.4.13.26 25.0.23.24 18.0.7.12 23.10.11.12 23.2.10.11 12.2.3.10 "
        "12.0.7.22 16.11.12.21 18.11.12.26 8.4.5.6 9.0.3.12 9.3.7.8 25.16.23.24 15.0.7.14 "
        "12.0.11.17 17.2.3.11 19.7.12.17 24.0.22.23 19.0.6.17 9.0.7.8 18.0.6.21 15.0.7.11 "
        "16.5.14.15 25.0.13.24 8.0.4.6 30.8.19.23 15.2.3.10 18.3.17.24 23.13.21.22 30.8.13.24 "
        "21.10.11.15 31.11.27.30 14.4.5.6 31.11.15.30 15.2.3.11 23.0.21.22 8.4.5.6 21.2.10.11 "
        "22.2.5.7 19.3.8.17 9.6.7.8 11.0.5.9 13.0.4.5 10.0.6.19 26.2.8.25 30.8.19.23 22.13.20.21 "
        "15.2.3.10 8.0.4.6 31.11.27.30 17.0.6.15 21.5.7.14 18.4.6.8 14.2.3.11 30.8.13.23 "
        "15.0.6.19 21.2.5.7 14.2.3.10 16.14.15.22 30.8.22.23 21.5.7.16 14.2.3.11 22.0.20.21 "
        "16.14.15.20 8.4.5.6 19.3.18.24 22.5.7.14 26.2.19.25 15.4.5.6 25.7.19.29 31.11.18.30 "
        "23.13.16.22 8.0.4.5 8.0.4.6 20.3.8.18 21.2.5.7 21.5.7.14 8.4.5.6 9.3.7.8 15.4.6.8 "
        "27.0.13.24 22.0.16.21 18.0.6.14 22.13.19.21 30.8.13.23 19.10.11.14 8.0.4.6 24.15.16.18 "
        "31.0.11.30 24.4.15.16 14.2.5.9 21.2.5.7 18.4.15.25 14.2.3.10 11.6.10.15 13.0.5.10 "
        "31.10.21.30 9.6.7.8 23.5.7.14 31.11.14.30 18.4.7.15 23.5.7.22 20.0.4.15 21.2.5.7 "
        "11.0.5.9 8.0.4.5 10.6.13.15 20.11.18.22 9.0.7.8 20.0.18.19 9.3.7.8 25.0.7.24 31.0.13.30 "
        "18.2.10.13 31.2.13.30 24.12.16.21 20.15.18.19 19.5.7.11 13.5.9.10 24.3.8.21 31.0.11.30 "
        "16.3.15.24 12.0.11.25 23.0.21.22 17.0.7.11 11.0.5.9 31.10.14.30 10.5.13.25 31.10.21.30 "
        "16.0.6.10 11.5.10.25 13.4.6.8 23.16.21.22 11.3.9.18 8.0.4.6 23.0.21.22 9.6.7.8 "
        "17.0.15.16 30.8.20.25 24.4.11.13 16.0.5.9 13.4.6.12 21.10.11.16 23.18.21.22 17.0.7.16 "
        "13.8.10.11 18.3.8.15 8.0.4.5 13.3.7.10 19.5.7.22 14.2.3.10 15.3.14.24 6.0.4.8 9.5.6.8 "
        "13.2.3.20 18.3.6.15 24.8.15.16 31.0.10.30 18.0.4.25 14.2.3.10 23.5.8.13 30.6.12.25 "
        "22.2.10.21 23.5.8.20 24.0.22.23 24.12.22.23 24.0.22.23 7.0.5.6 23.5.8.13 18.0.12.17 "
        "31.2.10.30 9.0.6.8 13.2.3.5 30.6.16.25 20.4.13.27 -2 13.2.3.17 21.2.6.20 27.6.12.26 "
        "19.4.8.24 18.10.13.14 13.3.10.11 7.0.4.6 19.2.5.8 9.4.7.8 13.3.9.10 27.6.17.26 "
        "24.4.14.22 24.9.18.19 13.4.10.11 13.3.9.10 13.3.8.10 14.2.3.10 22.12.17.25 22.3.10.11 "
        "27.6.12.25 7.0.4.5 18.5.22.30 24.5.7.13 30.9.28.29 30.2.9.29 30.9.28.29 12.4.5.6 8.1.6.7 "
        "14.0.6.23 24.5.7.20 26.3.17.24 14.3.7.9 27.2.9.14 13.2.3.14 -3.9.24.1.5.7.102.0.6.2.5 "
        "13.3.9.10 17.5.9.16 21.0.6.14 10.0.8.9 24.7.8.23 27.9.13.14 27.2.9.13 15.0.6.23 "
        "10.0.8.12 13.9.10.12 30.12.14.29 17.5.13.16 9.0.4.6 8.3.5.7 14.2.3.12 8.2.5.7 30.2.12.29 "
        "12.0.6.10 8.3.5.7 9.4.5.6 25.11.24.27 -3.11.17.0.5.7.106.2.6.3.4 9.2.7.12 25.0.22.24 "
        "24.13.14.23 24.2.13.23 14.2.3.23 -3.12.23.0.2.24.51.7.8.5.6 -1 18.2.3.16 22.6.10.14 "
        "15.0.5.14 11.4.5.15 24.9.21.23 22.10.11.12 23.12.16.22 11.6.7.8 21.5.7.17 10.0.4.6 "
        "13.4.5.7 22.3.5.14 24.0.21.23 16.2.3.22 28.10.17.27 11.3.6.7 11.4.5.15 24.9.21.23 "
        "23.2.12.22 16.2.3.22 17.2.3.12 24.0.21.23 24.9.21.23 22.0.6.11 18.0.6.16 13.2.3.22 "
        "30.12.26.29 21.4.13.14 21.0.18.20 12.0.11.23 19.4.15.25 22.5.7.15 22.7.13.21 10.4.5.6 "
        "29.10.18.25 30.0.14.29 28.10.15.27 15.2.3.12 10.4.6.17 29.9.13.25 28.13.20.27 "
        "29.13.17.25 30.15.22.29 12.4.5.10 14.2.3.22 29.9.12.25 20.4.14.15 10.5.6.8 18.4.14.25 "
        "12.0.4.5 6.0.5.10 20.4.14.15 21.13.14.20 29.6.17.23 20.6.9.13 12.3.4.6 -1 -2"
    ),
    2: (
        "28.5.7.20 12.2.4.8 12.2.3.4 22.5.7.18 12.2.4.8 21.9.19.27 20.5.7.31 21.5.7.19 25.3.5.14 "
        "12.2.3.4 25.3.5.13 10.0.4.8 22.5.31.32 26.2.19.22 27.3.5.14 23.22.26.32 12.2.4.8 "
        "10.0.8.13 12.0.4.8 29.9.23.27 10.2.3.4 20.1.12.32 29.9.25.28 12.0.3.4 29.9.22.23 "
        "15.6.9.28 21.6.9.19 25.14.17.30 20.4.9.19 12.0.3.6 20.6.9.19 15.3.5.11 28.9.14.17 "
        "31.2.9.24 25.17.19.32 15.3.5.14 8.3.4.10 20.4.10.19 9.2.3.4 8.3.4.10 11.1.8.12 9.2.3.4 "
        "10.2.4.8 24.7.12.23 24.5.7.26 12.1.3.10 12.0.4.6 10.2.3.4 31.2.26.27 24.10.19.21 "
        "28.18.27.31 12.0.8.10 15.3.5.11 20.4.9.14 29.23.27.28 19.3.5.14 26.5.7.18 19.5.7.26 "
        "29.9.21.23 31.2.9.26 19.3.5.11 19.3.5.14 30.2.26.32 8.3.4.10 12.0.4.9 24.13.23.27 "
        "12.0.3.6 12.0.9.11 22.10.19.20 17.3.5.11 25.3.6.14 24.3.4.14 26.5.7.23 9.2.3.4 24.5.7.28 "
        "8.3.4.10 21.10.14.30 27.3.5.14 9.2.3.4 10.2.4.8 10.2.3.4 10.2.4.8 21.5.7.18 12.0.4.6 "
        "12.0.8.10 27.3.5.11 20.3.10.14 27.3.5.14 23.2.9.19 10.2.3.4 8.3.4.10 15.6.10.14 "
        "24.3.5.11 12.0.3.4 9.2.3.4 10.2.4.8 19.5.7.31 21.5.7.18 12.0.8.11 24.3.5.14 15.6.9.29 "
        "10.2.3.4 30.10.19.21 20.4.9.19 25.2.24.32 12.0.4.8 12.0.3.4 25.3.4.19 8.3.4.10 "
        "29.10.17.18 25.14.30.31 12.0.9.11 24.5.7.26 12.0.8.9 12.0.4.6 24.1.4.16 15.3.5.11 "
        "26.5.7.23 20.10.12.14 22.6.14.20 25.10.14.24 20.3.5.14 21.13.31.32 25.1.8.14 27.3.5.20 "
        "9.2.3.4 27.3.5.12 19.7.15.18 11.2.4.8 27.3.5.20 19.5.7.21 15.4.9.32 29.5.8.25 31.2.9.26 "
        "16.3.5.11 12.0.3.6 22.11.17.19 28.26.27.32 20.6.9.19 27.1.17.22 12.0.8.11 20.4.9.19 "
        "20.6.9.22 29.9.26.27 10.2.3.4 12.3.5.17 10.2.4.8 26.5.7.24 27.25.26.32 21.6.9.14 "
        "15.6.9.25 26.1.14.31 25.5.7.28 15.3.5.11 21.6.9.17 28.1.8.25 26.5.7.24 27.1.23.31 "
        "15.6.9.26 26.1.19.25 25.2.24.29 24.5.7.26 10.2.3.4 8.3.4.10 29.5.9.25 12.0.6.15 "
        "29.1.26.28 13.0.4.9 27.10.18.31 20.6.10.14 12.0.9.11 19.3.5.14 24.10.11.21 19.3.5.11 "
        "19.3.5.14 9.2.3.4 19.3.5.11 27.2.9.24 24.5.7.18 8.3.4.10 15.4.10.14 15.4.10.29 "
        "26.10.17.19 30.8.19.20 28.2.24.32 24.5.7.29 27.5.25.30 20.6.10.14 24.2.10.22 15.6.10.32 "
        "31.2.10.26 26.5.7.23 24.5.7.26 24.13.17.19 24.11.14.17 24.6.15.19 9.2.3.4 26.5.7.23 "
        "25.1.12.19 24.5.7.26 20.4.9.14 31.2.26.27 12.0.8.10 26.5.7.18 25.9.11.23 15.6.9.32 "
        "12.0.3.25 10.2.4.8 10.2.3.4 16.2.9.15 17.0.4.12 31.2.9.24 16.0.4.6 12.3.5.18 25.11.17.19 "
        "8.3.4.10 31.2.24.27 31.2.10.24 20.4.10.14 19.5.7.26 24.12.14.19 22.5.7.18 9.2.3.4 "
        "28.2.19.23 28.2.9.19 8.3.4.10 19.5.7.22 22.5.7.18 19.5.7.22 9.2.3.4 10.2.4.8 20.3.10.32 "
        "12.0.3.6 12.0.4.8 24.2.14.21 26.14.25.29 24.5.7.18 15.6.9.32 12.0.3.6 12.0.8.10 "
        "29.17.18.27 12.0.4.8 10.2.3.4 25.9.11.17 10.2.4.8 25.2.9.11 28.9.17.18 10.2.3.4 "
        "20.4.9.19 25.9.14.28 15.3.5.11 26.9.19.25 24.5.7.31 10.2.4.8 12.0.15.24 26.5.7.24 "
        "27.9.16.26 26.2.25.32 10.2.3.4 13.2.11.18 15.9.11.14 8.3.4.10 21.4.10.18 19.4.10.32 "
        "29.15.20.27 9.2.3.4 25.5.7.26 28.14.19.27 16.0.8.15 8.3.4.10 31.2.10.26 28.10.14.18 "
        "16.0.6.12 13.0.5.22 25.0.16.24 27.10.15.20 25.5.16.24 9.2.3.4 21.6.9.20 30.2.26.32 "
        "27.11.15.18 26.5.7.24 -1 -2"
    ),
    4: (
        "32.2.12.17 6.1.3.7 21.3.8.14 13.1.7.12 16.14.19.22 7.1.3.5 7.1.3.6 32.2.6.12 27.3.5.11 "
        "7.1.3.5 32.2.12.18 13.1.3.12 19.14.15.23 32.2.6.12 27.3.5.8 17.3.4.11 27.3.5.23 "
        "27.3.5.11 21.13.14.15 32.2.12.21 16.13.14.31 32.2.6.12 32.2.12.18 13.1.7.12 21.11.14.26 "
        "7.1.3.6 19.3.11.14 7.1.3.5 32.2.6.12 19.3.8.14 19.3.11.14 19.3.8.14 32.2.12.22 32.2.6.12 "
        "16.14.20.22 7.1.3.6 27.3.5.21 16.3.11.14 16.3.8.14 13.3.7.12 16.3.11.14 13.1.7.12 "
        "16.3.4.11 7.1.3.5 27.3.5.11 32.2.12.18 16.3.4.8 19.13.14.15 19.3.8.14 13.3.7.12 19.3.4.8 "
        "19.3.8.14 27.3.5.18 13.1.7.12 16.14.15.23 16.3.11.14 7.1.3.6 16.3.4.11 32.2.6.12 "
        "13.1.3.12 13.3.7.12 21.13.14.34 24.14.15.18 16.3.8.14 7.1.3.5 13.1.3.12 16.3.11.14 "
        "16.3.4.8 16.3.8.14 16.3.11.14 27.3.5.8 32.2.12.18 27.3.5.11 19.13.14.31 7.1.3.6 "
        "13.7.12.16 14.3.4.8 29.21.25.28 13.3.11.15 14.3.4.8 13.3.11.15 15.3.7.12 28.5.16.26 "
        "28.1.5.14 29.3.5.8 7.1.3.5 32.2.6.12 7.1.3.6 16.3.4.8 13.7.12.16 14.1.7.12 29.21.24.28 "
        "29.3.5.8 32.2.12.18 21.11.14.26 32.2.6.12 16.13.14.31 29.21.24.28 13.1.3.12 29.3.5.8 "
        "29.3.5.11 16.3.8.14 16.3.4.8 16.3.11.14 13.1.7.12 16.3.4.8 16.3.8.14 29.21.25.28 "
        "16.3.4.8 32.2.12.18 29.3.5.23 7.1.3.5 16.3.4.11 32.2.6.12 21.14.15.17 32.2.12.21 "
        "17.13.14.15 20.3.8.14 13.3.7.12 20.3.4.11 27.3.5.11 20.3.4.8 27.3.5.8 27.3.5.18 "
        "13.1.3.12 7.1.3.6 13.3.7.12 32.2.6.12 20.3.8.14 7.1.3.5 27.3.5.8 27.3.5.11 20.3.4.8 "
        "13.7.12.20 32.2.12.21 32.2.6.12 13.3.11.15 32.2.12.21 27.3.5.8 12.6.13.26 32.2.6.14 "
        "15.3.4.8 15.3.11.12 32.2.14.22 18.12.16.34 25.12.29.32 16.4.7.14 23.12.15.17 15.4.8.14 "
        "27.3.5.11 32.2.6.14 27.3.5.8 32.2.14.22 7.1.3.6 20.3.4.8 15.3.14.20 18.12.17.24 "
        "27.3.5.11 22.12.17.19 7.1.3.5 32.2.6.14 15.3.11.12 16.8.14.15 20.11.12.25 18.12.16.34 "
        "7.1.3.6 22.2.14.19 25.11.12.30 15.3.4.8 27.3.5.8 7.1.3.5 27.3.5.20 7.1.3.6 27.3.5.11 "
        "18.12.16.34 25.12.17.29 7.1.3.5 22.12.17.19 32.2.6.14 16.4.8.14 20.12.16.18 32.2.14.22 "
        "32.2.6.14 7.1.3.6 7.1.3.5 27.3.5.8 7.1.3.6 21.3.8.12 21.3.11.12 7.1.3.5 32.2.14.22 "
        "27.3.5.11 18.12.15.31 32.2.6.14 17.3.8.12 17.3.4.11 17.3.11.12 29.3.5.8 17.3.4.8 "
        "15.3.14.17 32.2.14.19 7.1.3.6 7.1.3.5 29.3.5.11 15.3.11.12 32.2.6.14 14.6.12.17 "
        "14.6.10.12 21.12.16.25 13.3.6.12 7.1.3.6 7.1.3.5 32.2.13.21 7.1.3.6 7.1.3.5 13.6.12.26 "
        "27.3.5.8 14.6.10.12 14.3.4.8 13.3.6.12 7.1.3.6 27.3.5.23 27.3.5.8 14.3.11.12 21.12.16.18 "
        "27.3.5.21 32.2.4.13 32.2.13.24 14.3.4.8 7.1.3.5 7.1.3.6 14.3.11.12 13.6.12.26 32.2.14.19 "
        "7.1.3.5 27.3.5.11 27.3.5.22 15.3.4.8 15.3.11.12 14.6.12.17 15.3.4.8 7.1.3.6 27.3.5.11 "
        "27.3.5.21 7.1.3.5 19.12.13.17 32.2.14.18 27.3.5.8 15.3.11.12 15.3.4.8 7.1.3.6 27.3.5.20 "
        "7.1.3.5 14.6.10.12 32.2.6.13 14.3.11.12 27.3.5.8 13.6.12.16 27.3.5.20 14.6.12.26 "
        "14.6.10.12 7.1.3.6 27.3.5.11 32.2.13.24 18.11.12.24 17.12.20.21 7.1.3.5 27.3.5.20 "
        "13.3.6.12 32.2.12.13 7.1.3.6 18.12.16.23 7.1.3.5 14.3.4.8 32.2.13.24 14.3.11.12 "
        "13.6.12.16 21.12.16.31 7.1.3.6 32.2.13.14 15.3.4.8 7.1.3.5 7.1.3.6 21.12.13.25 "
        "15.3.11.12 7.1.3.5 27.3.5.11 7.1.3.6 14.3.6.12 32.2.13.24 13.6.12.26 22.12.17.19 "
        "20.12.17.18 19.12.16.31 14.3.6.12 13.6.12.28 15.3.4.8 7.1.3.5 22.12.17.26 15.3.11.12 "
        "32.2.14.17 33.9.27.32 33.1.9.32 7.1.3.6 7.1.3.5 15.3.4.8 22.12.17.19 27.3.5.8 32.2.6.14 "
        "14.6.12.27 20.12.16.34 7.1.3.6 14.6.12.17 21.2.14.18 15.3.11.12 31.3.5.26 24.12.13.18 "
        "19.12.16.31 14.6.12.29 7.1.3.5 32.2.14.27 14.6.12.17 7.1.3.6 32.2.13.14 32.2.4.14 "
        "29.21.25.28 29.3.5.11 32.2.14.26 14.6.12.28 7.1.3.5 22.12.16.17 15.3.4.8 15.3.11.12 "
        "32.2.6.14 14.6.10.12 14.3.4.8 14.3.11.12 7.1.3.6 27.3.5.19 7.1.3.5 7.1.3.6 17.12.16.21 "
        "13.6.12.26 7.1.3.5 32.2.14.25 32.2.4.14 20.12.16.34 7.1.3.6 32.3.5.8 15.3.4.8 22.2.14.30 "
        "7.1.3.5 26.12.17.30 15.3.11.12 22.12.16.34 14.6.12.17 25.12.13.17 32.2.6.14 18.12.23.27 "
        "22.12.16.34 21.2.4.14 24.12.16.20 14.6.12.29 29.3.5.24 14.3.6.12 7.1.3.6 13.6.10.12 "
        "29.3.5.11 21.12.15.16 27.3.5.19 27.3.5.8 27.3.5.19 27.3.5.8 32.2.13.21 27.3.5.19 "
        "17.12.15.34 24.12.16.28 27.3.5.11 21.12.16.18 32.2.13.16 13.6.12.26 27.3.5.8 20.12.17.24 "
        "7.1.3.5 32.2.14.19 32.2.14.22 15.3.4.8 15.3.11.12 7.1.3.6 27.3.5.11 27.3.5.8 15.3.4.8 "
        "14.6.12.27 15.3.11.12 22.12.13.18 15.3.4.8 14.6.10.13 14.3.11.16 15.3.4.8 13.6.10.16 "
        "7.1.3.5 19.12.17.22 26.3.5.11 26.3.5.21 14.3.11.12 19.12.16.17 13.6.12.16 14.6.10.12 "
        "13.6.12.16 32.2.12.14 15.3.4.8 15.3.11.12 32.2.4.14 7.1.3.6 7.1.3.5 7.1.3.6 18.12.16.34 "
        "15.3.4.8 24.11.12.29 14.6.12.27 32.2.14.23 32.2.14.21 7.1.3.5 18.12.16.34 14.6.12.17 "
        "7.1.3.6 32.3.5.11 14.3.6.12 14.3.11.12 32.3.5.26 24.12.16.18 7.1.3.5 27.3.5.8 27.3.5.21 "
        "32.2.13.18 19.12.15.34 7.1.3.6 24.12.15.16 32.2.6.13 13.6.12.26 14.6.12.17 15.3.4.8 "
        "7.1.3.5 17.12.13.20 18.12.13.21 14.6.12.26 20.12.16.31 15.3.11.12 32.2.14.19 32.2.4.14 "
        "22.11.12.27 18.12.21.22 32.2.6.14 32.2.14.17 27.3.5.11 33.9.27.32 32.2.14.26 27.3.5.21 "
        "32.2.10.14 32.2.14.17 15.3.4.8 27.3.5.11 33.1.9.32 32.2.6.14 7.1.3.6 27.3.5.8 14.6.10.12 "
        "32.2.4.13 18.12.15.31 7.1.3.5 29.3.5.23 21.12.16.25 14.3.11.12 27.3.5.11 14.3.4.8 "
        "21.12.16.18 -2"
    ),
    5: (
        "27.26.28.30 16.11.15.17 13.8.10.12 19.13.16.17 30.9.14.21 27.0.7.26 20.4.15.19 "
        "13.1.10.12 27.23.25.26 13.1.10.12 26.13.23.31 22.13.18.21 20.4.7.19 13.6.10.12 "
        "13.6.10.12 20.4.15.19 28.11.15.19 30.8.9.21 30.9.15.29 30.9.14.21 20.4.7.19 20.4.15.19 "
        "22.11.18.21 26.13.23.31 22.13.18.21 13.4.10.12 20.4.7.19 26.8.9.21 22.11.18.21 "
        "28.11.15.19 27.0.7.26 26.13.23.31 28.11.15.19 22.13.18.21 19.6.7.13 22.11.18.21 "
        "19.13.16.17 13.8.10.12 22.13.18.21 19.6.7.13 19.13.16.17 20.4.15.19 26.13.23.31 "
        "22.11.18.21 28.11.15.19 20.4.7.19 13.6.10.12 27.23.25.26 13.10.12.15 22.14.18.21 "
        "30.9.15.29 19.6.7.13 13.7.10.12 20.4.15.19 13.3.10.12 22.11.18.21 30.8.9.21 30.9.14.21 "
        "20.4.7.19 13.10.11.12 22.13.18.21 20.4.15.19 19.13.16.17 19.6.7.13 19.13.16.17 20.4.7.19 "
        "30.8.9.21 26.3.11.19 20.4.15.19 22.11.18.21 22.13.18.21 20.4.9.26 13.7.10.12 30.8.9.21 "
        "21.4.10.20 13.1.10.12 13.6.10.12 27.0.4.20 27.20.24.26 23.11.18.22 13.8.10.12 21.4.9.20 "
        "19.6.7.13 27.0.4.20 27.20.24.26 13.5.10.12 21.4.10.20 27.0.4.20 13.5.10.12 13.10.12.15 "
        "21.4.9.20 30.9.14.21 27.20.24.26 21.4.10.20 27.0.4.20 27.20.24.26 27.0.4.20 30.9.15.29 "
        "13.6.10.12 13.6.10.12 30.9.14.21 19.13.16.17 13.10.11.12 27.20.24.26 21.4.9.20 "
        "13.10.12.15 14.2.10.12 19.6.7.13 13.8.10.12 27.0.4.20 27.20.24.26 19.13.16.17 21.4.10.20 "
        "30.9.14.22 19.6.7.13 13.9.10.12 23.13.18.22 27.0.4.20 19.13.16.17 27.20.24.26 "
        "27.20.30.32 23.11.18.22 21.4.8.20 21.4.15.19 26.3.13.19 13.4.10.12 22.13.18.21 "
        "13.10.12.15 20.4.7.19 20.4.15.19 13.7.10.12 19.6.7.13 13.10.12.15 22.11.18.21 20.4.7.19 "
        "13.10.12.15 20.4.13.19 22.13.18.21 13.8.10.12 22.11.18.21 22.13.18.21 22.11.18.21 "
        "20.4.7.19 19.13.16.17 13.1.10.12 19.6.7.13 20.4.15.19 22.13.18.21 22.11.18.21 "
        "19.13.16.17 13.8.10.12 27.8.9.21 19.6.7.13 19.13.16.17 27.9.14.21 19.6.7.13 27.8.9.21 "
        "22.13.18.21 22.11.18.21 20.4.7.19 13.10.11.12 26.3.13.28 13.7.10.12 28.3.11.19 "
        "27.13.20.28 26.9.14.21 28.4.11.19 19.13.16.17 19.6.7.13 20.4.7.27 20.3.11.19 21.4.7.19 "
        "22.13.18.21 27.8.9.21 19.13.16.17 13.6.10.12 27.9.14.21 22.11.18.21 27.8.9.21 27.9.14.21 "
        "20.4.15.26 23.13.18.22 23.11.18.22 27.8.9.22 19.6.7.13 20.12.18.19 20.11.15.19 "
        "23.13.18.22 23.11.18.22 13.1.10.12 21.4.7.19 26.13.28.32 29.12.18.19 27.3.7.13 "
        "26.9.14.21 26.8.9.21 19.4.18.27 20.6.7.13 19.4.7.26 27.9.14.22 13.5.10.12 20.4.18.19 "
        "13.7.10.12 13.10.11.12 23.13.18.22 27.8.9.22 21.4.19.25 27.9.14.24 13.4.10.12 "
        "25.11.18.24 27.8.9.24 27.9.14.24 25.13.18.24 13.1.10.12 27.8.9.24 23.3.18.20 13.8.10.12 "
        "13.5.10.12 27.9.14.24 -2"
    ),
    6: (
        "7.3.4.16 16.8.9.15 22.1.7.32 16.6.8.15 8.1.3.4 25.1.14.16 7.3.4.14 21.11.14.30 "
        "24.18.22.23 8.1.3.4 16.7.8.15 28.0.1.10 23.1.14.32 16.6.7.15 26.2.22.25 30.0.1.9 "
        "16.7.8.15 7.3.4.14 -3.14.18.0.2.15.51.12.13.8.10 30.4.20.26 30.0.1.10 8.1.3.4 "
        "26.18.22.25 16.6.7.15 30.4.20.26 7.3.4.14 16.8.9.15 30.0.1.10 30.4.26.27 26.2.22.25 "
        "16.6.8.15 22.8.13.19 21.11.14.22 -3.9.30.0.1.10.15.6.8.1.10 26.18.22.25 25.1.7.16 "
        "28.0.1.11 23.1.7.32 30.4.20.26 26.2.22.25 30.0.1.10 26.18.22.25 26.2.22.25 30.4.26.27 "
        "30.4.20.26 22.8.13.19 30.4.26.27 8.1.3.4 16.7.8.15 21.10.13.22 30.0.1.10 26.18.22.25 "
        "7.3.4.14 8.1.3.4 30.4.26.27 7.3.4.14 26.2.22.25 16.6.8.15 22.8.13.19 21.11.14.22 8.1.3.4 "
        "30.0.1.10 22.7.12.19 25.1.14.16 16.7.8.15 16.6.7.15 7.3.4.14 22.1.7.32 16.8.9.15 "
        "-3.14.15.0.2.13.51.12.13.0.7 9.1.3.4 8.3.4.14 25.1.8.16 9.1.3.4 21.11.13.30 16.6.8.15 "
        "22.7.8.19 27.0.1.10 27.0.1.11 22.1.14.32 21.11.13.22 22.7.8.19 25.1.14.16 16.8.9.15 "
        "8.3.4.14 22.1.8.32 25.1.8.16 27.0.1.11 9.1.3.4 8.3.4.14 27.0.1.12 16.6.9.15 27.0.1.11 "
        "9.1.3.4 16.8.9.15 21.11.13.30 16.6.8.15 28.0.1.11 28.0.1.10 8.3.4.14 22.7.9.19 22.1.8.32 "
        "25.1.8.16 -3.14.20.0.7.13.51.2.13.3.19 9.1.3.4 22.1.14.32 25.1.14.16 22.1.14.32 "
        "16.8.9.15 21.11.13.22 25.1.14.16 16.6.8.15 28.0.1.11 16.8.9.15 23.1.14.32 26.18.22.25 "
        "30.4.20.26 26.2.22.25 26.18.22.25 -3.6.19.0.3.8.44.0.14.10.14 17.6.9.16 27.2.23.26 "
        "19.2.7.12 19.2.6.12 23.6.10.20 7.0.3.4 15.6.13.21 17.15.16.29 31.4.26.27 10.0.1.4 "
        "9.0.6.11 15.3.4.9 12.3.8.17 16.2.11.30 -1 17.9.10.12 16.11.12.15 16.6.11.15 16.11.12.15 "
        "21.9.14.22 26.18.22.25 30.0.1.9 26.2.22.25 22.7.11.19 30.4.20.26 11.1.3.4 "
        "-3.7.11.0.1.4.111.2.4.0.10 30.0.1.8 30.4.20.26 10.3.4.14 16.6.11.15 11.1.3.4 16.10.11.15 "
        "10.3.4.14 30.0.1.9 16.6.11.15 25.1.10.16 22.1.10.32 25.1.10.16 21.9.14.30 28.0.1.8 "
        "22.7.11.19 22.1.10.32 30.4.26.27 21.9.14.22 26.18.22.25 11.1.3.4 26.2.22.25 10.3.4.14 "
        "22.7.11.19 21.9.14.22 16.11.12.15 11.1.3.4 16.6.10.15 30.0.1.8 22.7.10.19 30.4.20.26 "
        "10.3.4.14 30.0.1.8 16.11.12.15 21.9.14.22 22.7.11.19 25.1.10.16 27.0.1.9 22.1.10.32 "
        "16.6.11.15 21.9.14.22 11.1.3.4 22.7.10.19 10.3.4.14 16.11.12.15 "
        "-3.14.23.0.11.16.105.7.13.1.10 25.1.6.11 17.2.13.16 -3.12.21.0.4.8.98.2.4.7.19 13.2.8.12 "
        "17.13.16.31 23.6.15.18 -1 18.1.6.23 25.7.16.20 25.6.13.17 24.1.6.11 23.7.16.20 7.1.3.4 "
        "17.2.14.16 16.14.15.30 28.0.1.12 22.1.9.32 11.6.7.10 6.3.4.8 30.4.26.27 10.7.9.11 "
        "17.2.14.15 21.0.7.8 11.7.8.9 21.12.16.18 10.7.8.11 30.4.20.26 21.0.2.7 21.8.16.18 "
        "30.4.26.27 30.4.20.26 11.7.8.9 10.7.8.11 11.7.8.9 -3.22.25.0.6.10.123.1.7.13.16 "
        "30.0.1.13 7.1.3.4 -3.11.18.0.6.8.51.0.9.2.12 24.1.7.10 21.1.7.32 6.3.4.30 8.0.1.6 "
        "12.8.10.14 27.19.25.26 7.0.1.14 -3.9.17.0.4.10.74.3.4.7.16 24.1.6.12 16.2.15.28 -1 "
        "22.1.6.32 24.1.6.11 24.2.21.23 28.0.1.13 21.1.6.32 26.18.24.25 24.1.6.11 8.3.4.6 "
        "21.1.6.32 8.1.3.4 30.4.20.26 11.7.8.9 26.2.24.25 30.0.1.14 24.1.6.10 10.7.8.12 28.0.1.13 "
        "8.3.4.6 28.0.1.14 -3.10.12.0.1.4.111.0.8.2.4 28.0.1.13 24.18.21.23 11.7.8.9 21.1.6.32 "
        "8.3.4.30 25.1.6.12 19.0.2.10 19.2.8.10 12.7.10.14 -3.6.20.0.3.4.51.1.4.12.15 19.0.2.10 "
        "9.0.1.15 14.7.11.12 25.2.22.24 13.7.11.15 22.1.6.32 10.0.1.8 19.2.8.10 19.0.2.10 "
        "9.0.1.15 27.19.25.26 27.2.25.26 14.7.11.12 27.19.25.26 10.0.1.8 12.7.10.15 13.7.10.11 "
        "27.2.25.26 19.2.8.10 12.7.10.14 -3.12.20.0.7.11.90.0.10.8.9 13.8.10.12 20.0.2.10 "
        "20.2.8.10 13.0.10.12 26.1.6.14 23.1.6.33 26.1.6.14 10.1.3.4 8.3.4.6 8.1.3.4 "
        "-3.18.24.0.1.12.85.1.17.0.6 26.19.23.25 12.7.8.9 26.2.23.25 10.7.8.13 12.7.8.9 12.0.9.33 "
        "24.3.16.18 -1 27.14.15.26 8.3.4.28 22.1.6.32 12.7.10.15 19.0.2.10 13.7.10.11 19.2.8.10 "
        "27.2.25.26 27.19.25.26 25.1.6.12 12.7.10.14 13.7.10.11 -3.31.32.1.10.23.106.0.1.5.12 "
        "10.1.3.4 28.0.1.14 28.0.1.13 8.3.4.6 8.3.4.28 10.3.4.6 8.3.4.28 19.0.2.10 9.0.1.15 "
        "10.0.1.8 12.7.10.15 25.2.22.24 13.7.10.11 25.19.22.24 22.1.6.32 27.2.25.26 25.1.6.12 "
        "19.2.8.10 9.0.1.15 10.0.1.8 9.0.1.14 13.7.11.15 19.0.2.11 22.1.6.32 "
        "-3.19.21.6.8.12.48.2.11.0.15 10.0.1.8 -3.12.14.0.1.4.111.0.10.2.4 20.2.8.10 -1 "
        "25.19.23.24 -3.18.24.2.14.16.104.1.13.15.20 17.6.10.16 9.0.1.12 17.11.12.16 10.0.1.8 "
        "10.0.1.9 10.0.1.8 17.6.11.16 23.1.15.17 17.11.12.16 -3.6.29.8.11.16.90.0.19.2.10 "
        "19.8.10.13 -3.17.25.0.11.13.88.2.15.3.15 -3.6.8.0.2.5.15.3.4.2.7 19.8.11.15 21.1.7.33 "
        "-3.6.13.0.1.7.11.3.4.1.4 -1 10.1.3.4 16.6.8.15 24.2.22.23 22.1.14.16 21.7.8.23 8.3.4.14 "
        "19.1.8.32 24.12.14.19 16.9.10.15 30.4.24.27 -3.17.22.0.1.3.51.14.16.8.21 23.7.9.25 "
        "-3.20.30.0.1.18.83.1.8.11.26 19.0.18.23 23.1.8.16 19.1.8.32 23.1.8.16 19.1.8.32 "
        "23.1.8.16 16.6.9.15 9.1.3.4 19.1.14.32 30.4.25.27 20.1.13.18 -3.6.15.0.2.3.15.1.4.2.14 "
        "30.0.1.11 8.3.4.14 19.24.26.32 9.1.3.4 25.18.21.24 8.3.4.14 28.9.16.26 22.0.1.11 "
        "22.0.1.12 22.0.1.11 25.20.21.24 -3.10.22.0.1.5.15.6.9.1.11 25.18.21.24 25.20.21.24 "
        "16.9.10.15 22.0.1.12 25.18.21.24 25.20.21.24 22.0.1.11 16.6.9.15 9.1.3.4 25.18.21.24 "
        "8.3.4.14 25.20.21.24 27.1.8.16 22.9.16.31 9.1.3.4 16.8.9.15 16.6.8.15 27.1.14.16 "
        "8.3.4.14 16.9.10.15 9.1.3.4 16.6.8.15 22.1.14.32 16.8.9.15 16.6.8.15 25.0.1.18 "
        "22.1.13.18 22.18.21.32 25.0.18.19 16.8.9.15 8.3.4.14 30.6.11.22 30.11.20.22 30.4.26.27 "
        "30.6.11.22 30.0.1.11 16.6.9.15 22.18.21.32 28.1.8.16 9.1.3.4 8.3.4.14 30.3.11.25 "
        "30.1.14.18 16.9.10.15 16.6.9.15 27.0.1.12 22.1.8.32 22.0.1.18 9.1.3.4 "
        "-3.13.31.1.7.12.106.2.7.19.22 17.8.9.16 8.3.4.15 26.1.8.17 17.6.9.16 9.1.3.4 23.1.15.32 "
        "8.3.4.15 17.9.10.16 26.1.8.17 9.1.3.4 17.6.8.16 14.2.7.12 28.0.1.25 8.3.4.14 9.1.3.4 "
        "13.2.7.27 28.0.1.19 28.0.1.26 17.8.9.16 28.0.1.19 14.2.7.12 28.0.1.25 28.0.1.18 "
        "22.1.14.32 16.6.8.15 25.1.14.16 -3.11.14.0.1.5.51.0.10.3.4 22.1.14.32 "
        "-3.11.25.0.1.3.51.0.10.14.16 13.2.7.28 8.3.4.15 -3.6.15.0.3.19.105.0.16.12.16 29.0.1.25 "
        "14.0.1.4 -1 30.2.14.24 7.1.3.4 18.6.12.17 25.2.10.23 28.0.1.8 24.2.10.27 18.6.9.17 "
        "18.6.12.17 6.3.4.16 7.1.3.4 28.0.1.22 25.2.10.23 18.6.9.17 18.6.12.17 18.6.9.17 28.0.1.8 "
        "6.3.4.16 7.1.3.4 19.1.16.32 6.3.4.16 27.2.11.30 18.7.13.17 -3.14.31.0.8.27.84.8.19.6.19 "
        "7.1.3.4 6.3.4.20 22.7.10.21 22.7.13.21 16.0.7.15 18.3.12.13 -1 7.1.3.4 28.2.10.26 "
        "-3.10.12.0.1.4.111.2.4.0.6 18.6.9.17 27.2.10.30 18.6.12.17 18.6.9.17 22.1.16.18 "
        "-3.12.28.0.2.4.15.6.9.1.8 28.0.1.22 18.6.12.17 18.6.9.17 25.2.10.23 6.3.4.16 7.1.3.4 "
        "18.6.12.17 24.2.10.27 6.3.4.16 18.7.10.17 28.0.1.9 19.1.6.32 28.2.11.26 18.7.13.17 "
        "27.2.11.30 22.1.6.18 7.1.3.4 25.2.10.23 28.0.1.22 24.2.10.27 18.6.9.17 25.2.10.23 "
        "6.3.4.16 28.0.1.9 7.1.3.4 19.1.16.32 22.1.16.18 24.2.10.28 28.0.1.22 18.6.12.17 6.3.4.16 "
        "25.2.11.23 18.7.10.17 7.1.3.4 28.0.1.8 19.1.16.32 18.6.12.17 22.1.16.18 24.2.10.28 "
        "25.2.10.23 28.0.1.22 18.6.9.17 18.6.12.17 18.6.9.17 24.2.10.27 28.0.1.8 "
        "-3.29.31.0.1.22.92.13.24.1.16 18.6.12.17 6.3.4.16 7.1.3.4 28.0.1.8 18.6.9.17 6.3.4.16 "
        "19.1.6.32 22.1.6.18 25.2.11.23 7.1.3.4 6.3.4.16 7.1.3.4 28.0.1.22 18.6.12.17 28.0.1.8 "
        "28.0.1.22 28.0.1.8 6.3.4.16 28.0.1.22 -3.11.23.0.2.18.51.4.10.12.13 7.1.3.4 24.2.10.27 "
        "25.2.10.23 24.2.10.27 28.0.1.8 18.6.9.17 19.1.16.32 -3.14.27.0.10.12.51.3.13.1.26 "
        "-3.14.31.0.10.13.85.3.10.19.27 28.2.10.26 22.1.16.18 18.6.12.17 18.6.9.17 18.6.12.17 "
        "27.0.1.22 27.0.1.8 27.0.1.22 6.3.4.16 7.1.3.4 27.0.1.8 27.0.1.22 24.2.10.28 18.6.9.17 "
        "28.0.1.8 25.2.10.23 18.6.12.17 6.3.4.16 7.1.3.4 24.2.10.27 19.1.16.32 18.6.9.17 "
        "28.2.10.26 -3.8.15.0.4.16.62.2.3.11.16 13.3.4.6 9.0.1.7 13.3.4.21 7.0.4.20 16.1.3.4 "
        "14.3.4.20 8.0.4.6 23.1.6.21 7.0.4.20 9.2.8.12 21.7.16.17 10.2.3.8 8.0.4.6 22.1.6.33 "
        "23.1.6.21 8.2.7.11 21.10.15.20 10.0.1.4 7.0.4.20 21.7.16.17 16.3.4.6 8.0.4.17 25.2.7.29 "
        "26.8.9.15 19.7.11.18 19.11.12.18 24.2.8.27 16.2.6.11 -1 23.0.1.31 11.7.8.10 7.1.3.4 "
        "6.3.4.8 -3.9.27.1.2.11.83.0.6.1.15 11.0.2.6 -1 10.7.9.12 11.7.8.9 27.0.1.18 7.1.3.4 "
        "16.2.11.28 17.2.11.15 21.1.7.32 24.1.7.10 10.6.8.12 27.0.1.25 6.3.4.7 27.0.1.18 "
        "16.2.12.28 28.0.1.26 7.1.3.4 17.2.12.15 28.0.1.18 28.0.1.25 11.6.8.9 28.0.1.18 10.6.8.12 "
        "21.1.7.32 11.6.8.9 24.1.7.10 10.6.8.12 16.2.12.28 11.6.8.9 17.2.11.15 16.2.11.27 "
        "-3.17.29.1.11.15.106.2.11.20.28 17.2.11.15 16.2.11.27 10.6.8.12 17.2.12.15 21.1.7.32 "
        "16.2.12.30 6.3.4.7 25.1.6.11 11.7.8.9 17.2.11.15 7.1.3.4 28.0.1.25 "
        "-3.7.14.0.1.18.51.3.4.0.13 17.2.13.27 -3.13.23.1.4.10.27.0.3.0.10 10.6.8.12 14.0.3.4 -1 "
        "17.2.12.15 11.6.8.9 6.3.4.7 10.7.8.12 -3.7.12.0.4.5.51.1.3.2.9 11.6.8.9 10.6.8.12 "
        "28.0.1.18 11.6.8.9 16.2.11.27 6.3.4.7 7.1.3.4 -3.6.23.1.4.13.82.3.4.0.4 23.1.9.33 "
        "27.7.9.10 8.3.4.9 -1 10.7.8.12 17.2.12.15 7.1.3.4 6.3.4.7 24.1.6.11 11.7.8.9 27.0.1.25 "
        "16.2.11.28 28.0.1.19 7.1.3.4 10.6.8.12 28.0.1.26 11.6.8.9 28.0.1.19 6.3.4.7 10.7.8.12 "
        "-3.20.23.0.1.7.34.10.14.14.16 24.7.12.21 -1 17.2.12.15 28.0.1.25 11.7.8.9 16.2.11.27 "
        "-3.29.30.16.20.28.89.0.1.5.15 10.7.8.12 17.2.12.15 -3.9.18.3.4.13.7.0.6.2.3 7.1.3.4 "
        "11.0.1.4 -1 28.0.1.25 6.3.4.7 11.7.8.9 -3.11.19.2.4.9.121.0.1.3.18 20.1.6.32 "
        "-3.9.16.3.13.20.24.0.8.8.14 13.7.8.18 -3.11.12.1.3.10.102.0.6.0.8 -1 19.7.10.14 7.1.3.4 "
        "6.3.4.15 7.1.3.4 6.3.4.15 27.2.11.30 21.1.6.19 28.0.1.22 25.2.11.23 24.2.11.27 7.1.3.4 "
        "17.6.12.16 -3.16.28.0.1.9.10.2.15.1.8 25.2.10.23 6.3.4.15 18.1.6.32 21.1.6.17 27.0.1.22 "
        "-3.28.29.0.1.12.104.2.27.2.14 17.7.10.16 7.1.3.4 -3.22.30.2.6.7.45.0.21.0.1 27.0.1.7 "
        "-3.22.30.2.6.7.45.0.21.0.1 6.3.4.15 30.19.21.29 30.0.1.9 17.7.13.16 17.7.10.16 "
        "17.7.13.16 7.1.3.4 -3.16.17.0.2.15.97.0.1.6.9 18.1.15.32 30.0.1.11 21.1.15.17 30.3.7.22 "
        "30.0.1.8 27.0.1.7 27.7.21.30 6.3.4.15 28.0.1.8 -3.27.31.0.9.14.37.8.10.1.6 -2"
    ),
    7: (
        "28.12.24.25 -3.12.17.3.4.8.22.6.18.4.6 12.1.6.9 12.1.6.8 17.0.16.18 7.2.6.19 28.15.22.25 "
        "12.0.2.6 11.1.6.9 19.0.16.18 16.3.8.13 11.1.6.8 -3.8.15.1.2.3.44.2.4.3.4 28.15.24.25 "
        "9.2.4.18 14.1.6.12 17.7.11.16 -3.19.23.3.4.10.102.0.4.17.18 29.16.23.26 19.4.10.14 "
        "19.4.10.22 11.2.10.20 23.11.12.22 23.4.11.22 29.17.25.26 11.4.7.9 -1 12.2.4.10 "
        "28.17.22.25 23.17.19.22 18.11.13.17 22.10.11.21 22.9.10.21 15.1.6.11 15.1.6.12 "
        "22.10.18.21 -3.9.11.1.2.3.44.3.4.2.4 22.12.13.21 18.4.10.16 9.2.4.12 10.2.4.8 "
        "-3.9.22.2.4.12.54.2.12.3.6 -1 22.14.15.21 17.1.3.11 28.22.24.25 16.3.4.22 18.7.11.16 "
        "22.12.14.21 10.2.4.14 18.1.7.12 17.0.1.6 21.10.14.20 21.1.10.20 12.2.4.10 15.1.6.11 "
        "20.2.10.19 21.2.4.9 20.10.18.19 28.20.22.25 -3.8.21.1.2.3.100.1.2.3.4 21.11.20.23 "
        "17.7.12.22 29.11.16.18 23.11.22.30 12.2.4.10 19.1.7.11 21.14.18.20 9.1.2.3 -1 10.1.2.4 "
        "16.7.8.22 22.10.13.21 18.1.7.8 15.1.6.21 8.2.4.11 17.7.9.22 28.17.22.25 28.17.24.25 "
        "16.1.2.6 22.13.15.21 -3.17.18.3.4.6.54.2.12.7.9 9.2.4.13 28.21.22.25 16.1.3.4 "
        "21.10.15.20 15.1.2.6 11.2.9.10 9.3.8.15 -3.13.17.4.7.8.58.2.6.2.22 16.3.4.6 12.1.6.16 "
        "18.1.11.17 22.14.18.21 18.2.9.17 9.4.7.14 28.17.24.25 16.1.3.4 10.3.4.8 18.6.12.17 "
        "15.3.4.14 -3.13.21.0.7.12.19.0.1.1.19 16.3.4.6 16.1.3.4 22.1.10.21 22.10.14.21 "
        "22.10.15.21 28.15.17.25 16.3.4.6 28.17.24.25 28.17.22.25 22.10.13.21 11.9.10.15 "
        "28.12.17.25 22.8.10.21 28.17.22.25 16.1.3.4 16.3.4.6 18.2.13.17 18.6.14.16 12.0.1.6 "
        "17.11.13.22 12.4.7.9 22.6.13.21 28.17.24.25 28.17.22.25 10.4.7.13 22.1.10.21 22.3.10.21 "
        "18.6.12.17 22.10.19.21 28.17.24.25 -3.14.20.0.4.10.105.0.1.5.19 15.1.2.6 11.9.10.16 "
        "16.1.6.10 11.1.3.4 18.1.14.17 11.3.4.6 9.3.8.16 13.4.7.10 9.1.2.6 16.1.3.4 28.11.16.17 "
        "22.1.14.21 18.1.13.28 19.1.13.17 18.1.13.28 23.3.14.22 14.4.10.11 9.1.3.4 19.1.13.17 "
        "28.17.22.25 16.3.4.6 9.1.4.6 9.1.6.16 9.1.3.4 -3.12.29.0.11.16.52.2.6.11.17 15.0.13.14 "
        "9.1.2.6 -3.23.24.1.15.16.86.1.20.18.20 16.4.7.10 -3.11.12.1.2.4.85.7.8.1.3 9.4.7.16 "
        "19.0.13.15 24.19.22.23 10.3.4.8 12.3.4.6 11.4.7.8 24.19.21.23 15.4.9.14 9.4.7.14 "
        "15.4.7.9 24.19.22.23 14.0.7.13 -3.9.10.1.2.3.44.3.4.4.7 13.0.11.12 10.1.3.4 17.1.6.14 "
        "9.7.14.15 24.19.21.23 18.1.15.23 24.18.20.23 9.3.8.17 24.18.20.22 13.3.4.6 10.3.4.8 "
        "19.0.12.14 17.1.6.11 11.4.7.8 17.3.4.15 10.1.3.4 17.3.4.14 10.3.4.6 24.19.22.23 "
        "15.4.9.14 17.1.6.7 24.19.21.23 9.4.7.14 14.0.10.13 24.19.22.23 18.13.23.29 15.4.7.9 "
        "17.1.6.30 15.4.9.10 25.18.21.23 20.1.14.18 9.3.8.17 16.4.7.10 "
        "-3.24.26.18.20.23.29.0.23.6.21 -1 17.14.16.28 20.4.10.11 11.4.7.8 26.6.25.29 20.4.7.15 "
        "18.0.10.12 9.7.15.18 26.6.20.24 10.3.4.8 15.0.13.14 17.1.15.23 15.0.11.14 16.1.4.6 "
        "11.4.7.8 13.0.7.12 12.2.6.9 9.4.7.12 10.7.9.18 24.6.20.27 25.6.20.23 24.6.20.27 "
        "12.2.6.28 15.0.13.14 18.0.12.14 11.4.7.8 13.0.7.12 14.3.8.15 9.4.7.15 9.1.3.4 10.3.4.8 "
        "26.6.20.24 10.4.7.18 16.1.6.7 15.0.11.14 12.1.3.4 12.3.4.6 16.3.4.23 18.1.3.15 "
        "25.6.21.28 12.1.3.4 26.6.21.24 15.0.13.14 25.6.21.28 11.4.7.8 16.9.15.22 18.1.6.16 "
        "26.6.20.24 9.7.14.15 16.13.21.23 15.0.11.14 18.3.4.29 15.0.7.14 12.3.4.6 "
        "-3.23.24.1.15.20.83.1.10.0.10 19.14.16.17 18.1.6.11 16.1.6.15 16.3.4.21 11.4.7.8 "
        "26.6.22.29 -3.9.14.1.2.3.44.4.7.3.4 -3.20.30.9.11.18.105.12.18.5.13 9.4.7.15 15.0.11.14 "
        "17.3.4.8 20.0.12.14 12.1.3.4 11.4.7.8 10.3.4.6 13.0.11.12 18.12.23.29 20.0.10.12 "
        "26.6.20.24 25.6.20.28 15.4.9.14 15.4.7.14 17.1.6.30 15.4.9.14 9.4.7.14 14.0.10.13 "
        "10.4.7.8 18.12.23.29 24.15.20.23 9.4.7.14 15.4.7.9 15.4.9.10 9.3.8.17 11.4.7.8 15.3.4.8 "
        "15.4.7.14 24.3.15.23 27.6.22.25 13.0.11.12 15.4.9.14 9.4.7.14 "
        "-3.14.20.2.6.12.22.0.7.0.11 23.12.15.22 15.4.7.9 18.1.14.21 9.3.8.17 14.2.6.11 "
        "23.6.14.22 11.7.10.14 10.3.4.8 12.2.6.28 17.1.6.18 9.3.8.18 9.1.3.6 "
        "-3.9.18.1.3.4.29.2.3.2.13 20.16.19.30 17.0.15.16 13.4.7.12 21.0.14.16 9.3.4.8 11.3.8.9 "
        "22.2.10.13 18.1.6.13 13.1.3.4 13.3.4.6 13.1.3.4 19.1.16.22 19.2.9.13 26.6.22.29 "
        "24.11.21.23 27.6.22.25 20.0.13.15 10.3.4.8 -1 12.3.4.6 9.3.8.17 25.6.20.28 10.3.4.8 "
        "9.3.8.17 18.1.16.23 9.1.3.6 -3.10.12.1.2.3.44.3.4.4.7 26.7.21.24 15.4.9.14 25.7.21.28 "
        "9.4.8.14 11.1.3.4 23.14.15.22 17.1.6.7 -3.15.16.1.4.7.119.4.9.0.9 14.0.7.13 14.0.12.13 "
        "24.12.22.23 14.0.10.13 22.4.7.9 -1 28.6.22.27 19.4.9.10 25.6.24.28 23.16.19.22 "
        "-3.12.29.1.3.9.1.0.10.0.16 14.0.12.13 24.11.20.23 20.4.7.9 -1 19.0.13.18 28.3.13.18 "
        "28.14.21.25 22.1.13.21 10.0.5.9 22.13.17.21 16.3.4.6 8.0.13.14 22.3.10.21 14.0.7.13 "
        "22.10.17.21 14.0.10.13 22.10.17.21 28.3.16.27 12.0.8.10 15.1.2.6 15.1.6.14 15.1.6.12 "
        "11.0.4.7 16.1.3.4 16.3.4.6 28.1.3.10 15.1.6.11 12.0.6.10 11.3.7.15 16.1.3.4 16.3.4.6 "
        "8.0.4.12 25.6.20.23 12.0.7.11 10.0.4.6 11.1.3.6 28.9.15.24 8.0.4.12 13.0.11.18 "
        "28.12.13.25 9.3.4.7 8.3.7.18 8.1.3.4 -3.17.28.0.2.6.6.4.9.1.3 22.4.14.21 16.1.3.4 "
        "12.0.11.29 8.0.1.6 16.3.4.6 12.0.11.28 12.8.11.22 22.17.18.19 10.0.4.7 13.1.3.4 13.3.4.6 "
        "11.1.6.7 22.17.19.28 25.6.21.28 22.17.18.19 18.7.9.17 28.1.3.12 "
        "-3.16.28.1.10.14.127.0.11.3.9 13.1.3.4 8.0.4.12 13.3.4.6 25.6.21.23 22.5.17.19 "
        "28.9.18.24 10.0.4.7 22.17.19.20 12.3.4.7 8.0.4.11 9.0.4.7 18.7.9.10 28.13.21.25 13.1.3.4 "
        "22.6.18.21 12.1.6.18 28.3.18.21 22.1.13.21 15.3.4.6 12.0.10.16 14.0.6.10 "
        "-3.12.15.0.6.10.51.0.2.3.4 12.0.1.10 8.0.4.11 14.1.6.17 11.0.6.10 17.10.13.29 26.6.23.29 "
        "11.0.4.10 15.1.6.7 27.6.23.25 24.3.17.21 20.0.6.10 12.1.3.4 24.6.20.27 8.3.7.15 9.3.4.7 "
        "8.3.7.12 28.12.20.25 13.3.4.6 28.3.15.17 13.1.3.4 17.0.6.12 9.3.4.7 8.3.7.12 17.7.11.16 "
        "-3.14.28.3.4.6.54.2.9.3.9 10.0.4.7 8.0.4.12 22.11.18.21 17.6.11.12 22.18.21.28 "
        "22.19.21.27 12.0.9.11 -3.26.28.3.9.20.89.7.24.1.11 23.3.18.22 23.4.18.22 10.0.4.7 "
        "13.1.3.4 28.10.13.20 23.11.18.22 8.0.4.12 -3.8.9.1.2.3.41.1.6.3.6 28.11.13.21 "
        "23.16.18.22 13.3.4.6 13.1.3.4 17.0.11.12 13.3.4.6 23.13.18.22 23.9.18.22 11.0.10.12 "
        "13.1.3.4 -3.18.19.0.4.11.4.4.8.0.8 17.4.10.11 21.0.4.19 13.3.4.6 28.1.3.10 23.18.21.22 "
        "26.6.20.24 -3.18.21.4.10.11.41.4.8.0.8 13.1.3.4 11.0.5.10 25.6.20.27 12.1.6.15 21.0.4.18 "
        "28.3.8.12 -2 25.2.16.24 27.6.21.25 11.0.9.10 16.1.3.10 14.3.4.6 22.0.4.20 11.0.7.10 "
        "24.8.22.23 26.6.21.28 14.1.3.4 22.0.8.12 27.6.21.25 16.1.3.11 22.0.4.20 11.0.4.10 "
        "26.6.21.28 11.0.10.15 27.6.21.25 11.0.6.10 12.0.4.10 12.4.10.11 14.3.4.6 26.6.21.28 "
        "24.16.22.23 12.0.4.10 11.0.10.12 12.0.8.10 24.14.22.23 14.1.3.4 27.6.21.25 24.9.22.23 "
        "24.20.22.23 11.0.2.10 26.6.21.28 24.15.22.23 16.8.10.14 27.6.21.25 11.0.10.14 11.3.4.6 "
        "24.18.22.23 11.0.10.14 22.0.4.14 24.14.22.23 16.3.10.14 24.8.22.23 24.2.22.23 16.3.11.14 "
        "14.1.3.4 11.0.7.10 14.3.4.7 11.0.7.10 22.0.8.12 16.1.3.8 13.0.4.22 "
        "-3.16.17.1.3.4.71.2.8.3.8 14.4.8.12 22.0.4.13 16.1.11.13 11.0.6.10 22.0.8.12 26.6.21.28 "
        "27.6.21.25 13.0.4.22 11.0.4.10 17.1.8.11 14.4.8.12 14.3.4.6 26.6.21.28 24.15.22.23 "
        "12.4.10.11 16.3.11.14 12.0.4.10 24.4.22.23 11.0.8.10 -3.20.22.4.8.12.105.5.19.0.4 "
        "27.6.21.25 12.4.10.11 26.6.21.28 27.6.21.25 22.0.4.20 22.0.8.12 11.0.10.15 15.0.4.22 "
        "26.6.22.28 27.6.22.25 26.6.22.28 24.13.23.29 11.0.2.10 15.1.3.4 14.4.8.12 24.3.22.23 "
        "12.0.4.11 27.6.21.25 26.6.21.28 12.0.4.10 11.0.2.10 16.3.10.14 12.4.10.11 13.0.4.22 "
        "15.3.4.6 14.4.8.12 13.0.4.22 24.13.16.23 27.6.22.25 14.4.8.12 16.3.11.14 22.0.4.20 "
        "26.6.21.28 16.1.8.11 24.10.22.23 -3.17.18.0.14.15.82.6.13.1.10 28.6.16.19 14.1.3.4 "
        "-3.19.21.5.8.18.57.4.12.0.12 21.0.8.12 21.0.12.18 19.0.4.21 20.4.12.18 21.0.8.12 "
        "-3.18.19.0.5.17.45.0.8.4.21 26.6.21.24 25.6.21.27 11.0.10.16 11.3.4.6 26.6.21.24 "
        "11.1.3.4 25.6.21.27 15.0.10.12 26.6.21.24 23.2.19.22 23.19.22.28 26.6.21.28 11.0.10.14 "
        "16.0.4.14 26.6.21.24 12.3.4.6 16.4.10.11 25.6.21.27 16.0.4.10 16.4.10.11 16.0.4.10 "
        "23.7.19.22 16.0.4.11 16.0.4.10 16.4.10.11 16.0.4.10 12.1.3.4 23.19.21.22 11.0.10.15 "
        "16.0.4.15 26.6.21.24 23.19.21.22 11.3.4.6 25.6.21.27 26.6.21.24 15.0.10.12 13.0.10.15 "
        "23.19.22.29 11.1.3.4 11.3.4.6 16.4.10.15 15.0.5.10 23.14.19.22 25.6.21.27 12.1.3.4 "
        "16.0.4.10 12.3.4.6 11.0.10.13 -3.8.9.1.2.3.44.3.4.0.4 23.16.19.22 26.6.21.24 "
        "-3.10.16.0.1.15.15.1.9.4.9 23.1.19.22 10.0.4.9 12.1.3.4 25.6.21.27 8.0.4.11 9.0.4.7 "
        "10.0.8.9 23.19.21.22 26.8.21.24 10.0.9.15 25.8.21.27 26.8.21.24 23.13.19.22 16.4.9.15 "
        "23.19.21.22 7.0.4.11 15.0.7.10 23.12.19.22 23.11.19.22 25.9.21.27 11.0.8.10 11.0.4.10 "
        "8.0.4.6 12.3.4.8 7.0.4.11 26.9.21.24 25.9.21.27 16.0.4.10 23.4.19.22 16.0.4.11 "
        "26.9.21.24 8.0.4.6 7.0.4.11 -3.18.27.0.5.17.51.0.17.23.24 11.0.2.10 25.9.21.27 "
        "26.9.21.24 8.0.4.6 25.8.21.27 16.0.4.9 12.1.3.4 10.0.9.15 26.8.21.24 10.3.4.8 "
        "23.16.19.22 15.0.7.9 25.8.21.27 -3.23.24.1.10.19.89.1.17.13.17 10.0.1.9 10.0.3.9 "
        "24.13.17.23 10.0.6.9 24.13.17.22 7.0.4.11 24.13.17.23 24.13.17.22 12.1.3.4 24.13.17.23 "
        "24.13.17.22 12.3.4.9 12.1.3.4 24.13.17.23 11.0.8.10 12.3.4.9 16.0.4.11 11.0.2.10 "
        "26.9.21.24 24.13.17.22 24.9.21.27 11.0.7.10 23.13.17.24 24.13.17.22 16.4.10.11 12.1.3.4 "
        "16.0.4.11 16.0.4.10 8.0.4.6 10.0.9.16 26.8.21.24 13.3.4.8 24.8.21.27 10.0.7.9 12.0.4.10 "
        "26.8.21.23 13.1.3.4 23.14.17.26 24.14.17.22 7.0.4.11 13.3.4.9 13.1.3.4 23.14.17.26 "
        "25.9.21.27 24.14.17.22 -3.23.24.1.11.19.89.1.17.14.17 24.14.17.23 12.0.4.10 8.0.4.6 "
        "13.3.4.8 26.8.21.24 24.14.17.22 7.0.4.11 8.0.4.6 13.1.3.4 10.0.9.13 "
        "-3.6.12.1.2.3.41.1.2.3.8 -1 23.10.17.26 25.6.21.27 12.0.4.11 24.14.17.22 26.6.21.24 "
        "24.6.21.27 11.0.2.10 26.6.21.23 12.4.10.11 11.0.3.10 24.6.21.27 13.3.4.6 11.0.10.13 "
        "13.0.4.10 11.0.10.14 13.0.10.12 26.6.21.23 24.6.21.27 12.0.4.11 12.4.10.11 23.14.17.24 "
        "13.1.3.4 11.0.4.10 24.14.17.22 13.3.4.6 26.6.21.24 13.1.3.4 13.3.4.6 11.0.10.16 11.1.3.4 "
        "16.0.4.15 23.12.17.26 -3.27.28.5.13.24.53.5.23.6.20 15.0.2.10 28.5.23.24 -1 11.0.10.13 "
        "11.3.4.6 25.6.21.27 12.1.3.4 26.6.21.24 11.0.10.14 24.12.17.22 24.6.21.27 12.3.4.6 "
        "26.6.21.23 11.0.10.14 11.1.3.4 24.6.21.27 16.0.4.10 16.4.10.11 12.3.4.6 "
        "-3.9.12.1.4.7.19.0.8.3.6 -1 12.1.3.4 23.13.17.24 11.0.10.15 26.6.21.24 25.6.21.27 "
        "15.0.10.13 -3.20.28.0.4.19.105.5.17.6.13 28.6.17.20 28.6.14.17 18.1.10.28 27.6.22.25 "
        "12.0.4.11 11.0.5.10 15.3.4.6 26.6.22.28 14.4.8.12 12.4.10.11 11.0.10.16 14.0.5.10 "
        "18.1.10.16 21.0.4.13 11.0.10.14 17.1.10.28 12.0.4.10 18.1.10.16 21.0.8.12 12.4.10.11 "
        "17.1.10.28 12.0.4.11 27.6.21.25 26.6.21.28 13.0.4.22 27.6.22.25 19.1.10.17 11.0.10.17 "
        "14.0.3.10 15.1.3.4 12.4.10.11 12.0.4.11 15.3.4.6 24.16.19.22 24.6.21.27 11.0.5.10 "
        "12.0.4.10 28.6.17.20 11.0.5.10 23.16.19.24 11.0.7.10 15.1.3.4 11.0.10.12 12.0.10.14 "
        "24.16.19.22 24.16.19.23 11.0.9.10 12.0.4.11 24.16.19.22 14.4.8.12 21.0.4.19 28.6.13.16 "
        "21.0.8.12 24.15.18.23 11.0.10.16 26.6.20.24 11.0.8.10 21.0.4.13 17.1.10.28 26.6.21.28 "
        "11.0.5.10 18.1.10.16 26.6.20.24 17.1.10.28 18.1.10.16 24.15.18.22 21.0.4.19 28.6.16.19 "
        "11.0.10.14 11.3.4.6 11.0.4.10 -3.7.12.2.4.6.120.1.3.0.4 12.0.5.11 22.0.9.13 24.16.19.27 "
        "14.0.4.22 13.4.11.12 -1 13.0.4.11 11.0.8.10 24.16.19.22 28.6.14.17 11.0.10.18 "
        "23.12.19.26 16.0.4.15 28.6.13.20 18.4.8.16 24.12.18.22 16.0.4.10 23.12.18.26 16.4.10.15 "
        "11.1.3.4 17.0.4.21 15.0.3.10 14.4.8.12 21.0.4.13 28.6.13.16 24.15.18.22 21.0.4.19 "
        "11.0.5.10 14.3.4.6 23.15.18.26 14.1.3.4 28.6.16.19 14.3.4.6 25.6.20.27 14.1.3.4 14.3.4.6 "
        "11.0.8.10 11.0.2.10 21.0.8.12 28.6.13.16 11.0.7.10 24.15.18.22 14.1.3.4 17.1.10.28 "
        "22.0.4.13 18.1.10.16 21.0.4.19 21.0.4.13 21.0.8.12 13.0.4.21 18.1.10.28 15.3.4.6 "
        "11.0.2.10 25.16.20.24 27.6.22.25 -3.19.24.1.13.17.33.1.10.9.11 12.0.4.11 11.0.5.10 "
        "-3.19.28.0.3.10.73.1.10.6.17 12.4.10.11 23.1.13.29 14.4.8.12 23.6.13.22 -1 16.0.4.24 "
        "21.8.14.17 12.0.4.11 18.12.17.29 12.4.10.11 23.7.17.21 11.0.3.10 20.11.12.17 18.12.17.29 "
        "27.6.22.29 -3.17.24.3.7.11.82.1.10.1.16 -3.14.20.6.13.18.69.3.11.5.11 "
        "-3.8.9.1.2.3.44.3.4.0.4 10.0.6.9 28.6.23.26 12.0.4.9 27.6.23.29 10.0.8.9 10.0.9.12 "
        "7.0.4.12 21.11.12.19 19.1.10.23 27.9.23.25 18.3.9.11 25.9.22.27 28.9.16.21 17.7.9.15 "
        "12.0.4.11 12.4.10.11 8.0.4.6 26.8.22.24 17.6.11.14 14.1.3.4 19.1.9.16 21.4.11.15 "
        "28.8.13.16 25.8.20.27 12.0.4.10 18.12.17.29 20.10.12.17 21.4.6.11 28.8.16.19 28.8.13.16 "
        "21.11.15.16 18.12.17.29 10.0.9.11 7.0.4.10 20.11.12.17 8.0.4.6 26.8.20.24 10.0.8.9 "
        "14.3.4.6 14.1.3.4 8.0.4.11 17.10.22.28 26.6.23.28 17.0.8.12 18.1.17.19 21.12.20.29 "
        "14.3.4.6 14.1.3.4 19.1.16.18 20.1.10.19 22.11.12.19 14.3.4.6 11.0.3.10 28.6.16.21 "
        "14.1.3.4 11.0.10.16 17.4.8.10 17.3.10.15 17.0.8.15 12.4.10.11 12.0.4.11 26.6.22.24 "
        "9.0.4.7 19.1.9.16 -3.17.28.0.1.9.25.9.16.7.16 29.6.17.20 -1 -3.6.9.1.3.4.97.0.1.2.8 "
        "10.0.7.9 28.7.13.16 28.6.16.19 10.0.9.14 21.0.12.13 -3.19.28.4.11.12.105.5.18.6.16 "
        "22.1.21.28 23.1.16.21 14.3.4.6 14.1.3.4 25.6.20.27 14.3.4.6 17.9.16.22 "
        "-3.21.28.4.11.12.105.5.20.6.16 8.0.4.11 28.6.16.21 11.0.9.10 14.1.3.4 14.3.4.9 "
        "19.1.10.16 14.1.3.4 26.9.20.24 17.1.10.22 28.9.13.16 -3.22.28.0.14.21.85.3.7.9.16 "
        "25.9.22.27 28.9.13.16 28.9.16.21 8.0.4.6 12.0.4.9 12.4.9.10 14.3.4.8 14.1.3.4 19.1.9.16 "
        "26.8.20.24 12.0.4.10 21.0.4.19 25.8.20.27 26.8.20.24 25.8.20.27 21.0.11.15 10.0.6.9 "
        "28.8.13.16 26.8.20.24 21.4.11.18 10.0.3.9 10.0.9.14 7.0.4.12 21.4.7.17 12.4.10.11 "
        "17.1.10.28 22.4.7.19 8.0.4.6 23.1.17.22 12.0.4.10 22.2.4.11 22.4.9.11 14.3.4.8 "
        "26.8.21.28 -3.18.23.3.10.17.52.1.9.1.16 27.8.22.25 12.4.9.10 20.12.19.29 14.1.3.4 "
        "21.10.12.19 19.9.16.18 -3.7.23.0.6.11.36.0.4.1.16 -1 9.4.6.8 13.0.4.11 25.10.21.27 "
        "28.8.10.17 28.10.17.20 9.0.4.8 9.4.6.8 26.10.21.24 15.3.4.10 15.1.3.4 12.0.5.11 "
        "15.3.4.10 15.1.3.4 28.10.14.17 18.1.11.22 15.3.4.10 20.13.19.29 12.0.8.11 27.10.24.29 "
        "8.0.2.7 28.10.24.26 22.12.13.19 -3.7.9.1.2.3.44.3.4.0.4 25.8.22.27 10.0.9.17 14.0.9.12 "
        "19.9.16.18 7.0.4.11 12.0.4.11 19.1.10.18 20.12.19.29 8.4.7.17 "
        "-3.18.25.1.8.17.94.0.1.9.12 19.11.18.20 20.1.11.19 21.12.13.19 9.4.6.8 13.0.4.11 "
        "20.13.19.29 13.4.11.12 13.0.4.12 19.11.18.24 28.10.24.26 9.0.4.8 15.1.3.4 22.12.13.20 "
        "21.13.20.29 9.4.6.8 9.0.4.7 20.1.10.17 11.0.10.15 13.0.4.10 18.1.10.24 "
        "-3.7.8.1.2.3.44.3.4.0.4 12.0.4.9 19.9.18.20 10.0.5.9 22.10.12.20 17.4.9.11 7.0.4.11 "
        "8.0.4.6 7.0.4.11 21.12.20.29 27.9.24.29 28.9.24.26 18.1.17.19 20.10.17.19 19.1.16.17 "
        "18.1.17.20 22.11.12.20 11.0.9.10 26.6.23.28 21.12.20.29 20.10.18.19 11.0.10.18 "
        "19.1.11.17 9.0.4.7 8.0.4.11 -3.7.12.1.2.3.99.1.2.0.4 12.0.11.13 19.2.9.16 19.9.15.16 "
        "-3.19.23.3.9.17.46.2.15.0.11 -3.10.23.0.7.9.94.0.4.1.17 14.0.4.12 10.0.8.9 -1 13.0.12.22 "
        "10.4.7.9 21.8.18.20 19.11.16.29 9.0.8.14 11.0.4.8 17.4.11.12 12.0.3.11 23.3.8.22 "
        "18.1.9.17 12.0.11.24 17.0.4.11 21.11.12.18 12.0.11.18 26.6.21.24 13.4.11.12 12.0.10.11 "
        "9.0.4.6 14.0.11.12 25.8.21.27 28.8.17.20 18.3.11.17 -2"
    ),
}


#: One window rewrite (found by :mod:`tools.sbox_windows`): (window output
#: nodes, input nodes, program, output choices).  Program step ``(x, y, z, tt)``
#: is LUT ``tt`` of program nodes x, y, z (the inputs first, then the program's
#: own LUTs); window output ``o`` becomes program node ``choice[o][0]``,
#: complemented if ``choice[o][1]``.
WindowStep = tuple[
    tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, bool], ...]
]

#: For ``--seed 1``: window rewrites per box, applied after :data:`WALKS`
#: (explicit programs, so the replay needs no solver).
WINDOWS: dict[int, tuple[WindowStep, ...]] = {}


def _table_fn(tt: int) -> Callable[[int, int, int], int]:
    """The 3-input function with truth table byte ``tt``, for :meth:`State.make`."""
    return lambda x, y, z: (tt >> (x << 2 | y << 1 | z)) & 1


def rebuild_window(circ: Circuit, step: WindowStep) -> Circuit:
    """The circuit with a window of LUTs replaced by ``step``'s program (see
    :data:`WindowStep`); LUTs of the window nothing else uses die in the prune,
    complements fold through :class:`State`."""
    ops, outs = circ
    window_outs = step[0]
    st = State()
    memo: dict[int, Signal] = {i: (i, False) for i in range(6)}
    built: list[Signal] = []

    def get(i: int) -> Signal:
        if i in memo:
            return memo[i]
        if i in window_outs:
            sig = gates.window_output(step, i, get, lambda t, xyz: st.make(_table_fn(t), xyz), built)
        else:
            tt, a, b, c = ops[i - 6]
            sig = st.make(_table_fn(tt), [get(a), get(b), get(c)])
        memo[i] = sig
        return sig

    return prune(st, [(get(i)[0], get(i)[1] ^ neg) for i, neg in outs])


def apply_windows(box: int, circ: Circuit, steps: Sequence[WindowStep]) -> Circuit:
    """Apply recorded window rewrites in turn, each self-checked."""
    for step in steps:
        circ = rebuild_window(circ, step)
        assert evaluate(circ) == gates.box_targets(box)
    return circ


def best_circuit(box: int, seed: int, windows: bool = True) -> Circuit:
    """The recorded best attempt of ``box`` with its reroute, walk and (unless
    ``windows`` is false) window steps applied."""
    circ = attempt(box, seed, BEST_ATTEMPTS[box])
    circ = resub(apply_reroutes(box, circ, REROUTES.get(box, ())), two=True, wide=True)
    circ = apply_walk(circ, decode_steps(WALKS.get(box, "")))
    if seed == 1 and windows:
        circ = apply_windows(box, circ, WINDOWS.get(box, ()))
    return circ


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--restarts", type=int, default=0, help="search attempts 0..N-1 per box")
    ap.add_argument("--first", type=int, default=0, help="with --restarts: start at attempt N")
    ap.add_argument(
        "--prefixes",
        help="with --restarts: only attempts whose prefix number (attempt mod 120) is in "
        "this comma list, e.g. 16,17,18,19,100,101,102,103 (a1 and a6 first)",
    )
    ap.add_argument("--reroute", action="store_true", help="rip-up-and-reroute search on winners")
    ap.add_argument(
        "--reroute-every", type=int, default=1, help="with --reroute: every Nth prefix only"
    )
    ap.add_argument(
        "--reroute-leaf2", type=int, default=0, help="with --reroute: two-LUT leaf search depth"
    )
    ap.add_argument(
        "--wide",
        action="store_true",
        help="with --restarts: rank each attempt after the final two-LUT resubstitution "
        "(wide, as the replay does) instead of the plain one",
    )
    ap.add_argument("--walk", type=int, default=0, help="random-walk iterations on the winners")
    ap.add_argument("--walk-seed", type=int, default=0, help="with --walk: its rng seed")
    ap.add_argument(
        "--walk-up", type=float, default=0.1, help="with --walk: share of uphill moves"
    )
    ap.add_argument(
        "--pair",
        action="store_true",
        help="pair resubstitution (two nodes over one shared new LUT) on the winners",
    )
    ap.add_argument(
        "--walk-pair", type=float, default=0.0, help="with --walk: share of pair moves"
    )
    ap.add_argument("--boxes", default="1-8", help="e.g. 1-8 or 1,3 (partial runs only print)")
    ap.add_argument(
        "--output",
        type=Path,
        default=stamp_kernel_sources.PACKAGE / "engines" / "bitslice" / "sboxes" / "sbox_luts_gen.py",
    )
    args = ap.parse_args(argv)
    boxes = gates.parse_boxes(args.boxes)
    numbers = list(range(args.first, args.restarts))
    if args.prefixes:
        chosen = {int(x) for x in args.prefixes.split(",")}
        numbers = [r for r in numbers if r % len(PREFIXES) in chosen]
    start = time.monotonic()
    best: dict[int, tuple[int, Circuit]] = {}
    for box in boxes:
        if args.seed == 1:
            # A walk or pair search continues from the circuit before the
            # window rewrites (which replay after WALKS), so its steps replay.
            windows = not (args.walk or args.pair)
            best[box] = (BEST_ATTEMPTS[box], best_circuit(box, 1, windows))
        for r in numbers:
            circ = attempt(box, args.seed, r)
            if args.wide:
                circ = resub(circ, two=True, wide=True)
            if box not in best or len(circ[0]) < len(best[box][1][0]):
                best[box] = (r, circ)
                print(f"S{box + 1} attempt {r}: {len(circ[0])} LUTs", flush=True)
        if args.reroute:
            # Continue from the recorded steps (before the final resubstitution).
            r = best[box][0]
            circ = attempt(box, args.seed, r)
            old = REROUTES.get(box, ()) if args.seed == 1 and r == BEST_ATTEMPTS[box] else ()
            circ, steps = improve_reroute(
                box, apply_reroutes(box, circ, old), args.reroute_every, args.reroute_leaf2
            )
            steps = old + steps
            circ = resub(circ, two=True, wide=True)
            print(f"S{box + 1} reroute steps {steps}: {len(circ[0])} LUTs", flush=True)
            best[box] = (best[box][0], circ)
        walked = WALKS.get(box, "") if args.seed == 1 else ""
        if args.walk:
            circ, steps = walk(box, best[box][1], args.walk, args.walk_seed, args.walk_up,
                               p_pair=args.walk_pair)
            if steps:
                walked = (walked + " " + encode_steps(steps)).strip()
                print(f"S{box + 1} walk steps {walked!r}", flush=True)
            best[box] = (best[box][0], circ)
        if args.pair:
            circ, steps = pair_descent(best[box][1])
            if steps:
                walked = (walked + " " + encode_steps(steps)).strip()
                print(f"S{box + 1} walk steps {walked!r}", flush=True)
            best[box] = (best[box][0], circ)
        print(f"S{box + 1}: {len(best[box][1][0])} LUTs (attempt {best[box][0]}), "
              f"{time.monotonic() - start:.0f} s", flush=True)
    counts = [len(best[b][1][0]) for b in boxes]
    print(f"best attempts: {{{', '.join(f'{b}: {best[b][0]}' for b in boxes)}}}")
    print(f"average {sum(counts) / len(counts):.3f}, {time.monotonic() - start:.0f} s")
    if boxes == list(range(8)) and not (args.restarts or args.reroute or args.walk or args.pair):
        programs = [fold_outputs(best[b][1]) for b in boxes]
        for b, prog in zip(boxes, programs, strict=True):
            assert evaluate((prog[0], [(o, False) for o in prog[1]])) == gates.box_targets(b)
        command = f"python -m tools.gen_sbox_luts --seed {args.seed}"
        args.output.write_text(render_module(programs, command, args.seed))
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
