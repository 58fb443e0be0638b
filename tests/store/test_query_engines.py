"""The store's one query engine runs its SQL on the cache outside a transaction and, inside one,
on the transaction's view (the cache with the transaction's changes, not written yet, put over
it). Whatever the filters, sort and limit, a query inside a transaction gives what the same
query gives outside once the transaction is written."""

from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import given, settings, strategies as st

from readinglist.constants import SORTS, STATUSES
from readinglist.record import Person, Record
from readinglist.store import Store

TAGS = ("llm", "LLM", "vision", "Vision Language", "rl", "graphs", "ünïcode")
VENUES = ("NeurIPS", "neurips", "ICML", "ACL", None)
WORDS = ("vision", "language", "model", "graph", "reinforcement", "learning", "provision", "visions", "models")


def _records(n: int, rng: random.Random) -> tuple[list[Record], dict]:
    records, states = [], {}
    for i in range(n):
        words = rng.sample(WORDS, 3)
        key = f"p{i:03d}"
        records.append(
            Record(
                key=key,
                title=" ".join(w.capitalize() for w in words),
                abstract=" ".join(rng.choice(WORDS) for _ in range(12)) + ".",
                venue=rng.choice(VENUES),
                year=rng.choice((2024, 2025, 2026, None)),
                tags=tuple(dict.fromkeys(rng.sample(TAGS, rng.randint(0, 3)))),
                authors=(Person("Doe", "Jane"),),
            )
        )
        states[key] = {
            "status": rng.choice(STATUSES),
            "priority": rng.choice((1, 2, 3, None)),
            "rating": rng.choice((1, 3, 5, None)),
            "notes": rng.choice(("", "a vision note", "models and graphs")),
            "tags": rng.sample(("mine", "later", "LLM"), rng.randint(0, 2)),
        }
    return records, states


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    root = tmp_path_factory.mktemp("engines") / "s"
    store = Store.open(root, clock=lambda: "2026-11-30T06:15:00Z")
    records, states = _records(120, random.Random(7))
    store.import_records(records, states=states)
    stamps = iter(f"2026-12-{d:02d}T08:00:00Z" for d in range(1, 29))
    dated = Store.open(root, clock=lambda: next(stamps))
    for key, status in (("p003", "read"), ("p010", "reading"), ("p077", "skipped"), ("p003", "unread")):
        dated.set_status(key, status)
    return store


_filters = st.fixed_dictionaries(
    {},
    optional={
        "status": st.sampled_from(STATUSES) | st.lists(st.sampled_from(STATUSES), min_size=1, max_size=3),
        "tags": st.lists(st.sampled_from(TAGS + ("mine", "MINE", "later")), max_size=2),
        "venue": st.sampled_from(("NeurIPS", "NEURIPS", "ICML", "acl", "nowhere")),
        "year": st.sampled_from((2024, 2025, 2026)),
        "priority": st.sampled_from((1, 2, 3)),
        "rating": st.sampled_from((1, 3, 5)),
        "search": st.sampled_from(WORDS + ("vision language", "a vision", "Graph")),
        "limit": st.integers(0, 30),
    },
)


@settings(max_examples=150, deadline=None)
@given(_filters, st.sampled_from([s for s in SORTS]), st.booleans())
def test_find_in_a_transaction_is_find_in_sql(store, filters, sort, reverse):
    if sort == "relevance" and not filters.get("search"):
        sort = "key"
    sort = ("-" if reverse else "") + sort
    outside = store.find(sort=sort, **filters)
    with store.transaction():
        inside = store.find(sort=sort, **filters)
    assert [p.key for p in inside] == [p.key for p in outside]
    assert inside == outside


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(WORDS + ("vision language", "models graphs", "zzz")), st.none() | st.integers(0, 20))
def test_search_in_a_transaction_is_search_in_sql(store, text, limit):
    outside = store.search(text, limit=limit)
    with store.transaction():
        inside = store.search(text, limit=limit)
    assert [(p.key, round(s, 6)) for p, s in inside] == [(p.key, round(s, 6)) for p, s in outside]


def test_a_transaction_finds_its_own_changes(store):
    """The point of the transaction's view: a change not yet written is found (and, the
    transaction failing, never written)."""
    other = Store.open(store.root)
    with pytest.raises(ZeroDivisionError), other.transaction():
        other.set_status("p001", "read")
        other.add_tags("p001", ["fresh"])
        assert [p.key for p in other.find(tags=["fresh"], status="read")] == ["p001"]
        assert [p.key for p, _ in other.search("fresh")] == []  # tags are not searched
        1 / 0  # noqa: B018
    assert other.find(tags=["fresh"]) == []


_changes = st.lists(
    st.tuples(
        st.sampled_from(("status", "tag", "untag", "priority", "rate", "note", "remove", "rekey")),
        st.integers(0, 119),
        st.sampled_from(STATUSES + ("mine", "vision", "graph models", "NEW")),
    ),
    max_size=8,
)


def _change(store: Store, what: str, i: int, value: str) -> None:
    key = f"p{i:03d}"
    if key not in store:  # removed or re-keyed by an earlier change
        return
    if what == "status" and value in STATUSES:
        store.set_status(key, value)
    elif what == "tag":
        store.add_tags(key, [value])
    elif what == "untag" and store.get(key).tags:
        store.remove_tags(key, [store.get(key).tags[0]])
    elif what == "priority":
        store.set_priority(key, i % 3 + 1)
    elif what == "rate":
        store.rate(key, None if i % 4 == 0 else i % 5 + 1)
    elif what == "note":
        store.set_note(key, value, append=True)
    elif what == "remove":
        store.remove([key])
    elif what == "rekey":
        store.rekey(key, f"q{i:03d}")


@settings(max_examples=25, deadline=None)
@given(_changes, _filters, st.sampled_from(SORTS), st.booleans(), st.booleans())
def test_a_transaction_sees_what_it_will_write(store, tmp_path_factory, changes, filters, sort, reverse, query_first):
    """Changes staged in a transaction (a query before them or not: the view is made on the first
    query and follows each later change) are found inside it as the store has them once written."""
    if sort == "relevance" and not filters.get("search"):
        sort = "key"
    sort = ("-" if reverse else "") + sort
    root = tmp_path_factory.mktemp("changes") / "s"
    shutil.copytree(store.root, root)
    copy = Store.open(root, clock=lambda: "2026-12-30T06:15:00Z")
    with copy.transaction():
        if query_first:
            copy.find(**filters)
        for change in changes:
            _change(copy, *change)
        inside = copy.find(sort=sort, **filters)
        inside_search = copy.search(filters.get("search") or "vision", limit=filters.get("limit"))
        inside_keys, inside_len = copy.keys(), len(copy)
    after = Store.open(root)
    assert inside == after.find(sort=sort, **filters)
    outside_search = after.search(filters.get("search") or "vision", limit=filters.get("limit"))
    assert [(p, round(s, 6)) for p, s in inside_search] == [(p, round(s, 6)) for p, s in outside_search]
    assert inside_keys == after.keys() and inside_len == len(after)
    shutil.rmtree(root)


@pytest.mark.parametrize("typo", ["p00", "p1000", "q001", "P0O7"])
def test_a_typo_gets_the_same_suggestions_in_a_transaction(store, typo):
    """The did-you-mean keys come from the same look-up in a transaction (its view) and out."""
    from readinglist.errors import UnknownKeyError

    with pytest.raises(UnknownKeyError) as outside:
        store.get(typo)
    with store.transaction(), pytest.raises(UnknownKeyError) as inside:
        store.get(typo)
    assert inside.value.suggestions == outside.value.suggestions and outside.value.suggestions
