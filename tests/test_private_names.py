"""Private means private (issue 26 item 5): no module of the package imports a ``_name`` from
another of its modules. A name used across modules is public (no underscore) or moves."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "readinglist"



def _module(path: Path) -> list[str]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def private_imports() -> set[tuple[str, str]]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        here = _module(path)
        package = here if path.name == "__init__.py" else here[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level == 0 and not (node.module or "").startswith("readinglist"):
                continue  # another package's private name is its business (tomlkit's, say)
            source = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else [])) if node.level else node.module
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and source != ".".join(here):
                    found.add((".".join(here), alias.name))
    return found


def test_no_module_imports_another_ones_private_name():
    found = private_imports()
    assert not found, f"imported across modules with a leading underscore (make them public): {sorted(found)}"

