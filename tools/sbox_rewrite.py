"""Cut rewriting with don't-cares for the S-box gate circuits.

Written for numbades' S-box circuit generator (:mod:`tools.gen_sbox_circuits`);
the method follows the idea of DAG-aware AIG rewriting (Mishchenko, Chatterjee,
Brayton 2006) with small optimal circuits from an exhaustive table, and of
rewriting under don't-cares; the code and the table are our own.

* :func:`library` computes, for every 4-input Boolean function, a circuit of
  2-input gates (complements free, as in the generator: every one of the 10
  non-trivial 2-input functions costs one gate) with as few gates as the
  *footprint* dynamic programme finds (Knuth's idea from TAOCP 7.1.2: a
  function of cost ``c`` is ``f op g`` with ``cost f + cost g = c - 1``, or
  ``= c`` when ``f`` and ``g`` have optimal circuits sharing a first gate;
  the "footprint" of a function is the set of first gates of its optimal
  circuits found).  All 2**16 functions, vectorised with numpy, in seconds.
  Derivations are kept per (function, first gate), so a circuit can be
  rebuilt that contains a given first gate, and a shared first gate is
  really shared.
* :func:`min_cost_table` extends the table to incompletely specified
  functions (3**16 entries: each leaf pattern on, off or don't-care), so the
  cheapest completion of a function given on a care set is one lookup.
* The generator uses the table in :func:`tools.gen_sbox_circuits.lib_leaf`.

A resubstitution over any four existing nodes built on this table (``resub4``)
found nothing on the recorded circuits and was dropped: ``docs/sbox_search.md``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

#: Truth tables (16 bits) of the four leaf variables.
VARS4 = tuple(sum(1 << p for p in range(16) if (p >> i) & 1) for i in range(4))
MASK16 = 0xFFFF
INF = 99

#: Operations on two normal functions f, g (f(0) = g(0) = 0); results are normal.
#: 0: f & g, 1: f & ~g, 2: ~f & g, 3: f | g (= ~(~f & ~g)), 4: f ^ g.
N_OPS = 5


def _apply(op: int, f: np.ndarray, g: np.ndarray) -> np.ndarray:
    if op == 0:
        return f & g
    if op == 1:
        return f & ~g & MASK16
    if op == 2:
        return ~f & g & MASK16
    if op == 3:
        return f | g
    return f ^ g


class Library:
    """Optimal-ish circuits for all 4-input functions (see module docstring).

    ``cost[t]`` for a normal truth table ``t`` (bit 0 clear); complements cost
    the same.  ``deriv[t, z]`` = (op, f, g, zf, zg): a derivation of ``t``
    whose circuit contains first gate ``z`` (-1 entries: none recorded).
    """

    def __init__(self) -> None:
        size = 1 << 16
        self.cost = np.full(size, INF, dtype=np.int8)
        self.fp = np.zeros(size, dtype=np.int64)
        # deriv fields: op, f, g, zf, zg; op -1 = unset, op -2 = variable.
        self.d_op = np.full((size, 32), -1, dtype=np.int8)
        self.d_f = np.zeros((size, 32), dtype=np.int32)
        self.d_g = np.zeros((size, 32), dtype=np.int32)
        self.d_zf = np.full((size, 32), -1, dtype=np.int8)
        self.d_zg = np.full((size, 32), -1, dtype=np.int8)
        self.any_z = np.full(size, -1, dtype=np.int8)
        self._build()

    def _build(self) -> None:
        cost, fp = self.cost, self.fp
        cost[0] = 0
        levels: list[np.ndarray] = [np.array(VARS4, dtype=np.int64)]
        for v in VARS4:
            cost[v] = 0
        # Level 1: the 30 one-gate functions, each its own first gate.
        first = []
        for i, j in itertools.combinations(range(4), 2):
            for op in range(N_OPS):
                h = int(_apply(op, np.int64(VARS4[i]), np.int64(VARS4[j])))
                z = len(first)
                first.append(h)
                cost[h] = 1
                fp[h] = 1 << z
                self.d_op[h, z] = op
                self.d_f[h, z] = VARS4[i]
                self.d_g[h, z] = VARS4[j]
                self.any_z[h] = z
        levels.append(np.array(first, dtype=np.int64))
        c = 2
        while (cost[0::2] == INF).any():
            found = self._level(c, levels)
            levels.append(found)
            c += 1

    def _level(self, c: int, levels: list[np.ndarray]) -> np.ndarray:
        cost, fp = self.cost, self.fp
        cand_h, cand_f, cand_g, cand_op, cand_shared = [], [], [], [], []
        pairs = [(a, c - 1 - a, False) for a in range(c) if a <= c - 1 - a]
        pairs += [(a, c - a, True) for a in range(1, c) if a <= c - a]
        for a, b, shared in pairs:
            if b >= len(levels):
                continue
            fa, gb = levels[a], levels[b]
            if fa.size == 0 or gb.size == 0:
                continue
            step = max(1, 2_000_000 // max(gb.size, 1))
            for k in range(0, fa.size, step):
                f = fa[k : k + step][:, None]
                g = gb[None, :]
                if shared:
                    ok = (fp[f] & fp[g]) != 0
                    if a == b:
                        ok &= f < g
                    if not ok.any():
                        continue
                    ff = np.broadcast_to(f, ok.shape)[ok]
                    gg = np.broadcast_to(g, ok.shape)[ok]
                else:
                    ok = np.ones((f.shape[0], g.shape[1]), dtype=bool)
                    if a == b:
                        ok &= f < g
                    ff = np.broadcast_to(f, ok.shape)[ok]
                    gg = np.broadcast_to(g, ok.shape)[ok]
                for op in range(N_OPS):
                    h = _apply(op, ff, gg)
                    keep = cost[h] >= c
                    if not keep.any():
                        continue
                    cand_h.append(h[keep])
                    cand_f.append(ff[keep])
                    cand_g.append(gg[keep])
                    cand_op.append(np.full(int(keep.sum()), op, dtype=np.int8))
                    cand_shared.append(np.full(int(keep.sum()), shared))
        if not cand_h:
            return np.zeros(0, dtype=np.int64)
        h = np.concatenate(cand_h)
        f = np.concatenate(cand_f)
        g = np.concatenate(cand_g)
        op = np.concatenate(cand_op)
        shared = np.concatenate(cand_shared)
        fph = np.where(shared, fp[f] & fp[g], fp[f] | fp[g])
        found = np.unique(h)
        cost[found] = c
        np.bitwise_or.at(fp, h, fph)
        for z in range(30):
            bit = np.int64(1) << z
            sel = np.flatnonzero((fph & bit) != 0)
            if not sel.size:
                continue
            hz, first_idx = np.unique(h[sel], return_index=True)
            idx = sel[first_idx]
            self.d_op[hz, z] = op[idx]
            self.d_f[hz, z] = f[idx]
            self.d_g[hz, z] = g[idx]
            inf = (fp[f[idx]] & bit) != 0
            ing = (fp[g[idx]] & bit) != 0
            self.d_zf[hz, z] = np.where(inf, z, -1)
            self.d_zg[hz, z] = np.where(ing, z, -1)
            unset = self.any_z[hz] < 0
            self.any_z[hz[unset]] = z
        return found

    def lookup_cost(self, t: int) -> int:
        """Gates of the table's circuit for 16-bit function ``t`` (either polarity)."""
        t &= MASK16
        if t & 1:
            t ^= MASK16
        return int(self.cost[t])

    def program(self, t: int) -> tuple[list[tuple[str, int, int]], tuple[int, bool]]:
        """A circuit for ``t`` over leaves 0..3: (gates, result signal).

        Gates are ``(op, a, b)`` over signal indices (0..3 the leaves, then the
        gates in order) with op in and/andnot/or/xor/not; ``not`` entries are
        free complements.  The result is (index, complemented).
        """
        t &= MASK16
        neg = bool(t & 1)
        if neg:
            t ^= MASK16
        prog: list[tuple[str, int, int]] = []
        memo: dict[int, int] = {v: i for i, v in enumerate(VARS4)}

        def build(h: int, z: int) -> int:
            if h in memo:
                return memo[h]
            if z < 0 or self.d_op[h, z] < 0:
                z = int(self.any_z[h])
            op = int(self.d_op[h, z])
            f, g = int(self.d_f[h, z]), int(self.d_g[h, z])
            zf, zg = int(self.d_zf[h, z]), int(self.d_zg[h, z])
            a = build(f, zf)
            b = build(g, zg)
            if op == 0:
                prog.append(("and", a, b))
            elif op == 1:
                prog.append(("andnot", a, b))
            elif op == 2:
                prog.append(("andnot", b, a))
            elif op == 3:
                prog.append(("or", a, b))
            else:
                prog.append(("xor", a, b))
            memo[h] = 4 + len(prog) - 1
            return memo[h]

        if t == 0:
            raise ValueError("constant")
        return prog, (build(t, -1), neg)


_LIBRARY: Library | None = None


def library() -> Library:
    """The table (built once per process)."""
    global _LIBRARY
    if _LIBRARY is None:
        _LIBRARY = Library()
    return _LIBRARY


def eval_program(
    prog: Sequence[tuple[str, int, int]], res: tuple[int, bool], leaves: Sequence[int], full: int
) -> int:
    """Value of a :meth:`Library.program` over leaf values ``leaves``."""
    vals = list(leaves)
    for op, a, b in prog:
        if op == "and":
            vals.append(vals[a] & vals[b])
        elif op == "andnot":
            vals.append(vals[a] & ~vals[b] & full)
        elif op == "or":
            vals.append(vals[a] | vals[b])
        elif op == "xor":
            vals.append(vals[a] ^ vals[b])
        else:
            vals.append(vals[a] ^ full)
    v = vals[res[0]]
    return v ^ full if res[1] else v


def _spread(bits: Sequence[int]) -> np.ndarray:
    """All 2**len(bits) masks made of the given bit positions, in counting order."""
    out = np.zeros(1 << len(bits), dtype=np.int64)
    idx = np.arange(1 << len(bits), dtype=np.int64)
    for k, p in enumerate(bits):
        out |= ((idx >> k) & 1) << p
    return out


def completions(on: int, off: int, lib: Library, max_cost: int, limit: int) -> list[int]:
    """Up to ``limit`` cheapest 16-bit functions that are 1 on ``on`` and 0 on ``off``.

    Only functions of table cost <= ``max_cost``; ordered by (cost, value).
    """
    dc = [p for p in range(16) if not (on | off) >> p & 1]
    tts = _spread(dc) | on
    norm = np.where(tts & 1, tts ^ MASK16, tts)
    costs = lib.cost[norm].astype(np.int64)
    ok = np.flatnonzero(costs <= max_cost)
    if not ok.size:
        return []
    order = np.lexsort((tts[ok], costs[ok]))[:limit]
    return [int(t) for t in tts[ok][order]]


_MINCOST: np.ndarray | None = None
_TERN: np.ndarray | None = None


def min_cost_table() -> np.ndarray:
    """Cheapest table cost of any completion of an incompletely specified function.

    Indexed by the ternary number ``sum(d_p * 3**p)`` with digit ``d_p`` 0 (off),
    1 (on) or 2 (don't care) for each of the 16 leaf patterns ``p``.
    """
    global _MINCOST
    if _MINCOST is None:
        lib = library()
        tts = np.arange(1 << 16, dtype=np.int64)
        norm = np.where(tts & 1, tts ^ MASK16, tts)
        # Axis 15 - p of the (2,)*16 array is bit p (C order: last axis fastest = bit 0).
        t = lib.cost[norm].reshape((2,) * 16)
        for ax in range(16):
            lo = np.take(t, [0], axis=ax)
            hi = np.take(t, [1], axis=ax)
            t = np.concatenate([t, np.minimum(lo, hi)], axis=ax)
        _MINCOST = np.ascontiguousarray(t).reshape(-1)
    return _MINCOST


def ternary_index(on: np.ndarray, off: np.ndarray) -> np.ndarray:
    """Index into :func:`min_cost_table` for arrays of (on, off) 16-bit masks."""
    global _TERN
    if _TERN is None:
        # Digit of pattern p sits at weight 3**p (the C-order layout of the table).
        byte = np.arange(256, dtype=np.int64)
        tabs = []
        for half in range(2):
            w = np.zeros(256, dtype=np.int64)
            for p in range(8):
                w += ((byte >> p) & 1) * 3 ** (p + 8 * half)
            tabs.append(w)
        _TERN = np.stack(tabs)
    dc = ~(on | off) & MASK16
    idx = _TERN[0][on & 0xFF] + _TERN[1][(on >> 8) & 0xFF]
    idx += 2 * (_TERN[0][dc & 0xFF] + _TERN[1][(dc >> 8) & 0xFF])
    return idx
