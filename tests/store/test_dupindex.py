"""The near-duplicate index kept in the cache (store/dupindex.py) answers as a fresh NearIndex.

A fresh :class:`NearIndex` built from the store's papers in file-name order is the reference:
the stored index, opened from its SQLite file after any history of imports, hand edits and
removals, must give the same candidates (ids, scores, order) for any query.
"""

from __future__ import annotations

import marshal
import random

from helpers import ABSTRACTS, typos, word_edits
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.convert.matching import NearIndex
from readinglist.record import Paper, Record
from readinglist.store import Store
from readinglist.store import dupindex
from readinglist.store.dupindex import FILE_NAME, StoredNearIndex

THRESHOLD = default_config().duplicate_threshold


def _papers(abstracts: dict[str, str]) -> dict[str, Paper]:
    return {name: Paper(Record(key=name.removesuffix(".toml"), title="T", abstract=a)) for name, a in abstracts.items()}


def _fresh(abstracts: dict[str, str]) -> NearIndex:
    near = NearIndex()
    for name in sorted(abstracts):
        if abstracts[name]:
            near.add(name, abstracts[name])
    return near


def _queries(rng: random.Random, abstracts: list[str]) -> list[str]:
    out = []
    for a in abstracts:
        out += [a, typos(a, 3, rng.randrange(1000)), word_edits(a, 2, rng.randrange(1000))]
    out += [rng.choice(ABSTRACTS)[: rng.randrange(40, 400)], "Completely unrelated words about cooking pasta."]
    return out


def _same_answers(stored: NearIndex, fresh: NearIndex, queries: list[str]) -> None:
    for q in queries:
        for threshold in (THRESHOLD, 60.0):
            assert stored.candidates(q, threshold, limit=5) == fresh.candidates(q, threshold, limit=5), q[:80]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_stored_index_answers_as_a_fresh_one_after_any_history(tmp_path_factory, data):
    """Imports (saves), hand edits of abstracts, removals and files the index never saw: each
    reopened index answers every query exactly as a NearIndex built afresh."""
    cache = tmp_path_factory.mktemp("cache")
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    segments, sort_max = dupindex.MAX_SEGMENTS, dupindex.SORT_MERGE_MAX
    dupindex.MAX_SEGMENTS = data.draw(st.sampled_from([0, 1, segments]))  # 0: compacted on every save
    dupindex.SORT_MERGE_MAX = data.draw(st.sampled_from([0, sort_max]))  # 0: every merge one by one
    try:
        _history(cache, rng, data)
    finally:
        dupindex.MAX_SEGMENTS, dupindex.SORT_MERGE_MAX = segments, sort_max


def _history(cache, rng, data) -> None:
    pool = ABSTRACTS + [word_edits(a, 1, i) for i, a in enumerate(ABSTRACTS)]  # near twins in the store
    abstracts: dict[str, str] = {}
    sigs: dict[str, tuple] = {}
    serial = 0
    for _round in range(data.draw(st.integers(1, 4))):
        lazy = data.draw(st.booleans())
        if lazy:  # as an import opens it: from the signatures, reading abstracts when it must
            indexed = dict(abstracts)  # what abstract_of answers: the store as of the last fold
            near = StoredNearIndex.open_lazy(cache, {n: sigs.get(n) for n in abstracts}, indexed.__getitem__)
        else:
            near = StoredNearIndex.open(cache, _papers(abstracts), sigs)
        reference = _fresh(abstracts)
        _same_answers(near, reference, _queries(rng, rng.sample(pool, 3)))
        for _ in range(data.draw(st.integers(0, 12))):  # an import adds papers
            serial += 1
            name = f"p{rng.randrange(10**6):06d}-{serial}.toml"
            abstracts[name] = rng.choice(pool)
            sigs[name] = (serial, 1, 1, 1)
            # as an import does: look the abstract up, then add it (sketched once for both)
            assert near.best(abstracts[name], THRESHOLD) == reference.best(abstracts[name], THRESHOLD)
            near.add(name, abstracts[name])
            reference.add(name, abstracts[name])
            if lazy and data.draw(st.integers(0, 3)) == 0:  # a batch written: the import folds
                indexed.update(abstracts)
                near.fold()
        if abstracts and data.draw(st.booleans()):  # ...and updates one
            name = rng.choice(sorted(abstracts))
            abstracts[name] = typos(abstracts[name], 2, serial)
            sigs[name] = (serial, 2, 2, 2)
            near.add(name, abstracts[name])
            reference.add(name, abstracts[name])
        if lazy and data.draw(st.booleans()):
            indexed.update(abstracts)
            near.fold()
        # in the middle of the import, it answers as a fresh index of the store and the import's
        # papers in the order they came
        _same_answers(near, reference, _queries(rng, rng.sample(pool, 2)))
        if data.draw(st.booleans()):
            near.save(sigs)
        change = data.draw(st.sampled_from(["none", "edit", "remove", "unseen", "sig-only"]))
        if abstracts and change in ("edit", "remove", "sig-only"):
            name = rng.choice(sorted(abstracts))
            if change == "edit":  # a person changed the abstract by hand
                abstracts[name] = rng.choice(ABSTRACTS)
                sigs[name] = (serial, 3, 3, 3)
            elif change == "remove":
                del abstracts[name], sigs[name]
            else:  # a mark or a note: the file changed, its abstract did not
                sigs[name] = (serial, 4, 4, 4)
        elif change == "unseen":  # a file written by someone else (or an import killed before saving)
            serial += 1
            abstracts[f"hand-{serial}.toml"] = rng.choice(pool)
            sigs[f"hand-{serial}.toml"] = (serial, 5, 5, 5)  # the store stats every file it lists
    near = StoredNearIndex.open(cache, _papers(abstracts), sigs)
    _same_answers(near, _fresh(abstracts), _queries(rng, rng.sample(pool, 4)))


def _indexed(path) -> set[str]:
    return {n for n in marshal.loads(path.read_bytes())[1] if n is not None}


def test_an_unreadable_file_is_rebuilt(tmp_path):
    abstracts = {f"p{i}.toml": a for i, a in enumerate(ABSTRACTS[:10])}
    (tmp_path / FILE_NAME).write_bytes(b"not a database at all" * 50)
    near = StoredNearIndex.open(tmp_path, _papers(abstracts))
    assert near.best(typos(ABSTRACTS[3], 2, 1), THRESHOLD)[0] == "p3.toml"
    near.save({})
    again = StoredNearIndex.open(tmp_path, _papers(abstracts))
    assert _indexed(tmp_path / FILE_NAME) == set(abstracts)
    _same_answers(again, _fresh(abstracts), [ABSTRACTS[5], typos(ABSTRACTS[7], 3, 2)])


def test_imports_keep_the_index_in_the_cache_and_find_duplicates_through_it(tmp_path):
    """A second import reads the index the first one saved (no abstract of the store is
    indexed again) and still finds the near duplicate; a paper removed in between is gone."""
    store = Store.open(tmp_path / "s")
    first = [Record(key=f"k{i}", title=f"T{i}", abstract=a, year=2026) for i, a in enumerate(ABSTRACTS[:20])]
    store.import_records(first)
    db = tmp_path / "s" / ".cache" / FILE_NAME
    assert len(_indexed(db)) == 20
    Store.open(tmp_path / "s").remove(["k4"])
    again = Store.open(tmp_path / "s")
    twin = Record(key="new1", title="New", abstract=word_edits(ABSTRACTS[2], 1, 7), year=2026)
    was_removed = Record(key="new2", title="New", abstract=ABSTRACTS[4], year=2026)
    summary = again.import_records([twin, was_removed])
    assert [d.key for d in summary.duplicates] == ["k2"]
    assert summary.added == ("new2",)
    names = _indexed(db)
    assert "k4.toml" not in names and "new2.toml" in names and len(names) == 20
