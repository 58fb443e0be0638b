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
from ..bibtex.writer import OWN_FIELDS, record_fields
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
    else:  # the export's placeholder ("{Authors of canvit2026}"), if configured
        persons["author"] = [PybtexPerson(last=v) for k, v in pairs if k == "author"]
    return Entry(record.entry_type, fields=fields, persons=persons)


def _authors(key: str, persons, config: Config) -> tuple[Person, ...]:
    """A pybtex entry's authors, without the export's placeholder for "no authors"."""
    authors = tuple(_person(p) for p in persons)
    pattern = config.anonymous_author
    if pattern and len(authors) == 1 and authors[0].literal == pattern.replace("{key}", key):
        return ()
    return authors


def _pybtex_person(person: Person) -> PybtexPerson:
    from ...text import to_bibtex

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


def _person(person: PybtexPerson) -> Person:
    from ...text import to_plain

    family = " ".join(person.prelast_names + person.last_names + person.lineage_names)
    given = " ".join(person.first_names + person.middle_names)
    if not given and family.startswith("{") and family.endswith("}"):
        return Person(literal=to_plain(family))
    return Person(family=to_plain(family), given=to_plain(given))


def entry_to_record(key: str, entry: Entry, config: Config) -> Record:
    """A Record from a pybtex entry, read the way readinglist's BibTeX importer reads a .bib
    (its venue lookup, tag splitting and DOI cleaning; LaTeX decoded where Record wants
    Unicode, the abstract kept as LaTeX)."""
    from .. import importing
    from ...text import to_plain

    f = {name.lower(): str(value) for name, value in entry.fields.items()}
    entry_type = entry.type.lower()
    full_name = f.get("journal") or f.get("journaltitle") if entry_type == "article" else f.get("booktitle")
    extra = tuple(sorted((k, v) for k, v in f.items() if k not in OWN_FIELDS and v.strip()))
    return Record(
        key=key,
        title=to_plain(f.get("title", "")),
        abstract=f.get("abstract", ""),
        entry_type=entry_type,
        venue=importing.find_venue(config, full_name and to_plain(full_name), f.get("eventtitle")),
        year=importing.find_year(f.get("year"), f.get("date"), f.get("eventtitle")),
        shorttitle=to_plain(f["shorttitle"]) if f.get("shorttitle") else None,
        tags=importing.split_tags(to_plain(f["keywords"]) if f.get("keywords") else None),
        authors=_authors(key, entry.persons.get("author", ()), config),
        doi=importing.clean_doi(f.get("doi")),
        url=f.get("url") or None,
        pages=f.get("pages") or None,
        fields=extra,
    )


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
