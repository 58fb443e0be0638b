"""No pattern of the package uses a possessive quantifier (``x*+``, ``x++``, ``x?+``).

CPython 3.11 before 3.11.5 matches them wrongly when the repeated part can backtrack
(CPython issues gh-100061 and gh-106052): Debian 12's python3 is 3.11.2, and there the BibTeX
reader's field pattern took ``{@`` for a closed group and ``latex_to_unicode("{")`` dropped the
brace. Atomic groups (``(?>x*)``), which the patterns use instead, say the same and match alike
on every 3.11.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import readinglist

_parser = pytest.importorskip("re._parser")
_constants = pytest.importorskip("re._constants")


def _possessive(tree) -> bool:
    for op, av in tree:
        if op == _constants.POSSESSIVE_REPEAT:
            return True
        for part in av if isinstance(av, (list, tuple)) else (av,):
            subs = part if isinstance(part, (list, tuple)) else (part,)
            if any(isinstance(sub, _parser.SubPattern) and _possessive(sub) for sub in subs):
                return True
    return False


def _patterns():
    for info in pkgutil.walk_packages(readinglist.__path__, "readinglist."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                yield f"{info.name}.{name}", value


def test_the_check_finds_a_possessive_quantifier():
    assert _possessive(_parser.parse(r"(?:a++|b)*+"))
    assert not _possessive(_parser.parse(r"(?>(?:(?>a+)|b)*)"))


def test_no_pattern_of_the_package_uses_a_possessive_quantifier():
    found = [where for where, pattern in _patterns() if _possessive(_parser.parse(pattern.pattern, pattern.flags))]
    assert len(list(_patterns())) > 100
    assert found == []
