"""Curated list files: ``<store>/lists/<name>.toml`` read (:func:`load`, :func:`parse`) and
written (:func:`save`, :func:`render`): one paper per line, deterministic bytes, written
atomically when the store's transaction writes its papers. See :mod:`readinglist.store.lists`."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Sequence

from ..errors import ListError, UnknownListError, ValidationError
from .listmodel import HEADER, Entry, ReadingList, Section

if TYPE_CHECKING:  # pragma: no cover
    from .library import Store

# --------------------------------------------------------------------------- files


def check_name(name: str) -> str:
    """``name`` when it may name a list file (the store's one name rule,
    :func:`~readinglist.keyform.is_valid_name`), else ValidationError."""
    from ..keyform import RESERVED_NAMES, is_valid_name

    if not is_valid_name(name):
        why = (
            "a name Windows reserves for a device"
            if isinstance(name, str) and name.split(".")[0].lower() in RESERVED_NAMES
            else "use ASCII letters, digits, '.', '_', '+' and '-' (starting with a letter or digit, not ending in '.', at most 120)"
        )
        raise ValidationError(f"bad list name {name!r}: {why}")
    return name


def folder(store: Store) -> Path:
    return store.root / "lists"


def path_of(store: Store, name: str) -> Path:
    return folder(store) / f"{check_name(name)}.toml"


def names(store: Store) -> list[str]:
    """The names of every list in the store, sorted."""
    d = folder(store)
    if not d.is_dir():
        return []
    from ..keyform import is_valid_name

    return sorted(p.stem for p in d.glob("*.toml") if is_valid_name(p.stem) and p.is_file())


def parse(text: str, name: str, path: str | Path = "") -> ReadingList:
    """A list file's text -> ReadingList; ListError naming the file (and line) when it is bad."""
    where = str(path) or f"{name}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        from .conflicts import describe

        conflict = describe(text, where, kind="list")
        if conflict:
            raise ListError(conflict) from None
        raise ListError(f"{where}: {exc}; fix it by hand") from None
    except RecursionError:
        raise ListError(f"{where}: arrays or tables nested too deeply; fix it by hand") from None

    def bad(what: str):
        return ListError(f"{where}: {what}")

    title = data.get("title", "")
    intro = data.get("introduction", "")
    if not isinstance(title, str):
        raise bad("title must be a string")
    if not isinstance(intro, str):
        raise bad("introduction must be a string")
    raw_sections = data.get("sections", [])
    if not isinstance(raw_sections, list):
        raise bad("sections must be an array of tables ([[sections]])")
    sections = []
    for i, s in enumerate(raw_sections, 1):
        if not isinstance(s, dict):
            raise bad(f"section {i} must be a table")
        s_title = s.get("title", "")
        if not isinstance(s_title, str):
            raise bad(f"section {i}: title must be a string")
        entries = []
        papers = s.get("papers", [])
        if not isinstance(papers, list):
            raise bad(f"section {s_title or i!r}: papers must be an array")
        for p in papers:
            if isinstance(p, str):  # a bare key is fine when written by hand
                p = {"key": p}
            if not isinstance(p, dict) or not isinstance(p.get("key"), str) or not p["key"].strip():
                raise bad(f"section {s_title or i!r}: each paper needs a key ({p!r})")
            comment = p.get("comment", "")
            if not isinstance(comment, str):
                raise bad(f"section {s_title or i!r}: the comment of {p['key']} must be a string")
            entries.append(Entry(p["key"].strip(), comment))
        sections.append(Section(s_title, tuple(entries)))
    return ReadingList(name=name, title=title, introduction=intro, sections=tuple(sections))


def _str(s: str) -> str:
    """A TOML basic string: JSON's escaping, DEL escaped too (TOML forbids it raw); text typed
    under a non-UTF-8 locale decoded (see :func:`~readinglist.text.controls.os_text`)."""
    import json

    from ..text.controls import os_text

    return json.dumps(os_text(s), ensure_ascii=False).replace("\x7f", "\\u007f")


def _multiline(s: str) -> str:
    if "'''" not in s and not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", s.replace("\r\n", "\n")):
        from ..text.controls import os_text

        return "'''\n" + os_text(s).rstrip("\n") + "\n'''"
    return _str(s)


def render(lst: ReadingList) -> str:
    """The file text of ``lst``: same list, same bytes; one paper per line."""
    return "".join(render_units(lst))


def render_units(lst: ReadingList) -> list[str]:
    """:func:`render` as its statements, one string each (a line, or the whole multi-line
    introduction): what a merge puts between conflict markers."""
    out = [HEADER, f"title = {_str(lst.title)}\n"]
    if lst.introduction.strip():
        out.append(f"introduction = {_multiline(lst.introduction)}\n")
    for s in lst.sections:
        out += ["\n", "[[sections]]\n", f"title = {_str(s.title)}\n"]
        if s.entries:
            out.append("papers = [\n")
            for e in s.entries:
                comment = f", comment = {_str(e.comment)}" if e.comment else ""
                out.append(f"  {{ key = {_str(e.key)}{comment} }},\n")
            out.append("]\n")
        else:
            out.append("papers = []\n")
    return out


def load(store: Store, name: str) -> ReadingList:
    """The list ``name``; UnknownListError (with the closest names) when there is none."""
    from .atomic import describe, read_bounded

    path = path_of(store, name)
    pending = _pending(store)
    if name in pending:  # saved earlier in this transaction, written with its papers
        return pending[name]
    try:
        text = read_bounded(path, limit=16 << 20).decode("utf-8")
    except FileNotFoundError:
        raise UnknownListError(name, suggest(name, names(store))) from None
    except UnicodeDecodeError:
        raise ListError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ListError(f"{path}: cannot read: {describe(exc)}") from None
    return parse(text, name, path)


def suggest(word: str, candidates: Sequence[str]) -> tuple[str, ...]:
    import difflib

    return tuple(difflib.get_close_matches(word, list(candidates), n=3, cutoff=0.5))


def load_all(store: Store) -> tuple[list[ReadingList], list[ListError]]:
    """Every list that can be read, and one error (naming its file) per list that cannot: a
    broken or conflicted list never keeps the others from being shown."""
    found, broken = [], []
    for name in names(store):
        try:
            found.append(load(store, name))
        except ListError as exc:
            broken.append(exc)
    return found, broken


def _pending(store: Store) -> dict[str, ReadingList]:
    """The lists saved in the store's current transaction and not written yet."""
    pending = store.__dict__.get("_lists_pending")
    if pending is None or store._depth == 0:
        pending = store.__dict__["_lists_pending"] = {}
    return pending


def _write(store: Store, lst: ReadingList) -> Path:
    from .atomic import write_atomic
    from .tempfiles import remove_leftovers

    path = path_of(store, lst.name)
    remove_leftovers(path.parent)  # (the temporary files of a list write that was killed)
    try:
        write_atomic(path, render(lst), inside=store.root)  # never through a link out of the store
    except OSError as exc:
        raise ListError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return path


def save(store: Store, lst: ReadingList) -> Path:
    """Write ``lst`` atomically when the store's transaction (which the caller holds) writes
    its papers: a transaction that fails later (a ``reconcile --rekey`` refused on its tenth
    paper) leaves the lists as they were, never naming keys that no paper got."""
    path = path_of(store, lst.name)
    if store._depth == 0:
        return _write(store, lst)
    pending = _pending(store)
    if not pending:

        def flush() -> None:
            for item in list(pending.values()):
                _write(store, item)

        store._after_flush.append(flush)
        store._at_end.append(pending.clear)
    pending[lst.name] = lst
    return path


