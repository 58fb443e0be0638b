"""Importer for CSL-JSON (Zotero, Better BibTeX, pandoc, readinglist's own export).

What becomes what:

* key: ``citation-key``, else ``id`` when it is usable as a citation key (no spaces, slashes or
  braces); else a key made from the title and year with the config's key pattern (marked
  generated). A key used twice in the file gets a suffix (a, b, ...) and a warning.
* ``type`` -> entry type (``paper-conference`` -> inproceedings, ``article-journal`` -> article,
  ...; unknown types -> misc). ``title``, ``title-short``, ``abstract`` (plain text, as written).
* ``author``: ``family``/``given`` (particles and suffix kept in the family name) or ``literal``.
* venue: ``container-title`` looked up in the config's venues table (full name -> short name),
  else ``event-title`` (``NeurIPS 2026``); year: ``issued`` (``date-parts``, ``raw`` or
  ``literal``), else the event's year. ``DOI`` (bare), ``URL``, ``page``.
* ``keyword`` (split on ``,`` or ``;``) and ``categories`` become ``Record.tags``.
* ``note`` (Zotero's Extra): the Zotero Reading List plugin's ``Read_Status:`` line gives the
  reading status (New / To Read -> unread, In Progress -> reading, Read -> read, Not Reading ->
  skipped); ``Priority: N`` and ``Rating: N`` lines give priority and rating; its ``Read_Status_Date:`` line is dropped (see ``status_date`` below); the rest of
  the note becomes the reader's notes.
* ``custom``: readinglist's own export declares ``{"generated": [...], "sources": [...]}``
  there; they become ``Record.generated`` and ``Record.sources``.
* Other variables are kept in ``Record.fields`` under their BibTeX names where one exists
  (``publisher``, ``volume``, ``issue`` -> number, ``ISBN`` -> isbn, ...): strings and numbers
  as they are, name lists as ``Family, Given and ...``, dates as ISO dates.

Invalid JSON raises InputError with the line and column; items that are not objects or lack
an ``id`` raise InputError naming the item.
"""

from __future__ import annotations

import json
import re

from ...errors import InputError
from ..registry import ImportOptions
from ...record import ImportResult, Person, Record, Skipped, Source
from .. import importing
from ..vocabulary import (
    ENTRY_TYPES,
    READ_STATUS_DATE_LINE,
    READ_STATUS_LINE,
    STATE_LINE,
    ZOTERO_READ_STATUS_IN,
    generated_names,
)

#: CSL variables kept in Record.fields, under BibTeX names.
FIELD_NAMES = {
    "publisher": "publisher",
    "publisher-place": "address",
    "volume": "volume",
    "issue": "number",
    "edition": "edition",
    "ISBN": "isbn",
    "ISSN": "issn",
    "collection-title": "series",
    "language": "language",
    "editor": "editor",
    "accessed": "urldate",
    "genre": "type",
    "number": "number",
    "archive": "archive",
    "archive_location": "archive_location",
    "medium": "howpublished",
    "PMID": "pmid",
    "PMCID": "pmcid",
    "original-date": "origdate",
}
#: Variables read into Record attributes or reader state.
_CONSUMED = frozenset(
    "id type citation-key title title-short author container-title event-title event issued page DOI URL"
    " abstract keyword categories note custom".split()
)
_USABLE_KEY = re.compile(r"[^\s{}(),\\#%~\"'=/]+")


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        raise TypeError(f"expected text, got a JSON {'object' if isinstance(value, dict) else 'array'}")
    if isinstance(value, float) and value != value:  # NaN
        return ""
    return " ".join(str(value).split())


def _person(name, where: str) -> Person:
    if not isinstance(name, dict):
        raise InputError(f"{where}: a name must be an object with family/given or literal, got {name!r}")
    if name.get("literal"):
        return Person(literal=_text(name["literal"]))
    family = " ".join(
        _text(name.get(part)) for part in ("dropping-particle", "non-dropping-particle", "family") if name.get(part)
    )
    if name.get("suffix"):
        family += " " + _text(name["suffix"])
    return Person(family=family, given=_text(name.get("given")))


def _date(value) -> str | None:
    """A CSL date object as an ISO date (``2026``, ``2026-05``, ``2026-05-01``) or its raw text."""
    if not isinstance(value, dict):
        return _text(value) or None
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        try:
            numbers = [int(p) for p in parts[0][:3]]
        except (TypeError, ValueError, OverflowError):
            numbers = []
        if numbers and not all(-9999 <= n <= 9999 for n in numbers):
            numbers = []
        if numbers:
            return "-".join([f"{numbers[0]:04d}"] + [f"{n:02d}" for n in numbers[1:]])
    return _text(value.get("raw") or value.get("literal")) or None


def _field_value(value, where: str) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (str, int, float)):
        return _text(value) or None
    if isinstance(value, list) and all(isinstance(n, dict) for n in value):
        return " and ".join(str(_person(n, where)) for n in value) or None
    if isinstance(value, dict):
        return _date(value)
    return None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON value")


def _items(text: str, source: str) -> list:
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{source}: not CSL-JSON: arrays or objects nested too deeply") from None
    except ValueError as exc:  # a number with thousands of digits, NaN / Infinity
        raise InputError(f"{source}: not CSL-JSON: {' '.join(str(exc).split())[:100]}") from None
    if isinstance(data, dict) and "items" in data and isinstance(data["items"], list):
        data = data["items"]  # CSL-JSON wrapped in an object (some tools do)
    if not isinstance(data, list):
        raise InputError(f"{source}: CSL-JSON must be an array of items, got a JSON {type(data).__name__}")
    if not data:  # as an empty .bib is refused (see the BibTeX reader): surely not the file meant
        raise InputError(f"{source}: an empty array of items: nothing to import")
    if _SURROGATE_ESCAPE.search(text):  # \ud800 alone is valid JSON but no Unicode text
        for i, item in enumerate(data, 1):
            try:
                json.dumps(item, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError as exc:
                name = item.get("id") if isinstance(item, dict) else None
                where = f"item {i}" + (f" ({name!r})" if isinstance(name, (str, int)) else "")
                raise InputError(f"{source}: {where}: a lone surrogate \\u{ord(exc.object[exc.start]):04x} is not Unicode text") from None
    return data


#: a JSON escape of a surrogate (paired ones are fine: the check above finds the lone ones)
_SURROGATE_ESCAPE = re.compile(r"\\[uU][dD][89a-fA-F]")


class CslJsonImporter:
    name = "csljson"
    suffixes = (".json",)
    description = "CSL-JSON (Zotero, Better BibTeX, pandoc); Zotero Reading List status in note becomes reader state"

    def parse(self, text: str, *, source: str, options: ImportOptions) -> ImportResult:
        from ...convert.keys import FoldedKeys, KeyParts, make_key, unique_key

        config = options.config
        records: list[Record] = []
        skipped: list[Skipped] = []
        states: dict[str, dict] = {}
        warnings: list[str] = []
        taken = FoldedKeys()
        for number, item in enumerate(_items(text, source), start=1):
            where = f"{source}: item {number}"
            try:
                if not isinstance(item, dict):
                    raise InputError(f"{where}: an item must be a JSON object, got {type(item).__name__}")
                if "id" not in item or item["id"] in (None, ""):
                    raise InputError(f"{where}: the item has no id")
                where = f"{source}: item {number} (id {item['id']})"
                title = _text(item.get("title"))
                abstract = _text(item.get("abstract"))
                if not title and not abstract:
                    skipped.append(Skipped(Source(source), "no title and no abstract", json.dumps(item, ensure_ascii=False)[:80]))
                    continue
                if not isinstance(item.get("author") or [], list):
                    raise InputError(f"{where}: author must be a list of names, not {json.dumps(item['author'])[:40]}")
                authors = tuple(_person(n, where) for n in item.get("author") or ())
                event = item.get("event-title") or (item.get("event") if isinstance(item.get("event"), str) else None)
                issued = _date(item.get("issued")) if item.get("issued") else None
                year = options.year or importing.find_year(issued, _text(event) or None)
                venue = options.venue or importing.find_venue(config, _text(item.get("container-title")) or None, _text(event) or None)
                custom: dict = item["custom"] if isinstance(item.get("custom"), dict) else {}
                listed: list[list] = [custom[name] if isinstance(custom.get(name), list) else [] for name in ("generated", "sources")]
                generated = set(generated_names(x for x in listed[0] if isinstance(x, str)))
                sources = tuple(importing.parse_source(s) for s in listed[1] if isinstance(s, str) and s.strip())

                key = _text(item.get("citation-key")) or _text(item["id"])
                if not _USABLE_KEY.fullmatch(key):
                    key = make_key(config.key_pattern, KeyParts(title=title, venue=venue, year=year))
                    generated.add("key")
                if key in taken:
                    new_key = unique_key(key, taken)
                    warnings.append(f"{where}: key {key!r} used again; this item gets {new_key!r}")
                    key = new_key
                taken.add(key)

                fields: dict[str, str] = {}
                for name, value in item.items():
                    if name in _CONSUMED or name not in FIELD_NAMES:
                        continue
                    converted = _field_value(value, where)
                    if converted:
                        fields.setdefault(FIELD_NAMES[name], converted)
                records.append(
                    Record(
                        key=key,
                        title=title,
                        abstract=abstract,
                        entry_type=ENTRY_TYPES.get(_text(item.get("type")), "misc"),
                        venue=venue,
                        year=year,
                        shorttitle=_text(item.get("title-short")) or None,
                        tags=importing.split_tags(item.get("keyword") if isinstance(item.get("keyword"), str) else None,
                                                item.get("categories") if isinstance(item.get("categories"), list) else None),
                        authors=authors,
                        doi=importing.clean_doi(_text(item.get("DOI"))),
                        url=_text(item.get("URL")) or None,
                        pages=_text(item.get("page")) or None,
                        fields=tuple(sorted(fields.items())),
                        generated=frozenset(generated),
                        sources=sources or (Source(source),),
                    )
                )

                state = importing.StateBuilder(where)
                note_lines = []
                for line in str(item.get("note") or "").splitlines():
                    m = READ_STATUS_LINE.match(line)
                    extra = STATE_LINE.match(line)
                    if m:
                        state.status(m.group(1), ZOTERO_READ_STATUS_IN, "Read_Status")
                    elif extra:
                        name = extra.group(1).lower()
                        state.number(name, extra.group(2), "", range(1, 4) if name == "priority" else range(1, 6))
                    elif not READ_STATUS_DATE_LINE.match(line):
                        note_lines.append(line)
                state.notes("\n".join(note_lines))
                warnings += state.warnings
                if state.state:
                    states[key] = state.state
            except InputError:
                raise
            except (TypeError, ValueError, AttributeError, OverflowError, KeyError, RecursionError) as exc:
                raise InputError(f"{where}: a value has the wrong type or is out of range ({' '.join(str(exc).split())[:100]})") from None
        return ImportResult(records=tuple(records), skipped=tuple(skipped), states=states, warnings=tuple(warnings))


importer = CslJsonImporter()
