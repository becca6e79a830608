"""The NOT-free S-box circuits (``sbox_folded_gen``) that the one-key round code runs on AVX2.

Each circuit is evaluated bitsliced on all 64 inputs, with the inputs its
``INPUT_COMPLEMENT`` mask names complemented, and compared with the FIPS
tables; it must contain no NOT (the point of folding); the committed module
must be what ``tools.gen_sbox_folded`` writes today; and the one-key masks
(``lane_rounds.key_planes``) must carry exactly the complement the rule picks.
"""

from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

from numbades.des import fips as _fips
from numbades.engines.bitslice.rounds import lane_rounds
from numbades.engines.bitslice.sboxes import dispatch, sbox_circuits_gen, sbox_folded_gen
from tools import gen_sbox_folded, generated

BOXES = range(8)
FULL = 2**64 - 1


def _input_planes(mask: int) -> list[np.uint64]:
    """Plane a_i (i = 1..6): bit x is bit b_i of input x (b1 the MSB), complemented if mask bit i - 1."""
    return [np.uint64(sum(1 << x for x in range(64) if (x >> (6 - i)) & 1) ^ (FULL if (mask >> (i - 1)) & 1 else 0))
            for i in range(1, 7)]


def _fips_planes(box: int) -> list[int]:
    return [sum(1 << x for x in range(64) if (_fips.sbox_lookup(box, x) >> (3 - k)) & 1)
            for k in range(4)]


@pytest.mark.parametrize("box", BOXES)
def test_folded_circuit_matches_fips_on_complemented_inputs(box: int) -> None:
    func = getattr(sbox_folded_gen, f"s{box + 1}")
    out = func(*_input_planes(sbox_folded_gen.INPUT_COMPLEMENT[box]))
    assert [int(o) for o in out] == _fips_planes(box)


@pytest.mark.parametrize("box", BOXES)
def test_folded_circuit_has_no_not_and_one_gate_fewer_per_not(box: int) -> None:
    tree = ast.parse(inspect.getsource(getattr(sbox_folded_gen, f"s{box + 1}")))
    inverts = [n for n in ast.walk(tree) if isinstance(n, ast.UnaryOp)]
    ands = [n for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitAnd)]
    assert all(any(a.right is n for a in ands) for n in inverts)  # only ``x & ~y`` (one vpandn)
    original = ast.parse(inspect.getsource(getattr(sbox_circuits_gen, f"s{box + 1}")))
    nots = sum(1 for n in ast.walk(original) if isinstance(n, ast.Assign)
               and isinstance(n.value, ast.UnaryOp))
    assert sbox_folded_gen.GATE_COUNTS[box] == sbox_circuits_gen.GATE_COUNTS[box] - nots


def test_the_committed_module_is_what_the_generator_writes() -> None:
    text = gen_sbox_folded.render_module(
        gen_sbox_folded.build(generated.SBOX_CIRCUITS.read_text()), "python -m tools.gen_sbox_folded")
    assert generated.SBOX_FOLDED.read_text() == text


def test_input_complement_spreads_the_masks_per_key_bit() -> None:
    comp = dispatch.input_complement(False)
    assert comp.shape == (48,) and comp.dtype == np.uint64
    for box, mask in enumerate(sbox_folded_gen.INPUT_COMPLEMENT):
        for j in range(6):
            assert int(comp[6 * box + j]) == (FULL if (mask >> j) & 1 else 0)
    assert not dispatch.input_complement(True).any()  # the LUT programs have no NOT


def test_one_key_circuits_follow_the_rule() -> None:
    assert dispatch.one_key_circuits(True) == dispatch.vector_circuits(True)
    assert dispatch.one_key_circuits(False) == [getattr(sbox_folded_gen, f"s{i + 1}")
                                                for i in range(8)]


def test_key_planes_carry_this_targets_complement() -> None:
    kp = lane_rounds.key_planes(np.array([0, (1 << 48) - 1], dtype=np.uint64))
    comp = dispatch.input_complement()
    assert np.array_equal(kp[0], comp)
    assert np.array_equal(kp[1], ~comp)
