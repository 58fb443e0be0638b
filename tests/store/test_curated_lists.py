"""Curated reading lists: lists/<name>.toml in the store, its operations, renamed keys, exports."""

from __future__ import annotations

import json
import re
import tomllib

import pytest


from helpers import cli_in
from readinglist.errors import ListError, UnknownKeyError, UnknownListError, ValidationError
from readinglist.store import Store, lists



run = cli_in  # tests/helpers.py


@pytest.fixture
def store(library_copy):
    return Store.open(library_copy, create=False)


def test_new_add_move_remove_round_trip(store):
    lists.create(store, "week-12", title="Week 12", introduction="Two papers on *glimpses*.\n")
    lists.add(store, "week-12", ["canvit2026"], section="Start here", comment="read §3 only")
    keys = [k for k in store.keys() if k != "canvit2026"][:3]
    lists.add(store, "week-12", keys, section="Then")
    lst = lists.load(store, "week-12")
    assert lst.title == "Week 12" and lst.introduction.strip() == "Two papers on *glimpses*."
    assert [s.title for s in lst.sections] == ["Start here", "Then"]
    assert lst.keys == ("canvit2026", *keys)
    assert lst.sections[0].entries[0].comment == "read §3 only"
    lists.move(store, "week-12", keys[2], before="canvit2026")
    assert lists.load(store, "week-12").keys == (keys[2], "canvit2026", keys[0], keys[1])
    lists.move(store, "week-12", keys[2], section="Then", position=2)
    assert lists.load(store, "week-12").keys == ("canvit2026", keys[0], keys[2], keys[1])
    lists.move(store, "week-12", "canvit2026", section="Later")
    assert [s.title for s in lists.load(store, "week-12").sections] == ["Start here", "Then", "Later"]
    lists.remove(store, "week-12", [keys[0]])
    assert keys[0] not in lists.load(store, "week-12").keys
    # the file is plain TOML, one paper per line, and rendering is deterministic
    text = lists.path_of(store, "week-12").read_text(encoding="utf-8")
    assert tomllib.loads(text)["sections"][0]["title"] == "Start here"
    assert '{ key = "canvit2026", comment = "read §3 only" },' in text
    assert lists.render(lists.parse(text, "week-12")) == text


def test_adding_is_all_or_nothing_with_did_you_mean(store):
    lists.create(store, "l")
    with pytest.raises(UnknownKeyError) as err:
        lists.add(store, "l", ["canvit2026", "canvit2025"])
    assert "canvit2026" in err.value.suggestions
    assert lists.load(store, "l").keys == ()
    with pytest.raises(UnknownListError) as err:
        lists.load(store, "L-typo")
    with pytest.raises(ListError):
        lists.create(store, "l")
    with pytest.raises(ValidationError):
        lists.create(store, "../escape")
    with pytest.raises(ListError):
        lists.remove(store, "l", ["canvit2026"])


def test_removing_a_key_the_list_lacks_names_it_and_suggests_the_close_one(store):
    lists.create(store, "l")
    lists.add(store, "l", ["canvit2026"])
    with pytest.raises(ListError, match=r"^list l: 'canvit2025' is not in it; did you mean canvit2026\?$"):
        lists.remove(store, "l", ["canvit2025"])
    with pytest.raises(ListError, match=r"^list l: 'zzzz' is not in it$"):
        lists.remove(store, "l", ["zzzz"])
    assert lists.load(store, "l").keys == ("canvit2026",)


def test_a_hand_edited_list_and_a_missing_key(store):
    lists.folder(store).mkdir(exist_ok=True)
    (lists.folder(store) / "mine.toml").write_text(
        'title = "Mine"\n[[sections]]\npapers = ["canvit2026", {key = "canvit2025", comment = "typo"}]\n', encoding="utf-8"
    )
    resolved = lists.resolve(store, lists.load(store, "mine"))
    assert [p.key for p in resolved.papers] == ["canvit2026"]
    assert resolved.missing == (("canvit2025", ("canvit2026",)),)
    assert "did you mean canvit2026?" in resolved.messages()[0]
    (lists.folder(store) / "bad.toml").write_text("title = [\n", encoding="utf-8")
    with pytest.raises(ListError, match="bad.toml"):
        lists.load(store, "bad")


def test_a_key_renamed_by_hand_is_followed(store):
    lists.create(store, "l")
    lists.add(store, "l", ["canvit2026"])
    path = store.papers_dir / "canvit2026.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('key = "canvit2026"', 'key = "canvit-vit"', 1), encoding="utf-8")
    store = Store.open(store.root, create=False)
    resolved = lists.resolve(store, lists.load(store, "l"))
    assert [p.key for p in resolved.papers] == ["canvit-vit"] and resolved.renamed == (("canvit2026", "canvit-vit"),)
    # the next change to the list writes the key the paper has now
    lists.add(store, "l", [store.keys()[0]])
    assert lists.load(store, "l").keys[0] == "canvit-vit"


def test_a_rekeyed_paper_is_followed(store):
    lists.create(store, "l")
    lists.add(store, "l", ["canvit2026"], comment="keep me")
    record = store.get("canvit2026").record.evolve(key="smith2026canvit")
    store.replace_record("canvit2026", record, rekey=True)
    lst = lists.load(store, "l")
    assert lst.keys == ("smith2026canvit",) and lst.entries[0].comment == "keep me"
    assert [p.key for p in lists.resolve(store, lst).papers] == ["smith2026canvit"]


def _week(store_path):
    run(store_path, "lists", "new", "week-12", "--title", "Week 12: vision", "--intro", "Read these *before* Friday.")
    run(store_path, "lists", "add", "week-12", "canvit2026", "--section", "Start here", "--comment", "read §3 only")
    run(store_path, "lists", "add", "week-12", "--tag", "llm", "--status", "unread", "--section", "LLMs")
    return json.loads(run(store_path, "lists", "show", "week-12", "--json").output)


def test_cli_lists_progress_and_exports_keep_the_order(store, tmp_path):
    shown = _week(store.root)
    llm = [p["key"] for p in shown["sections"][1]["papers"]]
    assert len(llm) >= 3 and shown["sections"][0]["papers"][0]["comment"] == "read §3 only"
    run(store.root, "lists", "move", "week-12", llm[-1], "--position", "1")
    run(store.root, "mark", "read", "canvit2026")
    overview = run(store.root, "lists").output
    assert re.search(rf"week-12\s+1/{len(llm) + 1}\s+read\s+Week 12: vision", overview)
    order = ["canvit2026", llm[-1], *llm[:-1]]

    md = run(store.root, "export", "--list", "week-12", "-f", "markdown").output
    assert md.startswith("# Week 12: vision\n\nRead these *before* Friday.\n")
    assert md.index("## Start here") < md.index("`canvit2026`") < md.index("## LLMs")
    assert [m for m in re.findall(r"`([a-z0-9]+)`", md) if m in order] == order
    assert "*read §3 only*" in md

    bib = run(store.root, "export", "--list", "week-12", "-f", "bibtex").output
    assert re.findall(r"^@\w+\{([^,]+),", bib, re.M) == order
    csl = json.loads(run(store.root, "export", "--list", "week-12", "-f", "csljson").output)
    assert [e["id"] for e in csl] == order
    # filters narrow a list, keeping its order
    narrowed = json.loads(run(store.root, "export", "--list", "week-12", "-f", "csljson", "--status", "unread").output)
    assert [e["id"] for e in narrowed] == order[1:]


def test_cli_errors_are_one_line(store):
    bad = run(store.root, "lists", "show", "nope", ok=False)
    assert bad.exit_code == 1 and "no list called 'nope'" in bad.output
    run(store.root, "lists", "new", "a")
    typo = run(store.root, "lists", "add", "a", "canvit2025", ok=False)
    assert typo.exit_code == 1 and "did you mean canvit2026?" in typo.output
