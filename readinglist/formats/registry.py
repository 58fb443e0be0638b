"""Importer and exporter plugins, found through entry points or registered at run time.

Built-in formats are registered in ``pyproject.toml`` exactly like third-party ones, under the
entry-point groups ``readinglist.importers`` and ``readinglist.exporters``; a program can also
:func:`register` a format object at run time, beside them (as pybtex's ``register_plugin``):
every format, built-in, installed or registered, is one entry of the same table, looked up the
same way. Each format is an object with ``name``, ``suffixes`` and ``description`` attributes and

* for an exporter: ``export(papers, options) -> str`` (the caller writes the file);
* for an importer: ``parse(text, *, source, options) -> ImportResult``.

A format is looked up by name first, then by a file's suffix; a miss raises
:class:`~readinglist.errors.UnknownFormatError` listing the known names.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import PurePath
from typing import TYPE_CHECKING, Protocol
from collections.abc import Callable, Sequence

from ..errors import UnknownFormatError

if TYPE_CHECKING:  # pragma: no cover
    from ..config import Config
    from ..record import ImportResult, Paper

IMPORTERS = "readinglist.importers"
EXPORTERS = "readinglist.exporters"


@dataclass(frozen=True)
class ExportOptions:
    config: Config
    with_status: bool = False  # reading status, priority, rating (JabRef fields / Zotero Extra)
    with_notes: bool = False  # the reader's notes (BibTeX annote, CSL note)
    group_by: str | None = None  # Markdown: tag | status | venue | priority
    title: str | None = None  # Markdown: the list's heading
    #: A curated list (:class:`readinglist.store.lists.Resolved`) when exporting one: the papers
    #: come in its order; exporters that know lists (Markdown, HTML) also show its title,
    #: introduction, sections and comments. Exporters that do not know it simply ignore it.
    reading_list: object | None = None
    unicode: bool = False  # BibTeX: UTF-8 Unicode text instead of ASCII LaTeX
    collection: str | None = None  # Zotero RDF: put the items into a collection of this name
    #: Every curated list of the store (``Resolved`` each) when the whole library is exported:
    #: Zotero RDF writes each as a collection (with sections, introduction and comments).
    reading_lists: tuple = ()
    processes: int = 1  # > 1: a large export may be rendered by that many processes (the CLI passes its cores)


@dataclass(frozen=True)
class ImportOptions:
    config: Config
    venue: str | None = None  # overrides the venue found in the input
    year: int | None = None  # overrides the year found in the input
    processes: int = 1  # worker processes an importer may fork (the CLI passes its cores)
    progress: Callable[[int, int], None] | None = None  # progress(done, total) over one input's items
    #: abstract lists: a :class:`readinglist.convert.pipeline.Workers` pool forked once for the
    #: whole import (the CLI's import makes one; else each large list forks its own)
    workers: object | None = None
    #: abstract lists: the fields generated before (:class:`readinglist.store.genmemo.GenerationMemo`),
    #: so that only abstracts it does not know are generated
    memo: object | None = None


class Exporter(Protocol):
    name: str
    suffixes: tuple[str, ...]
    description: str

    def export(self, papers: Sequence[Paper], options: ExportOptions) -> str: ...


class Importer(Protocol):
    name: str
    suffixes: tuple[str, ...]
    description: str

    def parse(self, text: str, *, source: str, options: ImportOptions) -> ImportResult: ...


@cache
def _entry_points(group: str) -> dict:
    """The group's entry points by name (each loaded when first used)."""
    from importlib.metadata import entry_points

    found = {}
    for ep in sorted(entry_points(group=group), key=lambda e: e.name):
        if ep.name not in found:  # first distribution wins; names are unique in practice
            found[ep.name] = ep
    return found


#: The formats :func:`register` was given, by group and name (nothing unless a caller registers).
_registered: dict[str, dict[str, object]] = {IMPORTERS: {}, EXPORTERS: {}}


def _load(group: str) -> dict:
    """Every format of the group by name, sorted: the entry points and the registered ones (a
    registered one replaces an entry point of its name: :func:`register` with ``force``)."""
    known = {**_entry_points(group), **_registered[group]}
    return {name: known[name] for name in sorted(known)}


def _plugin(group: str, name: str):
    found = _load(group)[name]
    return found if name in _registered[group] else found.load()


def register(plugin, *, name: str | None = None, force: bool = False) -> None:
    """Make the format ``plugin`` known from now on, in this process, beside the entry points:
    as an exporter if it has ``export``, as an importer if it has ``parse`` (both if both), under
    ``name`` (default: its own ``name``; lower case, as names are looked up). ValueError when it
    is neither, has no ``suffixes``, or its name is taken already (by a built-in, an installed or
    a registered format) and ``force`` is not given; with ``force`` it replaces that one."""
    groups = [g for g, method in ((EXPORTERS, "export"), (IMPORTERS, "parse")) if callable(getattr(plugin, method, None))]
    if not groups:
        raise ValueError(f"{plugin!r} is no format: it has neither export(papers, options) nor parse(text, *, source, options)")
    if not isinstance(getattr(plugin, "suffixes", None), tuple):
        raise ValueError(f"{plugin!r} has no suffixes (a tuple such as ('.ris',))")
    wanted = (name or getattr(plugin, "name", "") or "").lower()
    if not wanted:
        raise ValueError(f"{plugin!r} has no name: pass name=")
    for group in groups:
        if wanted in _load(group) and not force:
            kind = "exporter" if group == EXPORTERS else "importer"
            raise ValueError(f"an {kind} named {wanted!r} is known already (register(..., force=True) replaces it)")
    for group in groups:
        _registered[group][wanted] = plugin


def names(group: str) -> tuple[str, ...]:
    return tuple(_load(group))


def _find(group: str, kind: str, name: str | None, path: str | os.PathLike[str] | None):
    known = _load(group)
    if name:
        wanted = name.lower()
        if wanted in known:
            return _plugin(group, wanted)
        # a suffix given as a name ("bib", ".json") is fine too
        suffix = wanted if wanted.startswith(".") else "." + wanted
        for ep_name in known:
            if suffix in _plugin(group, ep_name).suffixes:
                return _plugin(group, ep_name)
        raise UnknownFormatError(kind, name, tuple(known))
    if path is not None:
        suffix = PurePath(path).suffix.lower()
        for ep_name in known:
            plugin = _plugin(group, ep_name)
            if suffix in plugin.suffixes:
                return plugin
        raise UnknownFormatError(kind, suffix or str(path), tuple(known))
    raise UnknownFormatError(kind, "", tuple(known))


def find_exporter(name: str | None = None, path: str | os.PathLike[str] | None = None) -> Exporter:
    """The exporter called ``name``, else the one for ``path``'s suffix."""
    return _find(EXPORTERS, "export", name, path)


def find_importer(name: str | None = None, path: str | os.PathLike[str] | None = None) -> Importer:
    """The importer called ``name``, else the one for ``path``'s suffix."""
    return _find(IMPORTERS, "import", name, path)


def all_exporters() -> list[Exporter]:
    """Every exporter plugin, loaded, by name."""
    return [_plugin(EXPORTERS, n) for n in _load(EXPORTERS)]


def all_importers() -> list[Importer]:
    """Every importer plugin, loaded, by name."""
    return [_plugin(IMPORTERS, n) for n in _load(IMPORTERS)]


def exporter_names() -> tuple[str, ...]:
    return names(EXPORTERS)


def importer_names() -> tuple[str, ...]:
    return names(IMPORTERS)


def clear_cache() -> None:
    """Forget discovered plugins (after installing one at run time, or in tests); the
    registered ones stay."""
    _entry_points.cache_clear()
