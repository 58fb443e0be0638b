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
from dataclasses import dataclass
from itertools import islice

from ..errors import InputError
from ..record import Skipped, Source
from ..text import normalize_space

__all__ = ["Paragraph", "AbstractList", "read_text", "parse_list", "is_prose"]


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
# bytes -> text

_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def read_text(path: str | os.PathLike) -> str:
    """The text of an abstract list (or any text input) at ``path``.

    UTF-8 (a BOM is stripped) and UTF-16/UTF-32 with a BOM are accepted. Raises
    :class:`InputError` with one line naming the file when it is missing, unreadable, binary
    (``lists/x.txt: not a text file (binary data near byte 12)``) or not decodable
    (``x.txt: not UTF-8 text (invalid byte 0xe9 on line 3)``)."""
    from ..store.atomic import NotRegularFile, describe, read_bounded

    name = os.fspath(path)
    if not name:
        raise InputError("an empty file name")
    try:
        data = read_bounded(path)
    except FileNotFoundError:
        raise InputError(f"{name}: file not found") from None
    except NotRegularFile as exc:
        raise InputError(f"{name}: is {exc.strerror}") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {describe(exc)}") from None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as exc:
                raise InputError(f"{name}: not {encoding.upper()} text (bad data near byte {exc.start + len(bom)})") from None
            _check_text(name, text)
            return text
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError(f"{name}: not a text file (binary data near byte {nul})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if _looks_binary(data):
            raise InputError(f"{name}: not a text file (binary data near byte {exc.start})") from None
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{name}: not UTF-8 text (invalid byte 0x{data[exc.start]:02x} on line {line})") from None
    _check_text(name, text)
    return text


def _looks_binary(data: bytes) -> bool:
    head = data[:8192]
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13))
    return controls > max(4, len(head) // 50)


def _check_text(name: str, text: str) -> None:
    if "\x00" in text:
        raise InputError(f"{name}: not a text file (NUL character at offset {text.index(chr(0))})")
    head = text[:8192]
    controls = _CONTROL.findall(head)
    if len(controls) > max(4, len(head) // 50):
        first = controls and head.index(controls[0])
        raise InputError(f"{name}: not a text file (binary data near character {first})")


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


def _split_lines(text: str) -> list[str]:
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.splitlines()


def _blocks(lines: list[str], first: int) -> list[list[tuple[int, str]]]:
    """Blank-line separated blocks of ``(line_number, line)`` from index ``first`` on."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for i in range(first, len(lines)):
        line = lines[i]
        if normalize_space(line):
            current.append((i + 1, line))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _split_long_lines(block: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """One abstract per line: a block with two or more lines too long to be hard-wrapped."""
    if len(block) < 2 or sum(len(line) > _LONG_LINE for _, line in block) < 2:
        return [block]
    return [[item] for item in block]


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


def _excerpt(s: str, limit: int = 60) -> str:
    s = normalize_space(s)
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


def _header(lines) -> tuple[str | None, str | None, int | None, int]:
    """(header line, venue, year, index of the first line after it) of a list's lines."""
    for i, line in enumerate(lines):
        if normalize_space(line):
            v, y, looks = _header_info(normalize_space(line))
            if looks:
                return normalize_space(line), v, y, i + 1
            return None, None, None, i
    return None, None, None, 0


def parse_header(text: str) -> tuple[str | None, int | None]:
    """The (venue, year) a list's header names, as :func:`parse_list` reads them, without
    reading the abstracts."""
    _, venue, year, _ = _header(_split_lines(text))
    return venue, year


def parse_list(text: str, *, source: str = "<string>") -> AbstractList:
    """Split an abstract list into its header (venue, year) and abstracts.

    ``source`` names the input in :class:`~readinglist.record.Source` values. See the module
    docstring for the rules. Never raises on any text."""
    lines = _split_lines(text)
    header, venue, year, start = _header(lines)
    paragraphs: list[Paragraph] = []
    skipped: list[Skipped] = []
    number = 0
    for raw_block in _blocks(lines, start):
        for block in _split_long_lines(raw_block):
            number += 1
            kept, debris = _take_out_debris(block)
            skipped.extend(
                Skipped(Source(source, None, line_no), reason + " inside a paragraph", _excerpt(bare))
                for line_no, bare, reason in debris
            )
            first_line = kept[0][0]
            body = _join([line for _, line in kept])
            m = _NUMBERING.match(body)
            stripped = body[m.end() :] if m else body
            if is_prose(stripped):
                paragraphs.append(Paragraph(number, first_line, stripped))
            else:
                skipped.append(Skipped(Source(source, number, first_line), _why_not_prose(body), _excerpt(body)))
    skipped.sort(key=lambda s: s.source.line or 0)
    return AbstractList(venue, year, header, tuple(paragraphs), tuple(skipped))
