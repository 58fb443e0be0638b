"""Auto-exports, as Better BibTeX keeps a ``refs.bib`` up to date for Overleaf: exports the store
rewrites after each change, atomically, and only when their text changes.

They are kept in the store, in ``auto-export.toml`` (shared through git with the rest of the
store), one ``[[export]]`` table each: the fields of an :class:`~readinglist.exportspec.ExportSpec`
that differ from the defaults, ``path`` relative to the store's folder::

    [[export]]
    path = "../paper/refs.bib"
    list = "thesis"

``readinglist export -o PATH ... --keep-updated`` adds one; ``readinglist auto-export`` lists
them and ``auto-export --remove PATH`` drops one. The CLI calls :func:`refresh` after every
command that changed the store; the library never does it by itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .exportspec import ExportSpec, relative_to_store, render

if TYPE_CHECKING:
    from .config import Config
    from .store.library import Store

FILE_NAME = "auto-export.toml"
HEADER = "# readinglist auto-exports: rewritten after each change to the store (readinglist export --keep-updated)\n"


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What :func:`refresh` did with one auto-export: ``written`` (its text changed), else it was
    up to date; ``error`` (one line) when it could not be made, the old file left as it was."""

    path: str
    papers: int = 0
    written: bool = False
    error: str = ""


def path_of(store: Store) -> Path:
    return store.root / FILE_NAME


def load(store: Store) -> list[ExportSpec]:
    """The store's auto-exports, in file order (none when the file is absent). ValidationError
    naming the file (and the line) when it is not valid."""
    import tomllib

    from .errors import ValidationError

    path = path_of(store)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except UnicodeDecodeError:
        raise ValidationError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise ValidationError(f"{path}: cannot read: {exc.strerror}") from None
    tables = data.get("export", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables) or set(data) - {"export"}:
        raise ValidationError(f"{path}: expected only [[export]] tables")
    specs = []
    for i, table in enumerate(tables, 1):
        spec = ExportSpec.from_dict(_from_file(table), f"{path}: export {i}")
        if not spec.path:
            raise ValidationError(f"{path}: export {i} has no path")
        specs.append(spec)
    return specs


def _from_file(table: dict) -> dict:
    return {("list_name" if k == "list" else k): v for k, v in table.items()}


def _to_file(spec: ExportSpec) -> dict:
    return {("list" if k == "list_name" else k): v for k, v in spec.as_dict().items()}


def save(store: Store, specs: list[ExportSpec]) -> None:
    """Write the store's auto-exports (the file is removed when there are none)."""
    import tomlkit

    from .store.atomic import write_atomic

    path = path_of(store)
    if not specs:
        if path.exists():
            path.unlink()
        return
    doc = tomlkit.document()
    tables = tomlkit.aot()
    for spec in specs:
        table = tomlkit.table()
        for name, value in _to_file(spec).items():
            table.add(name, value)
        tables.append(table)
    doc.add("export", tables)
    write_atomic(path, HEADER + tomlkit.dumps(doc), inside=store.root)


def add(store: Store, spec: ExportSpec) -> ExportSpec:
    """Keep ``spec`` updated (its path made relative to the store); one with the same path is
    replaced. The spec as stored."""
    assert spec.path is not None
    spec = replace(spec, path=relative_to_store(store, spec.path))
    with store.transaction():  # the store's lock: two commands adding at once lose nothing
        specs = [s for s in load(store) if s.path != spec.path]
        save(store, [*specs, spec])
    return spec


def remove(store: Store, path: str | os.PathLike) -> ExportSpec:
    """Stop keeping the export at ``path`` updated (its file stays); ValidationError naming the
    kept paths when there is none at ``path``."""
    from .errors import ValidationError

    wanted = {str(path), relative_to_store(store, path)}
    with store.transaction():
        specs = load(store)
        gone = [s for s in specs if s.path in wanted]
        if not gone:
            kept = ", ".join(s.path or "" for s in specs) or "none"
            raise ValidationError(f"no auto-export writes {path} (kept updated: {kept})")
        save(store, [s for s in specs if s not in gone])
    return gone[0]


def target(store: Store, spec: ExportSpec) -> Path:
    """Where ``spec``'s file is (its path is relative to the store's folder)."""
    return store.root / (spec.path or "")


def refresh(store: Store, config: Config, *, processes: int = 1) -> list[Refreshed]:
    """Rewrite every auto-export whose text changed (atomically: a reader sees the old file or the
    new one); nothing is written for one that is up to date. One that cannot be made (its list
    was deleted, its folder is gone) is reported and its old file left alone; the others go on.
    ``processes`` as for :func:`~readinglist.exportspec.render`."""
    from .errors import ReadinglistError
    from .jobs import same_text
    from .store.atomic import write_output

    done = []
    for spec in load(store):
        path = target(store, spec)
        try:
            if not path.parent.is_dir():
                raise FileNotFoundError(f"no folder {path.parent}")
            count, chunks = render(store, config, spec, processes=processes)
            text = "".join(chunks)
            same = same_text(path, text)
            if not same:
                write_output(path, text)
            done.append(Refreshed(spec.path or "", count, written=not same))
        except (ReadinglistError, OSError) as exc:
            done.append(Refreshed(spec.path or "", error=str(exc)))
    return done

