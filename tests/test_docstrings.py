"""The package's docstrings stand alone: the wheel ships numbades/, not docs/.

A docstring may point at the documentation in the source tree, but only as
an addition ("... in the numbades documentation (docs/api.md in the source
tree)"), never as a bare ``docs/api.md`` that is the only explanation.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numbades

PACKAGE = Path(numbades.__file__).parent
_MENTION = re.compile(r"docs/\w+\.md")
_ADDITION = re.compile(r"docs/\w+\.md in the source tree")


def _docstrings(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node)
            if doc:
                yield getattr(node, "name", path.stem), doc


def _bare_mentions(doc: str) -> list[str]:
    text = " ".join(doc.split())
    return [m.group() for m in _MENTION.finditer(text)
            if not _ADDITION.match(text, m.start())]


def test_docstrings_do_not_lean_on_docs_the_wheel_lacks():
    bare = [f"{path.relative_to(PACKAGE.parent)} {name}: {mention}"
            for path in sorted(PACKAGE.rglob("*.py"))
            for name, doc in _docstrings(path)
            for mention in _bare_mentions(doc)]
    assert not bare, "docstrings citing docs/ without standing alone:\n" + "\n".join(bare)


def test_the_check_tells_a_bare_reference_from_an_addition():
    assert _bare_mentions("Encrypt data (see ``docs/api.md``).") == ["docs/api.md"]
    assert _bare_mentions("Rules above; more in the numbades documentation (docs/api.md in\n"
                          "    the source tree).") == []


def test_the_package_docstring_names_every_public_name():
    """help(numbades) lists the public surface itself, not only a link to it."""
    missing = [name for name in numbades.__all__
               if name != "__version__" and name not in numbades.__doc__]
    assert not missing
