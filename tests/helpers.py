"""Helpers shared by test modules (imported as ``helpers``: tests/ is on sys.path under pytest)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def console_script() -> str:
    """The installed ``readinglist`` script of the Python running the tests (next to
    ``sys.executable``, so an un-activated venv works), else the one on PATH."""
    beside = Path(sys.executable).with_name("readinglist")
    if beside.is_file():
        return str(beside)
    found = shutil.which("readinglist")
    assert found, "the readinglist console script is not installed (pip install -e .)"
    return found
