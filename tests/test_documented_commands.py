"""Every documented command runs after the install line the docs give for it.

The documents (README.md, SECURITY.md, docs/*.md, the docstrings of the
examples and of the benchmark scripts) are read as a reader would: shell
commands in code blocks, in order, each under the most recent ``pip
install`` line before it in the same document (the package alone when there
is none).  For each command this checks, statically and
without running anything, that

- every extra an install line names exists in pyproject.toml;
- the script, module or console command it runs exists;
- every module it imports, followed through the repository's own modules
  (numbades, benchmarks, tools, examples, tests), comes from the standard
  library or from a distribution that the install line brings in (the
  package's dependencies, the extras named, their requirements, and any
  package named on the line).  Imports inside ``try: ... except ImportError``
  blocks that do not re-raise are optional and not counted; so are imports
  inside functions of the modules reached by import (not of the command's
  own files): such an import (an optional solver's) is needed only when that
  function runs.

``python -m pytest`` is checked with every module under tests/ as its imports.
"""

from __future__ import annotations

import ast
import re
import shlex
import sys
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the test extra installs tomli
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "numbades"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
DOCUMENTS = [ROOT / "README.md", ROOT / "SECURITY.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted(p for p in (ROOT / "examples").glob("*.py") if p.name != "__init__.py"),
             *sorted((ROOT / "benchmarks").glob("*.py"))]
#: Console commands that stand for a distribution (the command alone is checked).
TOOL_COMMANDS = {"ruff": "ruff", "lint-imports": "import-linter", "asv": "asv",
                 "pytest": "pytest"}
_INSTALL = re.compile(r"\bpip install\b(?P<args>[^&|;#]*)")
_EXTRAS = re.compile(r"""(?:^|[\s"'])(?:\.|numbades)\[(?P<extras>[\w,\s-]+)\]""")
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=\S*$")


# ------------------------------------------------------------ reading documents


@dataclass
class Install:
    """One ``pip install`` line: the extras it names and any other packages."""

    where: str
    extras: frozenset[str] = frozenset()
    packages: frozenset[str] = frozenset()


@dataclass
class Command:
    """One documented command and the install line it runs after."""

    where: str
    argv: list[str]
    install: Install = field(default_factory=lambda: Install("(the package alone)"))


def _shell_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of the shell lines of a document, in order."""
    lines = path.read_text().splitlines()
    if path.suffix == ".py":  # a script: the command lines of its docstring
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        return [(number, line.strip()) for number, line in enumerate(doc.splitlines(), 1)
                if re.match(r"^\s*([A-Z_]+=\S+\s+)*(python|pip)\b", line)]
    shell, inside = [], None
    for number, line in enumerate(lines, 1):
        fence = re.match(r"^\s*```(\w*)", line)
        if fence:
            inside = None if inside is not None else fence.group(1)
        elif inside in ("bash", "sh", "shell", "console"):
            shell.append((number, line.strip()))
    return shell


def _install_of(text: str, where: str) -> Install:
    args = _INSTALL.search(text).group("args")
    extras = {name.strip() for match in _EXTRAS.finditer(args)
              for name in match.group("extras").split(",")}
    packages = {word for word in shlex.split(args)
                if not word.startswith("-") and not re.match(r"^(\.|numbades)(\[.*\])?$", word)}
    return Install(where, frozenset(extras), frozenset(canonicalize_name(p) for p in packages))


def documented() -> tuple[list[Install], list[Command]]:
    """Every install line and every command of the documents."""
    installs, commands = [], []
    for path in DOCUMENTS:
        current = Install("(the package alone)")
        for number, line in _shell_lines(path):
            where = f"{path.relative_to(ROOT)}:{number}"
            for part in re.split(r"&&|;", line.split(" #")[0]):
                part = part.strip()
                if _INSTALL.search(part):
                    current = _install_of(part, where)
                    installs.append(current)
                    continue
                argv = [word for word in shlex.split(part) if not _ENV.match(word)]
                if argv and argv[0] in ("python", "python3", PACKAGE, *TOOL_COMMANDS):
                    commands.append(Command(where, argv, current))
    return installs, commands


# ------------------------------------------------------------ what an install line brings


def _marker_holds(requirement: Requirement, extras: set[str]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({"extra": extra}) for extra in extras | {""})


@cache
def _installed_requirements(name: str) -> list[Requirement]:
    try:
        return [Requirement(text) for text in metadata.requires(name) or ()]
    except metadata.PackageNotFoundError:
        return []


def provided(install: Install) -> set[str]:
    """Canonical names of every distribution that ``install`` puts in place."""
    own = PYPROJECT["project"]
    todo = [Requirement(text) for text in own["dependencies"]]
    todo += [Requirement(f"{PACKAGE}[{extra}]") for extra in install.extras]
    todo += [Requirement(name) for name in install.packages]
    seen: dict[str, set[str]] = {}
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        extras = set(requirement.extras)
        if name in seen and extras <= seen[name]:
            continue
        seen.setdefault(name, set()).update(extras)
        if name == PACKAGE:
            for extra in extras:
                todo += [Requirement(text) for text in own["optional-dependencies"][extra]]
            continue
        todo += [r for r in _installed_requirements(name) if _marker_holds(r, extras)]
    return set(seen)


# ------------------------------------------------------------ what a command imports


@cache
def _distributions_of_module() -> dict[str, set[str]]:
    return {module: {canonicalize_name(d) for d in dists}
            for module, dists in metadata.packages_distributions().items()}


def _optional(handlers: list[ast.ExceptHandler]) -> bool:
    """An ``except ImportError`` (or ModuleNotFoundError) that does not re-raise."""
    for handler in handlers:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if any(isinstance(k, ast.Name) and k.id in ("ImportError", "ModuleNotFoundError")
               for k in kinds) and not any(isinstance(n, ast.Raise) for n in ast.walk(handler)):
            return True
    return False


def _skipped(node: ast.AST, functions: bool) -> bool:
    """``if TYPE_CHECKING:`` blocks always; function bodies unless ``functions``."""
    if isinstance(node, ast.If):
        return "TYPE_CHECKING" in ast.unparse(node.test)
    return not functions and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)


def _imports(tree: ast.AST, optional: bool = False, functions: bool = True):
    """(module, level, names, optional) for every import statement under ``tree``; inside
    function bodies only if ``functions``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, 0, [], optional
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", node.level, [a.name for a in node.names], optional
        elif _skipped(node, functions):
            continue
        elif isinstance(node, ast.Try) and _optional(node.handlers):
            for child in node.body:
                yield from _imports(ast.Module([child], []), True, functions)
            for child in node.handlers + node.orelse + node.finalbody:
                yield from _imports(child, optional, functions)
        else:
            yield from _imports(node, optional, functions)


def _local(dotted: str, roots: tuple[Path, ...]) -> list[Path] | None:
    """The files that importing ``dotted`` runs, if it is one of the repository's modules."""
    for root in roots:
        parts, files, here = dotted.split("."), [], root
        for i, part in enumerate(parts):
            here = here / part
            if (here / "__init__.py").is_file():
                files.append(here / "__init__.py")
            elif i == len(parts) - 1 and here.with_suffix(".py").is_file():
                files.append(here.with_suffix(".py"))
            else:
                break
        else:
            return files
    return None


def _package_of(path: Path, roots: tuple[Path, ...]) -> list[str]:
    """The dotted package ``path`` belongs to, for relative imports."""
    for root in roots:
        if root in path.parents:
            parts = list(path.relative_to(root).with_suffix("").parts)
            return parts if path.name == "__init__.py" else parts[:-1]
    raise AssertionError(f"{path} is outside {roots}")


@cache
def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text())


def third_party_imports(entries: list[Path], roots: tuple[Path, ...]) -> dict[str, str]:
    """Top-level third-party modules imported (not optionally) from ``entries``, followed
    through local modules: {module: a file that imports it}.  The entries' imports count
    wherever they are; a module reached by import counts its module-level imports only
    (a function's own import, like an optional solver's, is needed when that runs)."""
    found: dict[str, str] = {}
    done: set[Path] = set()
    todo = list(entries)
    while todo:
        path = todo.pop()
        if path in done:
            continue
        done.add(path)
        tree = _parsed(path)
        for module, level, names, optional in _imports(tree, functions=path in entries):
            if level:
                package = _package_of(path, roots)
                base = package[: len(package) - level + 1] if level > 1 else package
                module = ".".join([*base, *([module] if module else [])])
            candidates = [module] + [f"{module}.{name}" for name in names]
            local = [f for c in candidates for f in (_local(c, roots) or [])]
            if local or level:
                todo += local
                continue
            top = module.split(".")[0]
            if top not in sys.stdlib_module_names and not optional and top != "__future__":
                found.setdefault(top, str(path))
    return found


def _direct(code: str) -> tuple[list[Path], set[str]]:
    """``python -c code``: the repository's modules it imports, and the third-party ones."""
    local, third_party = [], set()
    for module, _, names, optional in _imports(ast.parse(code)):
        files = [f for c in [module] + [f"{module}.{n}" for n in names]
                 for f in (_local(c, (ROOT,)) or [])]
        top = module.split(".")[0]
        local += files
        if not files and not optional and top not in sys.stdlib_module_names:
            third_party.add(top)
    return local, third_party


def entries_of(command: Command) -> tuple[list[Path], tuple[Path, ...], set[str]]:
    """The files a command starts from, the import roots it sees, and the third-party
    modules it runs directly (``python -m <module>``, ``python -c "import ..."``)."""
    argv = command.argv
    if argv[0] in TOOL_COMMANDS or argv[:3] in (["python", "-m", "pytest"],
                                                ["python3", "-m", "pytest"]):
        if "pytest" not in argv:
            return [], (ROOT,), set()
        return sorted((ROOT / "tests").rglob("*.py")), (ROOT,), set()
    if argv[0] == PACKAGE:
        argv = ["python", "-m", PACKAGE, *argv[1:]]
    if len(argv) < 3 and argv[1:2] in ([], ["-m"], ["-c"]):
        return [], (ROOT,), set()
    if argv[1] == "-c":
        local, third_party = _direct(argv[2])
        return local, (ROOT,), third_party
    if argv[1] == "-m":
        files = _local(argv[2], (ROOT,)) or _local(argv[2] + ".__main__", (ROOT,))
        top = argv[2].split(".")[0]
        if not files and (ROOT / top).is_dir():
            raise AssertionError(f"{command.where}: no module {argv[2]} in the repository")
        if not files:  # the standard library's or a third party's (python -m venv, -m asv)
            return [], (ROOT,), set() if top in sys.stdlib_module_names | {"pip"} else {top}
        main = _local(argv[2] + ".__main__", (ROOT,))
        return files + (main or [])[-1:], (ROOT,), set()
    script = ROOT / argv[1]
    assert script.is_file(), f"{command.where}: no script {argv[1]}"
    return [script], (script.parent, ROOT), set()


def needed_distribution(module: str) -> set[str]:
    """The distributions that can provide ``module`` (its own name if none is installed)."""
    return _distributions_of_module().get(module) or {canonicalize_name(module)}


# ------------------------------------------------------------ the tests

INSTALLS, COMMANDS = documented()


def test_the_documents_hold_the_commands_this_test_checks():
    """The reader above finds the README's two set-up commands and the examples' commands."""
    argvs = [" ".join(c.argv) for c in COMMANDS]
    assert "python -m numbades opts" in argvs
    assert "python -m pytest" in argvs
    readme_pytest = next(c for c in COMMANDS if c.argv == ["python", "-m", "pytest"]
                         and c.where.startswith("README.md"))
    assert readme_pytest.install.extras == {"test", "dask"}
    assert len(INSTALLS) >= 3


def test_ci_runs_the_readme_test_command():
    """.ci/run installs what the README's test command installs and runs pytest."""
    readme = next(c for c in COMMANDS if c.argv == ["python", "-m", "pytest"]
                  and c.where.startswith("README.md"))
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "python -m pytest" in ci
    before = ci[: ci.index("python -m pytest")]
    ci_install = [_install_of(line, ".ci/run") for line in before
                  if _INSTALL.search(line.split("#")[0])][-1]
    assert ci_install.extras == readme.install.extras
    assert not ci_install.packages - {"pip"}


@pytest.mark.parametrize("install", INSTALLS, ids=lambda i: i.where)
def test_every_extra_named_exists(install):
    extras = PYPROJECT["project"]["optional-dependencies"]
    missing = sorted(install.extras - set(extras))
    assert not missing, f"{install.where}: extras {missing} are not in pyproject.toml"


def test_extras_named_in_messages_and_docstrings_exist():
    """``numbades[...]`` in the package's own messages and docstrings names real extras."""
    extras = PYPROJECT["project"]["optional-dependencies"]
    named = {(str(path.relative_to(ROOT)), extra)
             for path in (ROOT / PACKAGE).rglob("*.py")
             for match in re.finditer(r"numbades\[([\w,]+)\]", path.read_text())
             for extra in match.group(1).split(",")}
    assert named, "no numbades[...] found: the pattern is wrong"
    assert not {(where, e) for where, e in named if e not in extras}


def test_every_example_has_a_documented_command():
    examples = {p.relative_to(ROOT).as_posix()
                for p in (ROOT / "examples").glob("*.py") if p.name != "__init__.py"}
    run = {c.argv[1] for c in COMMANDS if c.argv[0].startswith("python") and c.argv[1] != "-m"}
    assert examples <= run, f"examples without a documented command: {sorted(examples - run)}"
    readme = {c.argv[1] for c in COMMANDS if c.where.startswith("README.md")
              and c.argv[0].startswith("python") and c.argv[1] != "-m"}
    assert examples <= readme, "the README gives each example's command and install line"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.where} {' '.join(c.argv[:3])}")
def test_command_runs_after_its_install_line(command):
    available = provided(command.install)
    if command.argv[0] in TOOL_COMMANDS:
        tool = canonicalize_name(TOOL_COMMANDS[command.argv[0]])
        assert tool in available, (f"{command.where}: {command.argv[0]} needs {tool}, which "
                                   f"{command.install.where} does not install")
    entries, roots, direct = entries_of(command)
    imported = third_party_imports(entries, roots) | {module: "the command" for module in direct}
    missing = {module: where for module, where in imported.items()
               if not needed_distribution(module) & available}
    assert not missing, (
        f"{command.where}: {' '.join(command.argv)} imports {sorted(missing)} "
        f"({missing}), not installed by {command.install.where} "
        f"(extras {sorted(command.install.extras)})")


def test_the_import_check_can_fail(tmp_path):
    """A script importing a package no extra provides is caught; an optional import is not."""
    script = tmp_path / "probe.py"
    script.write_text("import numpy\nimport Crypto.Cipher\n"
                      "try:\n    import passlib\nexcept ImportError:\n    passlib = None\n"
                      "try:\n    import zarr\nexcept ImportError as e:\n    raise SystemExit(e)\n")
    found = third_party_imports([script], (tmp_path, ROOT))
    assert set(found) == {"numpy", "Crypto", "zarr"}
    base = provided(Install("base"))
    assert "numpy" in base and "llvmlite" in base  # numba's own requirement, followed
    assert not needed_distribution("Crypto") & base
    assert needed_distribution("Crypto") & provided(Install("bench", frozenset({"bench"})))


def test_commands_of_every_shape_are_read():
    """``-c`` code, the standard library's and third parties' ``-m`` modules, a missing tool."""
    def command(line: str) -> Command:
        return Command("probe", shlex.split(line))

    local, _, direct = entries_of(command('python -c "import numbades, zarr; import json"'))
    assert ROOT / PACKAGE / "__init__.py" in local and direct == {"zarr"}
    assert entries_of(command("python -m venv .venv"))[::2] == ([], set())
    assert entries_of(command("python -m asv run"))[2] == {"asv"}
    with pytest.raises(AssertionError, match=r"no module tools\.no_such_tool"):
        entries_of(command("python -m tools.no_such_tool"))
    with pytest.raises(AssertionError, match="no script"):
        entries_of(command("python benchmarks/no_such_script.py"))
