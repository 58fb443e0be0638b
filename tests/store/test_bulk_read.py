"""Reading a whole store at once (a fresh clone, a deleted cache): the fast paths give exactly
what the careful one-file-at-a-time path gives, errors included."""

from __future__ import annotations

import marshal
import os
import tomllib

import pytest
from helpers import ABSTRACTS
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.errors import StoreError
from readinglist.record import Event, Paper, Person, Record, Source
from readinglist.store import Store, cache
from readinglist.store import paperdata, paperfile, paperrow

_line = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_papers = st.builds(
    Paper,
    record=st.builds(
        Record,
        key=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_]{0,12}", fullmatch=True),
        title=_text,
        abstract=_text,
        entry_type=_line,
        venue=st.none() | _line,
        year=st.none() | st.integers(-5000, 5000),
        shorttitle=st.none() | _line,
        tags=st.lists(_line, max_size=3).map(tuple),
        authors=st.lists(st.builds(Person, family=_line, given=_text, literal=_text), max_size=2).map(tuple),
        doi=st.none() | _line,
        url=st.none() | _line,
        pages=st.none() | _line,
        fields=st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,8}", fullmatch=True), _text, max_size=2).map(
            lambda d: tuple(sorted(d.items()))
        ),
        generated=st.sets(st.sampled_from(["key", "title", "shorttitle", "tags"])).map(frozenset),
        sources=st.lists(
            st.builds(Source, file=_text, paragraph=st.none() | st.integers(1, 99), line=st.none() | st.integers(1, 999)),
            max_size=2,
        ).map(tuple),
    ),
    status=st.sampled_from(["unread", "reading", "read", "skipped"]),
    history=st.lists(st.builds(Event, event=_line, date=_line), max_size=3).map(tuple),
    notes=_text,
    user_tags=st.lists(_line, max_size=3).map(tuple),
    priority=st.none() | st.integers(1, 3),
    rating=st.none() | st.integers(1, 5),
)

# Values of every type TOML has, for the keys a paper file knows (and a few it does not).
_scalar = st.one_of(_text, st.integers(-3, 7), st.booleans(), st.floats(allow_nan=False))
_value = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_line, inner, max_size=3), max_leaves=6)
_TOP = ("key", "type", "title", "shorttitle", "venue", "year", "tags", "abstract", "authors", "doi", "url", "pages", "fields", "sources")
_STATE = ("status", "priority", "rating", "tags", "notes", "history")


@st.composite
def _file_data(draw):
    """A parsed file: mostly a valid paper's data, with some values swapped for anything."""
    data = tomllib.loads(paperfile.render(paperfile.canonical(draw(_papers))))
    for name in draw(st.lists(st.sampled_from(_TOP + ("generated", "state", "zzz")), max_size=2)):
        data[name] = draw(_value)
    state = data.get("state")
    if isinstance(state, dict):
        for name in draw(st.lists(st.sampled_from(_STATE), max_size=2)):
            state[name] = draw(_value | st.sampled_from(["read", "reading", 2, [{"event": 1}]]))
    return data


def _outcome(fn, *args):
    try:
        return fn(*args)
    except StoreError as exc:
        return ("error", str(exc))


@settings(max_examples=300, deadline=None)
@given(_file_data())
def test_a_file_is_read_by_the_one_validator(data):
    """Whatever a file holds, the paper read from it is checked_row's (one validator for the
    single-paper reads, the bulk read and the cache): an error naming the file, or a row that
    is the paper's, whose file reads back the same by either reader."""
    outcome = _outcome(paperdata.checked_row, data, "x.toml", "")
    if isinstance(outcome, tuple) and outcome[:1] == ("error",):
        assert outcome[1].startswith("x.toml")
        assert _outcome(paperfile.from_data, data, "x.toml", "") == outcome
        return
    paper = paperfile.from_data(data, "x.toml")
    assert paperfile.paper_to_row(paper) == outcome and paperfile.row_to_paper(outcome) == paper
    again = paperfile.parse(paperfile.render(paper), "x.toml")  # (a value render leaves out, such as
    text = paperfile.render(again)  # type = "" or venue = "", reads back as its default: then stable)
    assert paperfile.parse(text, "x.toml") == again and again.key == paper.key and again.status == paper.status
    fast = paperrow.read_rendered(text)  # (None: it steps aside, as for an author with no name)
    assert fast is None or fast == paperdata.checked_row(tomllib.loads(text), "x.toml", text)


@settings(max_examples=100, deadline=None)
@given(_papers)
def test_every_file_readinglist_writes_reads_back_as_its_paper(paper):
    text = paperfile.render(paperfile.canonical(paper))
    assert paperfile.from_data(tomllib.loads(text), "x.toml", text) == paperfile.canonical(paper)
    assert paperfile.row_to_paper(paperrow.read_rendered(text)) == paperfile.canonical(paper)


@pytest.mark.skipif(paperfile.compiled_loads() is None, reason="no compiled TOML reader installed")
@settings(max_examples=150, deadline=None)
@given(_papers)
def test_the_compiled_reader_reads_files_as_tomllib_does(paper):
    text = paperfile.render(paperfile.canonical(paper))
    loads = paperfile.compiled_loads()
    assert loads(text) == tomllib.loads(text)
    assert paperfile.parse(text, "x.toml", loads=loads) == paperfile.parse(text, "x.toml")
    assert paperfile.parse_row(text, "x.toml", loads=loads) == paperfile.paper_to_row(paperfile.parse(text, "x.toml"))
    name = "x.toml"

    def loaded(b):  # marshal may write equal values as one object or two: compare the values
        return (b[0], b[1], marshal.loads(b[2]), b[3])

    assert loaded(cache.bundle_row(name, paperfile.parse_row(text, name))) == loaded(cache.bundle(name, paperfile.parse(text, name)))


@pytest.mark.parametrize(
    "text",
    ['key = "a"\ntitle = \n', 'key = "a"\nkey = "b"\n', 'key = "a"\n[state]\nstatus = "done"\n', 'title = "no key"\n'],
)
def test_a_bad_file_is_reported_alike_with_a_compiled_reader(text):
    def loads(t):  # whatever reader is installed, or a stand-in that fails
        return (paperfile.compiled_loads() or tomllib.loads)(t)

    assert _outcome(paperfile.parse, text, "x.toml", ) == _outcome(lambda: paperfile.parse(text, "x.toml", loads=loads))


# --------------------------------------------------------------------------- whole stores


def _store(tmp_path, n: int = 12) -> Store:
    store = Store.open(tmp_path / "lib", clock=lambda: "2026-11-30T06:15:00Z")
    store.import_records(
        [Record(key=f"p{i:02d}", title=f"Title {i}", abstract=ABSTRACTS[i], tags=("llm",)) for i in range(n)]
    )
    return store


@pytest.fixture
def parallel(monkeypatch):
    monkeypatch.setattr(cache.bulk, "PARALLEL_MIN_FILES", 0)
    monkeypatch.setattr(cache.bulk, "COMPILED_MIN_FILES", 0)
    monkeypatch.setattr(cache.bulk, "STREAM_CHUNK", 2)  # the workers send several chunks
    monkeypatch.setattr(cache.bulk, "FIXED_US", 0)  # this process takes a share of a few files too


def test_parallel_parsing_gives_the_serial_result(tmp_path, monkeypatch, parallel):
    store = _store(tmp_path)
    names = sorted(os.listdir(store.papers_dir))
    parsed, vanished = cache.parse_files(store.papers_dir, names + ["gone.toml"], processes=3)
    serial = {n: paperfile.parse(paperfile.read_text(store.papers_dir / n), store.papers_dir / n) for n in names}
    assert parsed == serial and list(parsed) == names and vanished == ["gone.toml"]
    for n in names:  # a fresh clone: no cache, every file parsed
        os.utime(store.papers_dir / n)
    assert [p.key for p in Store.open(store.root, processes=3).find(tags=["llm"])] == [f"p{i:02d}" for i in range(12)]


def test_parallel_parsing_reports_the_first_bad_file(tmp_path, monkeypatch, parallel):
    store = _store(tmp_path)
    names = sorted(os.listdir(store.papers_dir))
    for bad in (names[2], names[9]):  # one in each worker's share
        (store.papers_dir / bad).write_text('key = "x"\ntitle = \n', encoding="utf-8")
    with pytest.raises(StoreError) as parallel_error:
        cache.parse_files(store.papers_dir, names, processes=2)
    with pytest.raises(StoreError) as serial_error:
        cache.parse_files(store.papers_dir, names, processes=1)
    assert str(parallel_error.value) == str(serial_error.value) and names[2] in str(serial_error.value)
    (store.papers_dir / names[2]).write_text(paperfile.render(Paper(Record(key="x", title="t"))), encoding="utf-8")
    with pytest.raises(StoreError, match=names[9]):  # found by the worker, reported by the parent
        cache.parse_files(store.papers_dir, names, processes=2)


def test_a_failing_worker_leaves_its_share_to_the_parent(tmp_path, monkeypatch, parallel):
    store = _store(tmp_path)
    names = sorted(os.listdir(store.papers_dir))
    parent = os.getpid()
    real = cache.parse_share

    def flaky(papers_dir, share, *args):
        if os.getpid() != parent:
            raise MemoryError("worker died")
        return real(papers_dir, share, *args)

    monkeypatch.setattr(cache.bulk, "parse_share", flaky)
    parsed, _ = cache.parse_files(store.papers_dir, names, processes=2)
    assert sorted(parsed) == names
    monkeypatch.setattr(cache.bulk, "fork_parse", lambda *a: None)  # no fork at all
    parsed, _ = cache.parse_files(store.papers_dir, names, processes=2)
    assert sorted(parsed) == names


def test_a_worker_dying_midway_leaves_the_rest_of_its_share_to_the_parent(tmp_path, monkeypatch, parallel):
    """A fresh read whose worker sent some chunks and died: every paper is listed, as the files say."""
    import shutil

    store = _store(tmp_path)
    names = sorted(os.listdir(store.papers_dir))
    expected = [(p.key, p.record.title) for p in store.find()]
    parent = os.getpid()
    real = cache.bundle_row

    def dies_at_the_last_files(name, row):
        if os.getpid() != parent and name in names[-3:]:
            raise MemoryError("worker died")
        return real(name, row)

    monkeypatch.setattr(cache.database, "bundle_row", dies_at_the_last_files)
    shutil.rmtree(store.cache_dir)
    again = Store.open(store.root, processes=2)
    assert [(p.key, p.record.title) for p in again.find()] == expected and not again.broken


@pytest.mark.parametrize("first, second", [(0, 11), (5, 10)])  # across the parts; across a worker's chunks
def test_a_key_in_two_files_of_a_fresh_read_is_reported_whatever_part_they_are_in(tmp_path, monkeypatch, parallel, first, second):
    import shutil

    store = _store(tmp_path)
    names = sorted(os.listdir(store.papers_dir))
    path = store.papers_dir / names[second]
    path.write_text(path.read_text(encoding="utf-8").replace(f'key = "p{second:02d}"', f'key = "p{first:02d}"', 1), encoding="utf-8")
    shutil.rmtree(store.cache_dir)
    with pytest.raises(StoreError, match=rf"{names[first]} and .*{names[second]} both have key 'p{first:02d}'"):
        Store.open(store.root, processes=2).find()


def _read_outcome(path):
    try:
        return paperfile.read_text(path)
    except FileNotFoundError:
        return None
    except StoreError as exc:
        return ("error", str(exc))


def test_the_bulk_reader_reads_what_read_text_reads(tmp_path, monkeypatch):
    """Texts, missing files and every refusal (FIFO, folder, link to nothing, not UTF-8, too
    large) come out as read_text gives them; a FIFO never blocks, also when not named careful."""
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "a.toml").write_text('key = "a"\n', encoding="utf-8")
    (folder / "empty.toml").write_bytes(b"")
    (folder / "latin.toml").write_bytes(b'key = "caf\xe9"\n')
    (folder / "big.toml").write_bytes(b"x" * 300)
    (folder / "dir.toml").mkdir()
    os.mkfifo(folder / "fifo.toml")
    (folder / "link.toml").symlink_to(folder / "a.toml")
    (folder / "dangling.toml").symlink_to(folder / "nothing.toml")
    monkeypatch.setattr(paperrow, "PAPER_LIMIT", 200)  # (read_text and read_texts live there)
    names = sorted(os.listdir(folder)) + ["missing.toml"]
    expected = {n: _read_outcome(folder / n) for n in names}
    assert expected["link.toml"] == 'key = "a"\n' and expected["missing.toml"] is None
    assert all(isinstance(expected[n], tuple) for n in ("latin.toml", "big.toml", "dir.toml", "fifo.toml"))
    for careful in (set(), {"fifo.toml", "dir.toml"}):

        def bulk(reading=names, careful=careful):
            out = {}
            try:
                for name, text in paperfile.read_texts(folder, reading, careful):
                    out[name] = text
            except StoreError as exc:  # the bulk reader raises read_text's error for that file
                out[reading[len(out)]] = ("error", str(exc))
            return out

        got = {}
        for name in names:  # one at a time, so that an error does not stop the others
            got.update(bulk([name]))
        assert got == expected
        assert bulk() == {n: expected[n] for n in names[: names.index("big.toml") + 1]}  # stops at the first error


def test_a_store_with_files_that_are_not_papers_reads_the_others(tmp_path, parallel, monkeypatch):
    """A fresh clone's bulk read (parallel, compiled reader) of a store holding a FIFO, a folder and
    a file that is not UTF-8 among its papers: those are reported, the others listed."""
    store = _store(tmp_path)
    os.mkfifo(store.papers_dir / "fifo.toml")
    (store.papers_dir / "dir.toml").mkdir()
    (store.papers_dir / "latin.toml").write_bytes(b'key = "caf\xe9"\n')
    again = Store.open(store.root, processes=2)
    assert [p.key for p in again.find()] == [f"p{i:02d}" for i in range(12)]
    assert sorted(b.split(":")[0].rsplit("/", 1)[1] for b in again.broken) == ["dir.toml", "fifo.toml", "latin.toml"]


def test_bad_files_in_either_part_of_a_fresh_read_are_reported_and_the_rest_listed(tmp_path, parallel, monkeypatch):
    """The first part (this process's share) and the second (the workers') each note their bad
    files, and every other paper is listed."""
    store = _store(tmp_path)
    names = sorted(os.listdir(store.papers_dir))
    for bad in (names[1], names[10]):  # one in this process's share, one in a worker's
        (store.papers_dir / bad).write_text('key = "x"\ntitle = \n', encoding="utf-8")
    again = Store.open(store.root, processes=2)
    keys = [p.key for p in again.find()]
    assert keys == [f"p{i:02d}" for i in range(12) if i not in (1, 10)]
    assert sorted(b.split(":")[0].rsplit("/", 1)[1] for b in again.broken) == [names[1], names[10]]


def test_a_read_stopped_between_its_parts_leaves_a_cache_that_reads_right(tmp_path, parallel, monkeypatch):
    """A process stopped after writing the first part: the next one reads the rest, and the
    answer is what reading the files gives."""
    store = _store(tmp_path)
    store.set_status("p03", "read")
    real = cache.write_part
    calls = []

    def stop_at_second(*args):
        chunks = list(args[5])  # (name -> row, lost) as they came
        calls.append(sum(len(parsed) for parsed, _ in chunks))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args[:5], chunks, *args[6:])

    import shutil

    shutil.rmtree(store.cache_dir)
    monkeypatch.setattr(cache.update, "write_part", stop_at_second)
    with pytest.raises(KeyboardInterrupt):
        Store.open(store.root, processes=2).find()
    assert len(calls) == 2 and 0 < calls[0] < 12
    monkeypatch.setattr(cache.update, "write_part", real)
    (store.papers_dir / "p05.toml").write_text(paperfile.render(Paper(Record(key="p05", title="Edited"))), encoding="utf-8")
    found = Store.open(store.root, processes=2).find()
    assert [p.key for p in found] == [f"p{i:02d}" for i in range(12)]
    assert found[3].status == "read" and found[5].record.title == "Edited"


_CONTROL_CHARS = st.text(st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=300)
@given(_CONTROL_CHARS, _CONTROL_CHARS, st.none() | _CONTROL_CHARS, st.none() | st.integers(0, 3000), st.lists(_CONTROL_CHARS, max_size=3))
def test_a_plain_line_is_one_line_of_five_fields_without_control_characters(key, title, venue, year, tags):
    line = cache.plain_line(key, "read", venue, year, tuple(tags), title)
    assert line.endswith("\n") and line.count("\n") == 1 and line.count("\t") == 4
    assert not any(ord(ch) < 32 and ch not in "\t\n" or 0x7F <= ord(ch) <= 0x9F for ch in line)
    fields = (key, venue or "", ",".join(tags), title)
    if not any(ch in f for f in fields for ch in "\t\n") and not any(cache.LINE_CONTROLS.search(f) for f in fields):
        assert line == f"{key}\tread\t{venue or ''} {year or ''}\t{','.join(tags)}\t{title}\n"


@settings(max_examples=25)
@given(st.lists(_papers, min_size=1, max_size=4, unique_by=lambda p: p.key.casefold()), _papers)
def test_the_line_the_cache_keeps_is_the_papers_line(papers, edited):
    """``find(lines=True)`` (the cache's column) is :func:`plain_line_of` of the papers the
    files hold, for any paper a file can hold, also after a file is rewritten by hand."""
    import tempfile

    def truth(store):
        papers = [paperfile.parse(paperfile.read_text(store.papers_dir / n), n) for n in sorted(os.listdir(store.papers_dir))]
        return [cache.plain_line_of(p) for p in sorted(papers, key=lambda p: p.key)]

    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(folder)
        for p in papers:
            (store.papers_dir / f"{p.key}.toml").write_text(paperfile.render(paperfile.canonical(p)), encoding="utf-8")
        assert store.find(lines=True) == truth(store)
        found = store.find()
        assert store.find(lines=True, sort="-title", limit=2) == [cache.plain_line_of(p) for p in store.find(sort="-title", limit=2)]
        with store.transaction():  # the in-memory path gives the same lines
            assert store.find(lines=True) == [cache.plain_line_of(p) for p in found]
        # a hand edit: the first file now holds another paper (its key kept, so keys stay unique)
        other = paperfile.canonical(edited.evolve(record=edited.record.evolve(key=papers[0].key)))
        (store.papers_dir / f"{papers[0].key}.toml").write_text(paperfile.render(other), encoding="utf-8")
        assert store.find(lines=True) == truth(store)


def test_a_cache_is_in_wal_mode_once_filled(tmp_path):
    """A new cache is filled in rollback-journal mode, then readers never wait for a writer:
    WAL mode, also when another process (an import) made and filled it."""
    import sqlite3

    store = _store(tmp_path)
    path = store.cache_dir / cache.CACHE_NAME
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] in ("wal", "delete")
    Store.open(store.root).find()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    path.unlink()
    db = cache.connect(store.cache_dir)  # made afresh: rollback mode until filled
    assert db is not None and db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()
    db = cache.connect(store.cache_dir)  # opened again: WAL
    assert db is not None and db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def _tomllib_row(text: str):
    """The row tomllib's reading of ``text`` gives (the careful path), or the error."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "not TOML"
    return _outcome(paperdata.checked_row, data, "x.toml", text)


@settings(max_examples=200, deadline=None)
@given(_papers)
def test_a_file_as_readinglist_writes_it_is_read_without_a_toml_parser(paper):
    """read_rendered reads every file render writes, to the row tomllib reads from it."""
    text = paperfile.render(paper)
    row = paperfile.read_rendered(text)
    assert row is not None and row == _tomllib_row(text)
    assert paperfile.render_row(row) == text
    assert paperfile.parse(text, "x.toml") == paperfile.canonical(paper)


_EDITS = st.sampled_from(["", " ", "\n", '"', "'", "\\", "\\u0041", "\\t", "#", "=", "[", "]", "{", "}", ",", "0", "-", "a", "é", "\t", "\r"])


@settings(max_examples=400, deadline=None)
@given(_papers, st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), _EDITS), min_size=1, max_size=3))
def test_an_edited_file_is_read_as_tomllib_reads_it_or_left_to_it(paper, edits):
    """A file changed anywhere (a hand edit, a broken one) is read by read_rendered only when
    it gives what tomllib gives; otherwise it steps aside (None)."""
    text = paperfile.render(paper)
    for where, cut, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert + text[at + cut :]
    row = paperfile.read_rendered(text)
    if row is not None:
        assert row == _tomllib_row(text)
        assert paperfile.parse_row(text, "x.toml") == row


def _kept_json(store) -> dict[str, bytes]:
    """The JSON lines the store's cache keeps, by file name."""
    import sqlite3

    db = sqlite3.connect(store.cache_dir / cache.CACHE_NAME)
    try:
        return dict(db.execute("SELECT name, line FROM jsonl"))
    finally:
        db.close()


@settings(max_examples=25, deadline=None)
@given(st.lists(_papers, min_size=1, max_size=4, unique_by=lambda p: p.key.casefold()), _papers)
def test_the_json_line_the_cache_keeps_is_the_papers_json(papers, edited):
    """``find(json=True)`` (what ``list --json`` prints: the cache's line, made when first
    asked for) is the careful encoding of each paper the files hold (``json.dumps`` of
    :func:`paper_json`, hidden characters escaped): when made, when kept, after a hand edit (the
    changed paper's line is made again, the others kept), with filters, inside a transaction.
    (A file changed within RACY_NS of a scan is read again, and its line made again, until it
    settles: the test waits that long after each write.)"""
    import json
    import tempfile
    import time

    from readinglist.text.controls import json_safe

    def careful(found):
        return [(json_safe(json.dumps(cache.paper_json(p), ensure_ascii=False)) + "\n").encode() for p in found]

    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(folder)
        for p in papers:
            (store.papers_dir / f"{p.key}.toml").write_text(paperfile.render(paperfile.canonical(p)), encoding="utf-8")
        time.sleep(cache.RACY_NS / 1e9 + 0.05)
        assert store.find(sort="title") and _kept_json(store) == {}  # (the cache made, no line yet)
        assert store.find(json=True) == careful(store.find())  # made
        assert len(_kept_json(store)) == len(papers)
        assert store.find(json=True) == careful(store.find())  # kept
        assert store.find(json=True, sort="-title", limit=2) == careful(store.find(sort="-title", limit=2))
        assert store.find(json=True, status="read") == careful(store.find(status="read"))
        with store.transaction():  # the in-memory path
            assert store.find(json=True) == careful(store.find())
        other = paperfile.canonical(edited.evolve(record=edited.record.evolve(key=papers[0].key)))
        (store.papers_dir / f"{papers[0].key}.toml").write_text(paperfile.render(other), encoding="utf-8")
        time.sleep(cache.RACY_NS / 1e9 + 0.05)
        kept = _kept_json(store)
        found = store.find()
        assert f"{papers[0].key}.toml" not in _kept_json(store)  # dropped with the file's row
        assert store.find(json=True) == careful(found)
        assert {n: v for n, v in _kept_json(store).items() if n != f"{papers[0].key}.toml"} == {n: v for n, v in kept.items() if n != f"{papers[0].key}.toml"}


def test_a_json_line_is_made_but_not_kept_while_another_process_writes_the_cache(tmp_path):
    """A reader never waits for the cache's write lock to keep a JSON line: it prints the lines
    it made and leaves them to the next run."""
    import sqlite3
    import time

    store = Store.open(tmp_path / "s")
    from helpers import unrelated_records

    store.import_records(unrelated_records(3))
    time.sleep(cache.RACY_NS / 1e9 + 0.05)  # files changed just before a scan are read again (their lines too)
    truth = [cache.json_line(p).encode() for p in store.find()]
    other = sqlite3.connect(store.cache_dir / cache.CACHE_NAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert store.find(json=True) == truth
        assert _kept_json(store) == {}
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.find(json=True) == truth
    assert len(_kept_json(store)) == 3


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@given(_json_values)
def test_json_text_is_json_dumps_with_hidden_characters_escaped(value):
    """The encoder's shortcut (the ASCII encoder first, the asked-for one when that wrote a
    ``\\u`` escape) gives json.dumps' text, with json_safe's escapes on a UTF-8 stdout."""
    import json

    from readinglist.text.controls import json_safe

    assert cache.json_text(value) == json_safe(json.dumps(value, ensure_ascii=False))
    assert cache.json_text(value, ascii_only=True) == json_safe(json.dumps(value, ensure_ascii=True))
    assert cache.json_text(value, indent=2) == json_safe(json.dumps(value, ensure_ascii=False, indent=2))
    assert cache.json_text(value, ascii_only=True, indent=2) == json_safe(json.dumps(value, ensure_ascii=True, indent=2))


@pytest.mark.parametrize("text", ["plain", "caf\u00e9", "tab\there", "del\x7f", "c1\x85", "rtl\u202e", "\\u00e9 typed", "astral \U0001f600", "lone \udc80"])
def test_json_text_on_the_texts_either_encoder_escapes(text):
    import json

    from readinglist.text.controls import json_safe

    assert cache.json_text({"t": text}) == json_safe(json.dumps({"t": text}, ensure_ascii=False))
    assert cache.json_text({"t": text}, indent=2) == json_safe(json.dumps({"t": text}, ensure_ascii=False, indent=2))
