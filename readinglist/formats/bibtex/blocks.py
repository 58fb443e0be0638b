"""A BibTeX file split into blocks: a fast splitter for well-formed files, bibtexparser for the rest.

bibtexparser v2's splitter walks the file mark by mark in Python (``{``, ``}``, ``"``, ``,``,
``=``, newlines): slow on a large file. :func:`split` reads the common well-formed
blocks with a few compiled regular expressions instead, and hands the file from the first
block it is not sure of to bibtexparser, so what comes out is what bibtexparser would have
made of the whole file (the property tests in ``tests/formats/bibtex/test_bibtex_blocks.py``
compare the two on generated BibTeX):

* the same blocks, with the same raw values (``{...}``, ``"..."``, macros and ``#`` kept as
  written: :func:`readinglist.formats.bibtex.values.resolve` reads them), keys, entry types
  (lower case) and 0-based start lines (bibtexparser's, which do not count a newline right
  after a backslash);
* the same comments (implicit text between blocks, ``@comment{...}``);
* the same failures: an entry or ``@string`` whose key was used before becomes a
  :class:`Failed` naming the key (the first one is kept), any block bibtexparser cannot parse
  a :class:`Failed` with its reason.

Whatever the fast splitter is not sure of (``(``-delimited blocks, a backslash or ``@`` where
bibtexparser would read it differently, braces nested deeper than :data:`DEPTH`, a field name
used twice, anything malformed) goes to bibtexparser: it errs only towards the slow path.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass

#: Braces nested deeper than this inside one value: left to bibtexparser.
DEPTH = 6


@dataclass(frozen=True, slots=True)
class Entry:
    line: int  # 0-based, as bibtexparser counts
    entry_type: str  # lower case
    key: str
    fields: tuple[tuple[str, str], ...]  # (name as written, raw value), in order
    raw: str


@dataclass(frozen=True, slots=True)
class String:
    line: int
    key: str
    value: str  # raw


@dataclass(frozen=True, slots=True)
class Comment:
    text: str


@dataclass(frozen=True, slots=True)
class Failed:
    line: int
    raw: str
    reason: str
    key: str | None = None  # a key used before (the block is otherwise fine)


@dataclass(frozen=True, slots=True)
class Blocks:
    """A file's blocks by kind, in file order (duplicates already among ``failed``)."""

    entries: tuple[Entry, ...]
    strings: tuple[String, ...]
    comments: tuple[Comment, ...]
    failed: tuple[Failed, ...]


def _braced(depth: int) -> str:
    """The inside of a ``{...}`` group nested up to ``depth`` levels, as bibtexparser reads it: a
    brace right after a backslash is text, not a brace."""
    inner = r"(?>(?:(?>[^{}\\]+)|\\[{}]?)*)"
    for _ in range(depth):
        inner = r"(?>(?:(?>[^{}\\]+)|\\[{}]?|\{" + inner + r"\})*)"
    return inner


_BRACED = _braced(DEPTH)
#: A block start where bibtexparser sees one (anywhere between blocks).
_BLOCK_START = re.compile(r"@(\w*)[ \t]*(?=[{(])")
#: ``@type{key,`` (the ``@type`` part already matched): the key up to the first comma.
_ENTRY_KEY = re.compile(r"\{([^{}\",=\\@]*),")
#: One field: ``name = value`` up to the top-level ``,`` or ``}`` (the value: plain text,
#: ``{...}`` groups and ``"..."`` strings; inside quotes braces do not count, as in bibtexparser).
_FIELD = re.compile(
    r"\s*([^\s{}\",=\\@]+)\s*=((?>(?:(?>[^{}\",\\@]+)|\{" + _BRACED + r"\}|\"(?>(?:(?>[^\"\\@]+)|\\\"?)*)(?<!\{)\")*))([,}])"
)
_ENTRY_END = re.compile(r"\s*\}")
#: ``@string{name = value}`` and ``@comment{...}`` / ``@preamble{...}`` after their ``@type``.
_STRING = re.compile(r"\{([^{}\",=\\@]*)=(" + _BRACED + r")\}")
_GROUP = re.compile(r"\{(" + _BRACED + r")\}")
#: An ``@`` first on a line inside a block (bibtexparser may end the block there).
_LINE_START_AT = re.compile(r"\n\s*@")


class _Lines:
    """0-based line numbers as bibtexparser counts them (a newline right after a backslash is
    not counted), for positions asked in increasing order."""

    def __init__(self, text: str, line: int = 0) -> None:
        self.text = text
        self.pos = 0
        self.line = line  # of the text's start

    def at(self, pos: int) -> int:
        text, start = self.text, self.pos
        self.line += text.count("\n", start, pos) - text.count("\\\n", max(start - 1, 0), pos)
        self.pos = pos
        return self.line


def _fast_blocks(lines: _Lines) -> Generator[Entry | String | Comment, None, int | None]:
    """The blocks the fast splitter finds in ``lines.text``, as it finds them; it returns the
    position of the first block it is not sure of, or None."""
    text = lines.text
    pos = 0
    search = _BLOCK_START.search
    while True:
        m = search(text, pos)
        comment = text[pos : m.start() if m else len(text)].strip()
        if comment:
            yield Comment(comment)
        if m is None:
            return None
        at = m.start()
        kind = m.group(0).lower()
        after = m.end()
        if text[after] != "{":
            return at
        if kind.startswith(("@comment", "@preamble")):
            g = _GROUP.match(text, after)
            if g is None or _LINE_START_AT.search(text, after, g.end()):
                return at
            if kind.startswith("@comment"):
                yield Comment(g.group(1).strip())
            pos = g.end()
            continue
        if kind.startswith("@string"):
            s = _STRING.match(text, after)
            if s is None or _LINE_START_AT.search(text, after, s.end()):
                return at
            yield String(lines.at(at), s.group(1).strip(), s.group(2).strip())
            pos = s.end()
            continue
        entry_type = kind[1:].strip()
        k = _ENTRY_KEY.match(text, after)
        if k is None or not entry_type:
            return at
        fields: list[tuple[str, str]] = []
        p = k.end()
        while True:
            f = _FIELD.match(text, p)
            if f is None:
                e = _ENTRY_END.match(text, p)  # a comma before the closing brace
                if e is None or not fields:
                    return at
                end = e.end()
                break
            fields.append((f.group(1), f.group(2).strip()))
            p = f.end()
            if f.group(3) == "}":
                end = p
                break
        raw = text[at:end]
        if _LINE_START_AT.search(raw) or '{"}' in raw or len({name for name, _ in fields}) != len(fields):
            return at
        yield Entry(lines.at(at), entry_type, k.group(1).strip(), tuple(fields), raw)
        pos = end


def _slow(text: str, line: int) -> list:
    """The blocks of ``text`` as bibtexparser splits it, its lines counted from ``line``; a key
    used twice comes as the block itself (the caller finds duplicates across the whole file)."""
    import logging

    import bibtexparser
    from bibtexparser import model

    # bibtexparser logs parse failures (to stderr when logging is not set up); we report them
    loggers = [logging.getLogger(name) for name in ("bibtexparser", "bibtexparser.splitter")]
    before = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        # no middlewares: values come raw
        library = bibtexparser.parse_string(text, parse_stack=[])
    finally:
        for lg, was in zip(loggers, before):
            lg.disabled = was
    out: list = []
    for block in library.blocks:
        if isinstance(block, model.DuplicateBlockKeyBlock) and block.ignore_error_block is not None:
            block = block.ignore_error_block
        start = (block.start_line or 0) + line
        if isinstance(block, model.Entry):
            fields = tuple((f.key, str(f.value)) for f in block.fields)
            out.append(Entry(start, block.entry_type, block.key, fields, block.raw or ""))
        elif isinstance(block, model.String):
            out.append(String(start, block.key, str(block.value)))
        elif isinstance(block, (model.ExplicitComment, model.ImplicitComment)):
            out.append(Comment(block.comment))
        elif isinstance(block, model.ParsingFailedBlock):
            error = block.error
            reason = getattr(error, "abort_reason", None) or str(error or "") or "cannot parse this entry"
            out.append(Failed(start, block.raw or "", reason))
    return out


def iter_blocks(text: str | Iterable[str], *, slowly: bool = False) -> Iterator:
    """The blocks of a BibTeX file in file order, as they are found (a large file's blocks are
    never all held): an entry or ``@string`` whose key came before becomes a :class:`Failed`
    naming the key (the first one is kept). ``text``: the file's text, or its pieces as they are
    read (:func:`readinglist.convert.textfile.iter_text`: the text is then never held whole, unless
    bibtexparser must read the rest of it). ``slowly``: by bibtexparser alone (what the fast
    splitter must agree with). Exceptions bibtexparser raises on hopeless input pass through."""
    seen: tuple[set[str], set[str]] = (set(), set())
    pieces = (text,) if isinstance(text, str) else text
    for b in _slow("".join(pieces), 0) if slowly else _blocks(pieces):
        if isinstance(b, (Entry, String)):
            keys = seen[isinstance(b, String)]
            if b.key in keys:
                yield Failed(b.line, b.raw if isinstance(b, Entry) else "", f"Duplicate entry key '{b.key}'", b.key)
                continue
            keys.add(b.key)
        yield b


#: A line that starts with a block (``\n`` before its ``@``): where the text read so far is cut,
#: the rest kept for the next piece.
_CUT = re.compile(r"\n(?=@\w*[ \t]*[{(])")


def _blocks(pieces: Iterable[str]) -> Iterator:
    """The fast splitter's blocks, then bibtexparser's from the first block it is not sure of.

    The text is split as it is read, up to the last line that starts with a block (where the
    fast splitter reading the whole text also starts a block, or is not sure of the block that
    runs past it: an ``@`` first on a line inside a block; its regular expressions cannot match
    past the end of what they see, so they are sure of no block the cut would change)."""
    read = iter(pieces)
    line = 0  # of ``held``'s start
    held = next(read, "")  # read, not split yet
    while (piece := next(read, None)) is not None:  # (the last piece is split whole, uncut)
        cut = _last_cut(held)
        if cut is None:
            held += piece
            continue
        lines = _Lines(held[:cut], line)
        rest = yield from _fast_blocks(lines)
        if rest is not None:
            yield from _slow(lines.text[rest:] + held[cut:] + piece + "".join(read), lines.at(rest))
            return
        line = lines.at(cut)
        held = held[cut:] + piece
    lines = _Lines(held, line)
    rest = yield from _fast_blocks(lines)
    if rest is not None:
        yield from _slow(held[rest:], lines.at(rest))


def _last_cut(text: str) -> int | None:
    """The start of the last line of ``text`` that starts with a block (not the first line)."""
    end = len(text)
    while True:
        i = text.rfind("\n@", 0, end)
        if i < 0:
            return None
        if _CUT.match(text, i):
            return i + 1
        end = i


def _collect(blocks: Iterable) -> Blocks:
    """Blocks sorted by kind (in file order within each)."""
    entries: list[Entry] = []
    strings: list[String] = []
    comments: list[Comment] = []
    failed: list[Failed] = []
    for b in blocks:
        (entries if isinstance(b, Entry) else strings if isinstance(b, String) else comments if isinstance(b, Comment) else failed).append(b)
    return Blocks(tuple(entries), tuple(strings), tuple(comments), tuple(failed))


def split(text: str) -> Blocks:
    """The blocks of a BibTeX file (see the module docstring and :func:`iter_blocks`)."""
    return _collect(iter_blocks(text))


def split_slowly(text: str) -> Blocks:
    """:func:`split` by bibtexparser alone (what the fast splitter must agree with)."""
    return _collect(iter_blocks(text, slowly=True))
