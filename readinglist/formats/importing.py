"""What the BibTeX and CSL-JSON importers share: venue and year lookup, reader state, tags,
provenance, and LaTeX-to-Unicode for titles and names.

Reader state (``ImportResult.states[key]``) uses the keys :meth:`Store.import_records` takes:
``status``, ``priority``, ``rating``, ``notes``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING
from collections.abc import Iterable

from ..record import Source

if TYPE_CHECKING:  # pragma: no cover
    from ..config import Config


_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_TAG_SPLIT = re.compile(r"[,;]")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_SOURCE = re.compile(r"^(?P<file>.*?)(?::(?P<line>\d+))?(?: \(paragraph (?P<paragraph>\d+)\))?$")
#: The years a paper may have (anything else is a typo or hostile input, and is ignored).
MIN_YEAR, MAX_YEAR = 1000, 2999


def find_year(*values) -> int | None:
    """The first plausible year (MIN_YEAR..MAX_YEAR) in ``values`` (``2026``, ``"2026-05-01"``,
    ``"May 2026"``)."""
    for value in values:
        if value is None:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            if MIN_YEAR <= value <= MAX_YEAR:
                return value
            continue
        for m in _YEAR.finditer(str(value)):
            if MIN_YEAR <= int(m.group(1)) <= MAX_YEAR:
                return int(m.group(1))
    return None


def find_venue(config: Config, full_name: str | None, event: str | None) -> str | None:
    """The venue's short name: a known full name (``booktitle``, ``container-title``) or a
    known short name starting the event (``NeurIPS 2026``); else the full name as written,
    else the event without its year."""
    full_name = " ".join(full_name.split()) if full_name else None
    event = " ".join(event.split()) if event else None
    if full_name:
        wanted = full_name.casefold()
        for short, full in config.venues.items():
            if full.casefold() == wanted or short.casefold() == wanted:
                return short
    if event:
        head = _YEAR.sub("", event).strip(" ,'")
        for short in config.venues:
            if short.casefold() == head.casefold():
                return short
    if full_name:
        return full_name
    if event:
        return _YEAR.sub("", event).strip(" ,'") or None
    return None


def split_tags(*values: str | Iterable[str] | None) -> tuple[str, ...]:
    """Tags from comma- or semicolon-separated strings (or lists of them), in order, once each."""
    out: list[str] = []
    for value in values:
        if not value:
            continue
        items = [value] if isinstance(value, str) else list(value)
        for item in items:
            for tag in _TAG_SPLIT.split(str(item)):
                tag = " ".join(tag.split())
                if tag:
                    out.append(tag)
    return tuple(dict.fromkeys(out))


def clean_doi(value: str | None) -> str | None:
    """A bare DOI (``10.1234/x``) from a DOI, ``doi:`` or ``https://doi.org/`` form."""
    if not value:
        return None
    value = _DOI_PREFIX.sub("", value.strip())
    return value or None


def parse_source(text: str) -> Source:
    """Inverse of ``str(Source)``: ``seeds/x.txt:5 (paragraph 2)`` -> Source("seeds/x.txt", 2, 5)."""
    m = _SOURCE.match(text.strip())
    assert m is not None  # every part of the pattern is optional: it matches any text
    line, paragraph = m.group("line"), m.group("paragraph")
    return Source(file=m.group("file"), paragraph=int(paragraph) if paragraph else None, line=int(line) if line else None)


@lru_cache(maxsize=1024)  # an entry's title and short title are converted twice (placeholder check, record)
def latex_to_unicode(latex: str) -> str:
    """Clean Unicode for a BibTeX title or name: :func:`readinglist.text.to_plain` reading the
    value as TeX does (``M{\\"u}ller`` -> ``Müller``, ``D{\\'\\i}az`` -> ``Díaz``, ``{CanViT}`` ->
    ``CanViT``, ``--`` -> ``–``, ``$\\ell_1$`` -> ``ℓ₁``, ``M$^{2}$LE`` -> ``M²LE``)."""
    from ..text import to_plain

    # read alike without the tokenizer (no TeX special left): a value that is one brace group
    # (the export's placeholder author: {CanViT}, {First four title words\ldots{}}), or text
    # with brace groups in it ({LLMs} at scale) where no hyphen touches a brace (``-{}-`` is
    # two hyphens, not a dash)
    group = _PLAIN_GROUP.fullmatch(latex)
    if group is not None:
        latex = group[1] + ("\u2026" if group[2] else "")
    elif "{" in latex and _PLAIN_GROUPS.fullmatch(latex) and not _HYPHEN_AT_BRACE.search(latex):
        latex = latex.replace("{", "").replace("}", "")
    return to_plain(latex, tex=True, scripts=True)


#: One brace group of text without a TeX special (text.tokens._SPECIAL), perhaps ending in
#: ``\ldots{}``: TeX reads it as that text (and an ellipsis), as :func:`latex_to_unicode` does.
_PLAIN_GROUP = re.compile(r"\{([^\\${}*_`']*)(\\ldots\{\})?\}")
#: Text and brace groups (not nested) without a TeX special.
_PLAIN_GROUPS = re.compile(r"(?>(?:(?>[^\\${}*_`']+)|\{(?>[^\\${}*_`']*)\})*)")
_HYPHEN_AT_BRACE = re.compile(r"-[{}]|[{}]-")


class StateBuilder:
    """Collects one entry's reader state and the warnings about values it cannot read."""

    def __init__(self, where: str):
        self.where = where
        self.state: dict = {}
        self.warnings: list[str] = []

    def status(self, value: str, table: dict[str, str], field: str) -> None:
        status = table.get(" ".join(value.split()).casefold())
        if status is None:
            self.warnings.append(f"{self.where}: {field} {value!r} is not one of {', '.join(sorted(set(table)))}; ignored")
        elif status != "unread" or "status" not in self.state:
            self.state["status"] = status

    def number(self, name: str, value: str, prefix: str, allowed: range) -> None:
        m = re.fullmatch(rf"\s*(?:{prefix})?\s*(\d+)\s*", value, re.I)
        if m and int(m.group(1)) in allowed:
            self.state[name] = int(m.group(1))
        else:
            self.warnings.append(
                f"{self.where}: {name} {value!r} is not {prefix}{allowed.start}..{prefix}{allowed.stop - 1}; ignored"
            )

    def notes(self, text: str) -> None:
        text = text.strip()
        if text:
            self.state["notes"] = text
