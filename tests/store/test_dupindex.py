"""The near-duplicate index kept in the cache (store/dupindex.py) answers as a fresh NearIndex.

A fresh :class:`NearIndex` built from the store's papers in file-name order is the reference:
the stored index, opened from its SQLite file after any history of imports, hand edits and
removals, must give the same candidates (ids, scores, order) for any query.
"""

from __future__ import annotations

import marshal
import random
from collections import Counter

from helpers import ABSTRACTS, typos, word_edits
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.convert.matching import NearIndex, normalize
from readinglist.record import Paper, Record
from readinglist.store import Store
from readinglist.store import dupindex, postings
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
    segments, sort_max, lazy_min = dupindex.MAX_SEGMENTS, postings.SORT_MERGE_MAX, dupindex.LAZY_MIN
    dupindex.MAX_SEGMENTS = data.draw(st.sampled_from([0, 1, segments]))  # 0: compacted on every save
    postings.SORT_MERGE_MAX = data.draw(st.sampled_from([0, sort_max]))  # 0: every merge one by one
    dupindex.LAZY_MIN = data.draw(st.sampled_from([0, 1, lazy_min]))  # 0: every phrase of the file counted lazily
    try:
        _history(cache, rng, data)
    finally:
        dupindex.MAX_SEGMENTS, postings.SORT_MERGE_MAX, dupindex.LAZY_MIN = segments, sort_max, lazy_min


def _history(cache, rng, data) -> None:
    pool = ABSTRACTS + [word_edits(a, 1, i) for i, a in enumerate(ABSTRACTS)]  # near twins in the store
    abstracts: dict[str, str] = {}
    sigs: dict[str, tuple] = {}
    serial = 0
    edits = 0
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
                edits += 1  # the file's stat changes with every edit, as a real one's does
                sigs[name] = (serial, 3, edits, 3)
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


# -- the index against the definition of its answer, computed by scanning every text -----------

#: Phrases (longer than a sketch's shortest) that many texts share, as real abstracts share
#: "large language models" or "state of the art": the phrases whose postings a look-up counts
#: lazily, and the common ones it skips.
PHRASES = ["large language models", "we propose a novel method", "extensive experiments show",
           "state of the art results", "reinforcement learning agents", "graph neural networks",
           "diffusion models generate", "in this paper we study", "code is available online",
           "outperforms strong baselines", "a simple yet effective", "vision language models"]  # fmt: skip
WORDS = "sparse attention retrieval robots theory kernels proofs tokens speech memory".split()


def _definition(texts: list[tuple[str, str]], query: str, threshold: float, limit: int) -> list[tuple[str, float]]:
    """NearIndex.candidates by its definition, over ``texts`` ((id, text) in the order added),
    each phrase's texts found by scanning all of them: the texts whose normalised form is the
    query's score 100; the query's phrases held by any text, rarest first, are counted (every
    one held by at most MAX_POSTING texts, then more while fewer than MIN_KEYS are counted and
    none is held by more than MAX_COMMON, unless it is the first), if they are at least a share
    of its phrases; the texts sharing the most counted phrases (at least the share, less the
    phrases left uncounted), at most VERIFY of them with a length that could reach the
    threshold, are scored with rapidfuzz's ratio; best first, ties in the order added."""
    from rapidfuzz.fuzz import ratio

    norm = normalize(query)
    if not norm:
        return []
    norms = {id: normalize(text) for id, text in texts}
    order = {id: i for i, (id, _) in enumerate(texts)}
    found = {id: 100.0 for id, n in norms.items() if n == norm}
    if len(found) < limit:
        sketch = NearIndex._sketch(norm)
        held = [[id for id, _ in texts if phrase in set(NearIndex._sketch(norms[id]))] for phrase in sketch]
        buckets = sorted((b for b in held if b), key=len)
        need = min(0.5, max(NearIndex.MIN_SHARE, (threshold - 70) / 60)) * len(sketch)
        if buckets and len(buckets) >= need:
            counted = []
            for b in buckets:
                if len(b) > NearIndex.MAX_POSTING and (len(counted) >= NearIndex.MIN_KEYS or (counted and len(b) > NearIndex.MAX_COMMON)):
                    break
                counted.append(b)
            least = max(1, int(need - (len(buckets) - len(counted))))
            hits = Counter(id for b in counted for id in b)
            n = len(norm)
            lo, hi = n * threshold / (200 - threshold), n * (200 - threshold) / threshold
            verified = 0
            for id, shared in hits.most_common():
                if shared < least or verified >= NearIndex.VERIFY:
                    break
                if id in found or not lo <= len(norms[id]) <= hi:
                    continue
                verified += 1
                score = ratio(norm, norms[id], score_cutoff=threshold)
                if score >= threshold:
                    found[id] = float(score)
    return sorted(found.items(), key=lambda item: (-item[1], order[item[0]]))[:limit]


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_stored_index_finds_what_the_definition_finds(tmp_path_factory, data):
    """Texts sharing common phrases, added in imports (folds, saves, reopenings; papers removed
    between them): every query's candidates are the definition's, computed by brute force, while
    common phrases are counted lazily (LAZY_MIN and the posting limits made small, so a few
    dozen texts reach them; the commoner phrases a query counts asked only about the candidates
    the rarer ones named) and the postings are searched through fences of any stride."""
    cache = tmp_path_factory.mktemp("cache")
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    limits = {name: getattr(NearIndex, name) for name in ("MAX_POSTING", "MIN_KEYS", "MAX_COMMON")}
    lazy_min, fence = dupindex.LAZY_MIN, dupindex.FENCE
    dupindex.LAZY_MIN = data.draw(st.sampled_from([0, 2, 5]))
    dupindex.FENCE = data.draw(st.sampled_from([1, 3, fence]))  # (searches that end in a fence's last stretch)
    NearIndex.MAX_POSTING = data.draw(st.sampled_from([3, 6, limits["MAX_POSTING"]]))
    NearIndex.MIN_KEYS = data.draw(st.sampled_from([1, 3, limits["MIN_KEYS"]]))
    NearIndex.MAX_COMMON = data.draw(st.sampled_from([8, 20, limits["MAX_COMMON"]]))
    try:
        texts: dict[str, str] = {}
        serial = 0

        def text() -> str:
            parts = rng.sample(PHRASES, rng.randint(2, 6)) + [" ".join(rng.choices(WORDS, k=rng.randint(1, 3)))]
            rng.shuffle(parts)
            return " the ".join(parts) + "."

        for _import in range(data.draw(st.integers(1, 4))):
            near = StoredNearIndex.open_lazy(cache, {n: (n,) for n in texts}, texts.__getitem__)
            for _ in range(data.draw(st.integers(1, 40))):
                serial += 1
                name = f"p{serial:04d}.toml"  # names in the order added: the reference's order
                texts[name] = rng.choice(list(texts.values())) if texts and rng.random() < 0.2 else text()
                if rng.random() < 0.3:
                    assert near.best(texts[name], THRESHOLD) == (_definition(list(texts.items())[:-1], texts[name], THRESHOLD, 1) or [None])[0]
                near.add(name, texts[name])
                if rng.random() < 0.1:
                    near.fold()
            order = sorted(texts.items())
            for q in [rng.choice(order)[1], text(), word_edits(rng.choice(order)[1], 1, serial)]:
                for threshold in (THRESHOLD, 60.0):
                    assert near.candidates(q, threshold, limit=5) == _definition(order, q, threshold, 5), q
            near.save({n: (n,) for n in texts})
            for name in rng.sample(sorted(texts), min(len(texts), data.draw(st.integers(0, 5)))):
                del texts[name]  # removed between imports: a dropped row in the file
    finally:
        dupindex.LAZY_MIN, dupindex.FENCE = lazy_min, fence
        for name, value in limits.items():
            setattr(NearIndex, name, value)


def test_the_saved_signatures_are_kept_once_and_a_changed_one_is_saved(tmp_path):
    """The file's signature table is kept only to tell at save whether the signatures changed:
    those equal to the caller's are the caller's objects (one table held, not two); a save with
    the same signatures writes nothing, one where a single signature changed (the paper's
    abstract did not) writes the new one."""
    abstracts = {f"p{i}.toml": a for i, a in enumerate(ABSTRACTS[:6])}
    first = StoredNearIndex.open_lazy(tmp_path, {n: (1, i) for i, n in enumerate(abstracts)}, abstracts.__getitem__)
    first.save({n: (1, i) for i, n in enumerate(abstracts)})
    path = tmp_path / FILE_NAME
    sigs = {n: (1, i) for i, n in enumerate(abstracts)}
    sigs["p2.toml"] = (2, 2)  # its file changed, its abstract did not
    near = StoredNearIndex.open_lazy(tmp_path, sigs, abstracts.__getitem__)
    assert all(near._sigs[n] is sigs[n] for n in abstracts if n != "p2.toml")
    assert near._sigs["p2.toml"] == (1, 2)
    before = path.stat().st_mtime_ns, path.read_bytes()
    again = StoredNearIndex.open_lazy(tmp_path, {n: (1, i) for i, n in enumerate(abstracts)}, abstracts.__getitem__)
    again.save({n: (1, i) for i, n in enumerate(abstracts)})
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before  # nothing changed: not rewritten
    near.save(sigs)
    assert marshal.loads(path.read_bytes())[2] == sigs
    _same_answers(StoredNearIndex.open_lazy(tmp_path, sigs, abstracts.__getitem__), _fresh(abstracts), [ABSTRACTS[2], typos(ABSTRACTS[4], 2, 1)])
