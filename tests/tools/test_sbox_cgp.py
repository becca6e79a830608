"""The evolutionary circuit search (tools.sbox_cgp): genomes are faithful
copies of the recorded circuits, evolution never accepts a wrong or larger
circuit, and it does remove planted redundancy."""

from __future__ import annotations

import numpy as np
import pytest

from tools import sbox_cgp as cgp
from tools import sbox_core as core
from tools import sbox_windows

BOX = 3  # S4: the smallest circuits, so the replays are quick


def _basis(kind: str) -> sbox_windows.Basis:
    return sbox_windows.LUTS if kind == "luts" else sbox_windows.GATES


def _arity(kind: str) -> int:
    return 3 if kind == "luts" else 2


def _targets(box: int) -> np.ndarray:
    return np.array(core.box_targets(box), np.uint64)


def _cost(kind: str, genome: tuple[np.ndarray, ...], box: int) -> int:
    fn = genome[0]
    active = np.zeros(fn.shape[0] + 6, np.bool_)
    vals = np.zeros(fn.shape[0] + 6, np.uint64)
    vals[:6] = cgp._INPUTS
    return cgp._cost(_arity(kind), *genome, _targets(box), active, vals)


@pytest.mark.parametrize("kind", cgp.KINDS)
@pytest.mark.parametrize("box", [3, 7])
def test_genome_round_trip_keeps_the_circuit(kind: str, box: int) -> None:
    """Recorded circuit -> genome (with spare nodes) -> whole-circuit window
    step -> spliced circuit: correct (the splice checks all 64 inputs) and
    of the same size; the genome's own cost check agrees."""
    basis = _basis(kind)
    circ = basis.recorded(box)
    genome = cgp.with_spares(cgp.genome_of(kind, circ), _arity(kind), 12,
                             np.random.default_rng(box))
    gates = basis.size(circ) - sum(basis.free(circ, i) for i in range(len(basis.fanins(circ))))
    assert _cost(kind, genome, box) == (basis.size(circ) if kind == "exact" else gates)
    assert cgp.genome_cost(kind, basis, circ) == _cost(kind, genome, box)
    step = cgp.step_of(kind, genome, cgp.output_nodes(_arity(kind), circ))
    assert basis.size(basis.splice(box, circ, step)) == basis.size(circ)


def test_exact_circuit_inverts_exact_genome() -> None:
    circ = sbox_windows.GATES.recorded(BOX)
    back = cgp.exact_circuit(cgp.exact_genome(circ))
    assert core.evaluate(*back) == core.box_targets(BOX)
    assert len(back[0]) == len(circ[0])


def test_a_wrong_genome_is_rejected() -> None:
    fn, ops, outs, neg = cgp.exact_genome(sbox_windows.GATES.recorded(BOX))
    outs = outs.copy()
    outs[0], outs[1] = outs[1], outs[0]
    assert _cost("exact", (fn, ops, outs, neg), BOX) == -1


@pytest.mark.parametrize("kind", cgp.KINDS)
def test_evolution_keeps_circuits_correct_and_never_larger(kind: str) -> None:
    basis = _basis(kind)
    circ = basis.recorded(BOX)
    genome = cgp.with_spares(cgp.genome_of(kind, circ), _arity(kind), 10,
                             np.random.default_rng(1))
    before = _cost(kind, genome, BOX)
    cost, moves = cgp.evolve(_arity(kind), kind == "exact", *genome, _targets(BOX), cgp._INPUTS,
                             3000, 4, 7, 0, before, 0.0)
    assert moves > 0  # the walk moved along its neutral network
    assert 0 <= cost <= before
    assert _cost(kind, genome, BOX) == cost
    step = cgp.step_of(kind, genome, cgp.output_nodes(_arity(kind), circ))
    assert basis.size(basis.splice(BOX, circ, step)) <= basis.size(circ)


def test_evolution_removes_planted_redundancy() -> None:
    """Output o1 rerouted through two extra NOTs (two gates more): the walk
    finds its way back below the padded size and stops there."""
    fn, ops, outs, neg = cgp.exact_genome(sbox_windows.GATES.recorded(BOX))
    n = fn.shape[0]
    fn = np.concatenate([fn, [cgp.NOT, cgp.NOT]]).astype(np.int64)
    ops = np.concatenate([ops, [[outs[0], outs[0], 0], [n + 6, n + 6, 0]]]).astype(np.int64)
    outs = outs.copy()
    outs[0] = n + 7
    padded = _cost("exact", (fn, ops, outs, neg), BOX)
    assert padded == len(sbox_windows.GATES.recorded(BOX)[0]) - 6 + 2
    cost, _ = cgp.evolve(2, True, fn, ops, outs, neg, _targets(BOX), cgp._INPUTS,
                         200_000, 4, 3, padded - 1, padded, 0.0)
    assert cost < padded
    assert _cost("exact", (fn, ops, outs, neg), BOX) == cost
