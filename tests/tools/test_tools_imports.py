"""tools/ is a package with a core: its modules import one another by public
names only, and the imports form no cycle (tools/README.md's map)."""

from __future__ import annotations

import ast
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def _imports() -> dict[str, dict[str, set[str]]]:
    """Per tools module: the tools modules it imports (any scope, TYPE_CHECKING
    included), each with the names it takes from or through it."""
    graph: dict[str, dict[str, set[str]]] = {}
    for path in sorted(TOOLS.glob("*.py")):
        tree = ast.parse(path.read_text())
        deps: dict[str, set[str]] = {}
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "tools":
                for alias in node.names:
                    deps.setdefault(alias.name, set())
                    aliases[alias.asname or alias.name] = alias.name
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tools."):
                mod = node.module.removeprefix("tools.")
                deps.setdefault(mod, set()).update(a.name for a in node.names)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("tools."):
                        raise AssertionError(f"{path.name}: use 'from tools import ...'")
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases):
                deps[aliases[node.value.id]].add(node.attr)
        graph[path.stem] = deps
    return graph


def test_tools_take_no_private_names_from_each_other() -> None:
    for module, deps in _imports().items():
        for dep, names in deps.items():
            private = sorted(n for n in names if n.startswith("_"))
            assert not private, f"tools.{module} takes {private} from tools.{dep}"


def test_tools_imports_form_no_cycle() -> None:
    graph = {m: set(d) for m, d in _imports().items()}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join((*path, module))
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_the_core_imports_no_search_tool() -> None:
    graph = _imports()
    searches = {"gen_sbox_circuits", "gen_sbox_luts", "sbox_windows", "sbox_cgp"}
    for base in ("sbox_core", "sbox_synth", "sbox_polarity", "sbox_rewrite", "sbox_records"):
        assert not set(graph[base]) & searches, base
