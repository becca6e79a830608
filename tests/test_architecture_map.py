"""docs/architecture.md's map of the package names every module, and only modules that exist.

The table of subpackages has one row per package directory (``| `modes/` |``);
its "owns" cell names the modules.  A module file is named when its name
appears as a backticked word (or a part of a dotted or slashed one, like
``base.Engine`` or ``sbox/luts_gen``) in the row of the deepest package
that holds it; modules at the package root are named in the layer diagram
(``cipher.py``).  The other way round, every backticked word outside
parentheses in an "owns" cell names a module or package that exists in its
row's package or below it (the part before the first ``.``: ``base.Engine``
is ``base``).  Rows are found by
their first cell (a row may name a package inside another row's, as a table
of one package's groups does), so regrouping a row's modules changes
nothing here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "numbades"
MAP = ROOT / "docs" / "architecture.md"

_ROW = re.compile(r"^\| `([\w/]+)/` \| (.*?) \| (.*?) \|\s*$")
_TICKED = re.compile(r"`([^`]+)`")


def _rows() -> dict[str, str]:
    """Package path ("engines/table") -> its "owns" cell.

    A row may name a package relative to another row's (a table of the
    groups inside one package: ``rounds/`` inside ``engines/bitslice/``).
    """
    rows: dict[str, str] = {}
    for line in MAP.read_text().splitlines():
        match = _ROW.match(line)
        if match:
            path, cell = match.group(1), match.group(2)
            if not (PACKAGE / path).is_dir():
                inside = [f"{p}/{path}" for p in rows if (PACKAGE / p / path).is_dir()]
                path = inside[0] if len(inside) == 1 else path
            rows[path] = cell
    return rows


def _words(cell: str) -> set[str]:
    """Every component of every backticked word of ``cell`` (split at ``.`` and ``/``)."""
    return {part for word in _TICKED.findall(cell) for part in re.split(r"[./]", word) if part}


def _top_level_words(cell: str) -> list[str]:
    """Backticked words outside parentheses: the modules a cell names."""
    depth, kept = 0, []
    for ch in cell:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(ch)
        else:
            kept.append(" ")  # words inside parentheses describe; they are not read
    return _TICKED.findall("".join(kept))


def _modules() -> list[Path]:
    return sorted(p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.py")
                  if "__pycache__" not in p.parts)


def test_the_map_has_rows():
    rows = _rows()
    assert {"des", "engines", "modes", "tuning", "cli", "dask"} <= set(rows), sorted(rows)


def test_every_module_is_named_in_the_map():
    rows, text = _rows(), MAP.read_text()
    missing = []
    for module in _modules():
        if len(module.parts) == 1:
            if f"{module.name}" not in text:
                missing.append(str(module))
            continue
        if module.name == "__init__.py" and (module.parent.as_posix() in rows):
            continue  # the package is the row itself
        package = module.parent.as_posix()
        while package and package not in rows:  # the deepest package with a row
            package = package.rpartition("/")[0]
        assert package, f"{module}: no row of the map holds its package"
        inside = module.relative_to(package).with_suffix("")
        if inside.name == "__init__":  # a package inside the row's: its name is enough
            inside = inside.parent
        if not set(inside.parts) <= _words(rows[package]):
            missing.append(f"{module} (row {package}/)")
    assert not missing, f"modules the map of docs/architecture.md does not name: {missing}"


def _exists_under(root: Path, word: str) -> bool:
    """A module or package ``word`` (``a/b`` or ``a.b``: its first part) somewhere under ``root``.

    Anywhere below, not only directly: a row may list a group's modules after
    the group's name (``rounds/``: ``lane_rounds``, ...).
    """
    parts = [p for p in re.split(r"[/]", word.split(".")[0]) if p]
    if not parts:
        return False
    rel = Path(*parts)
    return any((d / rel).with_suffix(".py").is_file() or (d / rel).is_dir()
               for d in (root, *(p for p in root.rglob("*") if p.is_dir())))


def test_every_module_the_map_names_exists():
    absent = []
    for package, cell in _rows().items():
        assert (PACKAGE / package).is_dir(), f"row {package}/ of a package that does not exist"
        for word in _top_level_words(cell):
            if not _exists_under(PACKAGE / package, word):
                absent.append(f"{package}/: `{word}`")
    assert not absent, f"docs/architecture.md names modules that do not exist: {absent}"
