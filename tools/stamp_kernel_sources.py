"""Keep Numba's disk cache honest: stamp each cached-kernel module with what it inlines.

Numba keys a cached kernel on the SHA-256 of the *one* source file that
defines it.  The njit functions and module-level arrays it calls from other
modules are compiled into it, but a change to those modules (new S-box
circuits, a fixed helper) leaves that key unchanged, so the stale machine
code would be loaded again: in a development checkout after an edit, and in
an installed package after an upgrade that changed only a helper module.

The fix is to make the key change: every ``numbades`` module that contains a
``cache=True`` kernel carries one line

    _INLINED_SOURCES_SHA256 = "<hex>"

holding the SHA-256 of the numbades modules it imports, transitively (with
their own stamp lines left out, so the stamps do not depend on each other).
When an imported module changes, the stamp changes, and with it the file's
hash.  ``tests/test_kernel_cache_stamps.py`` fails when a stamp is stale;
``python tools/stamp_kernel_sources.py`` rewrites stale stamps (the two code
generators call it after writing).
"""

from __future__ import annotations

import ast
import hashlib
import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "numbades"
STAMP_NAME = "_INLINED_SOURCES_SHA256"
STAMP_LINE = re.compile(rf'^{STAMP_NAME} = "[0-9a-f]*".*\n', re.MULTILINE)
_CACHED_KERNEL = re.compile(r"\bcache\s*=\s*True\b")


def render_stamp(digest: str) -> str:
    """The stamp line for ``digest`` (as it appears in a module)."""
    return f'{STAMP_NAME} = "{digest}"  # see tools/stamp_kernel_sources.py\n'


def without_stamp(source: str) -> str:
    """``source`` with its stamp line removed."""
    return STAMP_LINE.sub("", source)


def package_imports(name: str, package: Path = PACKAGE, source: str | None = None) -> set[str]:
    """The numbades modules that module ``name`` imports directly (relative imports).

    ``source`` stands in for the module's file (a generator stamping text it
    has not written yet).
    """
    if source is None:
        source = (package / f"{name}.py").read_text()
    tree = ast.parse(source)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return {m for m in found if (package / f"{m}.py").exists()} - {name}


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
        digest.update(dep.encode() + b"\0")
        digest.update(without_stamp((package / f"{dep}.py").read_text()).encode() + b"\0")
    return digest.hexdigest()


def cached_kernel_modules(package: Path = PACKAGE) -> list[str]:
    """Names of the modules that define ``cache=True`` kernels."""
    return sorted(
        p.stem for p in package.glob("*.py") if _CACHED_KERNEL.search(p.read_text())
    )


def stale_modules(package: Path = PACKAGE) -> list[str]:
    """Cached-kernel modules whose stamp is missing or out of date."""
    stale = []
    for name in cached_kernel_modules(package):
        source = (package / f"{name}.py").read_text()
        if render_stamp(fingerprint(name, package)) not in source:
            stale.append(name)
    return stale


def restamp(package: Path = PACKAGE) -> list[str]:
    """Rewrite every stale stamp in place; returns the modules rewritten.

    A module without a stamp line is an error (the line's place in the file
    is a human decision), not something to patch in silently.
    """
    rewritten = []
    for name in stale_modules(package):
        path = package / f"{name}.py"
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
            print(f"stale: numbades/{name}.py")
        return 1 if stale else 0
    if args:
        print("usage: python tools/stamp_kernel_sources.py [--check]", file=sys.stderr)
        return 2
    for name in restamp():
        print(f"restamped numbades/{name}.py")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
