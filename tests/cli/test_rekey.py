"""rekey OLD NEW, and rm with curated lists: the file, the state, the lists and a re-import follow."""

from __future__ import annotations

import json

import pytest
from helpers import cli_in

run = cli_in  # tests/helpers.py


@pytest.fixture
def store(library_copy):
    return library_copy


def shown(store, key) -> dict:
    return json.loads(run(store, "show", key, "--json").output)


def names(store) -> set[str]:
    return {p.name for p in (store / "papers").glob("*.toml")}


def test_rekey_renames_the_file_keeps_the_state_and_the_lists_follow(store, seed_paths):
    run(store, "mark", "read", "canvit2026")
    run(store, "note", "canvit2026", "-m", "saccades")
    run(store, "rate", "canvit2026", "4")
    run(store, "lists", "new", "week1")
    run(store, "lists", "add", "week1", "captrack2026", "canvit2026", "--comment", "start here")
    before = shown(store, "canvit2026")

    out = run(store, "rekey", "canvit2026", "smith2026canvit").output
    assert "smith2026canvit" in out and "week1" in out
    after = shown(store, "smith2026canvit")
    assert after["key"] == "smith2026canvit"
    for field in ("status", "notes", "rating", "history", "title", "abstract", "tags"):
        assert after.get(field) == before.get(field), field
    assert "smith2026canvit.toml" in names(store) and "canvit2026.toml" not in names(store)
    run(store, "show", "canvit2026", ok=False)
    listed = run(store, "lists", "show", "week1").output
    assert "smith2026canvit" in listed and "canvit2026 " not in listed
    assert "smith2026canvit" in (store / "lists" / "week1.toml").read_text(encoding="utf-8")

    # a re-import of the list the paper came from finds it under its new key
    summary = run(store, "import", *seed_paths).output
    assert " 0 added" in " " + summary and "canvit2026" not in {p["key"] for p in map(json.loads, run(store, "list", "--json").output.splitlines())}


def test_rekey_refuses_a_taken_or_invalid_key_and_changes_nothing(store):
    files = {p.name: p.read_bytes() for p in (store / "papers").glob("*.toml")}
    assert "captrack2026" in run(store, "rekey", "canvit2026", "captrack2026", ok=False).output
    assert "keys differ in case only" in run(store, "rekey", "canvit2026", "CapTrack2026", ok=False).output
    assert "not ' '" in run(store, "rekey", "canvit2026", "bad key", ok=False).output
    assert "nosuchkey" in run(store, "rekey", "nosuchkey", "x2026", ok=False).output
    assert {p.name: p.read_bytes() for p in (store / "papers").glob("*.toml")} == files


def test_a_change_of_case_only_keeps_the_file_name(store):
    run(store, "rekey", "canvit2026", "CanViT2026")
    assert shown(store, "CanViT2026")["key"] == "CanViT2026"
    assert "canvit2026.toml" in names(store) and not any(n.startswith("CanViT2026") for n in names(store))


def test_rm_says_which_curated_lists_lose_the_paper_and_leaves_no_dangling_entry(store):
    run(store, "lists", "new", "week1")
    run(store, "lists", "add", "week1", "captrack2026", "canvit2026")
    refused = run(store, "rm", "canvit2026", ok=False).output
    assert "week1" in refused and "--yes" in refused
    assert "canvit2026" in (store / "lists" / "week1.toml").read_text(encoding="utf-8")
    out = run(store, "rm", "canvit2026", "--yes").output
    assert "removed 1 paper" in out and "week1" in out
    text = (store / "lists" / "week1.toml").read_text(encoding="utf-8")
    assert "canvit2026" not in text and "captrack2026" in text
    assert "missing" not in run(store, "lists").output
