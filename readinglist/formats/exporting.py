"""Small pieces every exporter shares: ordering, reading-state facts, provenance wording.

Kept free of heavy imports: the exporters themselves pull in bibtexparser or pylatexenc.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PureWindowsPath
from collections.abc import Callable, Iterable, Iterator, Sequence

from .. import forking
from ..errors import ValidationError
from ..constants import source_text
from ..record import STATUS_EVENTS, Paper, Record, Source

#: Below this many papers a second process costs more than the half of the rendering it saves.
FORK_MIN_PAPERS = 2000
#: Characters per piece when the forked child's half is read back.
_READ_BACK = 1 << 20


def rendered(count: int, size: int, render: Callable[[int, int], str], *, processes: int = 1) -> Iterator[str]:
    """``render(start, stop)`` for every piece of ``size`` papers of ``range(count)``, in order:
    an exporter's streamed text, whose pieces depend on nothing but their range.

    On a large export (FORK_MIN_PAPERS, and ``processes`` > 1) a forked child renders the second
    half meanwhile into an unnamed temporary file, read back here in pieces once this process
    has given its own half: the same text, in about half the time, and never all of it in
    memory at once. If the child cannot start or fails in any way (a rendering error, a full
    disk), this process renders that half itself, so the result and the errors are what they
    would have been without a child."""
    starts = range(0, count, size)
    pieces = len(starts)
    if count < FORK_MIN_PAPERS or pieces < 2 or forking.workers(processes) < 2:
        for start in starts:
            yield render(start, min(start + size, count))
        return
    import tempfile

    middle = starts[pieces // 2]
    # the first piece before the fork: the child inherits what it warmed (the renderer's lazy
    # imports, pylatexenc's converter, the caches of repeated spans) instead of doing it again
    first = render(0, min(size, count))
    try:
        spool = tempfile.TemporaryFile()
    except OSError:
        spool = None
    child: forking.Child | None = None
    try:
        if spool is not None:
            def work(_pipe) -> None:
                for start in range(middle, count, size):
                    spool.write(render(start, min(start + size, count)).encode("utf-8"))
                spool.flush()

            child = forking.fork_writer(work)
        yield first
        for start in range(size, middle, size):
            yield render(start, min(start + size, count))
        done, child = child, None
        if spool is not None and forking.collect(done) is not None:
            import io

            spool.seek(0)
            text = io.TextIOWrapper(spool, encoding="utf-8", newline="")
            while piece := text.read(_READ_BACK):
                yield piece
            return
        for start in range(middle, count, size):
            yield render(start, min(start + size, count))
    finally:
        forking.discard(child)  # the caller stopped early (an error while writing): no orphan
        if spool is not None:
            spool.close()



def unique(papers: Iterable[Paper]) -> list[Paper]:
    """The papers in the caller's order, refusing a key that appears twice.

    Exporters keep the order they are given: the caller chooses it (``readinglist export
    --sort``, by key by default, so that re-exports give small diffs)."""
    papers = list(papers)
    seen: dict[str, str] = {}
    for paper in papers:
        folded = paper.key.casefold()
        if folded in seen:
            other = seen[folded]
            if other == paper.key:
                raise ValidationError(f"cannot export: key {paper.key!r} appears twice")
            raise ValidationError(
                f"cannot export: keys {other!r} and {paper.key!r} differ only in case, and BibTeX takes them for one; "
                "change one of them (readinglist edit KEY)"
            )
        seen[folded] = paper.key
    return papers


def status_date(paper: Paper) -> str | None:
    """ISO date-time of the paper's last status change, or None when it never changed."""
    for event in reversed(paper.history):
        if event.event in STATUS_EVENTS.values():
            return event.date
    return None


def shared_source(source: Source) -> str:
    """Where a record came from, as a shared file may say it: ``000_list.txt:29 (paragraph 14)``.

    The one place every export names a source (the BibTeX comment line, and so the HTML page's
    BibTeX snippets; CSL-JSON's ``custom.sources``): a path relative to the project (what the
    store records for a list inside it) as it is, any other (absolute, ``~/``, ``..``, a Windows
    drive) by its file name only, so that no export tells where the user keeps their files."""
    file = source.file
    if file and _outside(file):
        file = re.split(r"[\\/]", file)[-1]  # a POSIX or Windows path
        file = file[2:] if re.match(r"[A-Za-z]:", file) else file  # C:list.txt
    return source_text(file, source.paragraph, source.line)


@lru_cache(maxsize=1024)
def _outside(file: str) -> bool:
    """(Cached: an export asks it of every paper, and the papers of a list share one file.)"""
    windows = PureWindowsPath(file)
    return file.startswith(("/", "~", "\\")) or bool(windows.drive) or ".." in windows.parts


def event_title(record: Record) -> str | None:
    """The event as people say it: ``NeurIPS 2026`` (venue short name and year)."""
    parts = [str(x) for x in (record.venue, record.year) if x]
    return " ".join(parts) or None


def placeholder_name(shorttitle: str | None, title: str) -> str:
    """What an authorless paper is called where an author's name would stand (``{name}`` in
    ``[export] anonymous_author``): its system name (``CanViT``), else its title's first four
    words (``Benchmark for evaluating legal…``)."""
    if shorttitle and shorttitle.strip():
        return " ".join(shorttitle.split())
    words = title.split()
    return " ".join(words[:4]) + ("…" if len(words) > 4 else "")


def join_tags(tags: Sequence[str]) -> str:
    """Tags as one comma-separated string (BibTeX keywords, CSL keyword)."""
    return ", ".join(tags)
