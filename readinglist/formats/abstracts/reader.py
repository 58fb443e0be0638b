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
        yield from self.prepare(text, source=source, options=options)

    def prepare(self, text: str, *, source: str, options: ImportOptions) -> Iterator[ImportResult]:
        """:meth:`iter_parse` with the list read and its abstracts matched now (the part that
        runs in this process: a caller may do it while workers generate another list)."""
        from ...convert.reader import ListReader, text_lines

        return self._prepared(ListReader(text_lines(text), source=source), options)

    def iter_parse_path(self, path, *, source: str, options: ImportOptions) -> Iterator[ImportResult]:
        """:meth:`iter_parse` of the list in the file at ``path``, read as it comes (its memory
        does not grow with the file; InputError when the reading reaches a part that is not text)."""
        yield from self.prepare_path(path, source=source, options=options)

    def prepare_path(self, path, *, source: str, options: ImportOptions) -> Iterator[ImportResult]:
        """:meth:`prepare` of the list in the file at ``path``, read as it comes."""
        from ...convert.reader import read_list

        return self._prepared(read_list(path, source=source), options)

    def _prepared(self, listing, options: ImportOptions) -> Iterator[ImportResult]:
        from ...convert.pipeline import Converter

        conv = Converter(config=options.config, processes=options.processes, progress=options.progress, workers=options.workers, memo=options.memo)  # type: ignore[arg-type]
        pending = conv.match_list(listing, venue=options.venue, year=options.year)
        conv.forget_seen()  # (one list per converter)
        generated = conv.generate_matched(pending)  # given workers, handed to them now

        def results() -> Iterator[ImportResult]:
            for records in generated:
                yield ImportResult(records=tuple(records))
            done = conv.result()
            yield ImportResult(skipped=done.skipped, duplicates=done.duplicates, warnings=done.warnings)

        return results()


importer = AbstractListImporter()
