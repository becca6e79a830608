"""The generated table-kernel module: up to date, and every variant's kernels distinct."""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import numbades
from numbades.engines.table import kernels_gen as _table_kernels
from tools import gen_table_kernels as gen


def test_committed_module_is_what_the_generator_writes():
    assert Path(_table_kernels.__file__).read_text() == gen.generate()


def test_twelve_variants_in_libdes_option_order():
    names = list(_table_kernels.KERNELS)
    assert len(names) == 12
    assert names == numbades.variants()[:12]
    for name in names:
        words = name.split("+")
        assert words[0] == "table"
        order = {"unroll": 0, "risc1": 1, "risc2": 1, "ptr": 2}
        assert [order[w] for w in words[1:]] == sorted(order[w] for w in words[1:])
        assert not ("risc1" in words and "risc2" in words)


def _function_source(name: str) -> str:
    tree = ast.parse(Path(_table_kernels.__file__).read_text())
    (node,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    body = ast.unparse(node.body[1:])  # without the docstring
    return body.replace(name, "_")


def _round_of(variant: str) -> str:
    """The name of the round function (``D_ENCRYPT``) the variant's block function calls."""
    block = _function_source("block_" + variant.replace("+", "_"))
    (called,) = set(re.findall(r"\b(d_encrypt\w*)\(", block))
    return called


def test_variants_differ_in_source():
    """Each option changes the generated round code (the asm comparison is in opts notes):
    RISC and PTR the round function, UNROLL the block function around it."""
    rounds = {n: _function_source(_round_of(n)) for n in _table_kernels.KERNELS}
    blocks = {n: _function_source("block_" + n.replace("+", "_")).replace(_round_of(n), "_")
              for n in _table_kernels.KERNELS}
    assert len(set(rounds.values())) == 6
    assert len(set(blocks.values())) == 2
    assert len({(rounds[n], blocks[n]) for n in rounds}) == 12
    for name in _table_kernels.KERNELS:
        unrolled = "unroll" in name
        assert (blocks[name].count("_(") == 16) == unrolled  # 16 rounds written out, else 4
        assert name.replace("+unroll", "") in rounds and rounds[name] == rounds[
            name.replace("+unroll", "")]


def test_ptr_variants_load_by_byte_offset():
    for name, kernels in _table_kernels.KERNELS.items():
        src = _function_source(_round_of(name))
        assert kernels.ptr == ("load_u32_at_byte" in src)
        # byte offsets (mask 0xfc), never an index (mask 0x3f) scaled back up
        assert ("& 252" in src) == kernels.ptr
        assert ("& 63" in src) == (not kernels.ptr)


_IMPORT_PROBE = """
import numbades
from numba.core.dispatcher import Dispatcher
from numbades.engines.table import kernels_gen as kg
made = kg.KERNELS.created()
plain = not isinstance(kg.ecb_table_unroll_risc2_ptr, Dispatcher)
kernels = kg.KERNELS["table+unroll+risc2+ptr"]
print(made, plain, kg.KERNELS.created()[-1])
print(kernels.ecb is kg.ecb_table_unroll_risc2_ptr, kernels.ecb.py_func.__qualname__,
      type(kernels.ecb._cache).__name__, kernels.ecb.targetoptions.get("nogil"),
      isinstance(kg.block2_table_unroll_risc2_ptr, Dispatcher))
"""


def test_import_creates_only_the_default_variant_and_the_rest_on_first_ask():
    """``import numbades`` wraps one variant (the default loop); the others when asked for,
    as module-level cached kernels (Numba's cache key: this file and the qualname)."""
    env = {**os.environ, "PYTHONPATH": str(Path(numbades.__file__).parents[1])}
    proc = subprocess.run([sys.executable, "-c", _IMPORT_PROBE], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "['table'] True table+unroll+risc2+ptr",
        "True ecb_table_unroll_risc2_ptr FunctionCache True True",
    ]
