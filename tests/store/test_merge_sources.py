"""merge._merged_sources: a re-import's sources replace those of its file where they were."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from readinglist.record import Source
from readinglist.store.merge import _merged_sources

_SOURCES = st.lists(st.builds(Source, st.sampled_from(["a.txt", "b.txt", "c.bib"]), st.integers(1, 5), st.integers(1, 50)), max_size=6).map(lambda s: tuple(dict.fromkeys(s)))


@given(old=_SOURCES, new=_SOURCES.filter(bool))
def test_new_sources_replace_their_files_and_the_rest_keeps_its_order(old, new):
    merged = _merged_sources(old, new)
    files = {s.file for s in new}
    assert [s for s in merged if s.file not in files] == [s for s in old if s.file not in files]
    assert [s for s in merged if s.file in files] == list(new)  # once each, together
    assert _merged_sources(merged, new) == merged  # importing the same file again changes nothing
    if not any(s.file in files for s in old):
        assert merged == old + new
