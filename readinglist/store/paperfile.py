"""One paper's TOML file: reading it into a :class:`~readinglist.record.Paper`, and the row
the cache stores of it.

A paper lives in ``<store>/papers/<key>.toml``::

    # readinglist paper — edit freely. ...
    key = "canvit2026"
    type = "inproceedings"
    title = "..."
    ...
    [state]            status, priority, rating, tags (the user's own), notes, history
    [generated]        what readinglist generated for key, title, shorttitle, tags
    [[sources]]        where the record came from

* :func:`parse` reads a file's text into a paper (a file as readinglist wrote it without a
  TOML parser: :func:`~.paperrow.read_rendered`; any other with :mod:`tomllib`); its values are
  checked by :func:`~.paperdata.checked_row`, the one validator.
* :func:`render` writes a new file in a fixed order and format, so the same paper always gives
  the same bytes (:func:`~.paperrow.render_row` of the paper's row).
* :func:`~.paperedit.edit` changes an existing file with :mod:`tomlkit`, keeping a person's
  comments and layout.
* :func:`paper_to_row` and :func:`row_to_paper`: a paper as the plain tuple (:mod:`.paperrow`)
  the cache stores and back.
"""

from __future__ import annotations

import os
import re

from ..errors import StoreError
from ..record import Event, Paper, Person, Record, Source
from .paperdata import checked_row
# a file's text and name (paperrow's): read here too
from .paperrow import file_stem as file_stem, read_rendered as read_rendered, read_text as read_text, read_texts as read_texts, render_row as render_row

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from typing import Any


_TOML_POSITION = re.compile(r"^(.*) \(at line (\d+), column (\d+)\)$")


# --------------------------------------------------------------------------- reading


def compiled_loads():
    """A compiled TOML reader (``toml_rs``, a dependency) when it is installed, else None.

    Reading a whole store (a fresh clone, a deleted cache) parses every file; a compiled
    reader does that much faster than :mod:`tomllib`. It is only used for that bulk
    read (importing it costs more than parsing one file), and only as a fast path: a file it
    rejects is read again with :mod:`tomllib`, whose error names the line and column.
    """
    global _COMPILED
    if _COMPILED is False:
        _COMPILED = None
        try:
            from functools import partial

            import toml_rs

            # TOML 1.0, as tomllib reads it (toml_rs would also take TOML 1.1 by default)
            _COMPILED = partial(toml_rs.loads, toml_version="1.0.0")
        except Exception:  # noqa: BLE001 - not installed, or broken: tomllib it is
            pass
    return _COMPILED


_COMPILED: Any = False  # not looked for yet


def parse(text: str, path: str | os.PathLike, *, loads=None) -> Paper:
    """The paper a file's text describes. Raises StoreError naming ``path`` (and line:column).

    A file as readinglist wrote it is read without a TOML parser (:func:`read_rendered`);
    ``loads`` is a faster TOML reader to try first for any other (see :func:`compiled_loads`).
    """
    row = read_rendered(text)
    if row is None:
        row = checked_row(_load(text, path, loads), path, text)
    return row_to_paper(row)


def parse_row(text: str, path: str | os.PathLike, *, loads=None) -> tuple:
    """:func:`parse` as the plain tuple :func:`row_to_paper` reads (what the cache stores):
    the same paper, without building it (the bulk read of a whole store, where ``loads``, a
    compiled reader, is faster than :func:`read_rendered`)."""
    if loads is None:
        row = read_rendered(text)
        if row is not None:
            return row
    return checked_row(_load(text, path, loads), path, text)


def _load(text: str, path, loads) -> dict:
    if loads is not None:
        try:
            data = loads(text)
        except Exception:  # noqa: BLE001 - any failure: let tomllib find and report it
            pass
        else:
            if data.__class__ is dict:
                return data
    import tomllib  # (here: a file readinglist wrote is read without it, see read_rendered)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        from .conflicts import describe

        conflict = describe(text, path)  # git's conflict markers: name the fields, not the TOML
        if conflict:
            raise StoreError(conflict) from None
        msg = str(exc)
        m = _TOML_POSITION.match(msg)
        if m:
            raise StoreError(f"{path}:{m.group(2)}:{m.group(3)}: not valid TOML: {m.group(1)}") from None
        raise StoreError(f"{path}: not valid TOML: {msg}") from None
    except RecursionError:
        raise StoreError(f"{path}: not a paper file: arrays or tables nested too deeply") from None


def from_data(data: dict, path, text: str = "") -> Paper:
    """The paper in a parsed paper file (a dict from a TOML reader), checked by
    :func:`~.paperdata.checked_row`."""
    return row_to_paper(checked_row(data, path, text))


def paper_to_row(p: Paper) -> tuple:
    """A paper as plain tuples (what marshal can store; :func:`row_to_paper` reads it back)."""
    r = p.record
    return (
        r.key, r.title, r.abstract, r.entry_type, r.venue, r.year, r.shorttitle, r.tags,
        tuple([(a.family, a.given, a.literal) for a in r.authors]),
        r.doi, r.url, r.pages, r.fields, tuple(sorted(r.generated)),
        tuple([(s.file, s.paragraph, s.line) for s in r.sources]),
        p.status, tuple([(e.event, e.date) for e in p.history]), p.notes, p.user_tags,
        p.priority, p.rating,
    )  # fmt: skip


_new = tuple.__new__


def row_to_paper(row: tuple, _sets: dict = {}, _histories: dict = {}) -> Paper:  # noqa: B006 - memos
    """The paper a row describes (the hot loop of loading: kept free of needless calls;
    equal ``generated`` sets and histories, common after an import, are shared)."""
    (key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, gen,
     sources, status, history, notes, utags, priority, rating) = row  # fmt: skip
    generated = _sets.get(gen)
    if generated is None:
        generated = _sets[gen] = frozenset(gen)
    if sources:
        sources = tuple([_new(Source, s) for s in sources])
    if history:
        events = _histories.get(history)
        if events is None:
            events = _histories[history] = tuple([_new(Event, e) for e in history])
        history = events
    if authors:
        authors = tuple([_new(Person, a) for a in authors])
    record = _new(Record, (key, title, abstract, etype, venue, year, short, tags, authors, doi, url, pages, fields, generated, sources))
    return _new(Paper, (record, status, history, notes, utags, priority, rating))


# --------------------------------------------------------------------------- writing


def canonical(paper: Paper) -> Paper:
    """``paper`` as its file will read back: a generated field without a value is not kept
    as generated (there is nothing in ``[generated]`` to compare with)."""
    r = paper.record
    gen = frozenset(f for f in r.generated if getattr(r, f) not in (None, "", ()))
    return paper if gen == r.generated else paper.evolve(record=r.evolve(generated=gen))


def render(paper: Paper) -> str:
    """The text of a new file for ``paper``; the same paper always gives the same bytes
    (:func:`render_row` of its row).

    Written directly (much faster than building a tomlkit document, which matters for imports
    of thousands of papers); the tests check that the text equals the tomlkit
    document built from the same values with :func:`_item`, so new files and later edits
    look alike.
    """
    return render_row(paper_to_row(paper))


def edit(text: str, old: Paper, new: Paper, path: str | os.PathLike) -> str:
    """:func:`.paperedit.edit`: ``text`` (a file that parses to ``old``) changed to describe
    ``new``, keeping a person's layout (imported when first needed: a file readinglist wrote is
    written afresh instead)."""
    from .paperedit import edit

    return edit(text, old, new, path)
