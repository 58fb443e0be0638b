"""Reading-progress counting for `readinglist stats`."""

from readinglist.record import Paper, Record
from readinglist.stats import progress_rows


def paper(key, status, venue="NeurIPS", year=2026, tags=("llm",), user_tags=()):
    return Paper(Record(key=key, title=key, venue=venue, year=year, tags=tags), status=status, user_tags=user_tags)


def test_rows_per_venue_and_tag():
    papers = [
        paper("a", "read"),
        paper("b", "reading", tags=("llm", "theory")),
        paper("c", "unread", venue="ICML", year=2024, tags=("theory",), user_tags=("club",)),
        paper("d", "skipped", venue=None, year=None, tags=()),
    ]
    sections = dict(progress_rows(papers))
    assert sections["all papers"] == [("all", 1, 1, 4)]
    assert sections["by venue"] == [("(no venue)", 0, 0, 1), ("ICML 2024", 0, 0, 1), ("NeurIPS 2026", 1, 1, 2)]
    # most common tags first, then by name; user tags count too
    assert sections["by tag"] == [("llm", 1, 1, 2), ("theory", 0, 1, 2), ("club", 0, 0, 1)]


def test_empty_store():
    assert dict(progress_rows([]))["all papers"] == [("all", 0, 0, 0)]
