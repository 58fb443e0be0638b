"""Private means private (issue 26 item 5): no module of the package imports a ``_name`` from
another of its modules. A name used across modules is public (no underscore) or moves; the few
left below keep their underscore because their public spelling is already taken where they live,
and this list only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "readinglist"

# (importing module, name): each one's public spelling is already a different name in a module
# that would have to see both
STILL_PRIVATE = {
    ("readinglist.convert.titles.candidates", "_head"),
    ("readinglist.convert.titles.candidates", "_verbs"),
    ("readinglist.convert.titles.checks", "_head"),
    ("readinglist.convert.titles.checks", "_verbs"),
    ("readinglist.convert.titles.choice", "_words"),
    ("readinglist.convert.titles.contribution", "_gerund"),
    ("readinglist.convert.titles.contribution", "_head"),
    ("readinglist.convert.titles.contribution", "_topic"),
    ("readinglist.convert.titles.contribution", "_words"),
    ("readinglist.convert.titles.described", "_gerund"),
    ("readinglist.convert.titles.described", "_head"),
    ("readinglist.convert.titles.described", "_topic"),
    ("readinglist.convert.titles.named", "_gerund"),
    ("readinglist.convert.titles.named", "_topic"),
    ("readinglist.convert.titles.named", "_words"),
    ("readinglist.convert.titles.postedits", "_gerund"),
    ("readinglist.convert.titles.postedits", "_head"),
    ("readinglist.convert.titles.postedits", "_verbs"),
    ("readinglist.convert.titles.postedits", "_words"),
    ("readinglist.convert.titles.relations", "_head"),
    ("readinglist.convert.titles.rules", "_contribution"),
    ("readinglist.convert.titles.rules", "_head"),
    ("readinglist.convert.titles.rules", "_topic"),
    ("readinglist.convert.titles.rules", "_words"),
    ("readinglist.convert.train_title_forms", "_gerund"),
    ("readinglist.convert.train_title_forms", "_verbs"),
}


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
    new = private_imports() - STILL_PRIVATE
    assert not new, f"imported across modules with a leading underscore (make them public): {sorted(new)}"


def test_the_list_of_names_still_private_only_shrinks():
    gone = STILL_PRIVATE - private_imports()
    assert not gone, f"no longer imported across modules: remove from STILL_PRIVATE: {sorted(gone)}"
