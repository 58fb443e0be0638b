"""An import works batch by batch (store/importer.py) without loading the store's papers: the
same files and findings as one batch, near duplicates found across batches and against the
store, and nothing of a failed import in the files or in the cache."""

from __future__ import annotations

import sqlite3

import pytest
from helpers import ABSTRACTS, word_edits

from readinglist.errors import ValidationError
from readinglist.record import Record
from readinglist.store import cache, importer, paperfile
from readinglist.store.library import Store

CLOCK = lambda: "2026-01-01T00:00:00Z"  # noqa: E731


def _records(abstracts: list[str], prefix: str) -> list[Record]:
    return [Record(key=f"{prefix}{i}", title=f"{prefix.upper()} {i}", abstract=a, year=2026, doi=f"10.1/{prefix}{i}") for i, a in enumerate(abstracts)]


def _files(root) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "papers").glob("*.toml")}


def _imports(root):
    """Two imports: the second brings near twins of the first's papers, of its own earlier
    papers (in other batches), exact repeats, records without abstract found by key and DOI."""
    store = Store.open(root, clock=CLOCK)
    first = store.import_records(_records(ABSTRACTS[:12], "a"))
    twins = [word_edits(a, 1, i) for i, a in enumerate(ABSTRACTS[:4])]  # of the store's papers
    own = ABSTRACTS[12:20]
    later = [word_edits(a, 1, 50 + i) for i, a in enumerate(own[:3])]  # of this import's own papers
    second = _records(twins + own + later + ABSTRACTS[5:7], "b")
    second += [Record(key="a3", title="A 3", year=2026, doi="10.1/a3", pages="1--9"), Record(key="zz", title="Z", doi="10.1/b5", year=2026)]
    return first, store.import_records(second)


def test_batches_give_the_same_files_and_findings_as_one_batch(tmp_path, monkeypatch):
    one = _imports(tmp_path / "one")
    monkeypatch.setattr(importer, "BATCH", 2)
    small = _imports(tmp_path / "small")
    assert small == one
    _, second = small
    # near twins of the store's papers and of this import's earlier batches were merged, not added
    assert {d.key for d in second.duplicates if not d.exact} >= {"a0", "a1", "a2", "a3", "b4", "b5", "b6"}
    assert "a3" in second.updated and "b5" in second.updated  # by key, by DOI
    assert len(second.added) == 8
    assert _files(tmp_path / "small") == _files(tmp_path / "one")
    assert len(_files(tmp_path / "one")) == 20
    for paper in Store.open(tmp_path / "small"):  # the cache written batch by batch holds the files' papers
        assert paperfile.render(paper) == (tmp_path / "small" / "papers" / f"{paper.key}.toml").read_text(encoding="utf-8")


def test_an_import_into_a_store_parses_none_of_its_files(tmp_path, monkeypatch):
    store = Store.open(tmp_path / "s", clock=CLOCK)
    store.import_records(_records(ABSTRACTS[:20], "a"))
    store.find()  # the cache is current
    parsed = []
    real_parse = paperfile.parse
    monkeypatch.setattr(paperfile, "parse", lambda *a, **k: parsed.append(a[1]) or real_parse(*a, **k))
    real_paper_of = Store._paper_of  # (single-paper reads: a file's paper)
    monkeypatch.setattr(Store, "_paper_of", lambda self, name, text: parsed.append(name) or real_paper_of(self, name, text))
    monkeypatch.setattr(Store, "_load_index", lambda *a, **k: pytest.fail("an import loaded every paper"))
    summary = Store.open(tmp_path / "s", clock=CLOCK).import_records(_records([word_edits(ABSTRACTS[7], 1, 3), ABSTRACTS[25]], "n"))
    assert [d.key for d in summary.duplicates] == ["a7"] and summary.added == ("n1",)
    assert parsed == []


def _rows(root) -> int:
    db = sqlite3.connect(root / ".cache" / cache.CACHE_NAME)
    try:
        return db.execute("SELECT count(*) FROM papers").fetchone()[0]
    finally:
        db.close()


def test_a_failed_import_leaves_the_files_and_the_cache_as_they_were(tmp_path, monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 3)
    root = tmp_path / "s"
    Store.open(root).import_records(_records(ABSTRACTS[:5], "a"))
    before = _files(root)
    assert _rows(root) == 5
    bad = _records(ABSTRACTS[5:20], "b")
    with pytest.raises(ValidationError):  # refused in the 5th batch, after four were written to the cache
        Store.open(root).import_records(bad, states={"b13": {"status": "not-a-status"}})
    assert _files(root) == before
    assert _rows(root) == 5
    assert Store.open(root).keys() == [f"a{i}" for i in range(5)]
