"""Commands that change the library: all-or-nothing on several keys, bulk by filter with
--dry-run, the tag KEY KEY guard, next, rm, edit and open."""

from __future__ import annotations

import json

import pytest


from helpers import cli_in



run = cli_in  # tests/helpers.py


def papers(store, *args) -> dict[str, dict]:
    return {p["key"]: p for p in map(json.loads, run(store, "list", "--json", *args).output.splitlines())}


@pytest.fixture
def store(library_copy):
    return library_copy


def files(store) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in (store / "papers").glob("*.toml")}


def test_mark_checks_every_key_first(store):
    before = files(store)
    result = run(store, "mark", "read", "canvit2026", "good", "bad", ok=False)
    assert "good" in result.output and "bad" in result.output and "nothing changed" in result.output
    assert "canvit2026: read" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert files(store) == before


def test_mark_by_filter_with_dry_run_and_count(store):
    llm = papers(store, "--tag", "llm")
    before = files(store)
    dry = run(store, "mark", "read", "--tag", "llm", "--dry-run").output
    assert f"would mark {len(llm)} papers read" in dry and files(store) == before
    done = run(store, "mark", "read", "--tag", "llm").output
    assert f"marked {len(llm)} papers read" in done
    assert {k for k, p in papers(store).items() if p["status"] == "read"} == set(llm)
    again = run(store, "mark", "read", "--tag", "llm").output
    assert f"marked 0 papers read ({len(llm)} already were)" in again
    run(store, "mark", "read", "canvit2026", "--tag", "llm", ok=False)  # keys or filters, not both
    run(store, "mark", "read", ok=False)  # neither


def test_tag_by_filter_and_several_keys(store):
    unread = papers(store, "--status", "unread")
    out = run(store, "tag", "--status", "unread", "to-triage").output
    assert f"tagged {len(unread)} papers" in out
    assert all("to-triage" in p["user_tags"] for p in papers(store, "--status", "unread").values())
    run(store, "tag", "--key", "canvit2026", "--key", "captrack2026", "group-meeting")
    assert set(papers(store, "--tag", "group-meeting")) == {"canvit2026", "captrack2026"}
    out = run(store, "tag", "--tag", "group-meeting", "--remove", "group-meeting", "--dry-run").output
    assert "would untag 2 papers" in out


def test_tag_refuses_a_key_as_a_tag(store):
    before = files(store)
    result = run(store, "tag", "canvit2026", "captrack2026", ok=False)
    assert "captrack2026" in result.output and "--key" in result.output
    assert files(store) == before
    result = run(store, "tag", "--remove", "canvit2026", "captrack2026", ok=False)  # untag two papers?
    assert "captrack2026" in result.output and "--remove" in result.output
    assert files(store) == before


def test_next_is_by_priority_then_age(store):
    run(store, "priority", "captrack2026", "1")
    run(store, "priority", "canvit2026", "2")
    run(store, "mark", "read", "adaptivedefinition2026")
    keys = [line.split("\t")[0] for line in run(store, "next", "--limit", "4").output.splitlines()]
    assert keys[:2] == ["captrack2026", "canvit2026"] and len(keys) == 4
    assert "adaptivedefinition2026" not in run(store, "next", "--limit", "100").output


def test_rm_needs_yes_off_a_terminal(store):
    before = files(store)
    result = run(store, "rm", "canvit2026", ok=False)
    assert "--yes" in result.output and files(store) == before
    run(store, "rm", "canvit2026", "nosuchkey", "--yes", ok=False)
    assert files(store) == before
    assert "removed 2 papers" in run(store, "rm", "canvit2026", "captrack2026", "--yes").output
    assert "canvit2026" not in papers(store) and len(papers(store)) == 36


def test_edit_validates_before_saving(store, tmp_path):
    good = tmp_path / "good.sh"
    good.write_text("#!/bin/sh\nsed -i '0,/^title = .*/s//title = \"Edited by hand\"/' \"$1\"\n")
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/bin/sh\necho 'broken = [' >> \"$1\"\n")
    for script in (good, bad):
        script.chmod(0o755)
    assert "canvit2026: saved" in run(store, "edit", "canvit2026", env={"VISUAL": str(good)}).output
    assert papers(store)["canvit2026"]["title"] == "Edited by hand"
    before = files(store)
    result = run(store, "edit", "canvit2026", env={"VISUAL": str(bad)}, ok=False)
    assert "not valid TOML" in result.output and "kept in" in result.output
    kept = result.output.split("kept in ")[1].strip()
    assert "broken = [" in open(kept, encoding="utf-8").read()
    assert files(store) == before


def test_open_says_plainly_when_there_is_no_url(store, tmp_path):
    result = run(store, "open", "canvit2026", ok=False)
    assert "no URL or DOI" in result.output
    paper = store / "papers" / "canvit2026.toml"
    paper.write_text(paper.read_text(encoding="utf-8").replace('year = 2026\n', 'year = 2026\ndoi = "10.1/xyz"\n', 1), encoding="utf-8")
    assert run(store, "open", "canvit2026", "--print").output.strip() == "https://doi.org/10.1/xyz"
    log = tmp_path / "opened"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {log}\n')
    browser.chmod(0o755)
    run(store, "open", "canvit2026", env={"BROWSER": str(browser)})
    assert log.read_text().strip() == "https://doi.org/10.1/xyz"


def test_status_is_repeatable_and_any_of_them_matches(store):
    run(store, "mark", "reading", "canvit2026")
    run(store, "mark", "read", "captrack2026")
    both = set(papers(store, "--status", "reading", "--status", "read"))
    assert both == {"canvit2026", "captrack2026"}
    assert set(papers(store, "-s", "read")) == {"captrack2026"}
    assert len(papers(store, "-s", "unread", "-s", "read")) == len(papers(store)) - 1
    # the other commands that take list's filters read it the same way
    out = run(store, "mark", "skipped", "--status", "reading", "--status", "read", "--dry-run").output
    assert "would mark 2 papers skipped" in out
    exported = run(store, "export", "-f", "csljson", "-s", "reading", "-s", "read").output
    assert sorted(item["id"] for item in json.loads(exported)) == ["canvit2026", "captrack2026"]
    assert "bogus" in run(store, "list", "-s", "read", "-s", "bogus", ok=False).output


def test_tag_rename_renames_a_tag_on_every_paper_and_a_reimport_does_not_bring_it_back(store, seed_paths):
    run(store, "tag", "canvit2026", "LLM-adjacent", "to-read")
    had = set(papers(store, "--tag", "llm"))
    assert len(had) >= 2
    dry = run(store, "tag", "--rename", "LLM", "large-language-models", "--dry-run").output
    assert f"on {len(had)} papers" in dry and set(papers(store, "--tag", "llm")) == had
    run(store, "tag", "--rename", "llm", "large-language-models")
    assert not papers(store, "--tag", "llm") and set(papers(store, "--tag", "large-language-models")) == had
    assert "LLM-adjacent" in json.loads(run(store, "show", "canvit2026", "--json").output)["user_tags"]
    run(store, "import", *seed_paths)
    assert not papers(store, "--tag", "llm"), "a re-import brought the old tag back"
    assert "OLD NEW" in run(store, "tag", "--rename", "llm", ok=False).output
    assert "OLD NEW" in run(store, "tag", "--rename", "a", "b", "--tag", "x", ok=False).output


def test_a_broken_edit_is_kept_and_can_be_resumed_or_discarded(store, tmp_path):
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/bin/sh\nsed -i 's/^title = .*/title = \"Half done/' \"$1\"\necho 'broken = [' >> \"$1\"\n")
    fix = tmp_path / "fix.sh"
    fix.write_text("#!/bin/sh\nsed -i -e '/^broken = \\[/d' -e 's/^title = \"Half done$/title = \"Half done, now whole\"/' \"$1\"\n")
    touch = tmp_path / "touch.sh"
    touch.write_text("#!/bin/sh\nsed -i 's/^title = .*/title = \"From the file\"/' \"$1\"\n")
    for script in (bad, fix, touch):
        script.chmod(0o755)
    before = files(store)
    failed = run(store, "edit", "canvit2026", env={"VISUAL": str(bad)}, ok=False).output
    assert "--resume" in failed and files(store) == before
    # off a terminal, a kept edit is neither lost nor silently resumed
    waiting = run(store, "edit", "canvit2026", env={"VISUAL": str(touch)}, ok=False).output
    assert "--resume" in waiting and "--discard" in waiting and files(store) == before
    # --resume goes on with the broken text (the half-made title is still there) and saves it
    assert "canvit2026: saved" in run(store, "edit", "canvit2026", "--resume", env={"VISUAL": str(fix)}).output
    assert papers(store)["canvit2026"]["title"] == "Half done, now whole"
    assert "no broken edit" in run(store, "edit", "canvit2026", "--resume", env={"VISUAL": str(fix)}, ok=False).output
    # --discard starts from the file again
    run(store, "edit", "canvit2026", env={"VISUAL": str(bad)}, ok=False)
    run(store, "edit", "canvit2026", "--discard", env={"VISUAL": str(touch)})
    assert papers(store)["canvit2026"]["title"] == "From the file"
    assert "no broken edit" in run(store, "edit", "canvit2026", "--resume", ok=False).output


def test_next_with_a_limit_is_the_head_of_the_whole_order(store):
    """next sorts and cuts in the query: -n K must be the first K of the whole order, with ties
    (same priority, same age) broken the same way."""
    for i, key in enumerate(sorted(papers(store))[:12]):
        run(store, "priority", key, str(1 + i % 3))
        if i % 4 == 0:
            run(store, "mark", "reading", key)
    whole = [line.split("\t")[0] for line in run(store, "next", "--limit", "1000").output.splitlines()]
    assert len(whole) == len(papers(store, "--status", "unread", "--status", "reading"))
    for k in (0, 1, 5, 13, 30):
        head = [line.split("\t")[0] for line in run(store, "next", "--limit", str(k)).output.splitlines()]
        assert head == whole[:k]
        as_json = [json.loads(line)["key"] for line in run(store, "next", "--limit", str(k), "--json").output.splitlines()]
        assert as_json == whole[:k]


def test_next_prints_what_list_prints_of_the_same_papers(store):
    """next is list --status reading --status unread --sort next: its JSON lines and its piped
    lines are list's, field for field."""
    for i, key in enumerate(sorted(papers(store))[:9]):
        run(store, "priority", key, str(1 + i % 3))
        if i % 3 == 0:
            run(store, "mark", "reading", key)
    run(store, "mark", "read", sorted(papers(store))[10])
    as_list = ["list", "--status", "reading", "--status", "unread", "--sort", "next"]
    waiting = len(papers(store, "--status", "reading", "--status", "unread"))
    for k in ("0", "4", "1000"):
        for extra in ((), ("--json",)):
            shown = run(store, "next", "--limit", k, *extra).output.splitlines()
            listed = run(store, *as_list, "--limit", k, *extra).output.splitlines()
            assert shown == listed and len(shown) == min(int(k), waiting)


@pytest.mark.parametrize("command, unchanged", [(("note", "canvit2026"), "notes unchanged"), (("edit", "canvit2026"), "nothing written")])
def test_an_editor_that_cannot_start_or_fails_is_one_line_for_note_and_edit(store, tmp_path, monkeypatch, command, unchanged):
    """note and edit run the editor the same way: one line naming it, each with its own ending."""
    before = files(store)
    monkeypatch.setenv("VISUAL", str(tmp_path / "no-such-editor"))
    missing = run(store, *command, ok=False).output.strip()
    assert missing.startswith("readinglist: error: cannot start the editor") and "no-such-editor" in missing
    assert missing.endswith("; use -m TEXT") == (command[0] == "note") and len(missing.splitlines()) == 1
    monkeypatch.setenv("VISUAL", "false")
    again = (*command, "--discard") if command[0] == "edit" else command  # (edit kept its copy for --resume)
    failed = run(store, *again, ok=False).output.strip()
    assert failed == f"readinglist: error: the editor 'false' exited with status 1; {unchanged}"
    assert files(store) == before
