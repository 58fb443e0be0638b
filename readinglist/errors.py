"""Typed errors raised by the library. Only the CLI turns them into one-line messages."""

from __future__ import annotations


class ReadinglistError(Exception):
    """Base class for every error readinglist raises on purpose.

    ``str(error)`` is a complete one-line message that names the file, line or key at fault.
    """


class InputError(ReadinglistError):
    """An input file cannot be read: not text, wrong encoding, unparsable."""


class ConfigError(ReadinglistError):
    """The configuration file is missing a value or holds a bad one."""


class StoreError(ReadinglistError):
    """The store cannot be opened or written (bad hand edit, lock timeout, ...)."""


class ConflictError(StoreError):
    """What a change was based on was changed meanwhile by another command (nothing written)."""


class OutputError(ReadinglistError):
    """An output file (an export) cannot be written: a folder, no such folder, no space, ..."""


def did_you_mean(suggestions, form: str = "{}") -> str:
    """``form`` holding "did you mean A or B?" for the closest names; "" when there are none."""
    return form.format(f"did you mean {' or '.join(suggestions)}?") if suggestions else ""


class UnknownKeyError(StoreError, KeyError):
    """No paper has this key. ``suggestions`` holds the closest existing keys."""

    def __init__(self, key: str, suggestions: tuple[str, ...] = ()):
        self.key = key
        self.suggestions = tuple(suggestions)
        super().__init__(key)

    def __str__(self) -> str:
        return f"no paper with key {self.key!r}" + did_you_mean(self.suggestions, "; {}")


class UnknownKeysError(UnknownKeyError):
    """Several keys are unknown (``errors``: one UnknownKeyError each); nothing was changed."""

    def __init__(self, errors):
        self.errors = tuple(errors)
        super().__init__(self.errors[0].key, self.errors[0].suggestions)

    def __str__(self) -> str:
        parts = [repr(e.key) + did_you_mean(e.suggestions, " ({})") for e in self.errors]
        return "no papers with keys " + ", ".join(parts)


class UnknownFormatError(ReadinglistError):
    """No importer/exporter plugin has this name or file suffix."""

    def __init__(self, kind: str, wanted: str, known: tuple[str, ...]):
        self.kind, self.wanted, self.known = kind, wanted, tuple(known)
        super().__init__(f"unknown {kind} format {wanted!r}; known formats: {', '.join(self.known) or 'none'}")


class ValidationError(ReadinglistError, ValueError):
    """A value given by the user is out of range (status, rating, priority, ...)."""


class ListError(StoreError):
    """A curated list (``lists/<name>.toml``) cannot be read, written or changed as asked."""


class UnknownListError(ListError, KeyError):
    """No curated list has this name. ``suggestions`` holds the closest list names."""

    def __init__(self, name: str, suggestions: tuple[str, ...] = ()):
        self.name = name
        self.suggestions = tuple(suggestions)
        super().__init__(name)

    def __str__(self) -> str:
        return f"no list called {self.name!r}" + did_you_mean(self.suggestions, "; {}") + " (readinglist lists shows them all)"
