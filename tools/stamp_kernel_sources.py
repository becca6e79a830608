"""Keep Numba's disk cache honest: stamp each cached-kernel module with what it inlines.

Numba keys a cached kernel on the SHA-256 of the *one* source file that
defines it.  The njit functions and module-level arrays it calls from other
modules are compiled into it, but a change to those modules (new S-box
circuits, a fixed helper) leaves that key unchanged, so the stale machine
code would be loaded again: in a development checkout after an edit, and in
an installed package after an upgrade that changed only a helper module.

The fix is to make the key change: every ``numbades`` module (in any
subpackage) that contains a ``cache=True`` kernel carries one line

    _INLINED_SOURCES_SHA256 = "<hex>"

holding the SHA-256 of the numbades modules it imports, transitively (with
their own stamp lines left out, so the stamps do not depend on each other).
Modules are named by their dotted path inside the package
(``engines.table.kernels_gen``); relative imports at any depth and absolute
``numbades.`` imports are followed, and importing a subpackage counts its
``__init__``.  When an imported module changes, the stamp changes, and with
it the file's hash.  ``tests/tools/test_kernel_cache_stamps.py`` fails when a stamp
is stale; ``python -m tools.stamp_kernel_sources`` rewrites stale stamps (the
two code generators call it after writing).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent.parent / "numbades"
PACKAGE_NAME = "numbades"
STAMP_NAME = "_INLINED_SOURCES_SHA256"
STAMP_LINE = re.compile(rf'^{STAMP_NAME} = "[0-9a-f]*".*\n', re.MULTILINE)
_CACHED_KERNEL = re.compile(r"\bcache\s*=\s*True\b")


def render_stamp(digest: str) -> str:
    """The stamp line for ``digest`` (as it appears in a module)."""
    return f'{STAMP_NAME} = "{digest}"  # see tools/stamp_kernel_sources.py\n'


def without_stamp(source: str) -> str:
    """``source`` with its stamp line removed."""
    return STAMP_LINE.sub("", source)


def module_path(name: str, package: Path = PACKAGE) -> Path | None:
    """The file of module ``name`` (dotted, inside the package), or None if there is none."""
    parts = name.split(".") if name else []
    as_module = package.joinpath(*parts).with_suffix(".py") if parts else None
    if as_module is not None and as_module.is_file():
        return as_module
    as_package = package.joinpath(*parts, "__init__.py")
    return as_package if as_package.is_file() else None


def load_standalone(name: str, package: Path = PACKAGE) -> ModuleType:
    """Load one self-contained package module (no relative imports) from its file.

    The generators read facts (``des.fips``, ``engines.chains``) this way
    rather than importing ``numbades``, whose ``__init__`` imports the very
    files they are about to rewrite.
    """
    path = module_path(name, package)
    if path is None:
        raise FileNotFoundError(f"no module {name!r} in {package}")
    spec = importlib.util.spec_from_file_location(f"_standalone_{name.replace('.', '_')}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _is_package(name: str, package: Path) -> bool:
    path = module_path(name, package)
    return path is not None and path.name == "__init__.py"


def _resolve(name: str, node: ast.ImportFrom, package: Path) -> list[str]:
    """Package modules an ``from ... import ...`` statement in module ``name`` loads."""
    if node.level == 0:
        if not node.module or node.module.split(".")[0] != PACKAGE_NAME:
            return []
        base = node.module.split(".")[1:]
    else:
        here = name.split(".") if name else []
        if not _is_package(name, package):
            here = here[:-1]  # a module's relative imports start from its package
        if node.level - 1 > len(here):
            return []
        here = here[: len(here) - (node.level - 1)]
        base = here + (node.module.split(".") if node.module else [])
    target = ".".join(base)
    found = [target] if module_path(target, package) is not None else []
    for alias in node.names:  # ``from .pkg import module`` loads the submodule too
        sub = ".".join([*base, alias.name])
        if module_path(sub, package) is not None and sub != target:
            found.append(sub)
    return found


def package_imports(name: str, package: Path = PACKAGE, source: str | None = None) -> set[str]:
    """The numbades modules that module ``name`` imports directly.

    ``source`` stands in for the module's file (a generator stamping text it
    has not written yet).
    """
    if source is None:
        path = module_path(name, package)
        if path is None:
            raise FileNotFoundError(f"no module {name!r} in {package}")
        source = path.read_text()
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found.update(_resolve(name, node, package))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == PACKAGE_NAME and module_path(".".join(parts[1:]), package):
                    found.add(".".join(parts[1:]))
    return found - {name, ""}


def inlined_modules(name: str, package: Path = PACKAGE, source: str | None = None) -> list[str]:
    """Every numbades module reachable from ``name`` through imports, sorted."""
    seen: set[str] = set()
    todo = sorted(package_imports(name, package, source))
    while todo:
        dep = todo.pop()
        if dep in seen or dep == name:
            continue
        seen.add(dep)
        todo.extend(package_imports(dep, package))
    return sorted(seen)


def fingerprint(name: str, package: Path = PACKAGE, source: str | None = None) -> str:
    """SHA-256 over the names and (stamp-free) sources of what ``name`` inlines."""
    digest = hashlib.sha256()
    for dep in inlined_modules(name, package, source):
        path = module_path(dep, package)
        assert path is not None
        digest.update(dep.encode() + b"\0")
        digest.update(without_stamp(path.read_text()).encode() + b"\0")
    return digest.hexdigest()


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """Dotted name of a file inside the package (``engines.table.kernels_gen``)."""
    rel = path.relative_to(package).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def cached_kernel_modules(package: Path = PACKAGE) -> list[str]:
    """Dotted names of the modules, in any subpackage, that define ``cache=True`` kernels."""
    return sorted(
        module_name(p, package)
        for p in package.rglob("*.py")
        if _CACHED_KERNEL.search(p.read_text())
    )


def stale_modules(package: Path = PACKAGE) -> list[str]:
    """Cached-kernel modules whose stamp is missing or out of date."""
    stale = []
    for name in cached_kernel_modules(package):
        path = module_path(name, package)
        assert path is not None
        if render_stamp(fingerprint(name, package)) not in path.read_text():
            stale.append(name)
    return stale


def restamp(package: Path = PACKAGE) -> list[str]:
    """Rewrite every stale stamp in place; returns the modules rewritten.

    A module without a stamp line is an error (the line's place in the file
    is a human decision), not something to patch in silently.
    """
    rewritten = []
    for name in stale_modules(package):
        path = module_path(name, package)
        assert path is not None
        source = path.read_text()
        if not STAMP_LINE.search(source):
            raise SystemExit(f"{path}: defines cache=True kernels but has no {STAMP_NAME} line")
        path.write_text(STAMP_LINE.sub(render_stamp(fingerprint(name, package)), source))
        rewritten.append(name)
    return rewritten


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        stale = stale_modules()
        for name in stale:
            print(f"stale: {module_path(name)}")
        return 1 if stale else 0
    if args:
        print("usage: python -m tools.stamp_kernel_sources [--check]", file=sys.stderr)
        return 2
    for name in restamp():
        print(f"restamped {module_path(name)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
