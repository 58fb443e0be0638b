"""Shared fixtures: the bundled seeds and fresh stores."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, SEED_FILES
from hypothesis import settings

# No per-example deadline anywhere: a loaded CI machine must not turn a slow example into a
# "flaky" failure. The "ci" profile (.ci/run sets HYPOTHESIS_PROFILE=ci) also derandomizes, so a
# clean clone's run is repeatable; local runs keep exploring new examples.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def seed_paths() -> list[Path]:
    assert len(SEED_FILES) == 2, "the two bundled seed lists are missing"
    return SEED_FILES


@pytest.fixture(scope="session")
def seed_texts(seed_paths) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in seed_paths]


@pytest.fixture(scope="session")
def seeded_store(tmp_path_factory, seed_paths) -> Path:
    """A store of the two seed lists, imported once for the whole run: tests take a copy
    (:func:`library_copy`), never change this one."""
    from helpers import cli_in

    path = tmp_path_factory.mktemp("seeded") / "library"
    cli_in(path, "import", *seed_paths)
    return path


@pytest.fixture
def library_copy(seeded_store, tmp_path) -> Path:
    """A fresh copy of :func:`seeded_store` at ``tmp_path/library``."""
    shutil.copytree(seeded_store, tmp_path / "library")
    return tmp_path / "library"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A throw-away project folder: seeds/ and a config.toml, like the repository's."""
    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    shutil.copy(ROOT / "config.toml", tmp_path / "config.toml")
    return tmp_path


@pytest.fixture(scope="session", autouse=True)
def _private_user_folders(tmp_path_factory):
    """No test reads or writes the real user's config or default store, and store discovery
    (walking up like git) never leaves the test's temporary folders. What the CLI keeps aside in
    the temporary folder on purpose (a broken edit, notes that lost a race) lands in pytest's
    temporary folders too, not in the machine's /tmp."""
    import tempfile

    home = tmp_path_factory.mktemp("user")
    saved = {k: os.environ.get(k) for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "READINGLIST_CEILING_DIRECTORIES", "TMPDIR")}
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    os.environ["READINGLIST_CEILING_DIRECTORIES"] = str(tmp_path_factory.getbasetemp())
    os.environ["TMPDIR"] = str(tmp_path_factory.mktemp("tmp"))
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    tempfile.tempdir = None
