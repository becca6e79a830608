"""Generate the S-box circuits without NOT gates, their NOTs folded into the key.

Reads the 2-input gate circuits (``sbox_circuits_gen.py``, written by
:mod:`tools.gen_sbox_circuits`) and writes
``numbades/engines/bitslice/sboxes/sbox_folded_gen.py``: the same circuits
with every NOT gone, for inputs that arrive *complemented* where the S-box's
``INPUT_COMPLEMENT`` mask says so.  Under one key the round code XORs a key
mask into every S-box input anyway, so a complemented input costs nothing:
the key mask is stored complemented (``lane_rounds.key_planes``).  On AVX2
each NOT was two vector instructions (``vpcmpeqd`` for the all-ones
constant, ``vpxor``), so the folded circuits take 2 of about 60 per S-box.

How: with the basis AND, OR, XOR, ANDNOT, each signal is carried as a value
and a *polarity* (the value is the true signal XOR the polarity).  A NOT only
flips the polarity; an XOR's polarity is the parity of its operands'; an
AND-type gate over operands of any polarity is one of ``x & y``, ``x & ~y``,
``y & ~x`` or ``x | y`` (De Morgan), with a polarity that follows.  The input
polarities decide the output polarities; of the 64 input masks, the one with
the fewest complemented inputs whose four outputs all come out
uncomplemented is chosen (every S-box has some; the generator checks).  Each
folded circuit is checked here on all 64 inputs against the circuit it came
from; ``tests/test_sbox_folded.py`` checks it against FIPS 46-3.

Run: ``python -m tools.gen_sbox_folded`` (``--check``: exit 1 if the committed
file differs).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Sequence
from pathlib import Path

from tools import generated, stamp_kernel_sources

Gate = tuple[str, str, str, str]  # (target, operator, left, right)


def parse_circuits(source: str) -> list[tuple[list[tuple[str, ast.expr]], list[str]]]:
    """Each ``sN`` function of a generated circuit module as (assignments, output names)."""
    boxes = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name[0] == "s" and node.name[1:].isdigit():
            body = [(st.targets[0].id, st.value) for st in node.body if isinstance(st, ast.Assign)]
            ret = node.body[-1]
            boxes.append((body, [elt.id for elt in ret.value.elts]))
    return boxes


def fold(body: list[tuple[str, ast.expr]], outs: list[str],
         mask: int) -> tuple[list[Gate], list[str], list[int]]:
    """The NOT-free gates for inputs complemented by ``mask`` (bit i: input i + 1).

    Returns the gates, the output names and the output polarities (1 where
    an output comes out complemented).
    """
    name = {f"a{i + 1}": f"a{i + 1}" for i in range(6)}
    pol = {f"a{i + 1}": (mask >> i) & 1 for i in range(6)}
    gates: list[Gate] = []
    for target, value in body:
        if isinstance(value, ast.UnaryOp):  # NOT: the same value, the other polarity
            src = value.operand.id
            name[target], pol[target] = name[src], pol[src] ^ 1
            continue
        left = value.left.id
        if isinstance(value.op, ast.BitXor):
            right = value.right.id
            gates.append((target, "^", name[left], name[right]))
            name[target], pol[target] = target, pol[left] ^ pol[right]
            continue
        # oc ^ ((x ^ cx) & (y ^ cy)) over the stored values x, y
        if isinstance(value.op, ast.BitAnd) and isinstance(value.right, ast.UnaryOp):
            right = value.right.operand.id  # x & ~y
            cx, cy, oc = pol[left], pol[right] ^ 1, 0
        elif isinstance(value.op, ast.BitAnd):
            right = value.right.id
            cx, cy, oc = pol[left], pol[right], 0
        else:  # x | y = ~(~x & ~y)
            right = value.right.id
            cx, cy, oc = pol[left] ^ 1, pol[right] ^ 1, 1
        x, y = name[left], name[right]
        if cx and cy:
            gates.append((target, "|", x, y))
            oc ^= 1
        elif cx:
            gates.append((target, "&~", y, x))
        elif cy:
            gates.append((target, "&~", x, y))
        else:
            gates.append((target, "&", x, y))
        name[target], pol[target] = target, oc
    return gates, [name[o] for o in outs], [pol[o] for o in outs]


def choose_mask(body: list[tuple[str, ast.expr]], outs: list[str]) -> int:
    """The input mask with the fewest complemented inputs (then the smallest) whose outputs are all uncomplemented."""
    good = [m for m in range(64) if not any(fold(body, outs, m)[2])]
    if not good:
        raise ValueError("no input polarities give uncomplemented outputs")
    return min(good, key=lambda m: (m.bit_count(), m))


def _evaluate_original(body: list[tuple[str, ast.expr]], outs: list[str]) -> list[int]:
    """The original circuit's outputs, bitsliced over the 64 inputs (bit x = input x)."""
    full = (1 << 64) - 1
    env = {f"a{i + 1}": sum(1 << x for x in range(64) if (x >> (5 - i)) & 1) for i in range(6)}
    for target, value in body:
        env[target] = eval(compile(ast.Expression(value), "<gate>", "eval"), {}, env) & full
    return [env[o] for o in outs]


def _evaluate_folded(gates: list[Gate], outs: list[str], mask: int) -> list[int]:
    """The folded circuit's outputs over the 64 inputs, each input complemented per ``mask``."""
    full = (1 << 64) - 1
    env = {f"a{i + 1}": sum(1 << x for x in range(64) if (x >> (5 - i)) & 1) ^ (full * ((mask >> i) & 1))
           for i in range(6)}
    ops = {"^": lambda a, b: a ^ b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
           "&~": lambda a, b: a & ~b & full}
    for target, op, x, y in gates:
        env[target] = ops[op](env[x], env[y])
    return [env[o] for o in outs]


def render_module(folded: Sequence[tuple[list[Gate], list[str], int]], command: str) -> str:
    """The generated module's text."""
    counts = [len(g) for g, _, _ in folded]
    lines = [
        f"# Generated by {command} -- do not edit by hand.",
        "# From sbox_circuits_gen.py: the same gates with every NOT folded into the inputs' polarity.",
        f"# Gates per S-box: {', '.join(f'S{i + 1}={n}' for i, n in enumerate(counts))}",
        f"# Average: {sum(counts) / 8:.3f} gates, no NOT",
        '"""The bitslice S-box circuits without NOT gates, for complemented inputs (generated; see header).',
        "",
        "Input ``j`` (1..6) of S-box ``b`` must arrive complemented where bit ``j - 1``",
        "of ``INPUT_COMPLEMENT[b - 1]`` is set; the outputs are the S-box's own.",
        '"""',
        "",
        "#: Per S-box, bit j - 1 set: input j arrives complemented.",
        f"INPUT_COMPLEMENT = {tuple(m for _, _, m in folded)}",
        f"GATE_COUNTS = {tuple(counts)}",
        f"AVERAGE_GATES = {sum(counts) / 8}",
        "",
    ]
    for box, (gates, outs, _) in enumerate(folded):
        lines += ["", f"def s{box + 1}(a1, a2, a3, a4, a5, a6):"]
        lines += [f"    {t} = {x} & ~{y}" if op == "&~" else f"    {t} = {x} {op} {y}"
                  for t, op, x, y in gates]
        lines += [f"    return ({', '.join(outs)})", ""]
    return "\n".join(lines)


def build(source: str) -> list[tuple[list[Gate], list[str], int]]:
    """Every S-box folded and checked against the circuit it came from."""
    folded = []
    for body, outs in parse_circuits(source):
        mask = choose_mask(body, outs)
        gates, names, pols = fold(body, outs, mask)
        if any(pols) or _evaluate_folded(gates, names, mask) != _evaluate_original(body, outs):
            raise AssertionError("a folded circuit differs from its original")
        folded.append((gates, names, mask))
    if len(folded) != 8:
        raise ValueError(f"expected 8 S-boxes, found {len(folded)}")
    return folded


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=generated.SBOX_FOLDED)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not fresh")
    args = parser.parse_args(argv)
    text = render_module(build(generated.SBOX_CIRCUITS.read_text()), "python -m tools.gen_sbox_folded")
    if args.check:
        fresh = args.output.exists() and args.output.read_text() == text
        print("fresh" if fresh else f"stale: run python -m tools.gen_sbox_folded ({args.output})")
        return 0 if fresh else 1
    args.output.write_text(text)
    for name in stamp_kernel_sources.restamp():
        print(f"restamped {name}")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
