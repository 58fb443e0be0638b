"""The merge driver's decisions on curated lists, without git (store/listmerge.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from readinglist.errors import ListError
from readinglist.store.gitmerge import merge_file
from readinglist.store.lists import Entry, ReadingList, Section, parse, render

PATH = "library/lists/week.toml"


def L(*sections, title="Week", intro="") -> ReadingList:  # noqa: N802 - reads as a literal
    return ReadingList("week", title, intro, tuple(Section(t, tuple(Entry(*e) if isinstance(e, tuple) else Entry(e) for e in es)) for t, es in sections))


def merge(base, ours, theirs):
    out = merge_file(render(base), render(ours), render(theirs), PATH)
    return out, (None if out.conflicts else parse(out.text, "week"))


def shape(lst):
    return [(s.title, [e.key for e in s.entries]) for s in lst.sections]


BASE = L(("Start", ["a", "b"]), ("Then", ["c"]))


def test_additions_removals_and_moves_on_two_sides_all_happen():
    ours = L(("Start", ["a", "b", "x"]), ("Then", []))  # adds x, removes c
    theirs = L(("Start", ["b"]), ("Then", ["c", "a"]), ("New", ["y"]))  # moves a, adds a section
    _, lst = merge(BASE, ours, theirs)
    assert shape(lst) == [("Start", ["b", "x"]), ("Then", ["a"]), ("New", ["y"])]


def test_a_removed_section_that_the_other_side_added_to_stays():
    ours = L(("Start", ["a", "b"]))
    theirs = L(("Start", ["a", "b"]), ("Then", ["c", "d"]))
    _, lst = merge(BASE, ours, theirs)
    assert shape(lst) == [("Start", ["a", "b"]), ("Then", ["d"])]


def test_comments_merge_three_way_and_differing_ones_conflict():
    ours = L(("Start", [("a", "mine"), "b"]), ("Then", ["c"]))
    theirs = L(("Start", ["a", ("b", "theirs")]), ("Then", ["c"]))
    _, lst = merge(BASE, ours, theirs)
    assert [e.comment for e in lst.entries] == ["mine", "theirs", ""]
    out, _ = merge(ours, L(("Start", [("a", "A")]), ("Then", ["c"])), L(("Start", [("a", "B")]), ("Then", ["c"])))
    assert out.conflicts == ("the comment of a",)
    with pytest.raises(ListError, match="merge conflict in list week: the entry of a in section 'Start'"):
        parse(out.text, "week", PATH)


def test_the_introduction_merges_as_text_and_the_title_three_way():
    base = L(("Start", ["a"]), intro="Line one.\nLine two.\n")
    ours = L(("Start", ["a"]), intro="Line ONE.\nLine two.\n", title="Week 12")
    theirs = L(("Start", ["a"]), intro="Line one.\nLine two.\nLine three.\n")
    _, lst = merge(base, ours, theirs)
    assert lst.introduction == "Line ONE.\nLine two.\nLine three.\n" and lst.title == "Week 12"
    out, _ = merge(base, L(("Start", ["a"]), title="A"), L(("Start", ["a"]), title="B"))
    assert out.conflicts == ("the title",)
    with pytest.raises(ListError, match="conflict in list week: title"):
        parse(out.text, "week", PATH)


@st.composite
def edited(draw, base: ReadingList) -> ReadingList:
    """``base`` after a few of the edits lists add / remove / move / comment make."""
    sections = [[(e.key, e.comment) for e in s.entries] for s in base.sections]
    titles = [s.title for s in base.sections]
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["add", "remove", "move", "comment", "section"]))
        present = [k for es in sections for k, _ in es]
        if op == "add":
            key = draw(st.sampled_from("pqrstu"))
            if key not in present:
                sections[draw(st.integers(0, len(sections) - 1))].append((key, ""))
        elif op == "section":
            titles.append(draw(st.sampled_from(["Later", "Extra"])))
            sections.append([])
        elif present:
            key = draw(st.sampled_from(present))
            i = next(i for i, es in enumerate(sections) if any(k == key for k, _ in es))
            j = next(j for j, (k, _) in enumerate(sections[i]) if k == key)
            entry = sections[i].pop(j)
            if op == "move":
                target = draw(st.integers(0, len(sections) - 1))
                sections[target].insert(draw(st.integers(0, len(sections[target]))), entry)
            elif op == "comment":
                sections[i].insert(j, (key, draw(st.sampled_from(["why", "§3", ""]))))
    return L(*zip(titles, sections))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_a_change_on_one_side_only_is_the_merge(data):
    changed = data.draw(edited(BASE))
    for ours, theirs in ((changed, BASE), (BASE, changed)):
        out, lst = merge(BASE, ours, theirs)
        assert not out.conflicts
        assert [(s.title, [(e.key, e.comment) for e in s.entries]) for s in lst.sections] == [
            (s.title, [(e.key, e.comment) for e in s.entries]) for s in changed.sections
        ]
