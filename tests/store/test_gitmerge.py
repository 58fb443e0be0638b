"""The merge driver's decisions on paper files, without git (store/gitmerge.py): what merges,
what is a true conflict, and what the merged file looks like."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from readinglist.errors import StoreError
from readinglist.record import Event, Paper, Record
from readinglist.store.conflicts import describe
from readinglist.store.gitmerge import merge_file, merge_papers
from readinglist.store.paperfile import parse, render

import pytest

PATH = "library/papers/x2026.toml"
BASE = Paper(
    Record(key="x2026", title="Generated title", abstract="An abstract.", tags=("llm", "vision"), generated=frozenset({"key", "title", "tags"})),
    history=(Event("added", "2026-11-30T06:00:00Z"),),
    notes="One.\nTwo.",
)


def merged(base: Paper, ours: Paper, theirs: Paper, path: str = PATH):
    out = merge_file(render(base), render(ours), render(theirs), path)
    return out, (None if out.conflicts else parse(out.text, path))


def test_a_hand_edit_beats_a_regenerated_value():
    regenerated = BASE.evolve(record=BASE.record.evolve(title="Better generated title"))
    edited = BASE.evolve(record=BASE.record.evolve(title="My own title", generated=frozenset({"key", "tags"})))
    for ours, theirs in ((regenerated, edited), (edited, regenerated)):
        out, paper = merged(BASE, ours, theirs)
        assert not out.conflicts and paper.record.title == "My own title" and not paper.record.is_generated


def test_two_hand_edits_of_the_title_are_a_true_conflict_named_on_reading():
    a = BASE.evolve(record=BASE.record.evolve(title="Ann's title", generated=frozenset({"key", "tags"})))
    b = BASE.evolve(record=BASE.record.evolve(title="Bob's title", generated=frozenset({"key", "tags"})), rating=3)
    out, _ = merged(BASE, a, b)
    assert out.conflicts == ("title",)
    assert 'title = "Ann\'s title"' in out.text and 'title = "Bob\'s title"' in out.text and "rating = 3" in out.text
    message = describe(out.text, PATH)
    assert message.startswith(f"{PATH}:") and "conflict in paper x2026: title" in message
    with pytest.raises(StoreError, match="merge conflict in paper x2026: title"):
        parse(out.text, PATH)


def test_tags_and_history_merge_as_sets_of_changes():
    ours = BASE.evolve(record=BASE.record.evolve(tags=("llm",), generated=frozenset({"key", "title"})), user_tags=("a",))
    theirs = BASE.evolve(
        user_tags=("b",), status="read", history=BASE.history + (Event("finished", "2026-12-02T00:00:00Z"),)
    )
    _, paper = merged(BASE, ours, theirs)
    assert paper.record.tags == ("llm",) and paper.user_tags == ("a", "b") and paper.status == "read"
    assert [e.event for e in paper.history] == ["added", "finished"]


def test_status_follows_the_later_status_event_whichever_side_it_is_on():
    early = BASE.evolve(status="read", history=BASE.history + (Event("finished", "2026-12-01T09:00:00Z"),))
    late = BASE.evolve(status="skipped", history=BASE.history + (Event("skipped", "2026-12-01T10:00:00Z"),))
    for ours, theirs in ((early, late), (late, early)):
        _, paper = merged(BASE, ours, theirs)
        assert paper.status == "skipped" and [e.event for e in paper.history] == ["added", "finished", "skipped"]


def test_a_hand_edited_file_keeps_its_look():
    ours_text = render(BASE).replace('title = "Generated title"\n', 'title = "Generated title"  # checked\n# my note on the venue\n')
    theirs = BASE.evolve(rating=4)
    out = merge_file(render(BASE), ours_text, render(theirs), PATH)
    assert not out.conflicts and "# checked" in out.text and "# my note on the venue" in out.text
    assert parse(out.text, PATH).rating == 4


def test_a_base_with_conflict_markers_merges_two_way():
    conflicted = merge_file(render(BASE), render(BASE.evolve(rating=1)), render(BASE.evolve(rating=2)), PATH).text
    out = merge_file(conflicted, render(BASE.evolve(user_tags=("a",))), render(BASE.evolve(user_tags=("b",))), PATH)
    assert parse(out.text, PATH).user_tags == ("a", "b")


def test_other_files_and_unparsable_sides_are_merged_line_by_line():
    out = merge_file("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n", "library/README")
    assert out.text == "A\nb\nC\n" and not out.conflicts
    out = merge_file(render(BASE), "key = [\n", render(BASE.evolve(rating=2)), PATH)
    assert out.conflicts == ("lines",) and "<<<<<<< ours" in out.text


changes = st.fixed_dictionaries(
    {},
    optional={
        "status": st.sampled_from(["reading", "read", "skipped"]),
        "rating": st.sampled_from([1, 2, 3, 4, 5]),
        "priority": st.sampled_from([1, 2, 3]),
        "user_tags": st.lists(st.sampled_from(["a", "b", "Café", "x y"]), unique=True).map(tuple),
        "notes": st.sampled_from(["", "One.", "One.\nTwo.\nThree.", "Zero.\nOne.\nTwo."]),
    },
)


@settings(max_examples=60, deadline=None)
@given(changes)
def test_a_change_on_one_side_only_is_the_merge(change):
    if "status" in change:
        change["history"] = BASE.history + (Event("started", "2026-12-01T09:00:00Z"),)
    changed = BASE.evolve(**change)
    for ours, theirs in ((changed, BASE), (BASE, changed)):
        a, b, conflicts = merge_papers(BASE, ours, theirs)
        assert not conflicts and a == b
        assert a == changed


def test_a_paper_added_on_both_sides_merges_two_way():
    """git gives an empty base when both branches added the file (the same import on two clones)."""
    ours = BASE.evolve(user_tags=("a",))
    theirs = BASE.evolve(user_tags=("b",), rating=3)
    out = merge_file("", render(ours), render(theirs), PATH)
    assert out.conflicts == ("[state] rating",)  # no base: a rating on one side only is not a change
    out = merge_file("", render(ours), render(theirs.evolve(rating=None)), PATH)
    assert not out.conflicts and parse(out.text, PATH).user_tags == ("a", "b")
