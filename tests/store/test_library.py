"""The TOML store: API behaviour, hand edits, re-import, the generated-field rule, determinism."""

from __future__ import annotations

import difflib
import itertools
import marshal
import os
import tomllib
from pathlib import Path

import pytest
from helpers import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readinglist.errors import StoreError, UnknownKeyError, ValidationError
from readinglist.record import Event, Paper, Person, Record, Source
from readinglist.store import ImportSummary, Store, cache, merge_record
from readinglist.store import paperedit, paperrow
from readinglist.store import paperfile as storefile

GEN = frozenset({"key", "title", "shorttitle", "tags"})


def seed_abstracts() -> list[str]:
    out = []
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        paragraphs = path.read_text(encoding="utf-8").split("\n\n")[1:]
        out += [" ".join(p.split()) for p in paragraphs if p.strip()]
    return out


ABSTRACTS = seed_abstracts()


def counter_clock():
    ticks = itertools.count()
    return lambda: f"2026-11-30T06:{next(ticks) % 60:02d}:00Z"


def make(key: str, n: int, **kw) -> Record:
    """A generated record for seed abstract ``n``."""
    values = dict(
        key=key,
        title=f"Generated title {n}",
        abstract=ABSTRACTS[n],
        venue="NeurIPS",
        year=2026,
        shorttitle=None,
        tags=("llm", "efficiency") if n % 2 else ("computer-vision",),
        generated=GEN,
        sources=(Source("seeds/000.txt", n + 1, 3 + 2 * n),),
    )
    values.update(kw)
    return Record(**values)


@pytest.fixture
def store(tmp_path) -> Store:
    return Store.open(tmp_path / "library", clock=counter_clock())


@pytest.fixture
def filled(store) -> Store:
    store.import_records([make(f"paper{n}", n) for n in range(6)])
    return store


def path_of(store: Store, key: str) -> Path:
    return store.papers_dir / f"{key}.toml"


# --------------------------------------------------------------------------- layout


def test_new_file_layout_is_the_documented_one(store):
    record = make(
        "canvit2026",
        0,
        title="CanViT: a task- and policy-agnostic active-vision foundation model",
        shorttitle="CanViT",
        abstract=r"We present CanViT with an $\ell_1$ penalty; it's fast.",
        tags=("computer-vision", "efficiency"),
        sources=(Source("seeds/000_9fdd52dbfd5434f6.txt", 5, 11),),
    )
    store.import_records([record])
    assert path_of(store, "canvit2026").read_text(encoding="utf-8") == (
        "# readinglist paper — edit freely. A field you change above [generated] is kept;\n"
        "# one still equal to its [generated] value is regenerated on re-import.\n"
        'key = "canvit2026"\n'
        'type = "inproceedings"\n'
        'title = "CanViT: a task- and policy-agnostic active-vision foundation model"\n'
        'shorttitle = "CanViT"\n'
        'venue = "NeurIPS"\n'
        "year = 2026\n"
        'tags = ["computer-vision", "efficiency"]\n'
        "abstract = '''We present CanViT with an $\\ell_1$ penalty; it's fast.'''\n"
        "\n[state]\n"
        'status = "unread"\n'
        "history = [\n"
        '    {event = "added", date = "2026-11-30T06:00:00Z"},\n'
        "]\n"
        "\n[generated]\n"
        'key = "canvit2026"\n'
        'title = "CanViT: a task- and policy-agnostic active-vision foundation model"\n'
        'shorttitle = "CanViT"\n'
        'tags = ["computer-vision", "efficiency"]\n'
        "\n[[sources]]\n"
        'file = "seeds/000_9fdd52dbfd5434f6.txt"\n'
        "paragraph = 5\n"
        "line = 11\n"
    )
    assert (store.root / ".gitignore").read_text().splitlines()[1:3] == [".cache/", ".lock"]


# Papers for property tests: any text in any field the file holds.
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
_line = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20)
_records = st.builds(
    Record,
    key=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,20}[A-Za-z0-9_]", fullmatch=True).filter(lambda k: ".." not in k),  # valid keys only
    title=_text,
    abstract=_text | st.sampled_from(["a '''b''' c", "ends with '", "x\r\ny", "\nstarts with newline", "two\nlines"]),
    entry_type=_line,
    venue=st.none() | _line,
    year=st.none() | st.integers(-5000, 5000),
    shorttitle=st.none() | _line,
    tags=st.lists(_line, max_size=3).map(tuple),
    authors=st.lists(st.builds(Person, family=_line, given=_text), max_size=2).map(tuple),
    doi=st.none() | _line,
    fields=st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,15}", fullmatch=True), _text, max_size=2).map(lambda d: tuple(sorted(d.items()))),
    generated=st.sets(st.sampled_from(["key", "title", "shorttitle", "tags"])).map(frozenset),
    sources=st.lists(st.builds(Source, file=_text, paragraph=st.none() | st.integers(1, 99), line=st.none() | st.integers(1, 999)), max_size=2).map(tuple),
)
_papers = st.builds(
    Paper,
    record=_records,
    status=st.sampled_from(["unread", "reading", "read", "skipped"]),
    history=st.lists(st.builds(Event, event=_line, date=_line), max_size=3).map(tuple),
    notes=_text,
    user_tags=st.lists(_line, max_size=3).map(tuple),
    priority=st.none() | st.integers(1, 3),
    rating=st.none() | st.integers(1, 5),
)


_honest = storefile.canonical

@settings(max_examples=150, deadline=None)
@given(_papers)
def test_render_then_parse_gives_the_paper_back(paper):
    text = storefile.render(paper)
    assert storefile.parse(text, "x.toml") == _honest(paper)


def _render_with_tomlkit(paper: Paper) -> str:
    """The reference: the same file built as a tomlkit document from storefile._item values."""
    import tomlkit

    doc = tomlkit.document()
    for line in paperrow.HEADER:
        doc.add(tomlkit.comment(line))
    for name, value in paperedit.top_values(paper.record).items():
        if value not in (None, "", ()):
            doc.add(name, paperedit._item(name, value))
    if paper.record.fields:
        doc.add(tomlkit.nl())
        doc.add("fields", paperedit._fields_table(paper.record.fields))
    state = tomlkit.table()
    for name, value in paperedit.state_values(paper).items():
        if value is not None:
            state.add(name, paperedit._item(name, value))
    doc.add(tomlkit.nl())
    doc.add("state", state)
    gen = paperedit._generated_values(paper.record)
    if gen:
        table = tomlkit.table()
        for name, value in gen.items():
            table.add(name, paperedit._item(name, value))
        doc.add("generated", table)
    if paper.record.sources:
        doc.add("sources", paperedit._sources_aot(paper.record.sources))
    return tomlkit.dumps(doc)


@settings(max_examples=150, deadline=None)
@given(_papers)
def test_fast_render_equals_the_tomlkit_document(paper):
    assert storefile.render(paper) == _render_with_tomlkit(paper)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_papers, _papers)
def test_edit_turns_one_paper_into_another(old, new):
    old, new = _honest(old), _honest(new)
    text = storefile.edit(storefile.render(old), old, new, "x.toml")
    assert storefile.parse(text, "x.toml") == new


def test_latex_abstracts_and_notes_keep_single_backslashes(filled):
    filled.set_note("paper1", "Uses $\\mathcal{O}(n)$ memory.\n\n- check \\cite{x}")
    text = path_of(filled, "paper1").read_text(encoding="utf-8")
    assert "notes = '''\nUses $\\mathcal{O}(n)$ memory.\n\n- check \\cite{x}'''" in text
    assert tomllib.loads(text)["state"]["notes"] == "Uses $\\mathcal{O}(n)$ memory.\n\n- check \\cite{x}"


# --------------------------------------------------------------------------- reading


def test_get_and_unknown_key_suggests_close_keys(filled):
    assert filled.get("paper3").record.abstract == ABSTRACTS[3]
    with pytest.raises(UnknownKeyError) as err:
        filled.get("papr3")
    assert "paper3" in err.value.suggestions and len(err.value.suggestions) <= 3
    assert "papr3" in str(err.value) and "did you mean" in str(err.value)


def test_len_iter_keys_sorted(filled):
    assert len(filled) == 6
    assert filled.keys() == [f"paper{n}" for n in range(6)]
    assert [p.key for p in filled] == filled.keys()


def test_find_filters_and_sorts(filled):
    filled.set_status("paper1", "reading")
    filled.set_status("paper3", "read")
    filled.set_priority("paper5", 1)
    filled.set_priority("paper1", 3)
    filled.add_tags("paper0", ["group-meeting"])
    assert [p.key for p in filled.find(status="unread")] == ["paper0", "paper2", "paper4", "paper5"]
    assert [p.key for p in filled.find(status=["reading", "read"])] == ["paper1", "paper3"]
    assert [p.key for p in filled.find(tags=["llm", "efficiency"])] == ["paper1", "paper3", "paper5"]
    assert [p.key for p in filled.find(status="unread", tags=["LLM"])] == ["paper5"]
    assert [p.key for p in filled.find(tags=["group-meeting", "computer-vision"])] == ["paper0"]
    assert [p.key for p in filled.find(sort="priority")][:2] == ["paper5", "paper1"]
    assert [p.key for p in filled.find(sort="-key")][0] == "paper5"
    assert filled.find(venue="neurips", year=2026) == list(filled)
    assert filled.find(year=2025) == []
    with pytest.raises(ValidationError):
        filled.find(status="done")
    with pytest.raises(ValidationError):
        filled.find(sort="colour")


def test_search_ranks_title_then_notes_then_abstract(filled):
    word = "regularization"  # in the abstract of seed paragraph 0 only
    assert [p.key for p in filled.find(search=word)] == ["paper0"]
    filled.set_note("paper2", "compare the regularization trick")
    hits = filled.search(word)
    assert [p.key for p, _ in hits] == ["paper2", "paper0"]
    assert hits[0][1] > hits[1][1] > 0
    assert filled.search("regularization zzzunknownzzz") == []
    assert len(filled.search("the", limit=2)) == 2


# --------------------------------------------------------------------------- changing


def test_status_history_and_validation(filled):
    p = filled.set_status("paper2", "reading")
    p = filled.set_status("paper2", "read")
    assert p.status == "read"
    assert [e.event for e in p.history] == ["added", "started", "finished"]
    before = path_of(filled, "paper2").read_bytes()
    assert filled.set_status("paper2", "read") == p  # no change, no event
    assert path_of(filled, "paper2").read_bytes() == before
    with pytest.raises(ValidationError):
        filled.set_status("paper2", "done")
    assert path_of(filled, "paper2").read_bytes() == before
    filled.set_status("paper2", "unread")
    assert filled.get("paper2").history[-1].event == "reset"


def test_history_keeps_first_and_latest_events(filled):
    for _ in range(8):
        filled.set_status("paper0", "reading")
        filled.set_status("paper0", "skipped")
    history = filled.get("paper0").history
    assert len(history) == paperrow.MAX_HISTORY
    assert history[0].event == "added" and history[-1].event == "skipped"


def test_notes_tags_rating_priority(filled):
    filled.set_note("paper1", "First thought.\n")
    p = filled.set_note("paper1", "Second thought.", append=True)
    assert p.notes == "First thought.\n\nSecond thought."
    assert filled.set_note("paper1", "").notes == ""
    p = filled.add_tags("paper1", ["to-present", "group-meeting", "to-present"])
    assert p.user_tags == ("to-present", "group-meeting")
    assert p.tags == ("llm", "efficiency", "to-present", "group-meeting")
    assert filled.rate("paper1", 4).rating == 4
    assert filled.rate("paper1", None).rating is None
    assert filled.set_priority("paper1", 1).priority == 1
    for bad in (0, 6, True, "3"):
        with pytest.raises(ValidationError):
            filled.rate("paper1", bad)
    with pytest.raises(ValidationError):
        filled.set_priority("paper1", 4)
    with pytest.raises(ValidationError):
        filled.add_tags("paper1", ["two\nlines"])
    with pytest.raises(UnknownKeyError):
        filled.set_note("nope", "x")


def test_removing_a_topic_tag_sticks_through_reimport(filled):
    p = filled.remove_tags("paper1", ["efficiency"])
    assert p.record.tags == ("llm",) and "tags" not in p.record.generated
    with pytest.raises(ValidationError, match="no tag 'robotics'"):
        filled.remove_tags("paper1", ["robotics"])
    filled.import_records([make("paper1", 1, tags=("llm", "efficiency", "theory"))])
    assert filled.get("paper1").record.tags == ("llm",)


def test_marking_a_paper_changes_a_few_lines(filled):
    before = path_of(filled, "paper4").read_text(encoding="utf-8").splitlines()
    filled.set_status("paper4", "read")
    after = path_of(filled, "paper4").read_text(encoding="utf-8").splitlines()
    changed = [d for d in difflib.unified_diff(before, after, lineterm="", n=0) if d[:1] in "+-" and d[:3] not in ("+++", "---")]
    assert changed == ['-status = "unread"', '+status = "read"', '+    {event = "finished", date = "2026-11-30T06:01:00Z"},']


# --------------------------------------------------------------------------- hand edits


HAND_EDITED = '''# readinglist paper — edit freely.
key = "paper2"
type = "inproceedings"
# I fixed the generated title:
title = "Target Hidden States for Knowledge Editing"   # from the PDF
venue = "NeurIPS"
year = 2026
tags = ["llm", "knowledge-editing"]
abstract = {abstract}

[state]
status = "unread"  # start next week
history = [
    {{event = "added", date = "2026-11-30T06:02:00Z"}},
]

[generated]
key = "paper2"
title = "Generated title 2"
tags = ["computer-vision"]
'''


def test_hand_edits_and_comments_survive_writes_and_reimport(filled):
    path = path_of(filled, "paper2")
    path.write_text(HAND_EDITED.format(abstract=paperrow.long_text(ABSTRACTS[2])), encoding="utf-8")
    p = filled.get("paper2")
    assert p.record.title == "Target Hidden States for Knowledge Editing"
    assert p.record.generated == {"key"}  # title and tags were edited by hand
    filled.set_status("paper2", "reading")
    filled.rate("paper2", 5)
    filled.import_records([make("paper2", 2, title="Newly generated title", tags=("theory",))])
    text = path.read_text(encoding="utf-8")
    for kept in ("# I fixed the generated title:", "# from the PDF", "# start next week", 'tags = ["llm", "knowledge-editing"]'):
        assert kept in text
    assert 'status = "reading"  # start next week' in text
    assert "rating = 5\n" in text
    p = filled.get("paper2")
    assert p.record.title == "Target Hidden States for Knowledge Editing"
    assert p.record.tags == ("llm", "knowledge-editing")
    assert (p.status, p.rating) == ("reading", 5)


def test_renamed_key_keeps_working(filled):
    path = path_of(filled, "paper3")
    path.write_text(path.read_text(encoding="utf-8").replace('key = "paper3"\ntype', 'key = "hidden2026"\ntype', 1), encoding="utf-8")
    assert filled.get("hidden2026").record.abstract == ABSTRACTS[3]
    assert "key" not in filled.get("hidden2026").record.generated
    with pytest.raises(UnknownKeyError):
        filled.get("paper3")
    filled.set_status("hidden2026", "read")
    assert tomllib.loads(path.read_text(encoding="utf-8"))["state"]["status"] == "read"
    assert not path_of(filled, "hidden2026").exists()
    assert "hidden2026" in filled.keys() and "paper3" not in filled.keys()
    # re-import keeps the hand-given key; a new record wanting "paper3" may now have it
    summary = filled.import_records([make("paper3", 3), make("paper3", 7)])
    assert summary.unchanged == ("hidden2026",) and summary.added == ("paper3",)
    assert filled.get("paper3").record.abstract == ABSTRACTS[7]
    assert (filled.papers_dir / "paper3-2.toml").exists()


def test_two_files_claiming_one_key_is_an_error_naming_both(filled):
    path = path_of(filled, "paper4")
    path.write_text(path.read_text(encoding="utf-8").replace('key = "paper4"\n', 'key = "paper5"\n', 1), encoding="utf-8")
    with pytest.raises(StoreError) as err:
        filled.find()
    assert "paper4.toml" in str(err.value) and "paper5.toml" in str(err.value) and "'paper5'" in str(err.value)


def test_hand_edit_is_seen_through_the_cache(filled):
    assert len(filled.find(status="read")) == 0
    fresh = Store.open(filled.root)
    path = path_of(filled, "paper5")
    path.write_text(path.read_text(encoding="utf-8").replace('status = "unread"', 'status = "read"'), encoding="utf-8")
    assert [p.key for p in fresh.find(status="read")] == ["paper5"]
    assert [p.key for p in Store.open(filled.root).find(status="read")] == ["paper5"]


def test_cache_can_be_deleted_or_broken(filled):
    filled.set_note("paper0", "kept")
    expected = list(filled)
    for name in os.listdir(filled.cache_dir):
        (filled.cache_dir / name).write_bytes(b"garbage")
    assert list(Store.open(filled.root)) == expected
    import shutil

    shutil.rmtree(filled.cache_dir)
    assert list(Store.open(filled.root)) == expected


def test_cache_rows_round_trip():
    paper = Paper(
        make("k", 1, authors=(Person("Doe", "Jane"), Person(literal="ACME")), fields=(("note", "x"),)),
        status="read",
        history=(Event("added", "d1"), Event("finished", "d2")),
        notes="n",
        user_tags=("a",),
        priority=2,
        rating=3,
    )
    assert storefile.row_to_paper(storefile.paper_to_row(paper)) == paper  # (the rows the cache stores)


# --------------------------------------------------------------------------- re-import


def test_reimport_keeps_keys_and_state_and_updates_generated_fields(filled):
    filled.set_status("paper1", "read")
    filled.set_note("paper1", "good")
    filled.add_tags("paper1", ["mine"])
    filled.rate("paper1", 4)
    again = filled.import_records([make(f"paper{n}", n) for n in range(6)])
    assert again == ImportSummary(unchanged=tuple(f"paper{n}" for n in range(6)))
    # a newer version of the list: reworded abstract, regenerated title and key
    reworded = ABSTRACTS[1].replace(" the ", " the the ", 1) + " Code is available."
    summary = filled.import_records([make("otherkey2026", 1, abstract=reworded, title="A better generated title")])
    assert summary.updated == ("paper1",) and summary.added == ()
    assert len(summary.duplicates) == 1 and not summary.duplicates[0].exact
    assert summary.duplicates[0].key == "paper1" and summary.duplicates[0].similarity >= 92
    p = filled.get("paper1")
    assert (p.key, p.status, p.notes, p.user_tags, p.rating) == ("paper1", "read", "good", ("mine",), 4)
    assert p.record.abstract == reworded
    assert p.record.title == "A better generated title" and "title" in p.record.generated
    text = path_of(filled, "paper1").read_text(encoding="utf-8")
    assert tomllib.loads(text)["generated"]["title"] == "A better generated title"


def test_import_clashing_keys_states_and_records_without_abstracts(store):
    summary = store.import_records(
        [make("smith2026", 0), make("smith2026", 1), make("jones2026", 2, abstract="", doi="10.1/ABC")],
        states={"smith2026": {"status": "read", "rating": 5, "notes": "from JabRef", "tags": ["jabref"]}},
    )
    assert summary.added == ("smith2026", "smith2026a", "jones2026")
    assert summary.renamed == (("smith2026", "smith2026a"),)
    first = store.get("smith2026")
    assert (first.status, first.rating, first.notes, first.user_tags) == ("read", 5, "from JabRef", ("jabref",))
    assert [e.event for e in first.history] == ["added", "finished"]
    assert store.get("smith2026a").status == "read"  # the state of the incoming key
    # without an abstract: by key, then by DOI
    s2 = store.import_records([make("jones2026", 2, abstract="", pages="1--9"), make("other", 3, abstract="", doi="10.1/abc")])
    assert s2.updated == ("jones2026",) and s2.added == ()
    assert store.get("jones2026").record.pages == "1--9"
    with pytest.raises(ValidationError):
        store.import_records([make("x", 4)], states={"x": {"status": "done"}})
    assert "x" not in store.keys()  # a failed import writes nothing


def test_merge_record_rules():
    old = make("k", 1, title="Hand title", shorttitle="Gen", generated=frozenset({"key", "shorttitle", "tags"}))
    new = make("other", 1, title="New gen", shorttitle="Gen2", tags=("theory",), venue="ICML", year=None)
    merged = merge_record(old, new)
    assert merged.key == "k" and merged.title == "Hand title"
    assert (merged.shorttitle, merged.tags, merged.venue, merged.year) == ("Gen2", ("theory",), "ICML", 2026)
    official = merge_record(old, new.evolve(title="Official", generated=frozenset()), official=True)
    assert official.title == "Official" and "title" not in official.generated and "shorttitle" not in official.generated


def test_replace_record_keeps_state_and_can_rekey(filled):
    filled.set_status("paper0", "read")
    filled.set_note("paper0", "mine")
    official = Record(key="smith2026knowledge", title="Knowledge Editing, Officially", authors=(Person("Smith", "Ann"),), doi="10.5/x")
    p = filled.replace_record("paper0", official)
    assert (p.key, p.record.title, p.status, p.notes) == ("paper0", "Knowledge Editing, Officially", "read", "mine")
    assert "title" not in p.record.generated and p.record.tags == ("computer-vision",)
    assert 'title = "Generated title 0"' not in path_of(filled, "paper0").read_text(encoding="utf-8")
    p = filled.replace_record("paper0", official, rekey=True)
    assert p.key == "smith2026knowledge" and not path_of(filled, "paper0").exists()
    assert filled.get("smith2026knowledge").notes == "mine"
    with pytest.raises(StoreError, match="paper1.toml has it"):
        filled.replace_record("paper2", official.evolve(key="paper1"), rekey=True)


# --------------------------------------------------------------------------- transactions, determinism


def test_a_failed_transaction_writes_nothing(filled):
    before = {p.name: p.read_bytes() for p in filled.papers_dir.iterdir()}
    with pytest.raises(RuntimeError):
        with filled.transaction():
            filled.set_status("paper0", "read")
            assert filled.get("paper0").status == "read"  # seen inside
            raise RuntimeError("boom")
    assert {p.name: p.read_bytes() for p in filled.papers_dir.iterdir()} == before
    assert filled.get("paper0").status == "unread"


def _operations(root: Path) -> dict[str, bytes]:
    store = Store.open(root, clock=counter_clock())
    store.import_records([make(f"paper{n}", n) for n in range(5)], states={"paper4": {"priority": 2}})
    with store.transaction():
        store.set_status("paper1", "reading")
        store.set_note("paper1", "a note with 'quotes' and \\LaTeX")
    store.add_tags("paper2", ["b", "a"])
    store.rate("paper3", 2)
    store.remove_tags("paper0", ["computer-vision"])
    store.import_records([make("paper9", 1, title="Regenerated")])
    return {p.name: p.read_bytes() for p in sorted(store.papers_dir.iterdir())}


def test_same_operations_give_byte_identical_files(tmp_path):
    first, second = _operations(tmp_path / "a"), _operations(tmp_path / "b")
    assert first == second and len(first) == 5


def test_a_transaction_rescans_what_others_changed_meanwhile(filled):
    mine, theirs = Store.open(filled.root), Store.open(filled.root)
    assert len(mine.find()) == 6  # an index loaded before the other writer's import
    theirs.import_records([make("late2026", 9)])
    summary = mine.import_records([make("late2026", 9)])
    assert summary.unchanged == ("late2026",) and summary.added == ()
    assert len(mine) == 7


def test_a_minimal_hand_written_file_is_a_paper_and_can_be_edited(store):
    path = store.papers_dir / "mine.toml"
    path.write_text('# my own entry\nkey = "mine"\ntitle = "A Paper I Added"  # by hand\n\n[[sources]]\nfile = "notes.md"\n', encoding="utf-8")
    p = store.get("mine")
    assert (p.record.title, p.status, p.record.entry_type, p.record.generated) == ("A Paper I Added", "unread", "misc", frozenset())
    store.set_status("mine", "reading")
    store.set_note("mine", "line one\nline two")
    store.add_tags("mine", ["x"])
    store.rate("mine", 3)
    store.replace_record("mine", Record(key="mine", title="A Paper I Added", doi="10.1/y", year=2024))
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# my own entry\nkey = "mine"\ntype = "inproceedings"\ntitle = "A Paper I Added"  # by hand\nyear = 2024\n')
    assert "\n]\n\n[[sources]]\n" in text  # [state] went in front of [[sources]], blank lines kept
    p = store.get("mine")
    assert (p.status, p.notes, p.user_tags, p.rating, p.record.doi) == ("reading", "line one\nline two", ("x",), 3, "10.1/y")
    assert [s.file for s in p.record.sources] == ["notes.md"]


def test_index_follows_files_added_removed_and_rekeyed_by_hand(filled):
    watcher = Store.open(filled.root)
    assert len(watcher) == 6
    (filled.papers_dir / "paper0.toml").unlink()
    (filled.papers_dir / "extra.toml").write_text('key = "extra"\ntitle = "By hand"\n', encoding="utf-8")
    one, two = filled.papers_dir / "paper1.toml", filled.papers_dir / "paper2.toml"
    text1, text2 = one.read_text(encoding="utf-8"), two.read_text(encoding="utf-8")
    one.write_text(text1.replace('key = "paper1"\n', 'key = "paper2"\n', 1), encoding="utf-8")
    two.write_text(text2.replace('key = "paper2"\n', 'key = "paper1"\n', 1), encoding="utf-8")
    assert watcher.keys() == ["extra", "paper1", "paper2", "paper3", "paper4", "paper5"]
    assert watcher.get("paper2").record.abstract == ABSTRACTS[1]  # found through the index
    assert watcher.find(search="by hand")[0].key == "extra"
    (filled.papers_dir / "extra.toml").write_text('key = "paper4"\n', encoding="utf-8")
    with pytest.raises(StoreError, match="extra.toml and .*paper4.toml both have key 'paper4'"):
        watcher.keys()


def test_rows_and_files_know_every_record_field():
    """A field added to record.py must be added to cache rows and paper files (then update this).
    The cache's SCHEMA (part of its identity) is record.py's fields."""
    from readinglist.record import Event, Paper, Person, Record, Source

    assert cache.SCHEMA == tuple((cls.__name__, cls._fields) for cls in (Record, Paper, Person, Source, Event))
    assert dict(cache.SCHEMA) == {
        "Record": ("key", "title", "abstract", "entry_type", "venue", "year", "shorttitle", "tags", "authors",
                   "doi", "url", "pages", "fields", "generated", "sources"),
        "Paper": ("record", "status", "history", "notes", "user_tags", "priority", "rating"),
        "Person": ("family", "given", "literal"),
        "Source": ("file", "paragraph", "line"),
        "Event": ("event", "date"),
    }  # fmt: skip


def test_open_without_create_and_clock_datetimes(tmp_path):
    from datetime import datetime, timedelta, timezone

    with pytest.raises(StoreError, match="no store here"):
        Store.open(tmp_path / "missing", create=False)
    assert not (tmp_path / "missing").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="not a folder"):
        Store.open(tmp_path / "file")
    paris = timezone(timedelta(hours=1))
    store = Store.open(tmp_path / "lib", clock=lambda: datetime(2026, 11, 30, 7, 15, 9, 123, tzinfo=paris))
    store.import_records([make("k", 0)])
    assert store.get("k").history == (Event("added", "2026-11-30T06:15:09Z"),)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_papers, _papers)
def test_editing_an_untouched_file_gives_the_fresh_rendering(old, other):
    """The store re-renders files nobody edited by hand instead of a tomlkit round trip; for
    what readers change (status, history, notes, tags, priority, rating) both give the same
    text, so a mark is the same few-line diff either way. (For arbitrary record changes the two
    may differ in blank lines only; the parsed paper is the same, as tested above.)"""
    old = _honest(old)
    new = _honest(
        old.evolve(
            status=other.status, history=other.history, notes=other.notes,
            user_tags=other.user_tags, priority=other.priority, rating=other.rating,
        )
    )  # fmt: skip
    assert storefile.edit(storefile.render(old), old, new, "x.toml") == storefile.render(new)


def test_a_hand_edited_file_keeps_its_comments_when_marked(filled):
    path = path_of(filled, "paper1")
    path.write_text(path.read_text().replace("[state]", "# my own comment\n[state]"))
    filled.set_status("paper1", "read")
    text = path.read_text()
    assert "# my own comment\n[state]" in text and 'status = "read"' in text


def test_a_blank_key_is_refused_before_anything_is_written(store):
    good = make("good2026", 1)
    with pytest.raises(ValidationError, match="empty key"):
        store.import_records([good, good.evolve(key="  ", abstract="Another abstract entirely, about blank keys.")])
    assert len(store) == 0 and not list(store.papers_dir.glob("*.toml"))


@pytest.mark.parametrize("processes", [1, 2])
def test_a_transaction_sees_a_hand_edit_made_after_the_cache_was_written(filled, monkeypatch, processes):
    """A transaction's view is the cache synced with the files (with processes=2, a forked
    child stats half of them): a hand edit made after the cache was written is what it reads."""
    list(filled)  # write the cache
    path = path_of(filled, "paper1")
    path.write_text(path.read_text().replace('status = "unread"', 'status = "read"'))
    monkeypatch.setattr(cache.files, "FORK_MIN_FILES", 0)
    with Store.open(filled.root, processes=processes).transaction() as inside:
        assert [p.key for p in inside.find(status="read")] == ["paper1"]
        assert inside._load_index().papers["paper1.toml"].status == "read"
    assert Store.open(filled.root).get("paper1").status == "read"


def test_the_cache_holds_every_paper_as_its_file_says(filled, monkeypatch):
    """What the write paths read from the cache is what parsing every file gives; after a
    read nothing is parsed again, in a transaction or out of one."""
    import time

    from readinglist.store.paperfile import parse

    time.sleep(cache.RACY_NS / 1e9 + 0.05)  # files changed just before a scan are read again
    expected = {p.key: p for p in filled}
    parsed = {p.key: p for p in (parse(f.read_text(), f) for f in filled.papers_dir.glob("*.toml"))}
    assert parsed == expected

    def no_parsing(*args, **kwargs):
        raise AssertionError("a file was parsed again")

    monkeypatch.setattr(cache.bulk, "parse_files", no_parsing)
    monkeypatch.setattr(cache.bulk, "parsed_parts", no_parsing)
    assert {p.key for p in Store.open(filled.root).find()} == set(expected)
    with Store.open(filled.root).transaction() as inside:
        loaded = inside._load_index()
        assert {p.key: p for p in loaded.papers.values()} == expected and set(loaded.sigs) == set(loaded.papers)
        assert sorted(inside._names_and_keys()) == sorted((f"{k}.toml", k) for k in expected)


@given(st.dictionaries(st.text(max_size=5), st.tuples(*[st.integers(-(2**70), 2**70)] * 4), max_size=30), st.integers(0, 30))
def test_a_digest_is_the_sum_of_its_parts(sigs, cut):
    """Two processes each digest half of the signatures; together they must give the digest
    of the whole, whatever the split."""
    names = list(sigs)
    a = {n: sigs[n] for n in names[:cut]}
    b = {n: sigs[n] for n in names[cut:]}
    (sa, na), (sb, nb) = cache.digest_part(a), cache.digest_part(b)
    assert cache.combined(sa + sb, na + nb) == cache.digest(sigs)
    assert cache.digest({**sigs, "racy": None}) is None


def test_the_two_process_digest_notices_a_hand_edit_in_either_half(filled, monkeypatch):
    """A read compares the digest of both processes' halves with the cache's before it asks the
    child for its signatures: an edit in the child's half and in this process's half must both
    be read, and an unchanged store must parse nothing."""
    import time

    monkeypatch.setattr(cache.files, "FORK_MIN_FILES", 0)
    list(filled)
    time.sleep(cache.RACY_NS / 1e9 + 0.05)  # past the racy window: the cache trusts the files
    list(Store.open(filled.root, processes=2))
    names = os.listdir(filled.papers_dir)
    half = len(names) // 2
    for name in (names[0], names[-1]):  # this process's half, then the child's
        path = filled.papers_dir / name
        old = path.read_text()
        path.write_text(old.replace('status = "unread"', 'status = "skipped"'))
        assert old != path.read_text()
        key = tomllib.loads(path.read_text())["key"]
        assert {p.key: p.status for p in Store.open(filled.root, processes=2).find()}[key] == "skipped", name
    assert half > 0
    time.sleep(cache.RACY_NS / 1e9 + 0.05)
    list(Store.open(filled.root, processes=2).find())

    def unwanted(*args, **kwargs):
        raise AssertionError("nothing changed, yet the signatures were received or a file parsed")

    monkeypatch.setattr(cache.bulk, "parsed_parts", unwanted)
    monkeypatch.setattr(cache.files, "collect_marshalled", unwanted)
    assert len(Store.open(filled.root, processes=2).find()) == len(names)


def test_a_stat_child_that_dies_after_its_digest_leaves_the_signatures_whole(filled, monkeypatch):
    monkeypatch.setattr(cache.files, "FORK_MIN_FILES", 0)
    plain = cache.stat_files(filled.papers_dir)[0]

    def send_digest_only(self, out):
        sigs = cache.stat_names(self.papers_dir, self._rest)
        out.write(cache.PART.pack(*cache.digest_part(sigs)))
        out.flush()
        os._exit(3)

    monkeypatch.setattr(cache.files.Scan, "_send", send_digest_only)
    scan = cache.Scan(filled.papers_dir, processes=2)
    try:
        assert scan.digest() == cache.digest(plain)
        assert scan.sigs() == plain
    finally:
        scan.close()
    monkeypatch.setattr(cache.files.Scan, "_send", lambda self, out: os._exit(3))  # dies at once
    scan = cache.Scan(filled.papers_dir, processes=2)
    try:
        assert scan.digest() == cache.digest(plain) and scan.sigs() == plain
    finally:
        scan.close()


def test_the_two_process_stat_pass_sees_what_a_plain_one_sees(filled, monkeypatch):
    """A read shares the stat pass of a large store with a forked child; the signatures must be
    the plain pass's, also when the child fails."""
    plain = cache.stat_files(filled.papers_dir)
    monkeypatch.setattr(cache.files, "FORK_MIN_FILES", 0)
    parallel = cache.stat_files(filled.papers_dir, processes=2)
    assert parallel[:2] == plain[:2] and len(parallel[0]) == 6
    real = cache.stat_names
    parent = os.getpid()
    monkeypatch.setattr(cache.files, "stat_names", lambda d, n: (_ for _ in ()).throw(OSError("boom")) if os.getpid() != parent else real(d, n))
    assert cache.stat_files(filled.papers_dir, processes=2)[:2] == plain[:2]


def _remembered_listing(store: Store):
    db = cache.connect(store.cache_dir, create=False)
    assert db is not None
    try:
        return cache.remembered_listing(db)
    finally:
        db.close()


@pytest.mark.parametrize("forked", [False, True])
def test_a_remembered_listing_spares_the_listdir_and_every_new_removed_or_renamed_file_is_seen(filled, monkeypatch, forked):
    """A read remembers the papers folder's listing with the folder's signature, and the next
    read whose folder has the same signature takes the names from it instead of listing the
    folder again; a file added, removed or renamed by hand changes the folder's signature, so
    every such change is seen at the next read, at once (no waiting for a clock tick)."""
    import shutil
    import time

    def keys() -> list[str]:
        return sorted(p.key for p in Store.open(filled.root, processes=2 if forked else 1).find())

    def settled() -> None:  # a read long enough after the last change remembers the listing
        time.sleep(cache.RACY_NS / 1e9 + 0.05)
        keys()
        assert _remembered_listing(filled) is not None

    if forked:  # a child stats half of the remembered names
        monkeypatch.setattr(cache.files, "FORK_MIN_FILES", 0)
    expected = sorted(p.key for p in filled)
    settled()
    listing = _remembered_listing(filled)
    assert sorted(listing[1]) == sorted(f"{k}.toml" for k in expected) and listing[2] == []
    real_listdir = os.listdir
    monkeypatch.setattr(cache.files.os, "listdir", lambda *a: (_ for _ in ()).throw(AssertionError("listed again")))
    assert keys() == expected  # the remembered names, and the store read as it is
    monkeypatch.setattr(cache.files.os, "listdir", real_listdir)

    # by hand, right after the listing was remembered: a copy under a new key, a removal, a rename
    text = path_of(filled, "paper0").read_text()
    path_of(filled, "handmade").write_text(text.replace('key = "paper0"', 'key = "handmade"'))
    assert keys() == sorted([*expected, "handmade"])
    settled()
    path_of(filled, "paper1").unlink()
    assert keys() == sorted(k for k in [*expected, "handmade"] if k != "paper1")
    settled()
    shutil.move(path_of(filled, "paper2"), filled.papers_dir / "renamed.toml")
    assert "paper2" in keys() and "renamed.toml" in os.listdir(filled.papers_dir)
    settled()
    (filled.papers_dir / ".paper3.toml.1234.tmp").write_text("a killed writer's leftover")
    synced = cache.sync(filled.cache_dir, filled.papers_dir)
    try:
        assert synced.temp_files == [".paper3.toml.1234.tmp"]
    finally:
        synced.close()


def test_a_listing_made_in_the_folder_s_last_clock_tick_is_not_remembered(tmp_path):
    """A change in the same tick of the file system's clock as the listing could leave the
    folder's times as they were: such a listing is used once, never remembered."""
    import time

    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.toml").write_text("")
    (folder / ".b.toml.1.tmp").write_text("")
    (folder / "notes.txt").write_text("")
    papers, temp, listing = cache.list_folder(folder, None, time.time_ns())
    assert (papers, temp, listing) == (["a.toml"], [".b.toml.1.tmp"], None)
    papers, temp, listing = cache.list_folder(folder, None, time.time_ns() + 2 * cache.RACY_NS)
    assert listing is not None and listing[1:] == (["a.toml"], [".b.toml.1.tmp"])
    assert cache.list_folder(folder, listing, time.time_ns()) == (["a.toml"], [".b.toml.1.tmp"], None)
    assert cache.list_folder(tmp_path / "gone", listing, time.time_ns()) == ([], [], None)


@pytest.mark.parametrize("garbage", [b"not marshal", marshal.dumps((1, 2)), marshal.dumps(((1, 2, 3), "a.toml", []))])
def test_a_remembered_listing_of_another_shape_is_ignored(filled, garbage):
    list(filled)
    db = cache.connect(filled.cache_dir)
    assert db is not None
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (cache.LISTING, garbage))
    db.close()
    assert sorted(p.key for p in Store.open(filled.root).find()) == sorted(p.key for p in filled)


_TEXT = st.text(alphabet="ab \u00e9", max_size=4) | st.text(alphabet=st.sampled_from(list("ab \n\t\r\x1b\x00\x7f\x85\u202e")), max_size=6)


@settings(max_examples=200, deadline=None)
@given(
    title=_TEXT, abstract=_TEXT, venue=st.none() | _TEXT, tags=st.lists(_TEXT.filter(str.strip), max_size=2),
    people=st.lists(st.tuples(_TEXT, _TEXT, _TEXT), max_size=2), fields=st.lists(st.tuples(st.sampled_from(["note", "isbn"]), _TEXT), max_size=2),
)
def test_imported_records_lose_their_control_characters(title, abstract, venue, tags, people, fields):
    """Every text an import keeps (title, abstract, venue, tags, authors, extra fields) loses its
    control characters but newline and tab, and they are counted; a record with none comes back as it is."""
    import re

    from readinglist.store.rules import strip_record

    rec = Record(key="k", title=title or "t", abstract=abstract, venue=venue, tags=tuple(tags),
                 authors=tuple(Person(*p) for p in people), fields=tuple(fields))  # fmt: skip
    out, n = strip_record(rec)
    texts = lambda r: [r.title, r.abstract, r.venue or "", *r.tags, *(v for a in r.authors for v in (a.family, a.given, a.literal)), *(v for _, v in r.fields)]  # noqa: E731
    controls = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
    assert not any(controls.search(t) for t in texts(out))
    assert n == sum(len(controls.findall(t.replace("\r\n", "\n"))) for t in texts(rec))
    if all(t.isprintable() for t in texts(rec)):
        assert out is rec and n == 0
