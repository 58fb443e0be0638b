"""`import_files` streams: each list's abstracts are stored batch by batch as they are generated
(jobs.import_files -> Converter.iter_text -> Store.importing). The store it makes is the one a
whole import makes, byte for byte; duplicates are found across batches, lists and the store;
a failure at any point leaves the store as it was."""

from __future__ import annotations

import os

import pytest
from helpers import ABSTRACTS, CONFIG, SEED_FILES, word_edits

from readinglist.convert import pipeline
from readinglist.errors import InputError, ValidationError
from readinglist.formats.abstracts import importer as abstracts
from readinglist.formats.registry import ImportOptions
from readinglist.jobs import _display_path, import_files
from readinglist.store import importer
from readinglist.store.library import Store

CLOCK = lambda: "2026-11-30T06:15:00Z"  # noqa: E731


def _files(root) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "papers").glob("*.toml")}


def _whole(root, paths) -> None:
    """The import as it was: every list converted, then every record stored at once."""
    records = []
    for path in paths:
        records += abstracts.parse(path.read_text(encoding="utf-8"), source=_display_path(path, CONFIG), options=ImportOptions(config=CONFIG)).records
    Store.open(root, clock=CLOCK).import_records(records)


@pytest.fixture
def small_batches(monkeypatch):
    real = pipeline.Converter.iter_text
    monkeypatch.setattr(pipeline.Converter, "iter_text", lambda self, *a, **k: real(self, *a, **{**k, "batch": 3}))
    monkeypatch.setattr(importer, "BATCH", 2)


def test_a_streamed_seeds_import_makes_the_same_files_as_a_whole_one(tmp_path, small_batches):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for path in SEED_FILES:
        (seeds / path.name).write_bytes(path.read_bytes())
    paths = sorted(seeds.glob("*.txt"))
    _whole(tmp_path / "whole", paths)
    report = import_files(Store.open(tmp_path / "streamed", clock=CLOCK), paths, config=CONFIG)
    assert len(report.added) == 38
    assert _files(tmp_path / "streamed") == _files(tmp_path / "whole")


def _list(abstracts: list[str]) -> str:
    return "NeurIPS 2026\n\n" + "\n\n".join(abstracts) + "\n"


def test_near_duplicates_are_found_across_batches_lists_and_the_store(tmp_path, small_batches):
    store = Store.open(tmp_path / "s")
    (tmp_path / "old.txt").write_text(_list(ABSTRACTS[:6]), encoding="utf-8")
    import_files(store, [tmp_path / "old.txt"], config=CONFIG)
    first = ABSTRACTS[10:18]
    (tmp_path / "a.txt").write_text(_list(first + [word_edits(first[0], 1, 1)]), encoding="utf-8")  # its own twin, batches later
    (tmp_path / "b.txt").write_text(_list([word_edits(first[6], 1, 2), word_edits(ABSTRACTS[2], 1, 3), ABSTRACTS[30]]), encoding="utf-8")
    report = import_files(Store.open(tmp_path / "s"), [tmp_path / "a.txt", tmp_path / "b.txt"], config=CONFIG)
    assert len(report.added) == 9  # 8 of a.txt, 1 of b.txt
    # each paper by the list and paragraph it came from first
    keys = {(p.record.sources[0].file.rsplit("/", 1)[-1], p.record.sources[0].paragraph): p.key for p in Store.open(tmp_path / "s")}
    found = {(d.source.file.rsplit("/", 1)[-1], d.key) for d in report.duplicates}
    assert ("a.txt", keys["a.txt", 1]) in found  # within the list (found before generation)
    assert ("b.txt", keys["a.txt", 7]) in found  # another list of this import, in an earlier batch
    assert ("b.txt", keys["old.txt", 3]) in found  # the store's paper
    assert len(Store.open(tmp_path / "s")) == 15


def test_a_list_refused_after_others_makes_no_store(tmp_path):
    (tmp_path / "good.txt").write_text(_list(ABSTRACTS[:3]), encoding="utf-8")
    (tmp_path / "bad.txt").write_text("\n\n".join(ABSTRACTS[3:5]), encoding="utf-8")  # no header
    with pytest.raises(InputError, match="no venue or year in .*bad.txt"):
        import_files(lambda: Store.open(tmp_path / "s"), [tmp_path / "good.txt", tmp_path / "bad.txt"], config=CONFIG)
    assert not (tmp_path / "s").exists()


def test_a_failure_in_a_later_batch_leaves_the_store_as_it_was_and_names_the_input_line(tmp_path, small_batches, monkeypatch):
    (tmp_path / "old.txt").write_text(_list(ABSTRACTS[:2]), encoding="utf-8")
    import_files(Store.open(tmp_path / "s"), [tmp_path / "old.txt"], config=CONFIG)
    before = _files(tmp_path / "s")
    (tmp_path / "new.txt").write_text(_list(ABSTRACTS[10:20]), encoding="utf-8")
    real = Store._new_paper
    made = []

    def failing(self, record, state, now):  # the 8th new paper has a state the store refuses
        made.append(record.key)
        return real(self, record, {"status": "lost"} if len(made) == 8 else state, now)

    monkeypatch.setattr(Store, "_new_paper", failing)
    with pytest.raises(ValidationError, match=r"new\.txt:\d+ \(paragraph 8\): unknown status 'lost'"):
        import_files(Store.open(tmp_path / "s"), [tmp_path / "new.txt"], config=CONFIG)
    assert _files(tmp_path / "s") == before
    assert not [n for n in os.listdir(tmp_path / "s" / "papers") if n.endswith(".tmp")]
    assert len(Store.open(tmp_path / "s")) == 2
