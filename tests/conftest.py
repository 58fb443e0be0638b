"""Shared fixtures: the bundled seeds and fresh stores."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ROOT, SEED_FILES


@pytest.fixture(scope="session")
def seed_paths() -> list[Path]:
    assert len(SEED_FILES) == 2, "the two bundled seed lists are missing"
    return SEED_FILES


@pytest.fixture(scope="session")
def seed_texts(seed_paths) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in seed_paths]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A throw-away project folder: seeds/ and a config.toml, like the repository's."""
    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    shutil.copy(ROOT / "config.toml", tmp_path / "config.toml")
    return tmp_path

