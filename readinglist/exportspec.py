"""What an export is asked for, as one value: the format, the filters of ``list``, the curated
list, and the exporter's options. ``readinglist export`` and the store's auto-exports
(:mod:`readinglist.autoexport`) both turn an :class:`ExportSpec` into text with :func:`render`,
so an auto-exported file is byte for byte what the same ``export`` command writes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

from .selection import FIELDS as FILTER_FIELDS
from .selection import Filter

if TYPE_CHECKING:
    from .config import Config
    from .store.library import Store


@dataclass(frozen=True, slots=True)
class ExportSpec:
    """One export. ``path`` is where it goes (its suffix names the format when ``format`` is
    None); ``where`` the filters (those of ``list``); ``list_name`` exports a curated list in its
    order (the filters narrow it)."""

    path: str | None = None
    format: str | None = None
    where: Filter = Filter()
    sort: str = "key"
    list_name: str | None = None
    group_by: str | None = None
    with_status: bool = False
    with_notes: bool = False
    unicode: bool = False
    title: str | None = None

    def _flat(self) -> dict:
        """Every field, the filters among them by name (as an auto-export file has them)."""
        out: dict = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out.update(value.as_dict() if f.name == "where" else {f.name: value})
        return out

    def as_dict(self) -> dict:
        """The fields that differ from the defaults (what an auto-export file stores)."""
        default = ExportSpec()._flat()
        return {name: list(value) if isinstance(value, tuple) else value for name, value in self._flat().items() if value != default[name]}

    @classmethod
    def from_dict(cls, data: dict, where: str) -> ExportSpec:
        """The spec an auto-export file describes; ValidationError naming ``where`` when a field
        is unknown or of the wrong type."""
        from .errors import ValidationError

        defaults = cls()._flat()
        values = {}
        for name, value in data.items():
            if name not in defaults:
                raise ValidationError(f"{where}: unknown field {name!r} (known: {', '.join(defaults)})")
            default = defaults[name]
            if isinstance(default, tuple):
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise ValidationError(f"{where}: {name} must be a list of strings")
                value = tuple(value)
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ValidationError(f"{where}: {name} must be true or false")
            elif name in ("year", "priority", "rating"):
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValidationError(f"{where}: {name} must be a number")
            elif not isinstance(value, str):
                raise ValidationError(f"{where}: {name} must be a string")
            values[name] = value
        chosen = {name: values.pop(name) for name in FILTER_FIELDS if name in values}
        return cls(**values, where=Filter(**chosen))


def render(store: Store, config: Config, spec: ExportSpec, *, warn=None, processes: int = 1) -> tuple[int, Iterator[str]]:
    """(how many papers, the export's text in pieces) for ``spec`` on ``store``. ``warn`` is
    called with each message about the curated list (a key renamed or missing); ``processes``
    as for :func:`~readinglist.jobs.export_chunks`. The exporter's
    checks run before this returns (see :func:`~readinglist.jobs.export_chunks`)."""
    from .formats.registry import ExportOptions
    from .jobs import export_chunks

    papers = store.find(spec.where, sort=spec.sort)
    resolved = None
    if spec.list_name is not None:
        from .store import lists

        resolved = lists.resolve(store, lists.load(store, spec.list_name))
        for message in resolved.messages():
            if warn is not None:
                warn(message)
        selected = {p.key for p in papers}
        papers = [p for p in resolved.papers if p.key in selected]
    # Zotero RDF: a curated list, a filtered export or one with a title becomes a Zotero collection
    filters = spec.where.describe()
    if resolved is not None:
        collection: str | None = spec.title or resolved.list.title or resolved.list.name
    else:
        collection = spec.title or filters or None
    path = Path(spec.path) if spec.path is not None else None
    # Zotero RDF of the whole library: every curated list comes along as a collection of its own
    every_list: tuple = ()
    if resolved is None and not filters:
        from .formats.registry import find_exporter

        if find_exporter(spec.format, path).name == "zotero":
            from .store import lists  # (only here: the other formats need no curated list)

            readable, broken = lists.load_all(store)  # a broken list is said, and the others come
            for error in broken:
                if warn is not None:
                    warn(f"{error}; left out")
            every_list = tuple(lists.resolve(store, lst) for lst in readable)
            for other in every_list:
                for message in other.messages():
                    if warn is not None:
                        warn(message)
    options = ExportOptions(
        config=config, with_status=spec.with_status, with_notes=spec.with_notes, group_by=spec.group_by, title=spec.title,
        reading_list=resolved, collection=collection, unicode=spec.unicode, reading_lists=every_list, processes=processes,
    )  # fmt: skip
    chunks = export_chunks(papers, options, format=spec.format, path=path)
    return len(papers), chunks


def relative_to_store(store: Store, path: str | os.PathLike) -> str:
    """``path`` as an auto-export file keeps it: relative to the store's folder, with ``/``, so
    a clone elsewhere (or on another machine) finds the same file and no machine path is shared."""
    return Path(os.path.relpath(Path(path).resolve(), store.root.resolve())).as_posix()
