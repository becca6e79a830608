"""The layer rule of docs/architecture.md holds, and the checker would notice a breach.

``lint-imports`` reads the contracts in ``pyproject.toml``: cli | dask ->
cipher -> modes -> tuning -> engines -> des, each layer importing only those
below (cli and dask independent siblings), the Dask integration using only
the public cipher objects, the table and bitslice engines independent of
each other, and inside bitslice the engine above the users of the round
code, above ``rounds/``, above ``sboxes/`` and ``layout/``, above ``cpu/``.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import numbades
from numbades.engines.registry import CRYPT3_ENGINES, ENGINES, KEY_ROWS_ENGINES

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = shutil.which("lint-imports") or "lint-imports"


def _lint(cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    return subprocess.run([LINT_IMPORTS, "--config", str(cwd / "pyproject.toml")], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300, check=False)


def test_the_contracts_are_kept():
    result = _lint(ROOT, ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("des/fips.py", "from ..modes import buffers  # upward\n", "Layers"),
        ("engines/table/frame.py", "from ..bitslice.layout import transpose  # across\n",
         "Engines are independent"),
        ("engines/bitslice/layout/transpose.py", "from ..rounds import lane_rounds  # upward\n",
         "Bitslice"),
        ("tuning/machine.py", "import numbades  # the package root\n", "Layers"),
        ("dask/chaining.py", "from ..modes import buffers  # beneath the public objects\n",
         "The Dask integration uses only the public cipher objects"),
        ("cli/asm.py", "from .. import dask  # a sibling of the same layer\n", "Layers"),
        ("cipher.py", "from . import dask  # upward\n", "Layers"),
        ("payments/dukpt.py", "from ..engines import registry  # beneath the public objects\n",
         "The payments jobs use only the public cipher objects"),
        ("mac/keyed.py", "from .. import payments  # upward\n", "Layers"),
        ("payments/emv.py", "from ..modes import buffers  # beneath the public objects\n",
         "The payments jobs use only the public cipher objects"),
        ("mac/rows.py", "from .. import payments  # upward\n", "Layers"),
        ("modes/rows.py", "from . import buffers  # the other input shape\n", "modes:"),
        ("modes/buffers.py", "from . import stream  # upward inside modes\n", "modes:"),
    ],
)
def test_a_breach_is_reported(tmp_path, module, line, contract):
    """Copy the package, add one forbidden import, and lint-imports must fail."""
    shutil.copytree(ROOT / "numbades", tmp_path / "numbades",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "numbades" / module
    target.write_text(target.read_text() + "\n" + line)
    result = _lint(tmp_path, tmp_path)
    assert result.returncode != 0
    assert contract in result.stdout and "BROKEN" in result.stdout


def test_every_engine_implements_the_protocol():
    for name, engine in ENGINES.items():
        assert engine.name == name
        for attribute in ("key_form", "constant_time", "build_key_form", "serves", "ecb",
                          "chain", "cfb8", "many"):
            assert hasattr(engine, attribute), (name, attribute)
        for attribute in ("serves_key_rows", "key_rows"):  # base.KeyRowsEngine
            assert hasattr(engine, attribute), (name, attribute)
    assert list(ENGINES) == numbades.variants()
    assert list(KEY_ROWS_ENGINES) == numbades.variants()
    assert list(CRYPT3_ENGINES) == numbades.variants()  # table: a few hashes; bitslice: many
    for engine in CRYPT3_ENGINES.values():
        for attribute in ("crypt3", "crypt3_one"):  # base.Crypt3Engine
            assert hasattr(engine, attribute), (engine.name, attribute)
    assert [ENGINES[n].constant_time for n in ENGINES] == [
        n == "bitslice" for n in ENGINES]


def test_no_module_imports_the_package_root():
    """The only upward import the old layout had (``import numbades`` in the store) is gone.

    Read from each module's syntax tree, at any depth (functions included), so
    the scripts a module hands to child processes as strings do not count.
    """
    for path in (ROOT / "numbades").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert "numbades" not in [alias.name for alias in node.names], path
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module != "numbades", path


def test_tools_run_as_modules_without_path_edits():
    result = subprocess.run([sys.executable, "-m", "tools.stamp_kernel_sources", "--check"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    for path in (ROOT / "tools").glob("*.py"):
        assert "sys.path" not in path.read_text(), path
