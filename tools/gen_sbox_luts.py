"""Generate 3-input-LUT circuits for the eight DES S-boxes.

The output, ``numbades/engines/bitslice/sboxes/sbox_luts_gen.py``, holds per S-box a
straight-line program of 3-input Boolean functions (each an 8-bit truth
table over three earlier nodes), for vector units with a ternary-logic
instruction (AVX-512 ``vpternlogq``), where any such function costs one
instruction, and one plain Python function per box using only ``& | ^ ~``.
The synthesis is a multiplexer decomposition with one LUT per split
(:func:`synth`), then resubstitution (:func:`resub`), rip-up and reroute
(:func:`reroute`), a random walk over rewrites (:func:`walk`), pair moves
(:func:`pair_moves`) and window rewrites (:func:`rebuild_window`).  The
default run replays the recorded winners (:mod:`tools.sbox_records`) and
rewrites the committed module exactly; searches only print what to record:
``--restarts N [--first M] [--prefixes ...] [--wide]``, ``--reroute``,
``--walk N [--walk-seed S] [--walk-pair P]``, ``--pair``.

The method in full, and every search run with its result:
``docs/sbox_search.md``.

Run: ``python -m tools.gen_sbox_luts``
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools import generated, sbox_core
from tools.sbox_records import LUT_BEST_ATTEMPTS, LUT_REROUTES, LUT_WALKS, LUT_WINDOWS

FULL = sbox_core.FULL
INPUTS = sbox_core.INPUTS

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


class State(sbox_core.Pool):
    """A partial LUT circuit (ops ``(tt, a, b, c)``; the inputs' ops are None)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__([None] * 6)
        self.ops: list[Lut | None]

    def copy(self) -> State:
        """An independent copy (the search branches by copying)."""
        return super().copy()

    @property
    def luts(self) -> int:
        """Number of LUTs (non-input nodes)."""
        return len(self.vals) - 6

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


def eval_all(ops: Sequence[Lut], flip: int = -1, forced: dict[int, int] | None = None) -> list[int]:
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
    vals = eval_all(ops)
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
            vals = eval_all(ops)
            flipped = eval_all(ops, n)
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
    targets = sbox_core.box_targets(box)
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
    targets = sbox_core.box_targets(box)
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
    vals = eval_all(ops)
    flipped = eval_all(ops, n)
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
    vals = eval_all(ops)
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
    vals = eval_all(ops)
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
    assert evaluate(circ) == sbox_core.box_targets(box)
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






#: One window rewrite (found by :mod:`tools.sbox_windows`): (window output
#: nodes, input nodes, program, output choices).  Program step ``(x, y, z, tt)``
#: is LUT ``tt`` of program nodes x, y, z (the inputs first, then the program's
#: own LUTs); window output ``o`` becomes program node ``choice[o][0]``,
#: complemented if ``choice[o][1]``.
WindowStep = sbox_core.LutWindowStep



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
            sig = sbox_core.window_output(step, i, get, lambda t, xyz: st.make(_table_fn(t), xyz), built)
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
        assert evaluate(circ) == sbox_core.box_targets(box)
    return circ


def best_circuit(box: int, seed: int, windows: bool = True) -> Circuit:
    """The recorded best attempt of ``box`` with its reroute, walk and (unless
    ``windows`` is false) window steps applied (replayed once per process;
    each call returns fresh lists)."""
    ops, outs = _replay(box, seed, windows)
    return list(ops), list(outs)


@functools.cache
def _replay(box: int, seed: int, windows: bool) -> tuple[tuple[Lut, ...], tuple[Signal, ...]]:
    circ = attempt(box, seed, LUT_BEST_ATTEMPTS[box])
    circ = resub(apply_reroutes(box, circ, LUT_REROUTES.get(box, ())), two=True, wide=True)
    circ = apply_walk(circ, decode_steps(LUT_WALKS.get(box, "")))
    if seed == 1 and windows:
        circ = apply_windows(box, circ, LUT_WINDOWS.get(box, ()))
    return tuple(circ[0]), tuple(circ[1])


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
        default=generated.SBOX_LUTS,
    )
    args = ap.parse_args(argv)
    boxes = sbox_core.parse_boxes(args.boxes)
    numbers = list(range(args.first, args.restarts))
    if args.prefixes:
        chosen = {int(x) for x in args.prefixes.split(",")}
        numbers = [r for r in numbers if r % len(PREFIXES) in chosen]
    start = time.monotonic()
    best: dict[int, tuple[int, Circuit]] = {}
    for box in boxes:
        if args.seed == 1:
            # A walk or pair search continues from the circuit before the
            # window rewrites (which replay after LUT_WALKS), so its steps replay.
            windows = not (args.walk or args.pair)
            best[box] = (LUT_BEST_ATTEMPTS[box], best_circuit(box, 1, windows))
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
            old = LUT_REROUTES.get(box, ()) if args.seed == 1 and r == LUT_BEST_ATTEMPTS[box] else ()
            circ, steps = improve_reroute(
                box, apply_reroutes(box, circ, old), args.reroute_every, args.reroute_leaf2
            )
            steps = old + steps
            circ = resub(circ, two=True, wide=True)
            print(f"S{box + 1} reroute steps {steps}: {len(circ[0])} LUTs", flush=True)
            best[box] = (best[box][0], circ)
        walked = LUT_WALKS.get(box, "") if args.seed == 1 else ""
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
            assert evaluate((prog[0], [(o, False) for o in prog[1]])) == sbox_core.box_targets(b)
        command = f"python -m tools.gen_sbox_luts --seed {args.seed}"
        args.output.write_text(render_module(programs, command, args.seed))
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
