"""The core of the S-box circuit tools: gate circuits, their evaluation and rebuilding.

Every search tool over the 2-input gate circuits (:mod:`tools.gen_sbox_circuits`,
:mod:`tools.sbox_windows`, :mod:`tools.sbox_cgp`) and the LUT generator
(:mod:`tools.gen_sbox_luts`, for the inputs, targets and window steps) import
these names; nothing here imports a search tool.

* Signals are 64-bit truth tables over the six S-box inputs (bit ``x`` = the
  value on input ``x``), *signed*: ``(node, complemented)``, node -1 being the
  constant 0.  :class:`State` builds a circuit gate by gate in the basis AND,
  OR, XOR, ANDNOT, where a complement is free (it folds into the next gate),
  reusing any gate whose value (or complement) exists.
* A finished circuit is ``(ops, outs)``: ``ops[i]`` is ``(name, a, b)`` with
  names ``in`` (S-box input ``a``), ``and``, ``or``, ``xor``, ``andnot``
  (``a & ~b``), ``not``; ``outs`` the nodes of o1..o4.  :func:`evaluate` and
  :func:`eval_all` evaluate it on all 64 inputs at once; :func:`node_context`
  gives a node's observability don't-cares and cones.
* Rebuilding: :func:`rebuild_node` replaces one node by a small program,
  :func:`rebuild_window` a window of gates (the steps recorded in
  :mod:`tools.sbox_records`), both through :class:`State`, then :func:`prune`.

The method and the runs behind the recorded circuits: ``docs/sbox_search.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tools import stamp_kernel_sources
from tools.sbox_polarity import fix_polarity

fips = stamp_kernel_sources.load_standalone("des.fips")



FULL = (1 << 64) - 1


#: Truth tables of the inputs a1..a6 (a1 is the MSB of the 6-bit S-box input).
INPUTS: tuple[int, ...] = tuple(
    sum(1 << x for x in range(64) if (x >> (5 - i)) & 1) for i in range(6)
)


Signal = tuple[int, bool]  # (node index, complemented); index -1 is the constant 0


ZERO: Signal = (-1, False)


ONE: Signal = (-1, True)


def box_targets(box: int) -> list[int]:
    """The four output truth tables (o1..o4) of S-box ``box`` (0-based)."""
    outs = [0, 0, 0, 0]
    for x in range(64):
        y = fips.sbox_lookup(box, x)
        for k in range(4):
            if (y >> (3 - k)) & 1:
                outs[k] |= 1 << x
    return outs


class Pool:
    """Nodes of a partial circuit: their values, how each was made, and an
    index from value to node (the six inputs first).  :class:`State` builds
    2-input gates on it, ``tools.gen_sbox_luts.State`` 3-input LUTs."""

    __slots__ = ("index", "ops", "vals")

    def __init__(self, input_ops: list) -> None:
        self.vals: list[int] = list(INPUTS)
        self.ops = input_ops
        self.index: dict[int, int] = {v: i for i, v in enumerate(INPUTS)}

    def copy(self):  # -> the same class
        """An independent copy (the search branches by copying)."""
        st = object.__new__(type(self))
        st.vals = self.vals.copy()
        st.ops = self.ops.copy()
        st.index = self.index.copy()
        return st

    def value(self, sig: Signal) -> int:
        """Truth table of a signed signal."""
        idx, neg = sig
        v = 0 if idx < 0 else self.vals[idx]
        return v ^ FULL if neg else v


class State(Pool):
    """A partial gate circuit (ops ``(name, a, b)``, see the module docstring)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__([("in", i, -1) for i in range(6)])
        self.ops: list[tuple[str, int, int]]

    def copy(self) -> State:
        """An independent copy (the search branches by copying)."""
        return super().copy()

    @property
    def gates(self) -> int:
        """Number of gates (non-input nodes)."""
        return len(self.vals) - 6

    def _add(self, op: str, a: int, b: int, value: int) -> Signal:
        """Add a gate unless its value (or complement) already exists."""
        if value in self.index:
            return (self.index[value], False)
        if value ^ FULL in self.index:
            return (self.index[value ^ FULL], True)
        self.vals.append(value)
        self.ops.append((op, a, b))
        self.index[value] = len(self.vals) - 1
        return (len(self.vals) - 1, False)

    def g_and(self, x: Signal, y: Signal) -> Signal:
        """AND of two signed signals, one gate (or none for constants/duplicates)."""
        (ia, na), (ib, nb) = x, y
        if ia < 0:
            return y if na else ZERO
        if ib < 0:
            return x if nb else ZERO
        if ia == ib:
            return x if na == nb else ZERO
        va, vb = self.vals[ia], self.vals[ib]
        if not na and not nb:
            return self._add("and", ia, ib, va & vb)
        if not na and nb:
            return self._add("andnot", ia, ib, va & ~vb & FULL)
        if na and not nb:
            return self._add("andnot", ib, ia, vb & ~va & FULL)
        idx, neg = self._add("or", ia, ib, va | vb)
        return (idx, not neg)

    def g_or(self, x: Signal, y: Signal) -> Signal:
        """OR of two signed signals (De Morgan on :meth:`g_and`)."""
        idx, neg = self.g_and((x[0], not x[1]), (y[0], not y[1]))
        return (idx, not neg)

    def g_xor(self, x: Signal, y: Signal) -> Signal:
        """XOR of two signed signals, one gate; complements fold into the result."""
        (ia, na), (ib, nb) = x, y
        if ia < 0:
            return (ib, nb ^ na)
        if ib < 0:
            return (ia, na ^ nb)
        if ia == ib:
            return (-1, na ^ nb)
        idx, neg = self._add("xor", ia, ib, self.vals[ia] ^ self.vals[ib])
        return (idx, neg ^ na ^ nb)

    def g_form(self, form: int, x: Signal, y: Signal) -> Signal:
        """Build one of the five one-gate forms of two signals (0..3: ``(x ^ pa) & (y ^ pb)``
        with pa = form >> 1, pb = form & 1; 4: ``x ^ y``)."""
        if form == 4:
            return self.g_xor(x, y)
        return self.g_and((x[0], x[1] ^ bool(form >> 1)), (y[0], y[1] ^ bool(form & 1)))

    def output(self, sig: Signal) -> int:
        """Make a signal available uncomplemented (adding a NOT if needed)."""
        idx = sig[0]
        value = self.value(sig)
        if value in self.index:
            return self.index[value]
        if idx < 0:  # constant outputs never happen for DES; keep it correct anyway
            raise ValueError("constant output")
        self.vals.append(value)
        self.ops.append(("not", idx, -1))
        self.index[value] = len(self.vals) - 1
        return len(self.vals) - 1


Circuit = tuple[list[tuple[str, int, int]], list[int]]


def evaluate(ops: Sequence[tuple[str, int, int]], outs: Sequence[int]) -> list[int]:
    """Truth tables of the outputs of a circuit (for self-checks)."""
    vals: list[int] = []
    for op, a, b in ops:
        if op == "in":
            vals.append(INPUTS[a])
        elif op == "and":
            vals.append(vals[a] & vals[b])
        elif op == "or":
            vals.append(vals[a] | vals[b])
        elif op == "xor":
            vals.append(vals[a] ^ vals[b])
        elif op == "andnot":
            vals.append(vals[a] & ~vals[b] & FULL)
        elif op == "not":
            vals.append(vals[a] ^ FULL)
        else:
            raise ValueError(op)
    return [vals[o] for o in outs]


def eval_all(
    ops: Sequence[tuple[str, int, int]], flip: int = -1, forced: dict[int, int] | None = None
) -> list[int]:
    """Truth tables of all nodes; node ``flip`` (if >= 0) is complemented and
    the nodes in ``forced`` take the given tables (window don't-cares)."""
    vals: list[int] = []
    for i, (op, a, b) in enumerate(ops):
        if op == "in":
            v = INPUTS[a]
        elif op == "and":
            v = vals[a] & vals[b]
        elif op == "or":
            v = vals[a] | vals[b]
        elif op == "xor":
            v = vals[a] ^ vals[b]
        elif op == "andnot":
            v = vals[a] & ~vals[b] & FULL
        else:
            v = vals[a] ^ FULL
        if forced and i in forced:
            v = forced[i]
        vals.append(v ^ FULL if i == flip else v)
    return vals


def prune(st: State, outs: Sequence[int]) -> tuple[list[tuple[str, int, int]], list[int]]:
    """Drop dead gates; return (ops with renumbered operands, output indices)."""
    live = set()
    stack = list(outs)
    while stack:
        i = stack.pop()
        if i in live:
            continue
        live.add(i)
        op, a, b = st.ops[i]
        if op != "in":
            stack.append(a)
            if b >= 0:
                stack.append(b)
    new_index: dict[int, int] = {}
    ops: list[tuple[str, int, int]] = []
    for i, (op, a, b) in enumerate(st.ops):
        if i in live or op == "in":
            new_index[i] = len(ops)
            if op == "in":
                ops.append((op, a, b))
            else:
                ops.append((op, new_index[a], new_index[b] if b >= 0 else -1))
    return ops, [new_index[o] for o in outs]


def prune_ops(ops: Sequence[tuple[str, int, int]], outs: Sequence[int]) -> Circuit:
    """:func:`prune` for a plain op list."""
    st = State.__new__(State)
    st.ops = list(ops)
    return prune(st, outs)


def state_of(circ: Circuit, keep: Sequence[int]) -> State:
    """A :class:`State` holding the gates of ``circ`` needed by outputs ``keep``."""
    ops, _ = prune_ops(circ[0], [circ[1][k] for k in keep])
    st = State()
    vals = eval_all(ops)
    st.vals = vals
    st.ops = list(ops)
    st.index = {}
    for i, v in enumerate(vals):
        st.index.setdefault(v, i)
    return st


_FIXED_CACHE: dict[tuple[tuple[tuple[str, int, int], ...], tuple[int, ...]], int] = {}


def fixed_size(circ: Circuit) -> int:
    """Gates of ``circ`` after :func:`tools.sbox_polarity.fix_polarity` (cached)."""
    key = tuple(circ[0]), tuple(circ[1])
    if key not in _FIXED_CACHE:
        if len(_FIXED_CACHE) > 100_000:
            _FIXED_CACHE.clear()
        _FIXED_CACHE[key] = len(fix_polarity(circ)[0])
    return _FIXED_CACHE[key]


def node_context(
    ops: Sequence[tuple[str, int, int]], outs: Sequence[int], n: int
) -> tuple[list[int], int, set[int], set[int]]:
    """(values, care set, transitive fan-out, MFFC) of node ``n``.

    The care set is where complementing ``n`` changes some output (its
    observability don't-cares are the rest).  The MFFC (maximum fan-out-free
    cone) holds the gates that die with ``n``: a replacement avoiding them
    with g gates saves ``len(mffc) - g``.
    """
    vals = eval_all(ops)
    flipped = eval_all(ops, n)
    care = 0
    for o in outs:
        care |= vals[o] ^ flipped[o]
    tfo = {n}
    for i in range(n + 1, len(ops)):
        _, a, b = ops[i]
        if a in tfo or b in tfo:
            tfo.add(i)
    fanouts: dict[int, set[int]] = {}
    for i, (_, a, b) in enumerate(ops[6:], 6):
        fanouts.setdefault(a, set()).add(i)
        if b >= 0:
            fanouts.setdefault(b, set()).add(i)
    mffc = {n}
    for i in range(n - 1, 5, -1):
        if i not in outs and i in fanouts and fanouts[i] <= mffc:
            mffc.add(i)
    return vals, care, tfo, mffc


def signature(circ: Circuit) -> frozenset[int]:
    """The set of functions a circuit computes (up to complement)."""
    return frozenset(min(v, v ^ FULL) for v in eval_all(circ[0]))


def rebuild_node(
    ops: Sequence[tuple[str, int, int]],
    outs: Sequence[int],
    node: int,
    allowed: Sequence[int],
    tmp_ops: Sequence[tuple[str, int, int]],
    repl: Signal,
) -> Circuit:
    """The circuit with ``node`` replaced by a small program over ``allowed`` nodes.

    ``tmp_ops[k]`` for ``k >= len(allowed)`` are the program's gates (operands
    index ``allowed`` first, then earlier program gates); ``repl`` is its
    result.  Everything is re-built through :class:`State`, so complements are
    absorbed and duplicates merged; dead gates are pruned.
    """
    st = State()
    memo: dict[int, Signal] = {}
    na = len(allowed)

    def gate(op: str, x: Signal, y: Signal) -> Signal:
        if op == "and":
            return st.g_and(x, y)
        if op == "andnot":
            return st.g_and(x, (y[0], not y[1]))
        if op == "or":
            return st.g_or(x, y)
        if op == "xor":
            return st.g_xor(x, y)
        return (x[0], not x[1])  # not

    def get(i: int) -> Signal:
        if i in memo:
            return memo[i]
        if i == node:
            tmp: list[Signal] = [get(a) for a in allowed]
            for op, a, b in tmp_ops[na:]:
                tmp.append(gate(op, tmp[a], tmp[b] if b >= 0 else ZERO))
            sig = tmp[repl[0]]
            sig = (sig[0], sig[1] ^ repl[1])
        else:
            op, a, b = ops[i]
            sig = (a, False) if op == "in" else gate(op, get(a), get(b) if b >= 0 else ZERO)
        memo[i] = sig
        return sig

    sigs = [get(o) for o in outs]
    out_idx = [st.output(sig) for sig in sigs]
    return prune(st, out_idx)


#: One window rewrite (:func:`rebuild_window`, found by :mod:`tools.sbox_windows`):
#: (window output nodes, window input nodes, program, output choices).
WindowStep = tuple[
    tuple[int, ...], tuple[int, ...], tuple[tuple[int, int, int], ...], tuple[tuple[int, bool], ...]
]


#: A LUT window rewrite (``tools.gen_sbox_luts.rebuild_window``): the same four
#: parts, program steps ``(x, y, z, tt)`` being 3-input LUTs.
LutWindowStep = tuple[
    tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, bool], ...]
]


def window_gate(st: State, table: int, x: Signal, y: Signal) -> Signal:
    """A 2-input gate given by its truth table with f(0, 0) = 0 (bit 0: f(0, 1),
    bit 1: f(1, 0), bit 2: f(1, 1)) on signed signals, via :class:`State`
    (complements are absorbed)."""
    if table == 0b100:
        return st.g_and(x, y)
    if table == 0b010:
        return st.g_and(x, (y[0], not y[1]))
    if table == 0b001:
        return st.g_and((x[0], not x[1]), y)
    if table == 0b111:
        return st.g_or(x, y)
    if table == 0b011:
        return st.g_xor(x, y)
    if table == 0b110:
        return x
    if table == 0b101:
        return y
    return ZERO


def window_output(
    step: WindowStep, node: int, get: Callable[[int], Signal],
    make: Callable[[int, list[Signal]], Signal], built: list[Signal],
) -> Signal:
    """The signal that window output ``node`` becomes under ``step``.

    The program is built once (into ``built``, empty at first): its inputs
    through ``get``, each gate ``(operands..., table)`` as ``make(table,
    operand signals)``.  Shared by both generators' ``rebuild_window``.
    """
    window_outs, inputs, program, choice = step
    if not built:
        built.extend(get(a) for a in inputs)
        for gate in program:
            built.append(make(gate[-1], [built[x] for x in gate[:-1]]))
    idx, neg = choice[window_outs.index(node)]
    return (built[idx][0], built[idx][1] ^ neg)


def rebuild_window(circ: Circuit, step: WindowStep) -> Circuit:
    """The circuit with a window of gates replaced by a new program.

    ``step`` = (``window_outs``, ``inputs``, ``program``, ``choice``): the
    program's gates ``(x, y, table)`` read ``inputs`` (indices 0..) and its own
    earlier gates (after the inputs), with :func:`window_gate` truth tables;
    node ``window_outs[o]`` becomes program node ``choice[o][0]``, complemented
    if ``choice[o][1]``.  Gates of the window that nothing else uses die in the
    prune.  Complements are absorbed through :class:`State`.
    """
    ops, outs = circ
    st = State()
    memo: dict[int, Signal] = {}
    built: list[Signal] = []

    def get(i: int) -> Signal:
        if i in memo:
            return memo[i]
        if i in step[0]:
            sig = window_output(step, i, get, lambda t, xy: window_gate(st, t, *xy), built)
        else:
            op, a, b = ops[i]
            if op == "in":
                sig = (a, False)
            elif op == "not":
                sig = get(a)
                sig = (sig[0], not sig[1])
            elif op == "and":
                sig = st.g_and(get(a), get(b))
            elif op == "andnot":
                y = get(b)
                sig = st.g_and(get(a), (y[0], not y[1]))
            elif op == "or":
                sig = st.g_or(get(a), get(b))
            else:
                sig = st.g_xor(get(a), get(b))
        memo[i] = sig
        return sig

    sigs = [get(o) for o in outs]
    return prune(st, [st.output(sig) for sig in sigs])


def parse_boxes(text: str) -> list[int]:
    """0-based box numbers from a ``--boxes`` argument: ``1-8`` or ``1,3``."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo) - 1, int(hi)))
    return [int(x) - 1 for x in text.split(",")]

