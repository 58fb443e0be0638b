"""The store in git: two people mark and annotate different papers on two clones and merge."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from helpers import generated_records

from readinglist.record import Record
from readinglist.store.library import Store

pytestmark = [
    pytest.mark.tools,
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]


def git(cwd: Path, *args: str) -> str:
    env_args = ["-c", "user.name=Reader", "-c", "user.email=reader@example.org", "-c", "init.defaultBranch=main"]
    proc = subprocess.run(["git", *env_args, *args], cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stdout}{proc.stderr}"
    return proc.stdout


def _records() -> list[Record]:
    return generated_records(8)


def test_two_clones_marking_different_papers_merge_without_conflicts(tmp_path):
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q")
    Store.open(origin / "library", clock=lambda: "2026-11-30T06:00:00Z").import_records(_records())
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "reading list")
    shared = tmp_path / "shared.git"  # what both push to and pull from
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(shared))
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    git(tmp_path, "clone", "-q", str(shared), str(ann))
    git(tmp_path, "clone", "-q", str(shared), str(bob))

    a = Store.open(ann / "library", clock=lambda: "2026-12-01T09:00:00Z")
    a.set_status("paper1", "read")
    a.set_note("paper1", "Ann: the ablation in section 4 is the key result.")
    a.rate("paper1", 5)
    a.add_tags("paper6", ["group-meeting"])
    assert a.find(status="read")  # builds the cache, which git must not see
    assert git(ann, "status", "--porcelain").splitlines() == [
        " M library/papers/paper1.toml",
        " M library/papers/paper6.toml",
    ]
    git(ann, "commit", "-q", "-am", "ann read paper1")
    git(ann, "push", "-q", "origin", "main")

    b = Store.open(bob / "library", clock=lambda: "2026-12-01T10:00:00Z")
    b.set_status("paper2", "reading")
    b.set_note("paper2", "Bob: compare with our glimpse policy.")
    b.set_priority("paper5", 1)
    b.remove_tags("paper7", ["llm"])
    git(bob, "commit", "-q", "-am", "bob started paper2")
    git(bob, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")  # a real three-way merge
    assert "Merge" in git(bob, "log", "-1", "--format=%s")
    assert git(bob, "diff", "--name-only", "--diff-filter=U") == ""  # no conflicts

    merged = Store.open(bob / "library")
    p1, p2 = merged.get("paper1"), merged.get("paper2")
    assert (p1.status, p1.rating, p1.notes) == ("read", 5, "Ann: the ablation in section 4 is the key result.")
    assert (p2.status, p2.notes) == ("reading", "Bob: compare with our glimpse policy.")
    assert merged.get("paper5").priority == 1 and merged.get("paper6").user_tags == ("group-meeting",)
    assert merged.get("paper7").record.tags == ()
    assert [p.key for p in merged.find(status="unread")] == ["paper0", "paper3", "paper4", "paper5", "paper6", "paper7"]
    for path in (bob / "library" / "papers").glob("*.toml"):
        tomllib.loads(path.read_text(encoding="utf-8"))  # every merged file is valid TOML
    assert git(bob, "status", "--porcelain") == ""


def test_marking_one_paper_is_a_small_git_diff(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    store = Store.open(repo / "library", clock=lambda: "2026-11-30T06:00:00Z")
    store.import_records(_records())
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "list")
    store.set_status("paper3", "read")
    stat = git(repo, "diff", "--numstat").split()
    assert stat == ["2", "1", "library/papers/paper3.toml"]  # status line + one history line
