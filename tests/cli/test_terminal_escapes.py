"""Terminal injection (issue 29, item 2): user text (titles, venues, authors, notes, tags, list
names, titles and comments) with escape sequences, C0/C1 controls, bidi overrides and
zero-width characters never reaches a terminal raw, whatever command prints it, on a terminal
(a pty) or through a pipe, through typer or the typer-free fast path (cli/fast.py). It is shown
escaped (``\\x1b``, ``\\u202e``); JSON output keeps the exact value (as JSON escapes)."""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import console_script, in_pty
from readinglist.record import Record
from readinglist.store import Store
from readinglist.text.controls import escape_controls

#: ESC [2J (clear screen), an OSC 52 (clipboard) ended by BEL, a C1 CSI, a bidi override and
#: isolate, a zero-width space, a NEL and a line separator (no raw SGR: the test strips ours)
HOSTILE = "\x1b[2J\x1b]52;c;aGk=\x07\x9b2J\u202eRTL\u202c\u200bZW\u2066i\u2069\x85\u2028"
#: how HOSTILE in a TOML basic string is written by hand
HOSTILE_TOML = json.dumps(HOSTILE)[1:-1]
SGR = re.compile(r"\x1b\[[0-9;]*m")  # the colours readinglist itself prints


def hidden(text: str) -> list[str]:
    """The characters of ``text`` a terminal must not get raw (layout tab/newline/CR aside)."""
    return [ch for ch in text if ch not in "\t\n\r" and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")]


@pytest.fixture
def hostile(tmp_path):
    """A store whose paper and list were hand-edited to hold HOSTILE in every user field."""
    root = tmp_path / "lib"
    store = Store.open(root)
    store.import_records([Record(key="k1", title="Plain title", abstract="alpha beta gamma delta epsilon", venue="NeurIPS", year=2020)])
    h = HOSTILE_TOML
    (root / "papers" / "k1.toml").write_text(
        f'key = "k1"\ntype = "inproceedings"\ntitle = "Plain {h} title"\nvenue = "Neur{h}"\nyear = 2020\n'
        f'authors = [{{family = "Doe{h}", given = "Jane"}}]\ndoi = "10.1/x{h}"\nurl = "https://x.org/{h}"\n'
        f'tags = ["topic{h}"]\nabstract = "alpha beta gamma delta epsilon {h}"\n\n'
        f'[state]\nstatus = "unread"\ntags = ["mine{h}"]\nnotes = "note {h}"\n'
        'history = [\n    {event = "added", date = "2026-01-05T10:00:00Z"},\n]\n',
        encoding="utf-8",
    )
    (root / "lists").mkdir()
    (root / "lists" / "wk.toml").write_text(
        f'title = "T{h}"\nintroduction = "I{h}"\n[[sections]]\ntitle = "S{h}"\n'
        f'papers = [{{key = "k1", comment = "C{h}"}}, {{key = "gone{h}"}}]\n',
        encoding="utf-8",
    )
    return root


#: (command line, whether its output must show the hostile text escaped)
COMMANDS = [
    (["list"], True),
    (["list", "--tag", "topic" + HOSTILE], False),
    (["list", "--search", "plain"], True),
    (["show", "k1"], True),
    (["search", "plain"], True),
    (["search", "plain", "-n", "5"], True),
    (["next"], True),
    (["stats"], True),
    (["lists"], True),
    (["lists", "show", "wk"], True),
    (["tag", "k1", "more"], True),
    (["tag", "--key", "k1", "extra"], True),
    (["mark", "reading", "k1"], False),
    (["where"], False),
    # error messages that quote what the user typed
    (["show", "no" + HOSTILE], True),
    (["lists", "show", "no" + HOSTILE], True),
    (["lists", "new", "bad" + HOSTILE], True),
    (["tag", "k1", "bad" + HOSTILE], True),
    (["mark", "bogus" + HOSTILE, "k1"], True),
    (["note", "no" + HOSTILE, "-m", "x"], True),
]


def _check(out: str, visible: bool) -> None:
    assert not hidden(SGR.sub("", out)), (hidden(SGR.sub("", out)), out)
    if visible:
        assert "\\x1b[2J" in out, out


@pytest.mark.parametrize("args,visible", COMMANDS, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_no_command_prints_user_text_raw_on_a_terminal(hostile, args, visible):
    code, screen = in_pty(["--store", hostile, "--color", "always", *args], cols=200)
    assert "Traceback" not in screen, screen
    _check(screen, visible)


@pytest.mark.parametrize("args,visible", COMMANDS, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_no_command_prints_user_text_raw_into_a_pipe(hostile, args, visible):
    proc = subprocess.run([console_script(), "--store", str(hostile), *args], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr, proc.stderr
    _check(proc.stdout + proc.stderr, visible)


@pytest.mark.parametrize(
    "args",
    [["list", "--json"], ["search", "plain", "--json"], ["show", "k1", "--json"], ["lists", "show", "wk", "--json"]],
    ids=" ".join,
)
def test_json_keeps_the_exact_value_escaped(hostile, args):
    proc = subprocess.run([console_script(), "--store", str(hostile), *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert not hidden(proc.stdout), hidden(proc.stdout)
    text = proc.stdout
    data = json.loads(text) if text.lstrip().startswith("{\n") else json.loads(text.splitlines()[0])
    if "sections" in data:
        assert data["title"] == "T" + HOSTILE and data["sections"][0]["papers"][0]["comment"] == "C" + HOSTILE
    else:
        assert data["title"] == f"Plain {HOSTILE} title" and data["notes"] == f"note {HOSTILE}"


@given(st.text())
@settings(max_examples=500, deadline=None)
def test_escaped_text_has_no_hidden_character_and_json_stays_the_same_value(text):
    from readinglist.text.controls import json_safe

    assert not hidden(escape_controls(text, keep=""))
    assert "\n" not in escape_controls(text, keep="")
    dumped = json_safe(json.dumps({"v": text}, ensure_ascii=False))
    assert not [ch for ch in hidden(dumped) if ch != "\n"]
    assert json.loads(dumped) == {"v": text}
