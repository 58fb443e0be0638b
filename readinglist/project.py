"""Where the store is, as far as that is known without reading a config file.

Split from :mod:`readinglist.config` so that a command that needs only the store (``show``,
``mark``, ``note``, ...) finds it without the configuration's machinery (the defaults' TOML,
platformdirs, the key pattern): see :func:`find_store`. The order is the one
:mod:`readinglist.config` documents.
"""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_ENV = "READINGLIST_CONFIG"
STORE_ENV = "READINGLIST_STORE"
CEILING_ENV = "READINGLIST_CEILING_DIRECTORIES"


def readable_file(path: Path) -> bool:
    """``path.is_file()``, but False where a folder on the way cannot be read (an unreadable
    ~/.config must not break every command: the defaults apply)."""
    try:
        return path.is_file()
    except OSError:
        return False


def find_project(start: Path | None = None) -> Path | None:
    """The nearest folder, from ``start`` (the current folder) up, that holds a ``config.toml``
    or a ``library/`` store (a ``library/papers/`` folder); None when there is none."""
    here = (start or Path.cwd()).absolute()
    ceilings = {Path(c).absolute() for c in os.environ.get(CEILING_ENV, "").split(os.pathsep) if c}
    for folder in (here, *here.parents):
        if folder in ceilings:
            return None
        if readable_file(folder / "config.toml") or (folder / "library" / "papers").is_dir():
            return folder
    return None


def store_named(project: Path | None, store) -> tuple[str | os.PathLike | None, str | None]:
    """(store, where it came from) when the store is known without reading a config file
    (``--store``; a project's ``library/`` without a config.toml; READINGLIST_STORE), else
    (None, None): a config file may name it."""
    if store:
        return store, "--store"
    if project is not None:
        if not readable_file(project / "config.toml"):  # a library/ store without a config file
            return project / "library", "project"
        return None, None
    if os.environ.get(STORE_ENV):
        return os.environ[STORE_ENV], STORE_ENV
    return None, None


def find_store(path: str | os.PathLike | None = None, *, store: str | os.PathLike | None = None) -> Path | None:
    """The store :func:`readinglist.config.load_config` would give for the same arguments,
    when it is known without reading a config file (see :func:`store_named`), else None. An
    explicit config (``path``, READINGLIST_CONFIG) always gives None: it is read, so that its
    errors are reported."""
    if path or os.environ.get(CONFIG_ENV):
        return None
    found, _ = store_named(None if store else find_project(), store)
    return None if found is None else Path(found)
