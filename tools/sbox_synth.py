"""Synthesis of 2-input gate circuits for the S-boxes: decomposition and resubstitution.

:func:`synth` builds a target truth table on a care set over a
:class:`tools.sbox_core.State`: an existing gate or an exhaustive 1..3-gate
combination of existing gates (:func:`leaf_search`), else a multiplexer
split on a selector (an input, or with ``Params.node_sel`` any gate) in one of
three forms, recursively, or a table circuit of four inputs
(:func:`lib_leaf`, ``Params.lib_leaf``).  :func:`synth_box_once` builds all
four outputs of a box; :func:`resub` re-expresses single gates under their
observability don't-cares.  The searches over these (restarts, rip-up and
reroute, resynthesis) are :mod:`tools.gen_sbox_circuits`; the method in full:
``docs/sbox_search.md``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tools import sbox_rewrite
from tools.sbox_core import (
    FULL,
    INPUTS,
    ONE,
    ZERO,
    Circuit,
    Signal,
    State,
    box_targets,
    evaluate,
    fixed_size,
    node_context,
    prune,
    rebuild_node,
)
from tools.sbox_polarity import count_nots

_PAIR_CACHE: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays (I, J) of all pairs i < j < n (cached)."""
    if n not in _PAIR_CACHE:
        i, j = np.triu_indices(n, 1)
        _PAIR_CACHE[n] = (i.astype(np.intp), j.astype(np.intp))
    return _PAIR_CACHE[n]


def _forms(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The five one-gate functions of (a, b) up to output complement.

    Form k < 4 is ``(a ^ pa) & (b ^ pb)`` with pa = k >> 1, pb = k & 1;
    form 4 is ``a ^ b``.  Shape (5, ...).
    """
    na, nb = ~a, ~b
    return np.stack([a & b, a & nb, na & b, na & nb, a ^ b])


def _fix(st: State, sig: Signal, t: int, mask: int) -> Signal:
    """Flip ``sig``'s polarity if that is what matches ``t`` on ``mask``."""
    if (st.value(sig) ^ t) & mask:
        sig = (sig[0], not sig[1])
    assert not (st.value(sig) ^ t) & mask
    return sig


def leaf_search(st: State, t: int, mask: int, max_level: int) -> Signal | None:
    """Build ``t`` (on ``mask``) from existing nodes with at most 3 new gates.

    Returns the signal (gates are added to ``st``) or None if no such
    combination exists at the searched levels.  Exhaustive over: an existing
    node; one gate of two nodes; ``node op (node op node)``; and (level 3)
    ``(node op node) op (node op node)``.
    """
    n = len(st.vals)
    v = np.array(st.vals, dtype=np.uint64)
    m = np.uint64(mask)
    tm = np.uint64(t & mask)
    tn = np.uint64((t ^ FULL) & mask)
    vm = v & m
    hit = np.flatnonzero((vm == tm) | (vm == tn))
    if hit.size:
        return _fix(st, (int(hit[0]), False), t, mask)
    if max_level < 1:
        return None
    pi, pj = _pairs(n)
    q = _forms(v[pi], v[pj])  # (5, P)
    qm = q & m
    hit = np.flatnonzero(((qm == tm) | (qm == tn)).ravel())
    if hit.size:
        form, k = divmod(int(hit[0]), pi.size)
        sig = st.g_form(form, (int(pi[k]), False), (int(pj[k]), False))
        return _fix(st, sig, t, mask)
    if max_level < 2:
        return None
    qf = q.ravel()
    qfm = qf & m
    npairs = pi.size

    def build_q(k: int) -> Signal:
        form, kk = divmod(k, npairs)
        return st.g_form(form, (int(pi[kk]), False), (int(pj[kk]), False))

    # node ^ q: q must equal t ^ node (or its complement) on mask.
    want = (v ^ np.uint64(t)) & m
    found = _xor_match(qfm, want, m)
    if found is not None:
        k, a = found
        sig = st.g_xor((a, False), build_q(k))
        return _fix(st, sig, t, mask)
    # (node ^ pa) & (q ^ pq), optionally complemented: node side must cover t'.
    for tprime in (t & mask, (t ^ FULL) & mask):
        tp = np.uint64(tprime)
        for pa in (False, True):
            va = ~v if pa else v
            cand = np.flatnonzero((tp & ~va) == 0)
            if not cand.size:
                continue
            m2 = va[cand] & m  # (c,)
            qq = qf[None, :] & m2[:, None]
            t2 = (tp & m2)[:, None]
            ok = (qq == t2) | (qq == (m2[:, None] ^ t2))
            if not ok.any():
                continue
            rows, cols = np.nonzero(ok)
            if rows.size:
                a = int(cand[rows[0]])
                qsig = build_q(int(cols[0]))
                qv = st.value(qsig)
                if (qv ^ tprime) & int(m2[rows[0]]):
                    qsig = (qsig[0], not qsig[1])
                sig = st.g_and((a, pa), qsig)
                return _fix(st, sig, t, mask)
    if max_level < 3:
        return None
    # q ^ q'
    found = _xor_match(qfm, (qf ^ np.uint64(t)) & m, m)
    if found is not None:
        k, k2 = found
        sig = st.g_xor(build_q(k2), build_q(k))
        return _fix(st, sig, t, mask)
    # (q ^ pa) & (q' ^ pq): restrict to the q that cover t'.
    for tprime in (t & mask, (t ^ FULL) & mask):
        tp = np.uint64(tprime)
        for pa in (False, True):
            qa = ~qf if pa else qf
            cand = np.flatnonzero((tp & ~qa) == 0)
            if not cand.size:
                continue
            cand = cand[:256]
            m2 = qa[cand] & m
            qq = qf[None, :] & m2[:, None]
            t2 = (tp & m2)[:, None]
            ok = (qq == t2) | (qq == (m2[:, None] ^ t2))
            if not ok.any():
                continue
            rows, cols = np.nonzero(ok)
            if rows.size:
                sa = build_q(int(cand[rows[0]]))
                if pa:
                    sa = (sa[0], not sa[1])
                qsig = build_q(int(cols[0]))
                m2i = st.value(sa) & mask
                if (st.value(qsig) ^ tprime) & m2i:
                    qsig = (qsig[0], not qsig[1])
                sig = st.g_and(sa, qsig)
                return _fix(st, sig, t, mask)
    return None


def _xor_match(qm: np.ndarray, want: np.ndarray, m: np.uint64) -> tuple[int, int] | None:
    """Find (k, a) with ``qm[k] == want[a]`` or ``qm[k] == want[a] ^ m``."""
    both = np.sort(np.concatenate([want, want ^ m]))
    pos = np.minimum(np.searchsorted(both, qm), both.size - 1)
    ks = np.flatnonzero(both[pos] == qm)
    if not ks.size:
        return None
    k = int(ks[0])
    val = qm[k]
    a = np.flatnonzero((want == val) | ((want ^ m) == val))
    return k, int(a[0])


@dataclass(frozen=True)
class Params:
    """Search effort: options tried per recursion depth, and leaf search level."""

    widths: tuple[int, ...]
    leaf_level: int = 3
    #: Selector priority (input indices).  When set, every output of the box
    #: splits on the first input of this order that is still available and
    #: splits the care set, so all outputs decompose over the same variables
    #: and their leaves (functions of the same few inputs on the same care
    #: sets) share many more gates.  None: any selector, searched.
    order: tuple[int, ...] | None = None
    #: Also offer, as an alternative to splitting, the table circuit
    #: (:mod:`tools.sbox_rewrite`) of the target as a function of any four
    #: inputs on its care set (don't-cares completed at least cost).
    lib_leaf: bool = False
    #: At depth 0, also try every gate already in the state as the selector
    #: (:func:`_try_node_option`; all of them, both polarities, all three forms).
    node_sel: bool = False


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

    ``avail`` are the input indices still usable as multiplexer selectors.
    """
    tm = t & mask
    if tm == 0:
        return st, ZERO
    if tm == mask:
        return st, ONE
    st1 = st.copy()
    sig = leaf_search(st1, t, mask, params.leaf_level)
    if sig is not None:
        return st1, sig
    # A selector is only useful if the care set has inputs on both of its sides.
    split = [s for s in range(6) if mask & INPUTS[s] and mask & ~INPUTS[s]]
    sels = [s for s in avail if s in split]
    if params.order is not None:
        sels = [s for s in params.order if s in sels][:1]
    options = [(s, pol, form) for s in sels for pol in (False, True) for form in range(3)]
    rng.shuffle(options)
    width = params.widths[min(depth, len(params.widths) - 1)]
    if not options:
        # Selectors used up (the OR/AND forms leave one-sided don't-cares): the XOR
        # form on any splitting input strictly shrinks both care sets, so this ends.
        options, width = [(split[0], False, 0)], 1
    best: tuple[State, Signal] | None = None
    for s, pol, form in options[:width]:
        res = _try_option(st, t, mask, avail, depth, params, rng, s, pol, form)
        if best is None or res[0].gates < best[0].gates:
            best = res
    assert best is not None
    if params.node_sel and depth == 0:
        # Screen every (gate, polarity, form) with a greedy, shallower search,
        # then build the NODE_TOP most promising ones with the real search.
        quick = Params((1,), 2, params.order)
        ranked = []
        for idx in range(6, len(st.vals)):
            for pol in (False, True):
                for form in range(3):
                    res = _try_node_option(st, t, mask, avail, quick, rng, idx, pol, form)
                    if res is not None:
                        ranked.append((res[0].gates, idx, pol, form))
        ranked.sort()
        for _, idx, pol, form in ranked[:NODE_TOP]:
            res = _try_node_option(st, t, mask, avail, params, rng, idx, pol, form)
            if res is not None and res[0].gates < best[0].gates:
                best = res
    if params.lib_leaf:
        alt = lib_leaf(st, t, mask)
        if alt is not None and alt[0].gates + LIB_LEAF_MARGIN <= best[0].gates:
            best = alt
    return best


#: Input subspaces: ``_SUBSPACE[q][p]`` is the set of inputs x whose values on
#: the four inputs ``_QUADS[q]`` form pattern ``p`` (bit i = input i of the quad).
_QUADS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(6), 4))


_SUBSPACE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(
            1 << x
            for x in range(64)
            if all(((x >> (5 - quad[i])) & 1) == ((p >> i) & 1) for i in range(4))
        )
        for p in range(16)
    )
    for quad in _QUADS
)


#: How many screened gate selectors :func:`synth` builds in full (``Params.node_sel``).
NODE_TOP = 6


#: :func:`lib_leaf` replaces a split only if it saves at least this many gates.
LIB_LEAF_MARGIN = 3


#: How many near-cheapest (quad, completion) pairs :func:`lib_leaf` builds.
LIB_LEAF_TRIES = 6


def lib_leaf(st: State, t: int, mask: int) -> tuple[State, Signal] | None:
    """Build ``t`` on ``mask`` as a table circuit over four inputs, if it is a
    function of some four inputs there; the cheapest built (gates already in
    ``st`` are free) of a few near-optimal completions wins."""
    lib = sbox_rewrite.library()
    table = sbox_rewrite.min_cost_table()
    cands = []
    for q, sub in enumerate(_SUBSPACE):
        on = off = 0
        for p in range(16):
            if sub[p] & mask & t:
                on |= 1 << p
            if sub[p] & mask & ~t:
                off |= 1 << p
        if on & off:
            continue
        c = int(table[sbox_rewrite.ternary_index(np.int64(on), np.int64(off))])
        cands.append((c, q, on, off))
    if not cands:
        return None
    cands.sort()
    best: tuple[State, Signal] | None = None
    tries = 0
    for c, q, on, off in cands:
        if c > cands[0][0] + 1 or tries >= LIB_LEAF_TRIES:
            break
        for tt in sbox_rewrite.completions(on, off, lib, c, 2):
            tries += 1
            st1 = st.copy()
            sig = _build_program(st1, [(x, False) for x in _QUADS[q]], *lib.program(tt))
            sig = _fix(st1, sig, t, mask)
            if best is None or st1.gates < best[0].gates:
                best = (st1, sig)
    return best


def _build_program(
    st: State,
    leaves: Sequence[Signal],
    prog: Sequence[tuple[str, int, int]],
    res: tuple[int, bool],
) -> Signal:
    """Add a :meth:`tools.sbox_rewrite.Library.program` over ``leaves`` to ``st``."""
    sigs = list(leaves)
    for op, a, b in prog:
        x, y = sigs[a], sigs[b]
        if op == "and":
            sigs.append(st.g_and(x, y))
        elif op == "andnot":
            sigs.append(st.g_and(x, (y[0], not y[1])))
        elif op == "or":
            sigs.append(st.g_or(x, y))
        else:
            sigs.append(st.g_xor(x, y))
    sig = sigs[res[0]]
    return (sig[0], sig[1] ^ res[1])


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
    """Decompose on selector input ``s`` (complemented if ``pol``) with one mux form.

    form 0: ``f = b ^ (s & c)``; form 1: ``f = b | (s & c)``;
    form 2: ``f = b & ~(s & c)``.
    """
    sval = INPUTS[s] ^ FULL if pol else INPUTS[s]
    ssig: Signal = (s, pol)
    r1 = mask & sval
    r0 = mask & ~sval
    rest = tuple(x for x in avail if x != s)
    if form == 0:
        st, b = synth(st, t, r0, rest, depth + 1, params, rng)
        st, c = synth(st, t ^ st.value(b), r1, rest, depth + 1, params, rng)
        st = st.copy()
        out = st.g_xor(b, st.g_and(ssig, c))
    elif form == 1:
        st, b = synth(st, t, r0 | (r1 & ~t), rest, depth + 1, params, rng)
        st, c = synth(st, t, r1 & ~st.value(b), rest, depth + 1, params, rng)
        st = st.copy()
        out = st.g_or(b, st.g_and(ssig, c))
    else:
        st, b = synth(st, t, r0 | (r1 & t), rest, depth + 1, params, rng)
        st, c = synth(st, t ^ FULL, r1 & st.value(b), rest, depth + 1, params, rng)
        st = st.copy()
        x = st.g_and(ssig, c)
        out = st.g_and(b, (x[0], not x[1]))
    assert not (st.value(out) ^ t) & mask
    return st, out


def _try_node_option(
    st: State,
    t: int,
    mask: int,
    avail: tuple[int, ...],
    params: Params,
    rng: random.Random,
    idx: int,
    pol: bool,
    form: int,
) -> tuple[State, Signal] | None:
    """:func:`_try_option` with an existing gate ``idx`` (complemented if
    ``pol``) as the selector instead of an input: its two sides are built with
    all inputs still available.  None if the gate does not split the care set."""
    sval = st.vals[idx] ^ FULL if pol else st.vals[idx]
    ssig: Signal = (idx, pol)
    r1 = mask & sval
    r0 = mask & ~sval
    if not r1 or not r0:
        return None
    if form == 0:
        st, b = synth(st, t, r0, avail, 1, params, rng)
        st, c = synth(st, t ^ st.value(b), r1, avail, 1, params, rng)
        st = st.copy()
        out = st.g_xor(b, st.g_and(ssig, c))
    elif form == 1:
        st, b = synth(st, t, r0 | (r1 & ~t), avail, 1, params, rng)
        st, c = synth(st, t, r1 & ~st.value(b), avail, 1, params, rng)
        st = st.copy()
        out = st.g_or(b, st.g_and(ssig, c))
    else:
        st, b = synth(st, t, r0 | (r1 & t), avail, 1, params, rng)
        st, c = synth(st, t ^ FULL, r1 & st.value(b), avail, 1, params, rng)
        st = st.copy()
        x = st.g_and(ssig, c)
        out = st.g_and(b, (x[0], not x[1]))
    assert not (st.value(out) ^ t) & mask
    return st, out


def synth_box_once(
    box: int, params: Params, rng: random.Random
) -> tuple[list[tuple[str, int, int]], list[int]]:
    """One randomized attempt at a circuit for all four outputs of ``box``.

    If ``params.order`` is the empty tuple, a random selector order is drawn
    from ``rng`` for this attempt (see :class:`Params`).
    """
    targets = box_targets(box)
    if params.order == ():
        sel = list(range(6))
        rng.shuffle(sel)
        params = Params(params.widths, params.leaf_level, tuple(sel), params.lib_leaf)
    order = list(range(4))
    rng.shuffle(order)
    st = State()
    outs = [0] * 4
    for k in order:
        st, sig = synth(st, targets[k], FULL, tuple(range(6)), 0, params, rng)
        st = st.copy()
        outs[k] = st.output(sig)
    ops, outs2 = prune(st, outs)
    return ops, outs2


#: Extra gates a resubstitution may use beyond the gates it frees (they can
#: still pay off through fewer NOTs, see :func:`fixed_size`).
RESUB_SLACK = 0


#: Equal-cost rewrites :func:`resub` may take per attempt (see there).
RESUB_PLATEAU = 0


def resub(circ: Circuit, rounds: int = 20, plateau: int = 0, desc: bool = False) -> Circuit:
    """Post-optimisation: re-express single gates under observability don't-cares.

    For each gate (in order), the care set is where complementing it changes
    some output (bitsliced, so all 64 inputs at once); the gate is then looked
    for as a 0..3-gate function of nodes outside its transitive fan-out
    (:func:`leaf_search`), the circuit is rebuilt with that replacement, and
    the result is kept if it has fewer gates once its polarities are fixed
    (:func:`fixed_size`; the returned circuit itself is not yet fixed).
    Repeated until no gain.  With
    ``plateau`` > 0, up to that many equal-size rewrites to circuits not seen
    before are accepted too (they can open up later gains); the smallest
    circuit met is returned.
    """
    ops, outs = circ
    targets = evaluate(ops, outs)
    seen = {tuple(ops)}
    best = (ops, outs)
    cost = best_cost = fixed_size(best)
    for _ in range(rounds):
        improved = False
        n = len(ops) - 1 if desc else 6
        while 6 <= n < len(ops):
            vals, care, tfo, mffc = node_context(ops, outs, n)
            level = min(3, len(mffc) - 1 + RESUB_SLACK)
            allowed = [i for i in range(len(ops)) if i not in tfo and i not in mffc]
            st = State.__new__(State)
            st.vals = [vals[i] for i in allowed]
            st.ops = [("ref", i, -1) for i in allowed]
            st.index = {}
            for k, v in enumerate(st.vals):
                st.index.setdefault(v, k)
            sig = leaf_search(st, vals[n], care, level)
            if sig is not None:
                new = rebuild_node(ops, outs, n, allowed, st.ops, sig)
                key = tuple(new[0])
                # Cheap bound first: fixing polarities removes at most the NOTs.
                lower = len(new[0]) - count_nots(new[0])
                new_cost = fixed_size(new) if lower <= cost else lower
                if new_cost < cost or (plateau > 0 and new_cost == cost and key not in seen):
                    assert evaluate(*new) == targets
                    if new_cost == cost:
                        plateau -= 1
                    seen.add(key)
                    ops, outs = new
                    cost = new_cost
                    if cost < best_cost:
                        best, best_cost = (ops, outs), cost
                    improved = True
                    continue
            n += -1 if desc else 1
        if not improved:
            break
    ops, outs = best
    return ops, outs
