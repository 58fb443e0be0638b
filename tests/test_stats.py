"""Reading-progress counting for `readinglist stats`."""

from readinglist.record import Paper, Record
from readinglist.stats import alike, progress_rows


def paper(key, status, venue="NeurIPS", year=2026, tags=("llm",), user_tags=()):
    return Paper(Record(key=key, title=key, venue=venue, year=year, tags=tags), status=status, user_tags=user_tags)


def test_rows_per_venue_and_tag():
    papers = [
        paper("a", "read"),
        paper("b", "reading", tags=("llm", "theory")),
        paper("c", "unread", venue="ICML", year=2024, tags=("theory",), user_tags=("club",)),
        paper("d", "skipped", venue=None, year=None, tags=()),
    ]
    sections = dict(progress_rows(alike(papers)))
    assert sections["all papers"] == [("all", 1, 1, 4)]
    assert sections["by venue"] == [("(no venue)", 0, 0, 1), ("ICML 2024", 0, 0, 1), ("NeurIPS 2026", 1, 1, 2)]
    # most common tags first, then by name; user tags count too
    assert sections["by tag"] == [("llm", 1, 1, 2), ("theory", 0, 1, 2), ("club", 0, 0, 1)]


def test_empty_store():
    assert dict(progress_rows([]))["all papers"] == [("all", 0, 0, 0)]


from datetime import date  # noqa: E402

from hypothesis import given, strategies as st  # noqa: E402
import pytest  # noqa: E402

from readinglist.record import Event  # noqa: E402
from readinglist.stats import read_per_week, sparkline  # noqa: E402


def finished(key, day, tags=("llm",)):
    return Paper(Record(key=key, title=key, tags=tags), status="read",
                 history=(Event("added", "2026-01-01T00:00:00Z"), Event("finished", f"{day}T10:00:00Z")))


def test_read_per_week_counts_finished_papers_by_week():
    today = date(2026, 12, 1)
    papers = [
        finished("a", "2026-12-01"),  # this week
        finished("b", "2026-11-25"),  # 6 days ago: this week
        finished("c", "2026-11-24"),  # 7 days ago: last week
        finished("d", "2026-08-01"),  # too long ago
        paper("e", "reading"),
        Paper(Record(key="f", title="f"), status="unread", history=(Event("finished", "2026-12-01T00:00:00Z"),)),  # reset since
    ]
    assert read_per_week(alike(papers), weeks=4, today=today) == [0, 0, 1, 2]


@given(st.lists(st.integers(0, 1000), max_size=60))
def test_sparkline_one_char_per_count_and_order_kept(counts):
    line = sparkline(counts)
    assert len(line) == len(counts)
    for a, b in zip(counts, counts[1:]):
        if a < b:
            assert line[counts.index(a)] <= line[counts.index(b)]
    assert all((c == 0) == (ch == "▁") for c, ch in zip(counts, line)) or max(counts, default=0) == 0
    if counts and max(counts):
        assert line[counts.index(max(counts))] == "█"


def test_stats_table_on_a_terminal():
    from rich.console import Console

    from readinglist.cli.report import stats_table

    today = date.today().isoformat()
    papers = [finished("a", today), paper("b", "reading", venue="ICML", year=2024, tags=("theory",)), paper("c", "unread")]
    console = Console(width=100, record=True, force_terminal=True, color_system=None)
    console.print(stats_table(alike(papers), weeks=6))
    out = console.export_text()
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert "1/3" in lines["all"] and "33%" in lines["all"] and lines["all"].rstrip().endswith("▁▁▁▁▁█")
    assert "0/1" in lines["ICML"] and "▒" in lines["ICML"] and "█" not in lines["ICML"]
    assert "1/2" in lines["llm"] and lines["llm"].rstrip().endswith("▁▁▁▁▁█")


@pytest.mark.parametrize("width", [40, 50, 60, 70, 75, 80, 100, 140])
def test_stats_on_a_narrow_terminal_never_cuts_its_numbers(width):
    """Below ~75 columns the numbers were cut ("1…", "10/…"): now the sparkline goes first, then
    the bar narrows and goes, and only labels are cut."""
    from rich.console import Console

    from readinglist.cli.report import stats_table

    today = date.today().isoformat()
    papers = [finished(f"r{i}", today) for i in range(1234)] + [
        paper(f"u{i}", "unread", venue="A very long venue name indeed", tags=("a-rather-long-topic-tag-name",)) for i in range(8765)
    ]
    console = Console(width=width, record=True, force_terminal=True, color_system=None)
    console.print(stats_table(alike(papers), weeks=12, width=width))
    out = console.export_text()
    assert max(len(line) for line in out.splitlines()) <= width
    assert "1234/9999" in out and "12%" in out  # all papers, whole
    assert "0/8765" in out and "1234/1234" in out
    for line in out.splitlines():
        cells = line.split()
        assert not any(c.endswith("…") and "/" in c for c in cells), line
    if width >= 100:
        assert "per week (12)" in out and "█" in out


def _reading_store(tmp_path):
    """A store whose papers differ in everything stats groups by, with histories in which a
    paper was finished, reset and finished again (the clock moves a day a change)."""
    from itertools import count

    from helpers import unrelated_records

    from readinglist.store import Store

    days = count(1)
    store = Store.open(tmp_path / "s", clock=lambda: f"2026-10-{next(days) % 28 + 1:02d}T09:00:00Z")
    venues = [("NeurIPS", 2026), ("ICML", 2025), (None, None), ("neurips", 2026)]
    tags = [("llm",), ("LLM", "theory"), ("theory", "vision"), ()]
    store.import_records(
        r.evolve(venue=venues[i % 4][0], year=venues[i % 4][1], tags=tags[i // 4 % 4]) for i, r in enumerate(unrelated_records(24))
    )
    for i, steps in enumerate([["read"], ["reading", "read"], ["read", "unread"], ["read", "reading", "read"], ["skipped"], ["reading"]] * 4):
        for status in steps:
            store.set_status(f"p{i:04d}", status)
    store.add_tags("p0001", ["Club"])
    store.add_tags("p0002", ["club", "llm"])
    return store


def test_stats_of_the_cache_tally_are_the_stats_of_the_whole_papers(tmp_path):
    """`stats` counts the groups the cache's SQL makes (each keeps the day its papers were last
    finished): the same groups, sections, rows and weeks as the whole papers give, from the cache
    and inside a transaction (whose rows come from the papers in memory)."""
    from readinglist.stats import groups

    store = _reading_store(tmp_path)
    whole = store.find()
    assert sum(p.finished is not None for p in whole) == 12  # (the reset one is not read)
    today = date(2026, 10, 30)

    def figures(papers):
        return (progress_rows(papers), read_per_week(papers, weeks=6, today=today), groups(papers))

    expected = figures(alike(whole))
    assert store.tally() == alike(whole) == alike(store.find(brief=True))
    assert figures(store.tally()) == expected
    with store.transaction():
        assert store.tally() == alike(whole)
        store.set_status("p0004", "read")  # seen inside the transaction
        assert dict(progress_rows(store.tally()))["all papers"] == [("all", 13, 4, 24)]


@given(st.lists(st.tuples(st.sampled_from(["added", "started", "finished", "skipped", "reset"]), st.dates()), max_size=6),
       st.sampled_from(["read", "reading", "unread", "skipped"]))  # fmt: skip
def test_finished_is_the_day_of_the_last_finished_event_of_a_read_paper(events, status):
    history = tuple(Event(e, f"{d.isoformat()}T12:00:00Z") for e, d in events)
    days = [d.isoformat() for e, d in events if e == "finished"]
    p = Paper(Record(key="k", title="t"), status=status, history=history)
    assert p.finished == (days[-1] if status == "read" and days else None)


# papers that differ in little (so that many are alike), with venues, years and tags in several
# spellings, and finished days that are odd, in and out of the weeks counted
_venues = st.sampled_from([None, "NeurIPS", "neurips", "ICML 2025", "Tab\tVenue"])
_tags = st.lists(st.sampled_from(["llm", "LLM", "theory", "Café", "cafe\u0301", "vision"]), max_size=3).map(tuple)
_days = st.sampled_from(["2026-11-02", "2026-11-20", "2026-11-30", "2025-01-01", "2026-02-30", "soon"])


@given(st.lists(st.tuples(st.sampled_from(["read", "reading", "unread", "skipped"]), _venues,
                          st.sampled_from([None, 2025, 2026]), _tags, _tags, st.lists(_days, max_size=2)), max_size=40),
       st.randoms())  # fmt: skip
def test_the_cache_tally_is_the_pure_fold_of_the_papers_sorted_by_key(specs, rng):
    """The SQL GROUP BY (cache.tally) gives the groups, and so the figures, that stats.alike
    makes of the papers sorted by key, whatever order their rows were written in."""
    from readinglist.record import Event
    from readinglist.stats import groups
    from readinglist.store import cache

    papers = [
        Paper(Record(key=f"k{i:03d}", title=f"t{i}", venue=venue, year=year, tags=tags), status=status, user_tags=utags,
              history=tuple(Event("finished", f"{d}T08:00:00Z") for d in days))
        for i, (status, venue, year, tags, utags, days) in enumerate(specs)
    ]  # fmt: skip
    written = papers[:]
    rng.shuffle(written)
    db = cache.memory_db()
    cache.put_rows(db, [(f"{p.key}.toml", cache.bundle(f"{p.key}.toml", p)) for p in written], (), set())
    folded = alike(papers)
    tallied = cache.tally(db)
    assert tallied == folded
    assert sum(g.count for g in tallied) == len(papers)
    today = date(2026, 11, 30)
    assert progress_rows(tallied) == progress_rows(folded)
    assert groups(tallied) == groups(folded)
    assert read_per_week(tallied, weeks=5, today=today) == read_per_week(folded, weeks=5, today=today)
    # the groups count what counting paper by paper counts
    per_paper = [0] * 5
    for p in papers:
        if p.finished and p.finished[:4] == "2026" and p.finished[5:7] == "11":
            per_paper[4 - (30 - int(p.finished[8:])) // 7] += 1
    assert read_per_week(tallied, weeks=5, today=today) == per_paper
    by_tag = dict(progress_rows(tallied))["by tag"]
    from readinglist.tagform import tag_key

    for label, read, reading, total in by_tag:
        carriers = [p for p in papers if tag_key(label) in {tag_key(t) for t in p.tags}]
        assert (read, reading, total) == (sum(p.status == "read" for p in carriers), sum(p.status == "reading" for p in carriers), len(carriers))
        assert label == next(t for t in carriers[0].tags if tag_key(t) == tag_key(label))  # as the first paper spells it
