"""The three-way merge of sequences and texts (text/merge3.py): properties any diff3 must have."""

from __future__ import annotations

from hypothesis import given, strategies as st

from readinglist.text.merge3 import Conflict, has_conflicts, merge3, merge_text, resolve

items = st.lists(st.sampled_from("abcdef"), max_size=8)
lines = st.lists(st.sampled_from(["alpha\n", "beta\n", "gamma\n", "\n", "delta"]), max_size=6).map("".join)


@given(items, items)
def test_a_change_on_one_side_is_taken(base, changed):
    for inserts in ("conflict", "both", "union"):
        assert resolve(merge3(base, changed, base, inserts=inserts), "ours") == changed
        assert resolve(merge3(base, base, changed, inserts=inserts), "theirs") == changed
        assert not has_conflicts(merge3(base, changed, base, inserts=inserts))
        assert not has_conflicts(merge3(base, changed, changed, inserts=inserts))
        assert resolve(merge3(base, changed, changed, inserts=inserts), "ours") == changed


@given(items, items, items)
def test_each_side_of_a_conflict_is_that_sides_version(base, ours, theirs):
    chunks = merge3(base, ours, theirs)
    for c in chunks:
        if isinstance(c, Conflict):
            assert c.ours != c.theirs
    if not has_conflicts(chunks):  # everything merged: ours' and theirs' resolutions agree
        assert resolve(chunks, "ours") == resolve(chunks, "theirs")


@given(items, st.lists(st.sampled_from("xyz"), min_size=1, max_size=3), st.lists(st.sampled_from("uvw"), min_size=1, max_size=3))
def test_two_appends_keep_both_in_order(base, a, b):
    merged = merge3(base, base + a, base + b, inserts="both")
    assert not has_conflicts(merged) and resolve(merged, "ours") == base + a + b


def test_edits_of_one_line_conflict_and_separate_lines_merge():
    base = "one\ntwo\nthree\nfour\n"
    assert merge_text(base, "ONE\ntwo\nthree\nfour\n", "one\ntwo\nthree\nFOUR\n") == "ONE\ntwo\nthree\nFOUR\n"
    assert merge_text(base, "one\n2\nthree\nfour\n", "one\nzwei\nthree\nfour\n") == (
        "one\n2\nthree\nfour\n",
        "one\nzwei\nthree\nfour\n",
    )


@given(lines, lines)
def test_merge_text_keeps_the_missing_final_newline(base, changed):
    assert merge_text(base, changed, base) == changed
    assert merge_text(base, base, changed) == changed
