"""The converter: abstract lists in, records with generated key, title and tags out.

Data flows one way through small stages, each a pure function in its own module::

    reader.parse_list      text -> header (venue, year) + paragraphs, stray paragraphs reported
    text.to_plain          the abstract as clean Unicode (LaTeX and Markdown spans converted)
    matching               the same abstract seen before (exactly or nearly) -> one record
    naming.detect_name     the system name the paper introduces, if any
    titles.make_title      a readable title, led by the name
    tagging                topic tags from the taxonomy in config.toml
    keys.make_key          citation key from the pattern in config.toml, unique
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .config import Config, default_config
from .record import Duplicate, ImportResult, Record, Skipped, Source


@dataclass(frozen=True)
class ConvertResult:
    """Records made from one or more abstract lists, and what was left out."""

    records: tuple[Record, ...]
    skipped: tuple[Skipped, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()

    def as_import_result(self) -> ImportResult:
        return ImportResult(records=self.records, skipped=self.skipped, duplicates=self.duplicates)


@dataclass
class Converter:
    """Converts several lists into one set of records, merging duplicates across them.

    ``taken`` holds keys that new records must not get (e.g. those already in a store).
    """

    config: Config = field(default_factory=default_config)
    taken: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        from .matching import NearIndex
        from .tagging import compile_taxonomy

        self._tagger = compile_taxonomy(self.config.taxonomy)
        self._near = NearIndex()
        self._by_fingerprint: dict[str, int] = {}
        self._records: list[Record] = []
        self._skipped: list[Skipped] = []
        self._duplicates: list[Duplicate] = []

    def add_text(self, text: str, *, source: str = "<string>", venue: str | None = None, year: int | None = None) -> None:
        """Convert one list. ``venue``/``year`` override what its header says."""
        from .matching import fingerprint
        from .reader import parse_list

        parsed = parse_list(text, source=source)
        self._skipped.extend(parsed.skipped)
        venue = venue or parsed.venue
        year = year or parsed.year
        for para in parsed.paragraphs:
            src = Source(file=source, paragraph=para.number, line=para.line)
            fp = fingerprint(para.text)
            index = self._by_fingerprint.get(fp)
            score = 100.0
            if index is None:
                hit = self._near.best(para.text, self.config.duplicate_threshold)
                if hit is not None:
                    index, score = int(hit[0]), hit[1]
            if index is not None:
                kept = self._records[index]
                self._records[index] = kept.evolve(sources=kept.sources + (src,))
                self._duplicates.append(Duplicate(source=src, key=kept.key, similarity=round(score, 1), exact=score >= 100.0))
                continue
            record = self.make_record(para.text, source=src, venue=venue, year=year)
            self._by_fingerprint[fp] = len(self._records)
            self._near.add(str(len(self._records)), para.text)
            self._records.append(record)

    def make_record(self, abstract: str, *, source: Source, venue: str | None, year: int | None) -> Record:
        """One record from one abstract: name, title, tags and a key not yet taken."""
        from .keys import KeyParts, make_key, unique_key
        from .naming import detect_name
        from .text import to_plain
        from .titles import make_title

        plain = to_plain(abstract)
        name = detect_name(abstract, plain)
        title = make_title(abstract, plain, name)
        tags = self._tagger.tags(plain, name=name, title=title, max_tags=self.config.max_tags)
        key = unique_key(make_key(self.config.key_pattern, KeyParts(name=name, title=title, venue=venue, year=year)), self.taken)
        self.taken.add(key)
        generated = {"key", "title", "tags"} | ({"shorttitle"} if name else set())
        return Record(
            key=key,
            title=title,
            abstract=abstract,
            venue=venue,
            year=year,
            shorttitle=name,
            tags=tuple(tags),
            generated=frozenset(generated),
            sources=(source,),
        )

    def result(self) -> ConvertResult:
        return ConvertResult(tuple(self._records), tuple(self._skipped), tuple(self._duplicates))


def convert(
    text: str,
    *,
    venue: str | None = None,
    year: int | None = None,
    source: str = "<string>",
    config: Config | None = None,
    taken: Iterable[str] = (),
) -> ConvertResult:
    """Convert one abstract list (its text) into records.

    ``venue`` and ``year`` override the list's header; ``source`` names the input in each
    record's provenance; ``taken`` are keys the new records must avoid.
    """
    conv = Converter(config=config or default_config(), taken=set(taken))
    conv.add_text(text, source=source, venue=venue, year=year)
    return conv.result()
