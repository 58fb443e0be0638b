"""readinglist as a pybtex plugin (entry points in pyproject.toml).

* ``pybtex.database.input`` ``abstracts`` (also for the suffix ``.txt``):
  :class:`AbstractListParser` reads an abstract list with readinglist's converter, so
  ``pybtex-convert seeds/list.txt list.bib`` works.
* ``pybtex.database.output`` ``csljson`` (``.json``) and ``markdown`` (``.md``):
  :class:`CslJsonWriter` and :class:`MarkdownWriter` turn pybtex entries back into records
  and reuse readinglist's own exporters, so ``pybtex-convert refs.bib refs.json`` works.

Entries are built from the same field list as readinglist's BibTeX export
(:func:`readinglist.formats.bibtex.writer.record_fields`). What pybtex's data model has no room
for is not carried: the "generated" comment, reading status and notes (the writers export
bibliographic data only, as with the CLI's defaults).
"""

from __future__ import annotations

from pybtex.database import Entry, Person as PybtexPerson
from pybtex.database.input import BaseParser
from pybtex.database.output import BaseWriter
from pybtex.exceptions import PybtexError

from ...config import Config, load_config
from ...errors import ReadinglistError
from ..bibtex.writer import record_fields
from ..registry import ExportOptions
from ...record import Paper, Person, Record


def _config() -> Config:
    try:
        return load_config()
    except ReadinglistError as exc:
        raise PybtexError(str(exc)) from None


# --- records -> pybtex --------------------------------------------------------------------


def record_to_entry(record: Record, config: Config) -> Entry:
    """A pybtex entry with the fields readinglist's BibTeX export writes for ``record``."""
    pairs = record_fields(record, ExportOptions(config=config))
    fields = [(k, v) for k, v in pairs if k != "author"]
    persons = {}
    if record.authors:
        persons["author"] = [_pybtex_person(p) for p in record.authors]
    else:  # the export's placeholder ("{CanViT}"), if configured
        persons["author"] = [PybtexPerson(last=v) for k, v in pairs if k == "author"]
    return Entry(record.entry_type, fields=fields, persons=persons)


def _pybtex_person(person: Person) -> PybtexPerson:
    from ...text.literal import bibtex_text as to_bibtex

    if person.literal:
        return PybtexPerson(last="{" + to_bibtex(person.literal) + "}")
    return PybtexPerson(last=to_bibtex(person.family), first=to_bibtex(person.given))


class AbstractListParser(BaseParser):
    """pybtex input plugin: an abstract list (header "NeurIPS 2026 论文列表", one abstract per
    paragraph) -> one ``@inproceedings`` entry per abstract, with generated key, title, tags."""

    default_suffix = ".txt"
    unicode_io = True

    def parse_file(self, filename, file_suffix=None):
        """Read the file as readinglist does (encodings, BOMs, binary detection), then parse."""
        from ...convert.reader import read_text

        if file_suffix is not None:
            filename = filename + file_suffix
        self.filename = filename
        try:
            text = read_text(filename)
        except ReadinglistError as exc:
            raise PybtexError(str(exc)) from None
        return self._parse_text(text)

    def parse_stream(self, stream):
        return self._parse_text(stream.read())

    def _parse_text(self, text: str):
        from ...convert import convert

        config = _config()
        try:
            result = convert(text, source=str(self.filename), config=config)
        except ReadinglistError as exc:
            raise PybtexError(str(exc), filename=self.filename) from None
        for record in result.records:
            self.data.add_entry(record.key, record_to_entry(record, config))
        return self.data


# --- pybtex -> records --------------------------------------------------------------------


def entry_to_record(key: str, entry: Entry, config: Config) -> Record:
    """A Record from a pybtex entry, read exactly as readinglist's BibTeX importer reads a .bib
    entry (:func:`readinglist.formats.bibtex.fields.fields_record`), without the export's
    placeholder for "no authors"."""
    from ..bibtex.placeholder import drop_placeholder
    from ..bibtex.fields import fields_record

    values = {name.lower(): str(value) for name, value in entry.fields.items()}
    people = entry.persons.get("author", ())
    if people:
        values["author"] = " and ".join(str(p) for p in people)
        drop_placeholder(values, key, config)  # the export's placeholder: no authors
    record = fields_record(key, entry.type, values, config)
    if record is None:
        record = Record(key=key, title="", abstract="", entry_type=entry.type.lower())
    return record


class _ExporterWriter(BaseWriter):
    """pybtex output plugin that hands the entries to one of readinglist's exporters."""

    unicode_io = True
    exporter_module = ""

    def write_stream(self, bib_data, stream):
        from importlib import import_module

        config = _config()
        papers = [Paper(entry_to_record(key, entry, config)) for key, entry in bib_data.entries.items()]
        exporter = import_module(self.exporter_module).exporter
        try:
            stream.write(exporter.export(papers, ExportOptions(config=config)))
        except ReadinglistError as exc:
            raise PybtexError(str(exc)) from None


class CslJsonWriter(_ExporterWriter):
    """pybtex output plugin: CSL-JSON (readinglist's exporter)."""

    exporter_module = "readinglist.formats.csljson.writer"


class MarkdownWriter(_ExporterWriter):
    """pybtex output plugin: a Markdown reading list (readinglist's exporter)."""

    exporter_module = "readinglist.formats.markdown.writer"
