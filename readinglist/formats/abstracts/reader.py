"""Importer for plain-text abstract lists (the seed format), built on :mod:`readinglist.convert`."""

from __future__ import annotations

from collections.abc import Iterator

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

    def iter_parse(self, text: str, *, source: str, options: ImportOptions) -> Iterator[ImportResult]:
        """:meth:`parse` in pieces, as the abstracts are generated: results holding records
        only, then one holding what was skipped, the duplicates and the warnings."""
        from ...convert.pipeline import Converter

        conv = Converter(config=options.config, processes=options.processes, progress=options.progress)
        for records in conv.iter_text(text, source=source, venue=options.venue, year=options.year):
            yield ImportResult(records=tuple(records))
        done = conv.result()
        yield ImportResult(skipped=done.skipped, duplicates=done.duplicates, warnings=done.warnings)


importer = AbstractListImporter()
