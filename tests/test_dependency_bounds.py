"""The dependency policy (README, "Dependency bounds"): a dependency whose internals the code uses
is bounded above by the last release the tests have passed on, so a fresh install cannot float
into a release that removed them (tomlkit 0.15.3 removed Container._insert_after)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: dependency -> where the code reaches into its internals
INTERNALS_USED = {
    "tomlkit": "readinglist/store/paperfile.py",
    "typer": "readinglist/cli/root.py",
}


def _requirements() -> dict[str, str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    found = {}
    for dep in deps:
        name = re.match(r"[A-Za-z0-9_.-]+", dep).group(0).lower()  # type: ignore[union-attr]
        found[name] = dep[len(name) :]
    return found


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def test_every_dependency_whose_internals_are_used_is_bounded_by_a_tested_release():
    specs = _requirements()
    for name, where in INTERNALS_USED.items():
        assert name in specs, f"{name} is no longer a dependency: drop it from INTERNALS_USED"
        assert (ROOT / where).read_text(encoding="utf-8").count(name) > 0, where
        upper = re.search(r"<=\s*([0-9][0-9.]*)", specs[name])
        assert upper, f"{name}{specs[name]}: bound it with <= the last release tested"
        assert not re.search(r"<(?!=)", specs[name]), f"{name}{specs[name]}: '<' admits untested patch releases"


def test_the_installed_releases_are_inside_the_bounds():
    specs = _requirements()
    for name in INTERNALS_USED:
        installed = _release(metadata.version(name))
        upper = _release(re.search(r"<=\s*([0-9][0-9.]*)", specs[name]).group(1))  # type: ignore[union-attr]
        lower = re.search(r">=\s*([0-9][0-9.]*)", specs[name])
        assert installed <= upper, (name, installed, upper)
        assert lower is None or installed >= _release(lower.group(1)), (name, installed)
