"""Auto-exports (export --keep-updated): rewritten after each change that alters them, atomically,
byte for byte what the same export command writes, and left alone (not even touched) otherwise."""

from __future__ import annotations

import os
import shutil

import pytest
from helpers import cli_in

run = cli_in  # tests/helpers.py


@pytest.fixture
def project(library_copy, tmp_path):
    (tmp_path / "paper").mkdir()
    run(tmp_path / "library", "lists", "new", "thesis")
    run(tmp_path / "library", "lists", "add", "thesis", "canvit2026", "captrack2026")
    return tmp_path


def stamp(path):
    st = os.stat(path)
    return st.st_ino, st.st_mtime_ns


def test_a_kept_export_follows_every_change_that_alters_it_and_only_those(project):
    store, bib = project / "library", project / "paper" / "refs.bib"
    out = run(store, "export", "-o", bib, "--list", "thesis", "--with-status", "--keep-updated")
    assert "kept updated" in out.output
    kept = (store / "auto-export.toml").read_text(encoding="utf-8")
    assert 'path = "../paper/refs.bib"' in kept and str(project) not in kept  # no machine path in a shared file

    before = stamp(bib)
    run(store, "rate", "vesper2026", "3")  # not in the list: the file is not even rewritten
    assert stamp(bib) == before

    result = run(store, "mark", "read", "canvit2026")
    assert "updated ../paper/refs.bib" in result.output
    assert stamp(bib) != before
    fresh = run(store, "export", "-f", "bibtex", "--list", "thesis", "--with-status").output
    assert bib.read_text(encoding="utf-8") == fresh  # byte for byte what export writes

    run(store, "lists", "add", "thesis", "vesper2026")
    assert "@inproceedings{vesper2026," in bib.read_text(encoding="utf-8")
    run(store, "tag", "vesper2026", "chapter-2")  # the fast path (no typer) refreshes too
    assert "chapter-2" in bib.read_text(encoding="utf-8")


def test_filters_a_second_export_and_stopping_one(project):
    store = project / "library"
    reading, bib = project / "paper" / "reading.json", project / "paper" / "refs.bib"
    run(store, "export", "-o", bib, "--list", "thesis", "--keep-updated")
    run(store, "export", "-o", reading, "--status", "reading", "--keep-updated")
    assert reading.read_text(encoding="utf-8").strip() == "[]"
    run(store, "mark", "reading", "m2le2026")
    assert '"m2le2026"' in reading.read_text(encoding="utf-8")
    listed = run(store, "auto-export").output
    assert "../paper/refs.bib  (list thesis)" in listed and "../paper/reading.json  (status reading)" in listed

    run(store, "auto-export", "--remove", reading)
    before = reading.read_bytes()
    run(store, "mark", "reading", "canvit2026")
    assert reading.read_bytes() == before  # no longer kept, the file stays
    assert "no auto-export writes" in run(store, "auto-export", "--remove", "nothing.bib", ok=False).output


def test_an_export_that_cannot_be_made_is_a_warning_and_the_change_and_the_others_go_on(project):
    store = project / "library"
    gone, bib = project / "gone" / "x.bib", project / "paper" / "refs.bib"
    gone.parent.mkdir()
    run(store, "export", "-o", gone, "--keep-updated")
    run(store, "export", "-o", bib, "--list", "thesis", "--keep-updated")
    shutil.rmtree(gone.parent)
    result = run(store, "lists", "add", "thesis", "vesper2026")  # exit 0: the change is made
    assert "warning: auto-export ../gone/x.bib not updated" in result.output
    assert "vesper2026" in bib.read_text(encoding="utf-8")
    assert "vesper2026" in (store / "lists" / "thesis.toml").read_text(encoding="utf-8")

    (store / "auto-export.toml").write_text("[[export]\n", encoding="utf-8")
    result = run(store, "mark", "read", "canvit2026")
    assert "auto-export.toml: not valid TOML" in result.output
    assert "canvit2026: read" in result.output


def test_keep_updated_needs_an_output_file(project):
    assert "needs -o" in run(project / "library", "export", "-f", "bibtex", "--keep-updated", ok=False).output
    assert not (project / "library" / "auto-export.toml").exists()


def test_the_library_calls_on_commit_only_after_a_transaction_that_succeeded(project):
    from readinglist.store.library import Store

    store = Store.open(project / "library", create=False)
    calls = []
    store.on_commit(lambda: calls.append(1))
    store.rate("canvit2026", 2)
    assert calls == [1]
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.rate("canvit2026", 5)
            raise RuntimeError("abandoned")
    assert calls == [1] and store.get("canvit2026").rating == 2
    with store.transaction():
        store.rate("canvit2026", 3)
        store.rate("captrack2026", 3)
    assert calls == [1, 1]  # once for the outermost transaction
