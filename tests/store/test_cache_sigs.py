"""The cache's table of file signatures is rewritten only when its values change: marshal's
bytes of two equal tables differ with which strings and tuples are shared or interned, so
comparing bytes made "an import that changes nothing writes no file" hold by luck."""

from __future__ import annotations

import marshal
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.store.cache import database

names = st.text(alphabet="abcdefghij0123456789-", min_size=1, max_size=12).map(lambda s: s + ".toml")
signatures = st.one_of(st.none(), st.tuples(*[st.integers(0, 2**62)] * 4))
tables = st.dictionaries(names, signatures, max_size=8)


def _unshared(sigs: dict) -> dict:
    """An equal table that shares no string or tuple with ``sigs`` (fresh, uninterned names)."""
    return {"".join(list(name)): None if s is None else tuple(list(s)) for name, s in sigs.items()}


def _shared(sigs: dict) -> dict:
    """An equal table whose names are interned and whose equal signatures are one tuple."""
    one: dict = {}
    return {sys.intern(name): None if s is None else one.setdefault(s, s) for name, s in sigs.items()}


def _put(db, sigs: dict) -> int:
    """Rows the put changed, in one transaction."""
    before = db.total_changes
    db.execute("BEGIN IMMEDIATE")
    database.put_sigs(db, sigs)
    db.execute("COMMIT")
    return db.total_changes - before


def test_an_equal_table_of_other_strings_is_not_written(tmp_path):
    db = database.connect(tmp_path / ".cache")
    first = {"paper-a.toml": (1, 2, 3, 4), "paper-b.toml": (1, 2, 3, 4), "paper-c.toml": None}
    shared = _shared(first)
    again = _unshared(first)
    assert marshal.dumps(shared) != marshal.dumps(again)  # (what a byte comparison saw as a change)
    assert _put(db, shared) == 2
    stored = database.meta(db, "sigs")
    assert _put(db, again) == 0
    assert database.meta(db, "sigs") == stored
    changed = {**again, "paper-c.toml": (5, 6, 7, 8)}
    assert _put(db, changed) == 2
    assert marshal.loads(database.meta(db, "sigs")) == changed
    assert database.meta(db, "digest") == database.files.digest(changed)


@settings(max_examples=60, deadline=None)
@given(first=tables, second=tables)
def test_the_table_is_written_exactly_when_its_values_change(tmp_path_factory, first, second):
    db = database.connect(tmp_path_factory.mktemp("c") / ".cache")
    _put(db, _shared(first))
    assert _put(db, _unshared(second)) == (0 if second == first else 2)
    assert marshal.loads(database.meta(db, "sigs")) == second
    db.close()
