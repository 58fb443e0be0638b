"""One BibTeX entry's fields as a :class:`~readinglist.record.Record`: names split with pybtex's
``Person``, titles decoded, the venue looked up, everything else kept in ``Record.fields`` (what
becomes what: the docstring of :mod:`readinglist.formats.bibtex.reader`). Shared by that importer
and the pybtex input plugin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import InputError
from ...record import Person, Record, Source
from .. import importing

if TYPE_CHECKING:
    from ...config import Config

#: Fields read into Record attributes or reader state; the rest go to Record.fields.
_CONSUMED = frozenset(
    "author title shorttitle booktitle journal journaltitle eventtitle year date pages doi url abstract"
    " keywords readstatus priority ranking annote".split()
)


def parse_names(value: str) -> tuple[Person, ...]:
    """BibTeX ``and``-separated names -> Person tuples (see the module docstring).
    InputError (without a place: the caller adds it) for a list pybtex cannot read."""
    try:
        return _parse_names(value)
    except InputError:
        raise
    except Exception as exc:  # pybtex raises on hopeless names (too many nested braces, ...)
        raise InputError(f"the author list cannot be read: {' '.join(str(exc).split())[:120]}") from None


def _parse_names(value: str) -> tuple[Person, ...]:
    from pybtex.bibtex.utils import split_name_list
    from pybtex.database import Person as PybtexPerson

    decode = importing.latex_to_unicode
    people = []
    for name in split_name_list(value):
        name = name.strip()
        if not name:
            continue
        if name.startswith("{") and name.endswith("}") and _one_group(name):
            people.append(Person(literal=decode(name[1:-1])))
            continue
        p = PybtexPerson(name)
        family = " ".join(p.prelast_names + p.last_names + p.lineage_names)
        given = " ".join(p.first_names + p.middle_names)
        if not family and given:  # "Plato": pybtex calls a lone word a last name, but be safe
            family, given = given, ""
        people.append(Person(family=decode(family), given=decode(given)))
    return tuple(people)



def fields_record(
    key: str,
    entry_type: str,
    values: dict[str, str],
    config: Config,
    *,
    venue: str | None = None,
    year: int | None = None,
    generated: frozenset[str] = frozenset(),
    sources: tuple[Source, ...] = (),
) -> Record | None:
    """A Record from one entry's raw field values (lower-case BibTeX names -> LaTeX text, the
    ``author`` field a BibTeX name list), or None when it has neither title nor abstract.

    The one place a BibTeX entry becomes a Record: this importer and the pybtex input plugin
    both use it. ``venue``/``year`` override what the entry says."""
    from ...text import normalize_space

    def get(name: str) -> str | None:
        value = values.get(name)
        return normalize_space(value) if value is not None and value.strip() else None

    title = importing.latex_to_unicode(get("title") or "")
    abstract = get("abstract") or ""
    if not title and not abstract:
        return None
    entry_type = entry_type.lower()
    authors = parse_names(values["author"]) if get("author") else ()
    full_name = get("journal") or get("journaltitle") if entry_type == "article" else get("booktitle")
    shorttitle, keywords = get("shorttitle"), get("keywords")
    other = {
        name: value
        for name, value in values.items()
        if name not in _CONSUMED and value.strip()
        and not (not authors and _exported_label(name, value, shorttitle and importing.latex_to_unicode(shorttitle)))
    }
    return Record(
        key=key,
        title=title,
        abstract=abstract,
        entry_type=entry_type,
        venue=venue or importing.find_venue(config, full_name and importing.latex_to_unicode(full_name), get("eventtitle")),
        year=year or importing.find_year(get("year"), get("date"), get("eventtitle")),
        shorttitle=importing.latex_to_unicode(shorttitle) if shorttitle else None,
        tags=importing.split_tags(importing.latex_to_unicode(keywords) if keywords else None),
        authors=authors,
        doi=importing.clean_doi(get("doi")),
        url=get("url"),
        pages=get("pages"),
        fields=tuple(sorted(other.items())),
        generated=generated,
        sources=sources,
    )

def _exported_label(name: str, value: str, shorttitle: str | None) -> bool:
    """True for what the export writes for an authorless record and rebuilds from its other
    fields: ``key`` (its name or title) and biblatex's ``label`` (its short title)."""
    if name == "key":
        return True
    return name == "label" and shorttitle is not None and importing.latex_to_unicode(" ".join(value.split())) == shorttitle


def _one_group(name: str) -> bool:
    """True when ``name`` is one brace group: ``{Google DeepMind}``, not ``{A} and {B}``."""
    depth = 0
    for i, ch in enumerate(name):
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0 and i < len(name) - 1:
            return False
    return True
