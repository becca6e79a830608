"""Cached kernels are recompiled when a module they inline changes.

Numba keys its disk cache on the hash of the defining file only; the
``_INLINED_SOURCES_SHA256`` stamps (``tools/stamp_kernel_sources.py``) carry
the hash of everything else a kernel compiles in.
"""

import hashlib
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tools import stamp_kernel_sources as stamps

PACKAGE = stamps.PACKAGE


def test_every_stamp_is_fresh():
    stale = stamps.stale_modules()
    assert stale == [], f"stale stamps in {stale}: run python -m tools.stamp_kernel_sources"


def test_every_module_with_cached_kernels_is_stamped():
    modules = stamps.cached_kernel_modules()
    assert {"engines.bitslice.rounds.lane_rounds", "engines.bitslice.mode_kernels", "des.keyschedule",
            "engines.table.kernels_gen", "engines.table.frame"} <= set(modules)
    for name in modules:
        assert stamps.STAMP_LINE.search(stamps.module_path(name).read_text()), name


def test_bitslice_stamps_cover_the_circuits():
    circuits = "engines.bitslice.sboxes.sbox_circuits_gen"
    assert {circuits, "des.fips", "engines.bitslice.layout.transpose"} <= set(
        stamps.inlined_modules("engines.bitslice.rounds.lane_rounds")
    )
    # transitively, through lane_rounds
    assert circuits in stamps.inlined_modules("engines.bitslice.mode_kernels")
    assert circuits not in stamps.inlined_modules("des.keyschedule")
    # across subpackages: the table kernels inline the chain vocabulary and the frame
    assert {"engines.chains", "engines.table.ip_fp", "engines.table.frame"} <= set(
        stamps.inlined_modules("engines.table.kernels_gen")
    )


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_editing_the_circuits_changes_exactly_the_dependent_files(tmp_path):
    package = tmp_path / "numbades"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = {p.relative_to(package).as_posix(): _sha256(p) for p in package.rglob("*.py")}
    circuits = package / "engines" / "bitslice" / "sboxes" / "sbox_circuits_gen.py"
    circuits.write_text(circuits.read_text() + "\n# a changed circuit\n")

    dependents = ["engines.bitslice.cbc_mac", "engines.bitslice.crypt3",
                  "engines.bitslice.lane_keys", "engines.bitslice.mode_kernels",
                  "engines.bitslice.rounds.lane_rounds"]
    assert stamps.stale_modules(package) == dependents
    assert stamps.restamp(package) == dependents
    assert stamps.stale_modules(package) == []
    after = {p.relative_to(package).as_posix(): _sha256(p) for p in package.rglob("*.py")}
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"engines/bitslice/sboxes/sbox_circuits_gen.py",
                       "engines/bitslice/rounds/lane_rounds.py",
                       "engines/bitslice/mode_kernels.py", "engines/bitslice/lane_keys.py",
                       "engines/bitslice/crypt3.py", "engines/bitslice/cbc_mac.py"}


def test_editing_the_chain_vocabulary_restamps_both_engines(tmp_path):
    package = tmp_path / "numbades"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    vocabulary = package / "engines" / "chains.py"
    vocabulary.write_text(vocabulary.read_text() + "\n# a new chain\n")
    assert stamps.stale_modules(package) == [
        "engines.bitslice.cbc_mac", "engines.bitslice.crypt3", "engines.bitslice.lane_keys",
        "engines.bitslice.mode_kernels", "engines.table.kernels_gen", "engines.table.whitened"]


def test_restamp_refuses_a_module_without_a_stamp_line(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "helper.py").write_text("X = 1\n")
    (package / "kernels.py").write_text(
        "from . import helper\n\n@njit(cache=True)\ndef f():\n    return helper.X\n"
    )
    assert stamps.stale_modules(package) == ["kernels"]
    with pytest.raises(SystemExit, match="no _INLINED_SOURCES_SHA256 line"):
        stamps.restamp(package)


_CALLER = """\
from numba import njit

from . import callee

_INLINED_SOURCES_SHA256 = ""


@njit(cache=True)
def answer():
    return callee.value()
"""


def _run_answer(tmp_path: Path) -> int:
    script = "from pkg import caller; print(caller.answer())"
    # No .pyc files: Python validates them by whole-second mtime and size, and
    # the edits below keep the size and may land within the same second.
    env = {
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        "PATH": "/usr/bin:/bin",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env,
        capture_output=True, text=True, check=True,
    )
    return int(out.stdout)


def test_numba_reuses_a_stale_kernel_unless_the_stamp_changes(tmp_path):
    """The premise, checked against Numba itself: edit a callee, see old code run."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(_CALLER)
    callee = package / "callee.py"
    callee.write_text(textwrap.dedent("""\
        from numba import njit

        @njit
        def value():
            return 1
    """))
    stamps.restamp(package)
    assert _run_answer(tmp_path) == 1

    callee.write_text(callee.read_text().replace("return 1", "return 2"))
    assert _run_answer(tmp_path) == 1  # Numba's cache alone: the stale kernel
    assert stamps.restamp(package) == ["caller"]
    assert _run_answer(tmp_path) == 2
