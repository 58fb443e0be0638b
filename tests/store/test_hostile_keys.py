"""Hostile keys (issue 14): one rule for what a key may be, case-insensitive uniqueness, and the
note editor that never builds a path from a key nor loses a concurrent change."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


from helpers import cli_in
from readinglist.convert.keys import FoldedKeys, is_valid_key, key_problem, safe_key, unique_key
from readinglist.errors import ConflictError, StoreError
from readinglist.record import Record
from readinglist.store import Store



run = cli_in  # tests/helpers.py


def bib(*entries: tuple[str, str]) -> str:
    return "\n".join(f"@article{{{key},\n  title = {{{title}}},\n  year = {{2020}},\n}}\n" for key, title in entries)


# --------------------------------------------------------------------------- the rule


@pytest.mark.parametrize(
    "key",
    ["../../../tmp/x/evil", "a b", "Müller2020", "10.1000/{x}", ".hidden", "x.", "a..b", "", "k,1", "k%", "a" * 101, "con\n"],
)
def test_invalid_keys_are_refused_and_made_safe(key):
    assert not is_valid_key(key)
    assert key_problem(key)
    safe = safe_key(key) if key else "paper"
    assert is_valid_key(safe) and "/" not in safe and not safe.startswith(".")


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_safe_key_is_always_valid_and_idempotent(text):
    key = safe_key(text)
    assert is_valid_key(key)
    assert safe_key(key) == key


def test_unique_key_is_case_insensitive():
    assert unique_key("Smith2020", FoldedKeys(["smith2020"])) == "Smith2020a"


# --------------------------------------------------------------------------- the store


def test_import_makes_invalid_keys_valid_and_says_so(tmp_path):
    src = tmp_path / "in.bib"
    src.write_text(bib(("../../../tmp/x/evil", "Evil"), ("DBLP:conf/nips/Smith20", "Dblp"), ("Müller 2020", "Umlaut")), encoding="utf-8")
    result = run(tmp_path / "lib", "import", src)
    assert "3 added" in result.output
    assert "cannot be a citation key" in result.output  # the import summary says so (stderr is mixed in)
    keys = [json.loads(line)["key"] for line in run(tmp_path / "lib", "list", "--json").output.splitlines()]
    assert sorted(keys) == ["DBLP_conf_nips_Smith20", "Muller_2020", "tmp_x_evil"]
    assert all(p.parent == tmp_path / "lib" / "papers" for p in (tmp_path / "lib").rglob("*.toml"))
    assert not Path("/tmp/x/evil").exists()
    # a re-import finds the same papers again (nothing added twice)
    assert "0 added" in run(tmp_path / "lib", "import", src).output


def test_keys_differing_in_case_do_not_both_enter_the_store(tmp_path):
    src = tmp_path / "in.bib"
    src.write_text(bib(("Smith2020", "First paper"), ("smith2020", "Second paper")), encoding="utf-8")
    store = Store.open(tmp_path / "lib")
    from readinglist.formats.bibtex.reader import importer
    from readinglist.formats.registry import ImportOptions
    from readinglist.config import default_config

    records = importer.parse(src.read_text(), source="in.bib", options=ImportOptions(default_config())).records
    summary = store.import_records(records)
    assert sorted(k.casefold() for k in summary.added) == ["smith2020", "smith2020a"]
    assert len({k.casefold() for k in store.keys()}) == 2
    again = store.import_records(records)
    assert not again.added  # found again by title, not added a second time
    # and the .bib export of the store keeps both entries for BibTeX (pybtex reads both)
    from pybtex.database import parse_string

    text = run(tmp_path / "lib", "export", "-f", "bibtex").output
    assert len(parse_string(text, "bibtex").entries) == 2


def test_rekey_to_a_key_taken_in_another_case_is_refused(tmp_path):
    store = Store.open(tmp_path / "lib")
    store.import_records([Record(key="smith2020", title="A", abstract="alpha beta gamma delta"), Record(key="jones", title="B", abstract="one two three four five")])
    with pytest.raises(StoreError, match="has it \\(as 'smith2020'"):
        store.replace_record("jones", Record(key="Smith2020", title="B"), rekey=True)
    with pytest.raises(StoreError, match="not|key holds"):
        store.replace_record("jones", Record(key="a b", title="B"), rekey=True)


def test_hand_edited_bad_key_or_field_name_is_reported_with_line_and_column(tmp_path):
    store = Store.open(tmp_path / "lib")
    store.import_records([Record(key="k1", title="A", abstract="alpha beta gamma delta")])
    path = tmp_path / "lib" / "papers" / "k1.toml"
    text = path.read_text()
    path.write_text(text.replace('key = "k1"', 'key = "k 1"'))
    with pytest.raises(StoreError, match=r"k1\.toml:\d+:\d+: key 'k 1' is not a citation key"):
        Store.open(tmp_path / "lib").get("k 1")
    path.write_text(text + '\n[fields]\n"bad name" = "x"\n')
    with pytest.raises(StoreError, match=r"k1\.toml:\d+:\d+: \[fields\] bad name is not a BibTeX field name"):
        Store.open(tmp_path / "lib").get("k1")
    path.write_text(text.replace('title = "A"', "title = 5"))
    line = text[: text.index('title = "A"')].count("\n") + 1
    with pytest.raises(StoreError, match=rf"k1\.toml:{line}:9: title must be a string"):
        Store.open(tmp_path / "lib").get("k1")


# --------------------------------------------------------------------------- note and $EDITOR


@pytest.fixture
def one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store.open(tmp_path / "lib")
    store.import_records([Record(key="k1", title="A", abstract="alpha beta gamma delta")])
    return tmp_path / "lib"


def editor(tmp_path, monkeypatch, body: str) -> None:
    script = tmp_path / "ed.py"
    script.write_text(f"import sys, os, subprocess\npath = sys.argv[1]\n{body}\n")
    monkeypatch.setenv("VISUAL", f"{sys.executable} {script}")


def test_editor_file_is_not_named_from_the_key(one, tmp_path, monkeypatch):
    seen = tmp_path / "seen"
    editor(tmp_path, monkeypatch, f"open({str(seen)!r}, 'w').write(path)\nopen(path, 'w').write('hello')")
    run(one, "note", "k1")
    assert os.path.basename(seen.read_text()) == "NOTES.md"
    assert Store.open(one).get("k1").notes == "hello"


def test_note_on_a_path_like_key_writes_nothing_outside(one, tmp_path, monkeypatch):
    editor(tmp_path, monkeypatch, "open(path, 'w').write('x')")
    result = run(one, "note", "../../../tmp/x/evil", ok=False)
    assert result.exit_code == 1 and "no paper with key" in result.output
    assert not Path("/tmp/x/evil-notes.md").exists()


def test_a_change_made_while_the_editor_is_open_is_not_lost(one, tmp_path, monkeypatch):
    # the "editor" itself runs another readinglist command meanwhile
    other = f"subprocess.run([sys.executable, '-m', 'readinglist', '--store', {str(one)!r}, 'note', 'k1', '-a', '-m', 'from elsewhere'], check=True)"
    editor(tmp_path, monkeypatch, other + "\nopen(path, 'w').write('my edit')")
    result = run(one, "note", "k1", ok=False)
    assert result.exit_code == 1
    assert "changed by another command" in result.output
    kept = result.output.split("your text is in ")[1].split()[0]
    assert Path(kept).read_text() == "my edit"
    assert Store.open(one).get("k1").notes == "from elsewhere"
    with pytest.raises(ConflictError):
        Store.open(one).set_note("k1", "x", expect="not what is there")


@pytest.mark.parametrize(
    "body, message",
    [
        ("os.remove(path)", "removed the notes file"),
        ("open(path, 'wb').write(b'caf\\xe9')", "not UTF-8 (line 1, column 4)"),
        ("os.remove(path); os.mkdir(path)", "cannot read the edited notes"),
        ("sys.exit(3)", "exited with status 3"),
    ],
)
def test_editor_failures_are_one_line_errors(one, tmp_path, monkeypatch, body, message):
    editor(tmp_path, monkeypatch, body)
    result = run(one, "note", "k1", ok=False)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
    assert Store.open(one).get("k1").notes == ""


def test_keys_windows_reserves_get_a_safe_file_name(tmp_path):
    store = Store.open(tmp_path / "lib")
    store.import_records([Record(key="con", title="A", abstract="alpha beta gamma delta"), Record(key="NUL", title="B", abstract="one two three four five")])
    assert sorted(p.name for p in (tmp_path / "lib" / "papers").glob("*.toml")) == ["NUL_.toml", "con_.toml"]
    assert Store.open(tmp_path / "lib").get("con").record.title == "A"
    Store.open(tmp_path / "lib").set_note("NUL", "x")
    assert Store.open(tmp_path / "lib").get("NUL").notes == "x"
