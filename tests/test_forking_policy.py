"""One parallelism policy: the library forks only when its caller passes ``processes`` > 1, and
what it gives with forked workers is what it gives in one process, at every site that may fork
(a store read from nothing, exports, imports of abstract lists and of BibTeX).

Every threshold below which a site stays in one process is lowered to a few items, so that these
small stores and lists would fork wherever the caller allows it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import CONFIG, FIXED_TIME, SEED_FILES

from readinglist import forking, jobs
from readinglist.convert import pipeline
from readinglist.formats import exporting
from readinglist.formats.bibtex import reader as bibtex_reader
from readinglist.formats.bibtex import writer as bibtex_writer
from readinglist.formats.csljson import writer as csljson_writer
from readinglist.formats.markdown import writer as markdown_writer
from readinglist.store import Store, cache

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forking is POSIX only")

EXPORT_FORMATS = ("bibtex", "csljson", "markdown", "zotero", "html")


@pytest.fixture
def eager(monkeypatch):
    """Every site forks for a handful of items (when allowed to)."""
    monkeypatch.setattr(cache.files, "FORK_MIN_FILES", 0)
    monkeypatch.setattr(cache.bulk, "PARALLEL_MIN_FILES", 0)
    monkeypatch.setattr(cache.bulk, "FIXED_US", 0)  # this process takes a share of a few files too
    monkeypatch.setattr(cache.bulk, "STREAM_CHUNK", 2)
    monkeypatch.setattr(exporting, "FORK_MIN_PAPERS", 1)
    for writer in (bibtex_writer, csljson_writer, markdown_writer):
        monkeypatch.setattr(writer, "CHUNK", 2)
    monkeypatch.setattr(pipeline, "PARALLEL_MIN", 2)
    monkeypatch.setattr(jobs, "_LARGE_LIST", 0)
    monkeypatch.setattr(bibtex_reader, "PARALLEL_ENTRIES", 2)


@pytest.fixture
def forks(monkeypatch):
    """The pids of the children forked meanwhile (os.fork is what forking.py and the
    multiprocessing pool both call)."""
    started: list[int] = []
    real = os.fork

    def counting() -> int:
        pid = real()
        if pid:
            started.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counting)
    return started


@pytest.fixture
def no_fork(monkeypatch):
    """Any fork fails the test (AssertionError: no site may take it for an OSError and go on)."""

    def refuse() -> int:
        raise AssertionError("the library forked although its caller did not ask")

    monkeypatch.setattr(os, "fork", refuse)


def _open(root: Path, processes: int = 1) -> Store:
    return Store.open(root, config=CONFIG, clock=lambda: FIXED_TIME, processes=processes)


def _files(store: Store) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(store.papers_dir.glob("*.toml"))}


def _import(root: Path, processes: int) -> Store:
    store = _open(root, processes)
    jobs.import_files(store, SEED_FILES[:1], config=CONFIG, format="abstracts", processes=processes)
    return store


def test_workers_is_one_unless_the_caller_asks_for_more():
    assert forking.workers(1) == forking.workers(0) == 1
    assert forking.workers(3) == 3 and forking.workers(8, 4) == 4
    assert forking.cores() >= 1


def test_the_library_with_its_default_arguments_never_forks(tmp_path, eager, no_fork):
    """Import, a read from nothing (a fresh clone), a transaction's read, every export and a
    BibTeX import, with every threshold lowered: no fork anywhere."""
    store = _open(tmp_path / "a")
    jobs.import_files(store, SEED_FILES[:1], config=CONFIG, format="abstracts")
    shutil.rmtree(store.cache_dir)
    fresh = Store.open(store.root)
    papers = fresh.find()
    assert len(papers) > 4 and not fresh.broken
    shutil.rmtree(store.cache_dir)
    with Store.open(store.root).transaction() as inside:
        assert len(inside.find()) == len(papers)
    for name in EXPORT_FORMATS:
        assert jobs.export_papers(papers, config=CONFIG, format=name)
    bib = tmp_path / "all.bib"
    bib.write_text(jobs.export_papers(papers, config=CONFIG, format="bibtex"), encoding="utf-8")
    report = jobs.import_files(_open(tmp_path / "b"), [bib], config=CONFIG)
    assert len(report.added) == len(papers)


def test_a_store_read_from_nothing_is_the_same_with_workers(tmp_path, eager, forks):
    """Store.open's read of a store without a cache (the stat pass, the parse of every file):
    the same papers and the same broken files with processes=1 and processes=2."""
    store = _import(tmp_path / "a", 1)
    results = []
    for processes in (1, 2):
        forks.clear()
        shutil.rmtree(store.cache_dir, ignore_errors=True)
        with Store.open(store.root, processes=processes).transaction() as inside:  # the view: cache.sync
            results.append(inside.find())
        assert bool(forks) == (processes > 1)
    (store.papers_dir / "bad.toml").write_text('key = "x"\ntitle = \n', encoding="utf-8")
    for processes in (1, 2):  # the cache's sync: stat pass and streamed parse
        forks.clear()
        shutil.rmtree(store.cache_dir, ignore_errors=True)
        opened = Store.open(store.root, processes=processes)
        results.append((opened.find(), opened.broken))
        assert bool(forks) == (processes > 1)
    assert results[0] == results[1] and results[2] == results[3] and results[2][1]
    assert results[2][0] == results[0]


@pytest.mark.parametrize("name", EXPORT_FORMATS)
def test_an_export_is_the_same_with_workers(tmp_path, eager, forks, name):
    papers = list(_import(tmp_path / "a", 1))
    serial = jobs.export_papers(papers, config=CONFIG, format=name, with_status=True, with_notes=True)
    assert not forks
    parallel = jobs.export_papers(papers, config=CONFIG, format=name, with_status=True, with_notes=True, processes=2)
    assert parallel == serial
    if name in ("bibtex", "csljson", "markdown"):  # the streamed exporters
        assert forks


def test_an_import_is_the_same_with_workers(tmp_path, eager, forks):
    """Abstract lists generated by a pool of workers, and a BibTeX file read by two processes,
    give the very files one process writes."""
    serial = _import(tmp_path / "serial", 1)
    assert not forks
    parallel = _import(tmp_path / "parallel", 2)
    assert forks and _files(parallel) == _files(serial)
    bib = tmp_path / "all.bib"
    bib.write_text(jobs.export_papers(list(serial), config=CONFIG, format="bibtex", with_status=True), encoding="utf-8")
    texts = []
    for processes in (1, 2):
        forks.clear()
        store = _open(tmp_path / f"bib{processes}", processes)
        jobs.import_files(store, [bib], config=CONFIG, processes=processes)
        assert bool(forks) == (processes > 1)
        texts.append(_files(store))
    assert texts[0] == texts[1] and len(texts[0]) == len(_files(serial))
