"""Importer for plain-text abstract lists (the seed format), built on :mod:`readinglist.convert`."""

from __future__ import annotations

from ..registry import ImportOptions
from ...record import ImportResult


class AbstractListImporter:
    name = "abstracts"
    suffixes = (".txt", ".text")
    description = "conference abstract lists: a 'Venue Year' header, then one abstract per paragraph"

    def parse(self, text: str, *, source: str, options: ImportOptions) -> ImportResult:
        from ...convert import convert

        return convert(
            text,
            venue=options.venue,
            year=options.year,
            source=source,
            config=options.config,
            processes=options.processes,
            progress=options.progress,
        ).as_import_result()


importer = AbstractListImporter()
