"""Changes to a store's papers as wholes: imports (:mod:`.importer` does the work), official
metadata, a new key, removal, a file edited as a whole; the checks of several keys at once.
:class:`WholePapers` is that part of :class:`~readinglist.store.library.Store`.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from collections.abc import Iterable, Iterator, Mapping

from ..errors import ConflictError, StoreError, UnknownKeyError, UnknownKeysError
from . import paperrow, rules
from .query import Queries

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ..record import Paper, Record
    from .importer import ImportSummary, Importer


class WholePapers(Queries):
    """Imports, re-keying, removal and whole-file edits (see :class:`~.library.Store`)."""

    if TYPE_CHECKING:

        def get(self, key: str) -> Paper: ...

        def _locate(self, key: str) -> tuple[str, str, Paper]: ...

        def _save(self, name: str, text: str | None, old: Paper | None, new: Paper) -> Paper: ...

    def _new_file_name(self, key: str, taken: set[str], *, listed: bool = False) -> str:
        """A free file name for a new paper: ``<key>.toml``, else ``<key>-2.toml``, ...
        ``taken`` holds the casefolded names in use (names differing in case clash on macOS);
        ``listed``: it holds every name in ``papers/`` (see :meth:`_listed_names`), so no file
        need be looked for."""
        stem = paperrow.file_stem(key)
        name, n = f"{stem}.toml", 1
        while name.casefold() in taken or (not listed and (self.papers_dir / name).exists()):
            n += 1
            name = f"{stem}-{n}.toml"
        return name

    def _new_paper(self, record: Record, state: Mapping | None, now: str) -> Paper:
        return rules.new_paper(record, state, now)

    def import_records(self, records: Iterable[Record], *, states: Mapping[str, dict] | None = None) -> ImportSummary:
        """Add new records and update the papers they match; nothing a reader set is lost.

        An incoming record with an abstract matches the paper whose abstract is the same once
        normalised (similarity 100, ``exact``), else the most similar one scoring at least
        ``config.duplicate_threshold`` (:class:`~readinglist.convert.matching.NearIndex`); one without
        an abstract matches by key, then by DOI.
        A matched paper keeps its key and state and is updated by :func:`merge_record`. A new
        record gets its key, or the next free one (``renamed``), and the state ``states`` gives
        for its incoming key (status, priority, rating, notes, tags), else ``unread``.
        All of it is written in one transaction (see :meth:`importing` to hand records over in
        batches).
        """
        with self.importing() as importer:
            importer.add(records, states)
        return importer.summary()

    @contextmanager
    def importing(self) -> Iterator[Importer]:
        """An :class:`~readinglist.store.importer.Importer` whose ``add(records, states)``
        imports a batch at a time, as :meth:`import_records` does; its ``summary()`` tells what
        was done once the block ended. Everything is written when the block ends (nothing if it
        raises). The store's papers are never all loaded: keys, matches and abstracts are looked
        up in the cache, so memory does not grow with the store nor with the import."""
        from .importer import Importer

        with self.transaction():
            importer = Importer(self)  # type: ignore[arg-type]  # (always a Store)
            self._at_end.append(importer.close)  # (the outermost transaction's end, however it ends)
            yield importer
            self._after_flush.append(importer.commit)

    def _listed_names(self) -> set[str]:
        """The casefolded names of everything in ``papers/`` (files that do not parse, folders,
        temporary files too) and of the transaction's papers: one listing instead of a look
        for each new paper's file (with the lock held, nobody else adds any)."""
        try:
            names = {n.casefold() for n in os.listdir(self.papers_dir)}
        except OSError:
            names = set()
        names.update(n.casefold() for n in self._pending)
        return names

    def replace_record(self, key: str, record: Record, *, rekey: bool = False) -> Paper:
        """Put official metadata (``record``) on the paper ``key``, keeping its state.

        Every value ``record`` has replaces the stored one (see :func:`merge_record` with
        ``official=True``); values it lacks (often tags) are kept. With ``rekey`` the paper takes
        ``record.key`` (its file is renamed to match); StoreError if another paper has that key.
        """
        record = rules.strip_record(record)[0]
        with self.transaction():
            name, text, old = self._locate(key)
            from .merge import merge_record

            merged = merge_record(old.record, record, official=True)
            if not rekey or record.key == old.key:
                return self._save(name, text, old, old.evolve(record=merged))
            return self._rekey(name, text, old, merged, record.key)

    def rekey(self, key: str, new_key: str) -> Paper:
        """Give the paper ``key`` the citation key ``new_key``: its file is renamed to match, its
        state and history stay, and every curated list that names it follows. StoreError (nothing
        changed) when ``new_key`` is not a valid key or another paper has it, also in another case."""
        with self.transaction():
            name, text, old = self._locate(key)
            if new_key == old.key:
                return old
            return self._rekey(name, text, old, old.record, new_key)

    def _rekey(self, name: str, text: str, old: Paper, record: Record, new_key: str) -> Paper:
        from ..convert.keys import fold_key, key_problem

        problem = key_problem(new_key)
        if problem:
            raise StoreError(f"cannot give {old.key} the key {new_key!r}: {problem}")
        names_and_keys = self._names_and_keys()
        for other, other_key in names_and_keys:
            if fold_key(other_key) == fold_key(new_key) and other != name:
                raise StoreError(f"cannot give {old.key} the key {new_key!r}: {self.papers_dir / other} has it" + (f" (as {other_key!r}: keys differ in case only)" if other_key != new_key else ""))
        new = old.evolve(record=record.evolve(key=new_key, generated=record.generated - {"key"}))
        new_name = paperrow.file_stem(new_key) + ".toml"
        if new_name.casefold() == name.casefold():
            new_name = name  # a change of case only: the file keeps its name (case-insensitive file systems)
        if new_name != name:
            new_name = self._new_file_name(new_key, {n.casefold() for n, _ in names_and_keys})
            self._stage(name, None)
            self._staged_paper(name, None)
        saved = self._save(new_name, text if new_name == name else None, old, new)
        from . import lists

        lists.follow_rename(self, old.key, new_key)  # type: ignore[arg-type]  # (always a Store) curated lists follow the new key
        return saved

    # ------------------------------------------------------------------ whole papers

    def check_keys(self, keys: Iterable[str]) -> list[Paper]:
        """The papers with ``keys``, in order; one UnknownKeyError naming every unknown key (each
        with its suggestions) when any is missing, so a command on several keys changes nothing."""
        papers, unknown = [], []
        for key in dict.fromkeys(keys):
            try:
                papers.append(self.get(key))
            except UnknownKeyError as exc:
                unknown.append(exc)
        if len(unknown) == 1:
            raise unknown[0]
        if unknown:
            raise UnknownKeysError(unknown)
        return papers

    def names_a_paper(self, word: str) -> bool:
        """Whether ``papers/<word>.toml`` exists: a cheap test that a word is a paper's key
        (the CLI's guard against ``tag KEY1 KEY2``), with no index scan."""
        try:
            return bool(word) and (self.papers_dir / (paperrow.file_stem(word) + ".toml")).is_file()
        except (OSError, ValueError):
            return False

    def remove(self, keys: Iterable[str]) -> list[Paper]:
        """Delete the papers with ``keys`` (all of them or, if one is unknown, none); the curated
        lists that named them drop their entries (:func:`.lists.containing` says which, before)."""
        keys = list(dict.fromkeys(keys))
        with self.transaction():
            located = []
            unknown = []
            for key in dict.fromkeys(keys):
                try:
                    located.append(self._locate(key))
                except UnknownKeyError as exc:
                    unknown.append(exc)
            if unknown:
                self.check_keys(e.key for e in unknown)  # raises, naming them all
            for name, _, _ in located:
                self._stage(name, None)
                self._staged_paper(name, None)
            from . import lists

            lists.forget(self, [paper.key for _, _, paper in located])  # type: ignore[arg-type]  # (always a Store)
            return [paper for _, _, paper in located]

    def paper_text(self, key: str) -> tuple[str, str]:
        """(path, text) of the paper's file, for editing it as a whole."""
        name, text, _ = self._locate(key)
        return str(self.papers_dir / name), text

    def replace_text(self, key: str, old_text: str, new_text: str) -> Paper:
        """Write ``new_text`` (a whole paper file, edited by hand) over the paper ``key``.

        It must parse (StoreError naming line and column otherwise), keep a key no other paper
        has, and the file must still hold ``old_text`` (else someone changed it meanwhile:
        StoreError, nothing written)."""
        with self.transaction():
            name, text, old = self._locate(key)
            if text != old_text:
                raise ConflictError(f"{self.papers_dir / name} changed while you edited it; nothing written")
            from .paperfile import parse

            new = parse(new_text, self.papers_dir / name)
            if new.key != old.key:
                other = self._name_of(new.key)
                if other is not None and other != name:
                    raise StoreError(f"key {new.key!r} is taken by {self.papers_dir / other}; nothing written")
            if new_text != text:
                self._stage(name, new_text)
                self._staged_paper(name, new)
            return new
