"""Title-generator plugins, found through entry points like importers and exporters.

The built-in generator is registered in ``pyproject.toml`` exactly like a third-party one,
under the entry-point group ``readinglist.title_generators``; the config chooses one by name
(``[titles] generator = "builtin"``). An entry point names an object with

* ``name`` (the name the config uses) and ``description`` (one line, for ``readinglist formats``);
* ``generate(abstract, plain) -> GeneratedTitle``: ``abstract`` as written in the list (LaTeX and
  Markdown kept), ``plain`` the same as plain Unicode text (what readinglist's own generator
  reads). It returns the title, the short title (the system name the paper introduces, or
  None) and a provenance string that says what made the title (kept with the record when the
  generator is not the built-in one).

Whatever a generator returns is checked (:func:`checked`): a title must be one line of text of at
most :data:`MAX_TITLE_CHARS` characters, a short title none longer than
:data:`MAX_SHORT_CHARS`; a generator that raises or returns something else has its abstract get
the plain stand-in title and a warning naming the file and line, as a failing built-in does.
Every field a generator makes is marked generated in the store and the exports.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Protocol

from ..errors import ConfigError

TITLE_GENERATORS = "readinglist.title_generators"
BUILTIN = "builtin"
MAX_TITLE_CHARS = 300
MAX_SHORT_CHARS = 80


@dataclass(frozen=True)
class GeneratedTitle:
    """What a title generator makes of one abstract."""

    title: str
    short_title: str | None = None  # the system name the paper introduces, or None
    provenance: str = ""  # what made the title ("builtin", "my-llm 1.2, prompt v3", ...)
    #: the title the topic tagger weighs, when not ``title`` (the built-in gives its rule-made one)
    for_tags: str | None = None


class TitleGenerator(Protocol):
    name: str
    description: str

    def generate(self, abstract: str, plain: str) -> GeneratedTitle: ...


class InvalidGeneratedTitle(ValueError):
    """A title generator returned something that is not a usable title."""


class BuiltinTitles:
    """readinglist's own generator: the name model (:mod:`readinglist.convert.naming`) and the
    title stage (:mod:`readinglist.convert.titles`)."""

    name = BUILTIN
    description = "readinglist's own: the paper's name, then a title phrase from its contribution sentence"

    def generate(self, abstract: str, plain: str) -> GeneratedTitle:
        from . import titles
        from .naming import detect_name

        name = detect_name(abstract, plain)
        title = titles.make_title(abstract, plain, name)
        return GeneratedTitle(title, name, BUILTIN, titles.title_for_tags(plain, name))


builtin = BuiltinTitles()


@cache
def _entry_points() -> dict:
    from importlib.metadata import EntryPoint, entry_points

    found: dict[str, EntryPoint] = {}
    for ep in sorted(entry_points(group=TITLE_GENERATORS), key=lambda e: e.name):
        found.setdefault(ep.name, ep)
    return found


def generator_names() -> tuple[str, ...]:
    return tuple(_entry_points())


def find_generator(name: str) -> TitleGenerator:
    """The title generator registered as ``name``; :class:`ConfigError` naming the known ones
    when there is none (or it cannot be loaded)."""
    if name == BUILTIN:
        return builtin  # never a look-up on every import of the defaults
    known = _entry_points()
    ep = known.get(name)
    if ep is None:
        raise ConfigError(f"[titles] generator {name!r}: no such title generator (known: {', '.join(known) or 'none'})")
    try:
        plugin = ep.load()
    except Exception as exc:  # noqa: BLE001 - a broken plugin is the user's to fix: say which
        raise ConfigError(f"[titles] generator {name!r}: cannot load {ep.value}: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(plugin, "generate", None)):
        raise ConfigError(f"[titles] generator {name!r}: {ep.value} has no generate(abstract, plain) method")
    return plugin


def all_generators() -> list[TitleGenerator]:
    """Every registered title generator, loaded, by name."""
    return [find_generator(n) for n in generator_names()]


def clear_cache() -> None:
    """Forget discovered generators (after installing one at run time, or in tests)."""
    _entry_points.cache_clear()


def checked(out: object) -> GeneratedTitle:
    """``out`` when it is a usable :class:`GeneratedTitle` (title and short title stripped),
    else :class:`InvalidGeneratedTitle` saying what is wrong."""
    if not isinstance(out, GeneratedTitle):
        raise InvalidGeneratedTitle(f"expected a GeneratedTitle, got {type(out).__name__}")
    title = out.title.strip() if isinstance(out.title, str) else None
    if not title or "\n" in title or "\r" in title or len(title) > MAX_TITLE_CHARS or not title.isprintable():
        raise InvalidGeneratedTitle(f"not a one-line title of 1-{MAX_TITLE_CHARS} printable characters: {out.title!r:.80}")
    short = out.short_title
    if short is not None:
        if not isinstance(short, str) or not short.strip() or len(short) > MAX_SHORT_CHARS or not short.strip().isprintable():
            raise InvalidGeneratedTitle(f"not a short title of 1-{MAX_SHORT_CHARS} printable characters: {short!r:.80}")
        short = short.strip()
    if not isinstance(out.provenance, str):
        raise InvalidGeneratedTitle("provenance must be a string")
    return GeneratedTitle(title, short, " ".join(out.provenance.split()), out.for_tags)
