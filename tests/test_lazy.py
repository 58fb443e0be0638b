"""lazy: a package's names imported from their submodules on first use (PEP 562)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest


@pytest.mark.parametrize("package", ["readinglist", "readinglist.store", "readinglist.text", "readinglist.formats.bibtex"])
def test_every_listed_name_is_its_submodules_object_and_others_are_attribute_errors(package):
    mod = importlib.import_module(package)
    names = getattr(mod, "_EXPORTS", None) or mod._WHERE
    for name, where in names.items():
        assert getattr(mod, name) is getattr(importlib.import_module(f"{package}.{where}"), name)
        assert name in vars(mod)  # kept: later look-ups do not come back to __getattr__
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        mod.no_such_name  # noqa: B018


def test_importing_the_packages_imports_none_of_their_submodules():
    code = ("import sys, readinglist.store, readinglist.text; "
            "print(sorted(m for m in sys.modules if m.startswith(('readinglist.store.', 'readinglist.text.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_bibtex_importer_does_not_load_the_writer():
    code = ("import sys; from readinglist.formats.bibtex import importer; "
            "print(sorted(m for m in sys.modules if m.startswith('readinglist.formats.bibtex.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = out.strip()
    assert "readinglist.formats.bibtex.reader" in loaded and "readinglist.formats.bibtex.writer" not in loaded
