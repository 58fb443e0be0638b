"""Control characters and out-of-range options (issue 14): stripped on import (and said so),
escaped on every terminal output, years and limits validated."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


from helpers import cli
from readinglist.errors import ValidationError
from readinglist.record import Record
from readinglist.store import Store
from readinglist.text.controls import escape_controls, strip_controls

EVIL = "Title \x1b[2J\x1b]52;c;aGk=\x07 with \x9b31m C1 and \x08backspace\r"


run = cli  # tests/helpers.py


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_stripped_and_escaped_text_holds_no_control_character(text):
    stripped, n = strip_controls(text)
    assert all(ch in "\n\t" or ch.isprintable() or not (ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F) for ch in stripped)
    assert n >= 0 and len(stripped) <= len(text)
    shown = escape_controls(text, keep="")
    assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in shown)


def test_import_strips_control_characters_and_says_so(tmp_path):
    src = tmp_path / "in.bib"
    src.write_text("@article{k1,\n  title = {" + EVIL + "},\n  author = {Doe\x1b[1m, Jane},\n  year = {2020},\n  abstract = {" + "Words of a real abstract. " * 40 + "},\n}\n", encoding="utf-8")
    result = run("--store", tmp_path / "lib", "import", src)
    assert "k1: removed" in result.output and "control character" in result.output
    paper = Store.open(tmp_path / "lib").get("k1")
    for text in (paper.record.title, str(paper.record.authors[0])):
        assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in text)


@pytest.fixture
def hand_edited(tmp_path, monkeypatch):
    """A store whose paper got control characters by a hand edit (TOML \\u escapes)."""
    monkeypatch.chdir(tmp_path)
    store = Store.open(tmp_path / "lib")
    store.import_records([Record(key="k1", title="Plain title", abstract="alpha beta gamma delta epsilon", venue="NeurIPS", year=2020)])
    path = tmp_path / "lib" / "papers" / "k1.toml"
    text = path.read_text()
    path.write_text(text.replace('title = "Plain title"', 'title = "Plain \\u001b[2J title \\u0007"'))
    return tmp_path / "lib"


@pytest.mark.parametrize("command", [["list"], ["show", "k1"], ["search", "plain"], ["list", "--search", "plain"]])
def test_terminal_output_escapes_control_characters(hand_edited, command):
    result = run("--store", hand_edited, *command)
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\\x1b[2J" in result.output


def test_error_messages_escape_control_characters(hand_edited):
    result = run("--store", hand_edited, "show", "evil\x1b[2J", ok=False)
    assert result.exit_code == 1 and "\x1b" not in result.output and "\\x1b" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["import", "x.txt", "--year", "-5"],
        ["import", "x.txt", "--year", "0"],
        ["list", "--year", "99999"],
        ["export", "-f", "bibtex", "--year", "-1"],
        ["search", "x", "--limit", "-1"],
        ["search", "x", "--limit", "0"],
    ],
)
def test_out_of_range_options_are_usage_errors(hand_edited, args):
    result = run("--store", hand_edited, *args, ok=False)
    assert result.exit_code == 2, result.output


def test_library_rejects_bad_years_and_limits(hand_edited, tmp_path):
    from readinglist.config import default_config
    from readinglist.jobs import import_files

    with pytest.raises(ValidationError, match="year must be 1000-2999"):
        import_files(Store.open(hand_edited), [tmp_path / "x.txt"], config=default_config(), year=-5)
    with pytest.raises(ValidationError, match="limit"):
        Store.open(hand_edited).search("plain", limit=-1)


def test_a_tab_or_line_break_in_a_title_keeps_list_one_line_a_paper(hand_edited):
    """The plain list checks all its lines at once for control characters; a tab or a line
    break inside a field is no layout tab or line end: it is shown escaped."""
    path = hand_edited / "papers" / "k1.toml"
    path.write_text(path.read_text().replace('title = "Plain \\u001b[2J title \\u0007"', 'title = "Tab\\there\\nand a line"'))
    result = run("--store", hand_edited, "list")
    assert result.output.splitlines() == ["k1\tunread\tNeurIPS 2020\t\tTab\\x09here\\x0aand a line"]
