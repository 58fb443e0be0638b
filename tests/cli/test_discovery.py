"""The store is found as git finds a repository: from any folder of a project, then
READINGLIST_STORE, then the user's default store; `where` says which."""

from __future__ import annotations

from helpers import console_script

import os
import subprocess
from pathlib import Path


def script(*args, cwd, env=None):
    full = {k: v for k, v in os.environ.items() if k not in ("READINGLIST_STORE", "READINGLIST_CONFIG")}
    full.update(env or {})
    return subprocess.run([console_script(), *map(str, args)], cwd=cwd, env=full, capture_output=True, text=True)


def test_store_found_from_a_subfolder(tmp_path, seed_paths):
    project = tmp_path / "project"
    (project / "notes" / "deep").mkdir(parents=True)
    assert script("--store", project / "library", "import", seed_paths[1], cwd=tmp_path).returncode == 0
    out = script("where", cwd=project / "notes" / "deep")
    assert out.returncode == 0
    assert f"store:  {project / 'library'}" in out.stdout and "(built-in defaults)" in out.stdout
    listed = script("list", cwd=project / "notes" / "deep")
    assert len(listed.stdout.splitlines()) == 19


def test_config_toml_names_the_store(tmp_path, seed_paths):
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "config.toml").write_text('[store]\npath = "papers-db"\n')
    script("import", seed_paths[1], cwd=project / "sub")
    assert (project / "papers-db" / "papers").is_dir() and not (project / "sub" / "library").exists()
    out = script("where", cwd=project / "sub").stdout
    assert str(project / "papers-db") in out and str(project / "config.toml") in out


def test_environment_then_user_default(tmp_path, seed_paths):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = script("where", cwd=elsewhere, env={"READINGLIST_STORE": str(tmp_path / "envstore")}).stdout
    assert str(tmp_path / "envstore") in out and "READINGLIST_STORE" in out
    out = script("where", cwd=elsewhere).stdout
    user_data = Path(os.environ["XDG_DATA_HOME"]) / "readinglist" / "library"
    assert str(user_data) in out and "default" in out


def test_build_without_seeds_creates_nothing(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    out = script("build", cwd=empty)
    assert out.returncode == 1 and "seeds" in out.stderr and out.stderr.count("\n") == 1
    assert list(empty.iterdir()) == []


def test_the_store_found_without_config_is_the_configs_store(tmp_path, monkeypatch):
    """project.find_store (what single-paper commands use, so that they never load the
    configuration) gives the store load_config gives, or None where only a config file can
    say; an explicit config is always read."""
    from readinglist.config import load_config
    from readinglist.project import find_store

    monkeypatch.delenv("READINGLIST_STORE", raising=False)
    monkeypatch.delenv("READINGLIST_CONFIG", raising=False)
    monkeypatch.setenv("READINGLIST_CEILING_DIRECTORIES", str(tmp_path))
    bare = tmp_path / "project" / "deep"
    bare.mkdir(parents=True)
    (tmp_path / "project" / "library" / "papers").mkdir(parents=True)
    configured = tmp_path / "configured" / "sub"
    configured.mkdir(parents=True)
    (tmp_path / "configured" / "config.toml").write_text('[store]\npath = "db"\n')
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    cases = []
    for folder in (bare, configured, nowhere):
        for env in (None, str(tmp_path / "env")):
            for store in (None, "given"):
                cases.append((folder, env, store))
    known = 0
    for folder, env, store in cases:
        monkeypatch.chdir(folder)
        if env:
            monkeypatch.setenv("READINGLIST_STORE", env)
        else:
            monkeypatch.delenv("READINGLIST_STORE", raising=False)
        found = find_store(None, store=store)
        expected = load_config(None, store=store).store
        if found is not None:
            known += 1
            assert found == expected, (folder, env, store)
        else:  # only a config file (the project's, or the user's default) can say
            assert store is None and (folder == configured or (folder == nowhere and not env))
    assert known == len(cases) - 3
    monkeypatch.chdir(bare)
    assert find_store(tmp_path / "configured" / "config.toml", store="given") is None
    monkeypatch.setenv("READINGLIST_CONFIG", str(tmp_path / "configured" / "config.toml"))
    assert find_store(None, store="given") is None
