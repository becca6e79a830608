"""The generated S-box circuits (numbades.engines.bitslice.sboxes.sbox_circuits_gen) and their generator.

Each circuit is evaluated bitsliced on all 64 inputs at once and compared with
the FIPS tables; the recorded gate counts are checked against the source; the
functions must also work compiled by numba on np.uint64, as the kernel uses them.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import itertools
import random
import re
from pathlib import Path

import numpy as np
import pytest

from numbades.des import fips as _fips
from numbades.engines.bitslice.sboxes import sbox_circuits_gen as _sbox_circuits
from tools import gen_sbox_circuits as gen
from tools import sbox_core as core
from tools import sbox_synth as synth
from tools.sbox_records import GATE_BEST_ATTEMPTS

BOXES = range(8)


def input_planes() -> list[np.uint64]:
    """Plane a_i (i = 1..6): bit x is bit b_i of input x (b1 the MSB)."""
    return [np.uint64(sum(1 << x for x in range(64) if (x >> (6 - i)) & 1)) for i in range(1, 7)]


def expected_planes(box: int) -> list[int]:
    """Output planes o1..o4 of S-box ``box`` from the FIPS table."""
    return [
        sum(1 << x for x in range(64) if (_fips.sbox_lookup(box, x) >> (3 - k)) & 1)
        for k in range(4)
    ]


def count_gates(func: object) -> int:
    """Gate operations in a function's source; ``x & ~y`` counts as one gate."""
    tree = ast.parse(inspect.getsource(func))
    count = 0
    absorbed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            for side in (node.left, node.right):
                if isinstance(side, ast.UnaryOp) and isinstance(side.op, ast.Invert):
                    absorbed.add(id(side))
                    break
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            assert isinstance(node.op, ast.BitAnd | ast.BitOr | ast.BitXor)
            count += 1
        elif isinstance(node, ast.UnaryOp):
            assert isinstance(node.op, ast.Invert)
            if id(node) not in absorbed:
                count += 1
        elif isinstance(node, ast.Constant):
            pytest.fail("constants are not allowed in circuits")
    return count


@pytest.mark.parametrize("box", BOXES)
def test_circuit_matches_fips(box: int) -> None:
    func = getattr(_sbox_circuits, f"s{box + 1}")
    out = func(*input_planes())
    assert len(out) == 4
    assert all(isinstance(o, np.uint64) for o in out)
    assert [int(o) for o in out] == expected_planes(box)


@pytest.mark.parametrize("box", BOXES)
def test_gate_count_recorded(box: int) -> None:
    func = getattr(_sbox_circuits, f"s{box + 1}")
    assert count_gates(func) == _sbox_circuits.GATE_COUNTS[box]


def test_average() -> None:
    counts = _sbox_circuits.GATE_COUNTS
    assert len(counts) == 8
    assert pytest.approx(sum(counts) / 8) == _sbox_circuits.AVERAGE_GATES


def test_no_regression_past_the_recorded_average() -> None:
    """The counted gates (``test_gate_count_recorded``) stay at or below 48.0, issue 14's target."""
    assert sum(_sbox_circuits.GATE_COUNTS) / 8 <= 48.0


def test_straight_line() -> None:
    """Only assignments of t1, t2, ... and one return of a 4-tuple."""
    for box in BOXES:
        func = getattr(_sbox_circuits, f"s{box + 1}")
        fdef = ast.parse(inspect.getsource(func)).body[0]
        assert isinstance(fdef, ast.FunctionDef)
        *assigns, ret = fdef.body
        for k, stmt in enumerate(assigns, 1):
            assert isinstance(stmt, ast.Assign)
            assert [t.id for t in stmt.targets if isinstance(t, ast.Name)] == [f"t{k}"]
        assert isinstance(ret, ast.Return)
        assert isinstance(ret.value, ast.Tuple) and len(ret.value.elts) == 4


@pytest.mark.parametrize("box", [0, 7])
def test_numba_njit_uint64(box: int) -> None:
    numba = pytest.importorskip("numba")
    func = getattr(_sbox_circuits, f"s{box + 1}")
    jitted = numba.njit(func)
    planes = input_planes()
    assert [int(o) for o in jitted(*planes)] == expected_planes(box)
    rng = np.random.default_rng(box)
    rand = [np.uint64(x) for x in rng.integers(0, 2**63, size=6, dtype=np.uint64) * 2 + 1]
    assert [int(o) for o in jitted(*rand)] == [int(o) for o in func(*rand)]


def test_generator_small_effort_is_correct_and_deterministic(tmp_path: Path) -> None:
    first = synth.synth_box_once(2, synth.Params(widths=(2, 1), order=()), random.Random("t"))
    second = synth.synth_box_once(2, synth.Params(widths=(2, 1), order=()), random.Random("t"))
    assert first == second
    ops, outs = first
    assert core.evaluate(ops, outs) == expected_planes(2)
    src = gen.render_function("s3", ops, outs)
    path = tmp_path / "rendered_s3.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("rendered_s3", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    got = module.s3(*input_planes())
    assert [int(o) for o in got] == expected_planes(2)


def test_box_targets_match_fips() -> None:
    for box in BOXES:
        assert core.box_targets(box) == expected_planes(box)


def test_replaying_the_records_regenerates_the_committed_module() -> None:
    """``python -m tools.gen_sbox_circuits`` in one test: every box's recorded
    best attempt, reroutes and window rewrites (tools/sbox_records.py) replayed
    and rendered give the committed module byte for byte.  Only the header's
    "search time", the wall-clock time of the run that wrote it, is taken from
    the committed file."""
    committed = Path(_sbox_circuits.__file__).read_text()
    timed = re.search(r", search time: (\d+) s$", committed, re.MULTILINE)
    assert timed is not None
    circuits = [gen.best_circuit(box) for box in BOXES]
    attempts = [f"{mode} {number}" for mode, number in (GATE_BEST_ATTEMPTS[b] for b in BOXES)]
    command = "python -m tools.gen_sbox_circuits --seed 1"
    text = gen.render_module(circuits, command, 1, attempts, float(timed.group(1)))
    assert text == committed


def test_polish_starts_are_the_smallest_distinct_attempts() -> None:
    """``--polish-top``'s starting points: smallest first, ties by attempt
    number, one circuit per set of computed functions, at most ``count``."""
    small = gen.attempt(3, 1, ("perm", 460))[2]
    other = gen.attempt(3, 1, ("perm", 102))[2]
    assert core.signature(small) != core.signature(other)
    ranked = [
        (len(other[0]) + 5, ("perm", 7), other),  # a copy of "other", ranked worse
        (len(other[0]) - 6, ("perm", 102), other),
        (len(small[0]) - 6, ("perm", 460), small),
    ]
    starts = gen.polish_starts(ranked, 5)
    want = sorted([(len(small[0]), 460, small), (len(other[0]), 102, other)])
    assert [(r, c) for r, c in starts] == [(("perm", n), c) for _, n, c in want]
    assert gen.polish_starts(ranked, 1) == starts[:1]


def test_polish_steps_replay_from_the_raw_attempt() -> None:
    """What a polish returns is what ``apply_reroutes`` rebuilds from the
    attempt and the steps (so ``BEST_ATTEMPTS`` and ``REROUTES`` record it),
    correct and never larger than the start."""
    start = ("perm", 2383)
    raw = gen.attempt(7, 1, start)[2]
    how = gen.Polish(orders=(-1, 100, 480014), reroute=True, outputs=tuple(range(4)),
                     reroute_plateau=0, resynth=True, min_cone=2, resynth_plateau=0)
    box, got_start, circ, steps = gen.polish(7, start, raw, how)
    assert (box, got_start) == (7, start)
    assert steps, "S8's attempt 2383 shrinks under these orders"
    assert len(circ[0]) < len(raw[0])
    assert core.evaluate(*circ) == expected_planes(7)
    assert gen.apply_reroutes(7, raw, steps) == circ


def test_window_gate_tables() -> None:
    """Each 3-bit table (f(0,1), f(1,0), f(1,1); f(0,0) = 0) gives that function,
    complemented operands included."""
    for table in range(8):
        for neg_x, neg_y in itertools.product((False, True), repeat=2):
            st = core.State()
            x, y = (0, neg_x), (1, neg_y)
            va, vb = st.value(x), st.value(y)
            want = 0
            for bit, (pa, pb) in enumerate(((0, 1), (1, 0), (1, 1))):
                if table >> bit & 1:
                    want |= (va if pa else ~va) & (vb if pb else ~vb)
            assert st.value(core.window_gate(st, table, x, y)) == want & core.FULL


def test_rebuild_window_splices_program_and_prunes() -> None:
    """A window computing a1 ^ a2 with three gates, replaced by a one-gate
    program reading pool nodes: the function stays, the dead gates go."""
    ops = [("in", i, -1) for i in range(6)]
    ops += [("andnot", 0, 1), ("andnot", 1, 0), ("or", 6, 7), ("and", 8, 2)]
    outs = [9]
    before = core.evaluate(ops, outs)
    a1, a2, a3 = core.INPUTS[0], core.INPUTS[1], core.INPUTS[2]
    assert before == [(a1 ^ a2) & a3]  # independent of the evaluator's own bookkeeping
    # Window {6, 7, 8}; its output node 8 becomes program node 2 = xor(in 0, in 1).
    step = ((8,), (0, 1), ((0, 1, 0b011),), ((2, False),))
    new_ops, new_outs = core.rebuild_window((ops, outs), step)
    assert core.evaluate(new_ops, new_outs) == before
    assert len(new_ops) - 6 == 2
    # The same output taken complemented from the program must change it.
    flipped = core.rebuild_window((ops, outs), (step[0], step[1], step[2], ((2, True),)))
    assert core.evaluate(*flipped) != before


def test_fix_polarity_shares_one_not() -> None:
    """Two outputs ~(a1 ^ a2) and ~(a1 ^ a3): one NOT on a1 instead of two at the outputs."""
    from tools import sbox_polarity

    ops = [("in", i, -1) for i in range(6)]
    ops += [("xor", 0, 1), ("xor", 0, 2), ("not", 6, -1), ("not", 7, -1)]
    outs = [8, 9, 8, 9]
    fixed = sbox_polarity.fix_polarity((ops, outs))
    assert core.evaluate(*fixed) == core.evaluate(ops, outs)
    assert len(fixed[0]) - 6 == 3 and sbox_polarity.count_nots(fixed[0]) == 1


def test_rewrite_library_matches_known_cost_distribution() -> None:
    """The footprint table reproduces the known numbers of 4-input functions per
    2-input-gate cost (10, 60, 456, 2474, 10624, 24184, 25008, 2720), and its
    circuits compute their functions with exactly that many gates."""
    from tools import sbox_rewrite as rw

    lib = rw.library()
    counts = np.bincount([lib.lookup_cost(t) for t in range(1 << 16)])
    assert counts.tolist() == [10, 60, 456, 2474, 10624, 24184, 25008, 2720]
    rng = random.Random(14)
    for t in [rng.randrange(1, 0xFFFF) for _ in range(300)]:
        prog, res = lib.program(t)
        assert rw.eval_program(prog, res, rw.VARS4, 0xFFFF) == t
        assert len(prog) == lib.lookup_cost(t)


def test_rewrite_min_cost_table_is_cheapest_completion() -> None:
    from tools import sbox_rewrite as rw

    lib = rw.library()
    table = rw.min_cost_table()
    rng = random.Random(2)
    for _ in range(100):
        on = rng.randrange(1 << 16)
        off = rng.randrange(1 << 16) & ~on & rng.randrange(1 << 16)
        best = rw.completions(on, off, lib, 7, 1)[0]
        assert best & on == on and best & off == 0
        idx = rw.ternary_index(np.array([on]), np.array([off]))[0]
        assert table[idx] == lib.lookup_cost(best)


def test_lib_leaf_builds_target_on_care_set() -> None:
    st = core.State()
    rng = random.Random(5)
    for _ in range(20):
        t = rng.getrandbits(64)
        mask = core.INPUTS[0] & ~core.INPUTS[5] & core.FULL  # a1 = 1, a6 = 0: four free inputs
        res = synth.lib_leaf(st.copy(), t, mask)
        assert res is not None
        st1, sig = res
        assert not (st1.value(sig) ^ t) & mask
