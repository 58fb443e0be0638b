"""Citation keys: a configurable pattern, ASCII-folded, unique with Better BibTeX style suffixes.

Pure functions. A key is only ever *made* here; the store decides when one may be given (never
to a paper that already has one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import count, product
from string import ascii_lowercase
from collections.abc import Container

from ..keyform import VALID_KEY as VALID_KEY, is_valid_key as is_valid_key

MAX_KEY_LENGTH = 40

#: Words that never make a key: articles, prepositions and the filler of generated titles.
STOPWORDS = frozenset(
    """a an the and or but nor of for to in on at by with without from into onto over under via
    as is are be been being was were its it this that these those their our we us via vs versus
    through toward towards beyond between among across against about after before during while
    when where which who whom whose what how why than then so such not no can may do does
    new novel simple effective efficient improved improving better general generic unified
    approach method methods framework frameworks model models study analysis learning based
    using use towards via via""".split()
)

_TOKEN = re.compile(r"\[([^\[\]]*)\]")
_WORD = re.compile(r"[A-Za-z0-9]+")
_NOT_KEY = re.compile(r"[^a-z0-9]+")


def clean_key(text: str) -> str:
    """Fold to ASCII, lowercase, keep letters and digits only (BibTeX-, biber- and URL-safe)."""
    from ..text import ascii_fold

    return _NOT_KEY.sub("", ascii_fold(text).lower())


def salient_words(title: str, *, skip: str | None = None) -> list[str]:
    """Title words that carry meaning, in order: ASCII-folded, without stopwords or ``skip``."""
    from ..text import ascii_fold

    skipped = clean_key(skip) if skip else ""
    words = []
    for word in _WORD.findall(ascii_fold(title)):
        low = word.lower()
        if low in STOPWORDS or low == skipped or (len(low) < 2 and not low.isdigit()):
            continue
        words.append(low)
    return words


@dataclass(frozen=True)
class KeyParts:
    """What a key may be made of."""

    name: str | None = None
    title: str = ""
    venue: str | None = None
    year: int | None = None


_SPACED_VERSION = re.compile(r"[Vv]?\d+(?:\.\d+)*")


def _name_key(name: str) -> str:
    """A name as a key part: a one-word name whole (``canvit``), a spelled-out name of several
    words by its initials, one for each part of a hyphenated word as an acronym has
    (``Generative Trajectory Planning`` -> ``gtp``, ``Mode-Controlled Policy Optimization`` ->
    ``mcpo``), at most 24 characters. A hyphenated one-word name stays whole, and a version
    written apart is left out (``HerO 2`` -> ``hero``, ``Kandinsky 5.0`` -> ``kandinsky``): the
    year follows the name in a key, and ``hero22026`` would read as one number."""
    words = [w for w in re.split(r"[\s]+", name) if w]
    if len(words) > 1 and _SPACED_VERSION.fullmatch(words[-1]):
        words.pop()
    if len(words) > 1:
        parts = [p for w in words for p in re.split(r"[-\u2010\u2011]+", w) if p]
        initials = clean_key("".join(p[0] for p in parts if p[:1].isalnum()))
        if len(initials) >= 2:
            return initials
    return clean_key(" ".join(words))[:24]


def _field(spec: str, parts: KeyParts) -> str:
    field, _, arg = spec.partition(":")
    field = field.strip().lower()
    if field == "name":
        return _name_key(parts.name or "")
    if field == "title":
        n = int(arg) if arg.strip().isdigit() else 3
        return "".join(salient_words(parts.title, skip=parts.name)[:n])
    if field == "venue":
        return clean_key(parts.venue or "")
    if field == "year":
        return str(parts.year) if parts.year else ""
    if field == "shortyear":
        return f"{parts.year % 100:02d}" if parts.year else ""
    raise ValueError(f"unknown key pattern field [{spec}]")


@lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> tuple[tuple[str, ...] | str, ...]:
    """Split a pattern into literals (str) and bracketed alternatives (tuple of field specs).

    Raises ValueError naming the bad field, so a bad ``[keys] pattern`` fails at once.
    """
    pieces: list[tuple[str, ...] | str] = []
    pos = 0
    for m in _TOKEN.finditer(pattern):
        if m.start() > pos:
            pieces.append(clean_key(pattern[pos : m.start()]))
        alternatives = tuple(a.strip() for a in m.group(1).split("|"))
        for alt in alternatives:
            _field(alt, KeyParts())  # validates the field name
        pieces.append(alternatives)
        pos = m.end()
    if pos < len(pattern):
        pieces.append(clean_key(pattern[pos:]))
    return tuple(pieces)


def make_key(pattern: str, parts: KeyParts) -> str:
    """The key ``pattern`` gives for ``parts`` (not yet made unique).

    >>> make_key("[name|title:2][year]", KeyParts(name="M²LE", title="M²LE: merging", year=2026))
    'm2le2026'
    """
    out = []
    for piece in compile_pattern(pattern):
        if isinstance(piece, str):
            out.append(piece)
            continue
        for alt in piece:
            value = _field(alt, parts)
            if value:
                out.append(value)
                break
    key = "".join(out)[:MAX_KEY_LENGTH]
    if not key or key.isdigit():
        key = "paper" + key
    return key


_KEY_JUNK = re.compile(r"[^A-Za-z0-9_.-]+")


def key_problem(key: object) -> str | None:
    """Why ``key`` is not a valid citation key (one phrase), or None when it is one."""
    if not isinstance(key, str):
        return f"a key is text, not {type(key).__name__}"
    if not key:
        return "the key is empty"
    if is_valid_key(key):
        return None
    if len(key) > 100:
        return "a key has at most 100 characters"
    bad = sorted(set("".join(_KEY_JUNK.findall(key))))
    if bad:
        shown = "".join(bad[:8])
        return f"a key holds only ASCII letters, digits and _ - . (not {shown!r})"
    return "a key starts with a letter or digit and does not end with '.' or '-' or hold '..'"


def safe_key(key: str) -> str:
    """The nearest valid key to ``key``: ASCII-folded, every other run of characters made
    ``_``, trimmed to 100 characters (``DBLP:conf/nips/Smith20`` -> ``DBLP_conf_nips_Smith20``,
    ``../../x`` -> ``x``). Returns ``key`` itself when it is valid."""
    if is_valid_key(key):
        return key
    from ..text import ascii_fold

    text = _KEY_JUNK.sub("_", ascii_fold(str(key)))
    text = re.sub(r"\.{2,}", ".", text)
    text = re.sub(r"_{2,}", "_", text)
    text = text.strip("_.-")[:100].rstrip("_.-")
    text = re.sub(r"[.-]+$", "", text)
    return text if is_valid_key(text) else "paper"


def fold_key(key: str) -> str:
    """The form two keys are compared in: BibTeX takes ``Smith2020`` and ``smith2020`` for one."""
    return key.casefold()


class FoldedKeys:
    """A set of keys that contains a key when it holds one differing only in case."""

    def __init__(self, keys=()):
        self._folded = {fold_key(k) for k in keys}

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and fold_key(key) in self._folded

    def add(self, key: str) -> None:
        self._folded.add(fold_key(key))

    def discard(self, key: str) -> None:
        self._folded.discard(fold_key(key))


def _suffixes():
    for length in count(1):
        for letters in product(ascii_lowercase, repeat=length):
            yield "".join(letters)


def unique_key(base: str, taken: Container[str]) -> str:
    """``base`` if it is free, else ``base`` + a, b, … z, aa, ab, … (Better BibTeX's postfix)."""
    if base not in taken:
        return base
    for suffix in _suffixes():
        if base + suffix not in taken:
            return base + suffix
    raise AssertionError("unreachable")  # pragma: no cover
