"""Search matches whole words: "vision" finds "Vision-language" and "visions", never "provision"."""

from __future__ import annotations

from readinglist.record import Record
from readinglist.store.library import Store


def record(key: str, title: str, abstract: str) -> Record:
    return Record(key=key, title=title, abstract=abstract, venue="NeurIPS", year=2026)


def test_search_matches_whole_words_and_plurals(tmp_path):
    store = Store.open(tmp_path / "lib")
    store.import_records([
        record("prov", "Provisioning clusters", "We study the provision of compute."),
        record("vl", "Vision-language models", "A model for images."),
        record("many", "Learning", "Several visions of the future."),
        record("sub", "Supervision at scale", "Weak supervision."),
    ])  # fmt: skip
    assert sorted(p.key for p, _ in store.search("vision")) == ["many", "vl"]
    assert [p.key for p in store.find(search="vision", sort="key")] == ["many", "vl"]
    assert [p.key for p, _ in store.search("models")] == ["vl"]
    assert [p.key for p, _ in store.search("vision language")] == ["vl"]


def test_sort_rating_puts_the_best_first(tmp_path):
    store = Store.open(tmp_path / "lib")
    store.import_records([record(k, k, f"abstract {k}") for k in ("a", "b", "c")])
    store.rate("a", 2)
    store.rate("c", 5)
    assert [p.key for p in store.find(sort="rating")] == ["c", "a", "b"]
