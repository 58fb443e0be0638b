"""Curated lists under faults and edits (issue 29, item 8), one test per class: a list or paper
that cannot be read never hides the others; a write that fails leaves every list as it was; a
rename that cannot follow into a list refuses; sections are told apart by position; one tag
normal form."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given, strategies as st

from helpers import cli_in
from readinglist.errors import ListError, StoreError
from readinglist.record import Record
from readinglist.store import Store, lists
from readinglist.tagform import tag_key, unique_tags


def _records(n: int = 4) -> list[Record]:
    return [
        Record(key=f"paper{i}", title=f"Title {i}", abstract=f"Abstract {i} " + " ".join(f"w{i}_{j}" for j in range(20)), year=2026)
        for i in range(n)
    ]


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path / "library")
    s.import_records(_records())
    lists.create(s, "good", title="A good list")
    lists.add(s, "good", ["paper0", "paper1"])
    lists.create(s, "bad", title="A list about to break")
    lists.add(s, "bad", ["paper2"])
    return s


# -- a list or a paper that cannot be read hides nothing else -----------------------------------


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda s: lists.path_of(s, "bad").write_text('title = "x\n', encoding="utf-8"), id="list-not-toml"),
        pytest.param(lambda s: lists.path_of(s, "bad").write_bytes(b"title = '\xff'\n"), id="list-not-utf8"),
        pytest.param(lambda s: lists.path_of(s, "bad").write_text("sections = 3\n", encoding="utf-8"), id="list-bad-shape"),
        pytest.param(lambda s: (s.papers_dir / "paper1.toml").write_text("key = [\n", encoding="utf-8"), id="paper-in-list-broken"),
    ],
)
def test_one_broken_file_never_stops_the_other_lists(store, damage):
    damage(store)
    overview = cli_in(store.root, "lists")
    assert overview.exit_code == 0, overview.output
    assert "A good list" in overview.stdout
    assert overview.stderr.count("\n") >= 1 and ("bad.toml" in overview.stderr or "paper1.toml" in overview.stderr)
    shown = cli_in(store.root, "lists", "show", "good")
    assert shown.exit_code == 0 and "paper0" in shown.stdout
    exported = cli_in(store.root, "export", "-f", "markdown", "--list", "good")
    assert exported.exit_code == 0 and "paper0" in exported.stdout
    found, broken = lists.load_all(store)
    assert "good" in [lst.name for lst in found]


# -- a write that fails leaves the lists as they were -------------------------------------------


def test_a_failed_rekey_leaves_every_list_as_it_was(store):
    before = lists.path_of(store, "good").read_bytes()
    with pytest.raises(StoreError, match="has it"):
        with store.transaction():
            store.replace_record("paper0", _records()[0].evolve(key="smith2026"), rekey=True)  # renames it in "good"
            store.replace_record("paper1", _records()[1].evolve(key="paper3"), rekey=True)  # refused: paper3 exists
    assert lists.path_of(store, "good").read_bytes() == before
    assert lists.resolve(store, lists.load(store, "good")).missing == ()
    store.replace_record("paper0", _records()[0].evolve(key="smith2026"), rekey=True)  # and one that works follows
    assert lists.load(store, "good").keys == ("smith2026", "paper1")


def test_a_rekey_into_an_unparsable_list_that_names_the_key_refuses(store):
    path = lists.path_of(store, "bad")
    path.write_text(path.read_text(encoding="utf-8") + "oops = \n", encoding="utf-8")  # still names paper2
    with pytest.raises(ListError, match=r"bad\.toml.*paper2.*nothing was changed"):
        store.replace_record("paper2", _records()[2].evolve(key="smith2026"), rekey=True)
    assert "paper2" in store and "smith2026" not in store
    # a broken list that cannot name the key does not stand in the way
    store.replace_record("paper0", _records()[0].evolve(key="jones2026"), rekey=True)
    assert lists.load(store, "good").keys == ("jones2026", "paper1")


# -- sections are told apart by position, not by title ------------------------------------------


def test_two_sections_with_one_title_keep_their_own_papers(store, tmp_path):
    lists.path_of(store, "bad").write_text(
        'title = "Twice"\n[[sections]]\ntitle = "Read"\npapers = ["paper0"]\n'
        '[[sections]]\ntitle = "Between"\npapers = ["paper1"]\n'
        '[[sections]]\ntitle = "Read"\npapers = ["paper2", "paper3"]\n',
        encoding="utf-8",
    )
    data = json.loads(cli_in(store.root, "lists", "show", "bad", "--json").stdout)
    assert [(s["title"], [p["key"] for p in s["papers"]]) for s in data["sections"]] == [
        ("Read", ["paper0"]), ("Between", ["paper1"]), ("Read", ["paper2", "paper3"]),
    ]  # fmt: skip
    text = cli_in(store.root, "lists", "show", "bad").stdout
    assert text.count("paper0") == 1 and text.count("paper2") == 1
    assert text.index("paper0") < text.index("Between") < text.index("paper2")
    md = cli_in(store.root, "export", "-f", "markdown", "--list", "bad").stdout
    assert md.count("## Read") == 2 and md.index("paper0") < md.index("## Between") < md.index("paper2")
    groups = lists.resolve(store, lists.load(store, "bad")).by_section()
    assert [[i.paper.key for i in items] for _, items in groups] == [["paper0"], ["paper1"], ["paper2", "paper3"]]


# -- one normal form for tags ------------------------------------------------------------------

NFC, NFD = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")


def test_tags_in_nfc_and_nfd_and_any_case_are_one_tag(store):
    assert NFC != NFD
    store.add_tags("paper0", [NFD])
    store.add_tags("paper0", [NFC, "CAFÉ"])
    assert store.get("paper0").user_tags == (NFC,)  # stored once, in NFC, as first spelled
    assert [p.key for p in store.find(tags=[NFC])] == ["paper0"]
    assert [p.key for p in store.find(tags=["Café"])] == ["paper0"]
    assert [p.key for p in store.find(tags=[NFD])] == ["paper0"]
    listed = cli_in(store.root, "list", "--tag", NFD.upper())
    assert listed.stdout.startswith("paper0")
    store.remove_tags("paper0", ["CAFE\u0301"])
    assert store.get("paper0").user_tags == ()


@given(st.text(max_size=12))
def test_tag_key_ignores_normalisation_and_case(tag):
    for form in ("NFC", "NFD"):
        assert tag_key(unicodedata.normalize(form, tag)) == tag_key(tag)
    assert tag_key(tag.casefold()) == tag_key(tag)
    assert tag_key(tag_key(tag)) == tag_key(tag)
    assert unique_tags([tag, unicodedata.normalize("NFD", tag).upper(), tag]) in ((tag,), (tag, unicodedata.normalize("NFD", tag).upper()))


def test_imported_tags_are_stored_in_their_normal_form(tmp_path):
    s = Store.open(tmp_path / "library")
    s.import_records([Record(key="x2026", title="X", abstract="An abstract " * 5, tags=(NFD, NFC.upper(), "llm"))])
    assert s.get("x2026").record.tags == (NFC, "llm")


def test_stats_and_markdown_groups_count_one_tag_once(tmp_path):
    from readinglist.formats.markdown.writer import _groups
    from readinglist.stats import alike, groups

    s = Store.open(tmp_path / "library")
    s.import_records(_records(3))
    (s.papers_dir / "paper0.toml").write_text(  # a file written by hand (or an older readinglist) in NFD
        (s.papers_dir / "paper0.toml").read_text(encoding="utf-8").replace("[state]\n", f'[state]\ntags = ["{NFD}"]\n'),
        encoding="utf-8",
    )
    s.add_tags("paper1", [NFC])
    s.add_tags("paper2", ["CAFÉ"])
    by_tag = dict(groups(alike(s.find())))["by tag"]
    assert len(by_tag) == 1 and sum(g.count for g in next(iter(by_tag.values()))) == 3 == len(s)
    assert [(h, len(ps)) for h, ps in _groups(s.find(), "tag")] == [(NFD, 3)]
    assert [p.key for p in s.find(tags=["café"])] == ["paper0", "paper1", "paper2"]
