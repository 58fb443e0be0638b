"""The merge driver with real git: two clones of a bare repository, ``readinglist git-setup`` in
each, changes on both sides and a real ``git merge``, in both orders."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import console_script, generated_records
from readinglist.record import Record
from readinglist.store import lists
from readinglist.store.library import Store

pytestmark = [
    pytest.mark.tools,
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]

GIT_ENV = ["-c", "user.name=Reader", "-c", "user.email=reader@example.org", "-c", "init.defaultBranch=main"]


def git(cwd: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", *GIT_ENV, *args], cwd=cwd, capture_output=True, text=True)
    if ok:
        assert proc.returncode == 0, f"git {' '.join(args)}: {proc.stdout}{proc.stderr}"
    return proc


def cli(store: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "READINGLIST_CONFIG": ""}
    return subprocess.run([console_script(), "--store", str(store), *args], capture_output=True, text=True, env=env)


def _records(n: int = 4) -> list[Record]:
    return generated_records(n, words=30)


def clones(tmp_path: Path, *, setup: bool = True, prepare=None) -> tuple[Path, Path]:
    """Two clones (ann, bob) of a bare repository holding a store of four papers and a list
    ``week`` (its section "Start here" holds paper0), each set up with git-setup."""
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q")
    store = Store.open(origin / "library", clock=lambda: "2026-11-30T06:00:00Z")
    store.import_records(_records())
    lists.create(store, "week", title="Week 12")
    lists.add(store, "week", ["paper0"], section="Start here")
    lists.create(store, "other", title="Another list")
    lists.add(store, "other", ["paper1", "paper2"])
    if prepare:
        prepare(store)
    if setup:  # the .gitattributes is committed with the store
        done = cli(origin / "library", "git-setup")
        assert done.returncode == 0, done.stderr
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "reading list")
    shared = tmp_path / "shared.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(shared))
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    for clone in (ann, bob):
        git(tmp_path, "clone", "-q", str(shared), str(clone))
        if setup:
            done = cli(clone / "library", "git-setup")
            assert done.returncode == 0, done.stderr
    return ann, bob


def branches(tmp_path, change_ann, change_bob, **kw) -> tuple[Path, Path]:
    """Ann's change pushed; Bob's change committed, not merged yet."""
    ann, bob = clones(tmp_path, **kw)
    change_ann(Store.open(ann / "library", clock=lambda: "2026-12-01T09:00:00Z"))
    git(ann, "commit", "-q", "-am", "ann")
    git(ann, "push", "-q", "origin", "main")
    change_bob(Store.open(bob / "library", clock=lambda: "2026-12-01T10:00:00Z"))
    git(bob, "commit", "-q", "-am", "bob")
    git(bob, "push", "-q", "origin", "main:bob")
    return ann, bob


def merge(clone: Path, branch: str) -> subprocess.CompletedProcess:
    git(clone, "fetch", "-q", "origin")
    return git(clone, "merge", "--no-edit", f"origin/{branch}", ok=False)


def rate(store):
    store.rate("paper1", 5)


def tag(store):
    store.add_tags("paper1", ["group-meeting"])


def test_without_the_driver_rate_and_tag_on_one_paper_conflict(tmp_path):
    """What the driver is for: git's line merge cannot merge these adjacent changes."""
    ann, bob = branches(tmp_path, rate, tag, setup=False)
    assert merge(bob, "main").returncode != 0
    assert "library/papers/paper1.toml" in git(bob, "diff", "--name-only", "--diff-filter=U").stdout
    # git's own markers (labels HEAD and origin/main) are named too, not "not valid TOML"
    shown = cli(bob / "library", "show", "paper1")
    assert "unresolved git merge conflict in paper paper1: [state] tags, [state] rating (none or 5)" in shown.stderr, shown.stderr


def test_git_own_diff3_markers_are_named(tmp_path):
    ann, bob = branches(tmp_path, rate, tag, setup=False)
    git(bob, "config", "merge.conflictStyle", "diff3")
    assert merge(bob, "main").returncode != 0
    text = (bob / "library" / "papers" / "paper1.toml").read_text(encoding="utf-8")
    assert "|||||||" in text
    shown = cli(bob / "library", "show", "paper1")
    assert "merge conflict in paper paper1: [state] tags, [state] rating (none or 5)" in shown.stderr, shown.stderr


@pytest.mark.parametrize("order", ["bob merges ann", "ann merges bob"])
def test_rate_and_tag_on_one_paper_merge_in_either_order(tmp_path, order):
    ann, bob = branches(tmp_path, rate, tag)
    here, other = (bob, "main") if order == "bob merges ann" else (ann, "bob")
    done = merge(here, other)
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(here, "diff", "--name-only", "--diff-filter=U").stdout == ""
    paper = Store.open(here / "library").get("paper1")
    assert paper.rating == 5 and paper.user_tags == ("group-meeting",)
    assert paper.history == Store.open(tmp_path / "origin" / "library").get("paper1").history
    git(here, "diff", "--quiet", "HEAD")  # nothing left to commit


def test_both_orders_give_the_same_file(tmp_path):
    def ann_side(s):
        rate(s)
        s.set_status("paper1", "read")
        s.set_note("paper1", "Ann: section 4.")

    def bob_side(s):
        tag(s)
        s.set_status("paper1", "reading")  # later (10:00) than ann's (09:00)
        s.set_priority("paper1", 1)

    ann, bob = branches(tmp_path, ann_side, bob_side)
    assert merge(bob, "main").returncode == 0
    assert merge(ann, "bob").returncode == 0
    texts = [(c / "library" / "papers" / "paper1.toml").read_text(encoding="utf-8") for c in (ann, bob)]
    assert texts[0] == texts[1]
    paper = Store.open(ann / "library").get("paper1")
    assert paper.status == "reading"  # the later status event wins
    assert [e.event for e in paper.history] == ["added", "finished", "started"]
    assert (paper.rating, paper.priority, paper.user_tags, paper.notes) == (5, 1, ("group-meeting",), "Ann: section 4.")


def test_notes_appended_on_both_sides_keep_both(tmp_path):
    def base(s):
        s.set_note("paper2", "First line.")

    ann, bob = clones(tmp_path, prepare=base)
    Store.open(ann / "library").set_note("paper2", "Ann's line.", append=True)
    git(ann, "commit", "-q", "-am", "ann")
    git(ann, "push", "-q", "origin", "main")
    Store.open(bob / "library").set_note("paper2", "Bob's line.", append=True)
    git(bob, "commit", "-q", "-am", "bob")
    assert merge(bob, "main").returncode == 0
    # ours (bob's, the branch merged into) first, then theirs
    assert Store.open(bob / "library").get("paper2").notes == "First line.\n\nBob's line.\n\nAnn's line."


def test_two_appends_to_one_section_of_a_list_keep_both(tmp_path):
    ann, bob = branches(
        tmp_path,
        lambda s: lists.add(s, "week", ["paper1"], section="Start here", comment="Ann's pick"),
        lambda s: lists.add(s, "week", ["paper3"], section="Start here"),
    )
    done = merge(bob, "main")
    assert done.returncode == 0, done.stdout + done.stderr
    store = Store.open(bob / "library")
    week = lists.load(store, "week")
    assert [(s.title, [e.key for e in s.entries]) for s in week.sections] == [("Start here", ["paper0", "paper3", "paper1"])]
    assert week.entries[2].comment == "Ann's pick"


def test_without_the_driver_two_appends_to_a_list_conflict(tmp_path):
    ann, bob = branches(
        tmp_path,
        lambda s: lists.add(s, "week", ["paper1"], section="Start here"),
        lambda s: lists.add(s, "week", ["paper3"], section="Start here"),
        setup=False,
    )
    assert merge(bob, "main").returncode != 0


def test_a_true_conflict_in_the_notes_is_named_and_the_rest_works(tmp_path):
    def base(s):
        s.set_note("paper1", "Method: glimpses.\nResult: good.")

    ann, bob = clones(tmp_path, prepare=base)
    a = Store.open(ann / "library", clock=lambda: "2026-12-01T09:00:00Z")
    a.set_note("paper1", "Method: glimpses.\nResult: strong on ImageNet.")
    a.rate("paper2", 4)
    git(ann, "commit", "-q", "-am", "ann")
    git(ann, "push", "-q", "origin", "main")
    b = Store.open(bob / "library", clock=lambda: "2026-12-01T10:00:00Z")
    b.set_note("paper1", "Method: glimpses.\nResult: weak on COCO.")
    b.add_tags("paper1", ["to-discuss"])
    git(bob, "commit", "-q", "-am", "bob")
    done = merge(bob, "main")
    assert done.returncode != 0
    assert "paper1.toml: conflict in [state] notes" in done.stderr
    assert git(bob, "diff", "--name-only", "--diff-filter=U").stdout.split() == ["library/papers/paper1.toml"]
    text = (bob / "library" / "papers" / "paper1.toml").read_text(encoding="utf-8")
    assert text.count("<<<<<<< ours") == 1 and "strong on ImageNet" in text and "weak on COCO" in text
    assert 'tags = ["to-discuss"]' in text  # what merged cleanly is merged

    shown = cli(bob / "library", "show", "paper1")
    assert shown.returncode == 1
    assert "paper1.toml:" in shown.stderr and "merge conflict in paper paper1: [state] notes" in shown.stderr
    assert "not valid TOML" not in shown.stderr
    listed = cli(bob / "library", "list")
    assert listed.returncode == 0 and "paper2" in listed.stdout and "paper1" not in listed.stdout
    assert "merge conflict in paper paper1" in listed.stderr
    assert Store.open(bob / "library").get("paper2").rating == 4  # the other file merged

    # the person keeps one side (here: ours) and the store reads it again
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("<<<<<<<"))
    mid = next(i for i, line in enumerate(lines) if line.startswith("======="))
    end = next(i for i, line in enumerate(lines) if line.startswith(">>>>>>>"))
    resolved = lines[:start] + lines[start + 1 : mid] + lines[end + 1 :]
    (bob / "library" / "papers" / "paper1.toml").write_text("".join(resolved), encoding="utf-8")
    paper = Store.open(bob / "library").get("paper1")
    assert paper.notes == "Method: glimpses.\nResult: weak on COCO." and paper.user_tags == ("to-discuss",)


def test_two_different_ratings_without_a_later_event_are_a_true_conflict(tmp_path):
    ann, bob = branches(tmp_path, lambda s: s.rate("paper1", 2), lambda s: s.rate("paper1", 5))
    assert merge(bob, "main").returncode != 0
    shown = cli(bob / "library", "show", "paper1")
    assert "merge conflict in paper paper1: [state] rating (5 or 2)" in shown.stderr


def test_a_conflicted_list_is_named_and_never_stops_the_others(tmp_path):
    ann, bob = branches(
        tmp_path,
        lambda s: lists.set_comment(s, "week", "paper0", "read §3"),
        lambda s: lists.set_comment(s, "week", "paper0", "skip §3"),
    )
    done = merge(bob, "main")
    assert done.returncode != 0 and "week.toml: conflict in the comment of paper0" in done.stderr
    overview = cli(bob / "library", "lists")
    assert overview.returncode == 0
    assert "other" in overview.stdout and "Another list" in overview.stdout
    assert "lists/week.toml:" in overview.stderr and "merge conflict in list week: the entry of paper0 in section 'Start here'" in overview.stderr
    assert "not valid TOML" not in overview.stderr
    show = cli(bob / "library", "lists", "show", "week")
    assert show.returncode == 1 and "merge conflict in list week" in show.stderr
    other = cli(bob / "library", "lists", "show", "other")
    assert other.returncode == 0 and "paper1" in other.stdout
    exported = cli(bob / "library", "export", "-f", "markdown", "--list", "other")
    assert exported.returncode == 0 and "Another list" in exported.stdout


def test_git_setup_is_idempotent_and_keeps_other_attributes(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    Store.open(repo / "library").import_records(_records(1))
    (repo / "library" / ".gitattributes").write_text("*.pdf binary\n", encoding="utf-8")
    first = cli(repo / "library", "git-setup")
    assert first.returncode == 0 and "set up:" in first.stdout
    second = cli(repo / "library", "git-setup")
    assert second.returncode == 0 and "set up already" in second.stdout
    attributes = (repo / "library" / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert attributes[0] == "*.pdf binary"
    assert attributes.count("papers/*.toml merge=readinglist") == 1 and attributes.count("lists/*.toml merge=readinglist") == 1
    checked = git(repo, "check-attr", "merge", "library/papers/paper0.toml", "library/lists/x.toml").stdout
    assert checked.count(": merge: readinglist") == 2
    driver = git(repo, "config", "--get", "merge.readinglist.driver").stdout
    assert "merge-file %O %A %B %P" in driver


def test_git_setup_outside_a_repository_is_one_line(tmp_path):
    Store.open(tmp_path / "library").import_records(_records(1))
    done = cli(tmp_path / "library", "git-setup")
    assert done.returncode == 1 and "not in a git repository" in done.stderr and len(done.stderr.splitlines()) == 1
