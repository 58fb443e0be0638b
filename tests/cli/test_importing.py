"""Importing as people do it: a list without a header is refused before any key is given, a
folder imports its lists, the same file from another folder changes nothing, re-imports are quiet."""

from __future__ import annotations

from helpers import console_script

import os
import shutil
import subprocess


def script(*args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("READINGLIST_STORE", "READINGLIST_CONFIG")}
    return subprocess.run([console_script(), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env)


ABSTRACTS = (
    "We introduce a glimpse-based vision transformer that attends to a few image regions and reaches the "
    "accuracy of dense models at a fraction of their cost on three image classification benchmarks.\n\n"
    "We study how language models forget after fine-tuning and propose a capability-centric evaluation "
    "suite that measures drift in robustness, instruction following and default behaviours.\n"
)


def test_a_list_without_venue_or_year_is_refused(tmp_path):
    (tmp_path / "list.txt").write_text(ABSTRACTS, encoding="utf-8")
    out = script("--store", "lib", "import", "list.txt", cwd=tmp_path)
    assert out.returncode == 1
    assert out.stderr.strip() == "readinglist: error: no venue or year in list.txt: pass --venue NAME --year YYYY"
    assert not (tmp_path / "lib").exists()  # no key given, no store made
    out = script("--store", "lib", "import", "list.txt", "--venue", "ICML", "--year", "2025", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("2 added")


def test_a_folder_imports_its_lists(tmp_path, seed_paths):
    shutil.copytree(seed_paths[0].parent, tmp_path / "seeds")
    out = script("--store", "lib", "import", "seeds/", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("38 added")
    (tmp_path / "empty").mkdir()
    out = script("--store", "lib", "import", "empty", cwd=tmp_path)
    assert out.returncode == 1 and "no lists to import" in out.stderr


def test_same_file_from_another_folder_changes_nothing(tmp_path, seed_paths):
    shutil.copytree(seed_paths[0].parent, tmp_path / "seeds")
    (tmp_path / "notes" / "deep").mkdir(parents=True)
    assert script("--store", "lib", "import", "seeds", cwd=tmp_path).returncode == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "lib" / "papers").iterdir()}
    assert 'file = "seeds/' in before["canvit2026.toml"].decode()
    out = script("--store", "../../lib", "import", "../../seeds", cwd=tmp_path / "notes" / "deep")
    assert out.returncode == 0 and "38 unchanged" in out.stdout and out.stderr == ""
    assert {p.name: p.read_bytes() for p in (tmp_path / "lib" / "papers").iterdir()} == before


def test_reimport_after_a_hand_rename_is_quiet(tmp_path, seed_paths):
    assert script("--store", "lib", "import", seed_paths[1], cwd=tmp_path).returncode == 0
    paper = next((tmp_path / "lib" / "papers").glob("*.toml"))
    key = paper.stem
    paper.write_text(paper.read_text(encoding="utf-8").replace(f'key = "{key}"', 'key = "mine2026"', 1), encoding="utf-8")
    out = script("--store", "lib", "import", seed_paths[1], cwd=tmp_path)
    assert out.returncode == 0 and "duplicate" not in out.stderr and "0 added" in out.stdout
    assert script("--store", "lib", "show", "mine2026", cwd=tmp_path).returncode == 0
