"""Read abstract lists as people really get them.

An abstract list is plain text: an optional header line naming the venue and year
(``NeurIPS 2026 论文列表``, ``ICML 2024 Paper List``, ``CVPR'24 papers``), then one abstract per
paragraph. :func:`read_text` turns the bytes of a file into text (or a one-line
:class:`~readinglist.errors.InputError`); :func:`parse_list` splits the text into
:class:`Paragraph` values and reports every block it did not take as an abstract.

Rules (:func:`parse_list`):

* Line endings may be LF, CRLF or lone CR; a UTF-8 BOM is ignored.
* **Header**: the first non-blank line is the header when it is not prose (see below) and holds
  a year (``2026``, ``'24``), or a venue acronym and a list word (``papers``, ``论文``...). The venue is
  the word just before the year (else the first acronym-like word, e.g. ``NeurIPS``).
* **Blocks** are runs of non-blank lines separated by blank lines (whitespace-only lines, NBSP
  included, are blank). A block whose lines are hard-wrapped is one paragraph: lines are joined
  with a space; a line ending in a hyphen directly after a letter is joined to the next line
  *without* a space and the hyphen is kept (``state-of-the-`` + ``art``): no letters are ever
  removed, so real hyphenated compounds survive and a split word keeps a visible hyphen.
* **One abstract per line**: a block with two or more lines longer than 200 characters (too long
  to be hard-wrapped) is split into one block per line.
* **Page debris** inside a block (``Page 2``, ``- 3 -``, ``3/12``, a lone number) is taken out of
  the block and reported as skipped (with ``paragraph=None``: it is not a block of its own).
* A leading paragraph number (``1. ``, ``2) ``, ``[3] ``, ``(4) ``) is stripped.
* **An abstract** reads like prose: at least 12 words and at least one sentence end
  (``.``, ``!`` or ``?`` before a space or at the end), or at least 40 words. Anything else is
  reported in ``skipped`` with a reason (separator line, page marker, lone number, section label,
  heading, too short) -- nothing is dropped silently.
* ``Paragraph.number`` is the 1-based index of the block among the file's non-empty blocks, the
  header line excluded (skipped blocks count too, so numbers match what a reader of the file
  counts); ``line`` is the 1-based line where the paragraph's text starts.
* Text is whitespace-normalised (:func:`readinglist.text.normalize_space`); LaTeX, Markdown and
  curly quotes are kept as written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from ..record import Skipped
from ..text import normalize_space
from .skiplog import MAX_LISTED, SkipLog
from .textfile import LongLine, iter_lines, read_text

__all__ = ["Paragraph", "AbstractList", "ListReader", "read_text", "read_list", "parse_list", "is_prose", "MAX_ABSTRACT", "MAX_LISTED"]


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One abstract: its block number, first line and text (one line, markup kept)."""

    number: int  # 1-based index among the file's non-empty blocks, header excluded
    line: int  # 1-based line where the abstract starts
    text: str


@dataclass(frozen=True, slots=True)
class AbstractList:
    """What :func:`parse_list` found in one abstract list."""

    venue: str | None
    year: int | None
    header: str | None
    paragraphs: tuple[Paragraph, ...]
    skipped: tuple[Skipped, ...]


# ---------------------------------------------------------------------------------------------
# text -> paragraphs

_WORD = re.compile(r"\w+(?:[-'’.]\w+)*", re.U)
_SENTENCE_END = re.compile(r"[.!?。！？][\"'’”)\]]*(?:\s|$)")
_NUMBERING = re.compile(r"^\s*(?:\[\d{1,4}\]|\(\d{1,4}\)|\d{1,4}[.)])\s+")
_PAGE_MARKER = re.compile(
    r"^(?:(?:page|p\.|pg\.?|第)\s*\d+(?:\s*(?:of|/)\s*\d+)?\s*页?|[-–—]\s*\d+\s*[-–—]|\d+\s*/\s*\d+|\d+\s*页)$", re.I
)
_SEPARATOR = re.compile(r"^[\W_]+$")
_LONE_NUMBER = re.compile(r"^[(\[]?\d{1,5}[.)\]]?$")
_LABELS = frozenset(
    "abstract abstracts summary oral orals poster posters spotlight spotlights session track "
    "accepted papers paper list contents 摘要 论文 论文列表".split()
)
_YEAR = re.compile(r"(?<![\d])((?:19|20)\d{2})(?![\d])|'(\d{2})(?![\d])")
_HEADER_WORDS = re.compile(
    r"\b(?:papers?|list|accepted|proceedings|abstracts?|orals?|posters?|spotlights?|track|workshop|conference)\b"
    r"|论文|列表|文章|摘要|会议",
    re.I,
)
_VENUE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9&+-]*")
_NOT_VENUE = frozenset(
    "at of in the for and from to a an papers paper list accepted proceedings abstracts abstract "
    "oral orals poster posters spotlight track workshop conference main".split()
)
_LONG_LINE = 200
_MIN_WORDS = 12
_MANY_WORDS = 40


def _words(s: str) -> int:
    return len(_WORD.findall(s))


def is_prose(s: str) -> bool:
    """Does ``s`` read like an abstract: at least 12 words and a sentence end, or 40 words?"""
    n = sum(1 for _ in islice(_WORD.finditer(s), _MANY_WORDS))  # _words(s), counted up to 40
    return n >= _MANY_WORDS or (n >= _MIN_WORDS and _SENTENCE_END.search(s) is not None)


@lru_cache(maxsize=4096)  # (a file of a million stray lines repeats the same few)
def _why_not_prose(s: str) -> str:
    """The reason a block is not taken as an abstract."""
    bare = s.strip()
    if _PAGE_MARKER.match(bare):
        return "page marker"
    if _LONE_NUMBER.match(bare):
        return "lone number"
    if _SEPARATOR.match(bare):
        return "separator line"
    if bare.strip("#*:：-— ").lower() in _LABELS:
        return "section label"
    if _header_info(bare)[2]:
        return "heading"
    n = _words(bare)
    if n < _MIN_WORDS:
        return f"too short for an abstract ({n} word{'s' if n != 1 else ''})"
    return f"no sentence in {n} words"


def _header_info(line: str) -> tuple[str | None, int | None, bool]:
    """``(venue, year, looks_like_header)`` for a candidate header line."""
    s = line.strip().lstrip("#").strip()
    if not s or len(s) > 120 or is_prose(s):
        return None, None, False
    year = None
    venue = None
    m = _YEAR.search(s)
    if m:
        year = int(m.group(1)) if m.group(1) else 2000 + int(m.group(2))
        before = [w for w in _VENUE_WORD.findall(s[: m.start()]) if w.lower() not in _NOT_VENUE]
        if before:
            venue = before[-1]
        else:
            after = [w for w in _VENUE_WORD.findall(s[m.end() :]) if w.lower() not in _NOT_VENUE]
            venue = after[0] if after and _acronym(after[0]) else None
    else:
        for w in _VENUE_WORD.findall(s):
            if _acronym(w):
                venue = w
                break
    # a year makes a header; list words only with a venue ("Abstract" alone is a label)
    looks = bool(year or (venue and _HEADER_WORDS.search(s))) and _words(s) <= 15
    return venue, year, looks


def _acronym(word: str) -> bool:
    """NeurIPS, ICML, ACL, CVPR: two or more capitals."""
    return sum(c.isupper() for c in word) >= 2


def _take_out_debris(block: list[tuple[int, str]]):
    """Split page markers and lone numbers out of a multi-line block of prose."""
    if len(block) < 2:
        return block, []
    kept, debris = [], []
    for line_no, line in block:
        bare = normalize_space(line)
        if _PAGE_MARKER.match(bare):
            debris.append((line_no, bare, "page marker"))
        elif _LONE_NUMBER.match(bare):
            debris.append((line_no, bare, "lone number"))
        else:
            kept.append((line_no, line))
    if not kept:  # nothing but debris: the block is reported as a whole
        return block, []
    return kept, debris


def _join(lines: list[str]) -> str:
    out = ""
    for line in lines:
        line = normalize_space(line)
        if not out:
            out = line
        elif len(out) >= 2 and out[-1] == "-" and out[-2].isalpha() and line[:1].isalpha():
            out += line  # keep the hyphen, add no space: state-of-the- + art
        else:
            out += " " + line
    return out


#: The longest block taken as one abstract, in characters (a real abstract has under 10,000):
#: a longer one is skipped, and is never held in memory whole.
MAX_ABSTRACT = 1 << 20


# ---------------------------------------------------------------------------------------------
# lines -> blocks -> paragraphs, as they come


class ListReader:
    """An abstract list read as its lines come (see the module's rules): the header is read
    when it is made (:attr:`venue`, :attr:`year`, :attr:`header`); :meth:`paragraphs` gives the
    abstracts one by one, and then :attr:`skipped` holds what was not taken (summarised past
    ``max_listed``: :class:`SkipLog`) and :attr:`skipped_count` how many blocks that was.
    Memory does not grow with the list, only with what the caller keeps."""

    def __init__(self, lines: Iterable[str], *, source: str = "<string>", max_listed: int = MAX_LISTED) -> None:
        self.source = source
        self._log = SkipLog(source, max_listed)
        self._lines = enumerate(lines, 1)
        self._first: tuple[int, str] | None = None  # the first line after the header
        self.header: str | None = None
        self.venue: str | None = None
        self.year: int | None = None
        for line_no, line in self._lines:
            if line_no == 1 and line.startswith("\ufeff"):
                line = line[1:]
            bare = "" if isinstance(line, LongLine) else normalize_space(line)
            if not bare and not isinstance(line, LongLine):
                continue
            venue, year, looks = _header_info(bare) if bare else (None, None, False)
            if looks:
                self.header, self.venue, self.year = bare, venue, year
            else:
                self._first = (line_no, line)
            break

    @property
    def skipped(self) -> tuple[Skipped, ...]:
        return self._log.entries()

    @property
    def skipped_count(self) -> int:
        return self._log.total

    def paragraphs(self) -> Iterator[Paragraph]:
        number = 0
        for block in self._blocks():
            number += 1
            if isinstance(block, tuple):  # (first line, characters, excerpt): too long to keep
                first_line, size, head = block
                self._log.add(number, first_line, f"too long for an abstract ({size:,} characters; the limit is {MAX_ABSTRACT:,})", head)
                continue
            if len(block) == 1:  # (most blocks: no debris to take out, no lines to join)
                first_line, body = block[0][0], normalize_space(block[0][1])
                debris = []
            else:
                kept, debris = _take_out_debris(block)
                first_line, body = kept[0][0], _join([line for _, line in kept])
            m = _NUMBERING.match(body)
            stripped = body[m.end() :] if m else body
            found = Paragraph(number, first_line, stripped) if is_prose(stripped) else None
            if debris:  # (reported with no paragraph number: debris is not a block of its own)
                items: list[tuple[int, int | None, str, str]] = [(n, None, reason + " inside a paragraph", bare) for n, bare, reason in debris]
                if found is None:
                    items.append((first_line, number, _why_not_prose(body), body))
                for line_no, paragraph, reason, text in sorted(items, key=lambda item: item[0]):
                    self._log.add(paragraph, line_no, reason, text)
            elif found is None:
                self._log.add(number, first_line, _why_not_prose(body), body)
            else:
                yield found
                continue
            if found is not None:
                yield found

    def _numbered(self) -> Iterator[tuple[int, str]]:
        if self._first is not None:
            yield self._first
        yield from self._lines

    def _blocks(self) -> Iterator[list[tuple[int, str]] | tuple[int, int, str]]:
        """Blank-line separated blocks of ``(line_number, line)``, each line its own block in a
        block of two or more lines too long to be hard-wrapped; a block over MAX_ABSTRACT
        characters as ``(first line, characters, its start)``, its lines not kept."""
        current: list[tuple[int, str]] = []
        size = 0
        long_lines = 0
        split = False  # one abstract per line until the next blank line
        over: list | None = None  # [first line, characters, start] of a block too long to keep
        for line_no, line in self._numbered():
            is_long = isinstance(line, LongLine)
            if not is_long and not (line.strip() if line.isascii() else normalize_space(line)):  # a blank line ends the block
                if over is not None:
                    yield (over[0], over[1], over[2])
                elif current:
                    yield current
                current, size, long_lines, split, over = [], 0, 0, False, None
                continue
            length = line.length if isinstance(line, LongLine) else len(line)
            if split:
                yield (line_no, length, str(line)) if is_long else [(line_no, line)]
                continue
            if over is not None:
                over[1] += length + 1
                continue
            if length > _LONG_LINE:
                long_lines += 1
                if long_lines == 2:  # one abstract per line: every line so far is a block
                    for item in current:
                        yield [item]
                    current, split = [], True
                    yield (line_no, length, str(line)) if is_long else [(line_no, line)]
                    continue
            size += length + (1 if current else 0)
            if is_long or size > MAX_ABSTRACT:
                start = current[0] if current else (line_no, line)
                over = [start[0], size, str(start[1])[:200]]
                current = []
                continue
            current.append((line_no, line))
        if over is not None:
            yield (over[0], over[1], over[2])
        elif current:
            yield current


def read_list(path: str | os.PathLike, *, source: str | None = None, max_listed: int = MAX_LISTED) -> ListReader:
    """The abstract list at ``path``, read as it comes (:class:`ListReader` over
    :func:`~readinglist.convert.textfile.iter_lines`): InputError for a file that is not text,
    raised when the reading reaches the bad part."""
    return ListReader(iter_lines(path, max_line=MAX_ABSTRACT), source=os.fspath(path) if source is None else source, max_listed=max_listed)


def text_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` as :meth:`str.splitlines` gives them, one at a time, a line over
    MAX_ABSTRACT characters as a LongLine."""
    ends = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
    start = 0
    for m in ends.finditer(text):
        yield _line(text, start, m.start())
        start = m.end()
    if start < len(text):
        yield _line(text, start, len(text))


def _line(text: str, start: int, end: int) -> str:
    return text[start:end] if end - start <= MAX_ABSTRACT else LongLine(text[start : start + 200], end - start)


def parse_list(text: str, *, source: str = "<string>", max_listed: int = MAX_LISTED) -> AbstractList:
    """Split an abstract list into its header (venue, year) and abstracts.

    ``source`` names the input in :class:`~readinglist.record.Source` values. See the module
    docstring for the rules; past ``max_listed`` skipped blocks, the rest are summarised by
    reason (:class:`SkipLog`). Never raises on any text."""
    reader = ListReader(text_lines(text), source=source, max_listed=max_listed)
    paragraphs = tuple(reader.paragraphs())
    return AbstractList(reader.venue, reader.year, reader.header, paragraphs, reader.skipped)
