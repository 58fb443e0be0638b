"""The tables of a :class:`~readinglist.store.dupindex.StoredNearIndex` as the mappings a
:class:`~readinglist.convert.matching.NearIndex` holds: this import's entries on top of the
index file's, which are read only when asked for (see :mod:`readinglist.store.dupindex`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..convert.matching import normalize

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .dupindex import StoredNearIndex

ABSENT = object()  # a phrase or text known to have no entry


class Layered:
    """A dict of this import's entries over the entries in the file: ``base(key)`` gives the
    file's entry (None when it has none); lists taken from the file are kept on top, so the
    NearIndex may change them in place."""

    __slots__ = ("top", "base")

    def __init__(self, base) -> None:
        self.top: dict = {}
        self.base = base

    def get(self, key, default=None):
        value = self.top.get(key, ABSENT)
        if value is ABSENT:
            if key in self.top:  # deleted in this import
                return default
            value = self.base(key)
            self.top[key] = ABSENT if value is None else value
            if value is None:
                return default
        return value

    def __getitem__(self, key):
        value = self.get(key, ABSENT)
        if value is ABSENT:
            raise KeyError(key)
        return value

    def __setitem__(self, key, value) -> None:
        self.top[key] = value

    def __delitem__(self, key) -> None:
        self[key]  # KeyError if absent, as a dict
        self.top[key] = ABSENT


class Texts:
    """id -> normalised text: this import's texts, over the papers the file indexes (``rows``:
    file name -> row), whose abstracts ``abstract_of`` reads when one is first asked for (a
    candidate to verify), as they are now."""

    def __init__(self, rows: dict[str, int], abstract_of: Callable[[str], str]) -> None:
        self.top: dict[str, str] = {}
        self.rows = rows
        self.abstract_of = abstract_of
        self.gone: set[str] = set()

    def __contains__(self, id) -> bool:
        return id in self.top or (id in self.rows and id not in self.gone)

    def __len__(self) -> int:
        return len(self.top) + sum(1 for id in self.rows if id not in self.gone and id not in self.top)

    def __getitem__(self, id: str) -> str:
        norm = self.top.get(id)
        if norm is not None:
            return norm
        if id in self.rows and id not in self.gone:
            return normalize(self.abstract_of(id))
        raise KeyError(id)

    def __setitem__(self, id: str, norm: str) -> None:
        self.top[id] = norm

    def pop(self, id: str, default=None):
        if id in self.top:
            return self.top.pop(id)
        if id in self.rows and id not in self.gone:
            self.gone.add(id)
            return normalize(self.abstract_of(id))
        return default


class Ranks(dict):
    """id -> rank, -1 for an id it does not hold: its ``__getitem__`` is a sort key that runs
    in C (a method of Python's would be called once per name sorted)."""

    __slots__ = ()

    def __missing__(self, id: str) -> int:
        return -1


class Order:
    """id -> rank: this import's papers after the store's, the store's by file name."""

    def __init__(self, names) -> None:
        self.top: dict[str, int] = {}
        self._names = names
        self._ranks: dict[str, int] | None = None  # the store's, by file name
        self._all: Ranks | None = None  # the store's with ``top`` over them

    def __getitem__(self, id: str) -> int:
        rank = self.ranks()[id]
        if rank < 0:
            raise KeyError(id)
        return rank

    def rank(self, id: str) -> int:
        """``self[id]``, or -1 for a paper being removed (its rank was dropped first)."""
        return self.ranks()[id]

    def ranks(self) -> Ranks:
        """Every rank as one mapping (see :class:`Ranks`), kept up to date as ranks change."""
        if self._all is None:
            if self._ranks is None:
                self._ranks = {name: i for i, name in enumerate(sorted(self._names))}
            self._all = Ranks(self._ranks)
            self._all.update(self.top)
        return self._all

    def __setitem__(self, id: str, rank: int) -> None:
        self.top[id] = rank
        if self._all is not None:
            self._all[id] = rank

    def __delitem__(self, id: str) -> None:
        self.top.pop(id, None)
        if self._all is not None:
            store = self._ranks.get(id) if self._ranks is not None else None
            if store is None:
                self._all.pop(id, None)
            else:
                self._all[id] = store

    def clear_top(self) -> None:
        """Forget this import's ranks: every paper ranks by its file name."""
        self.top.clear()
        self._all = None


class Bucket(list):
    """The papers of a common phrase of the file, as the list a fresh index holds, without
    naming them: ``len`` is known from the postings' bounds (what a query sorts its phrases by,
    and most of them it then skips); the list is filled from the postings when first read or
    changed, except by ``append`` (this import's papers come after the file's)."""

    __slots__ = ("_index", "_ranges", "_count", "_extra", "_loaded")

    def __init__(self, index: StoredNearIndex, ranges, count: int) -> None:
        super().__init__()
        self._index, self._ranges, self._count = index, ranges, count
        self._extra: list[str] = []
        self._loaded = False

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            named = self._index._named(self._ranges)
            super().extend([named] if isinstance(named, str) else named or ())
            super().extend(self._extra)
            self._ranges = self._extra = ()  # type: ignore[assignment]

    def __len__(self) -> int:
        return super().__len__() if self._loaded else self._count + len(self._extra)

    def __iter__(self):
        self._load()
        return super().__iter__()

    def __getitem__(self, i):
        self._load()
        return super().__getitem__(i)

    def __contains__(self, item) -> bool:
        self._load()
        return super().__contains__(item)

    def __eq__(self, other) -> bool:
        self._load()
        return super().__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        self._load()
        return super().__repr__()

    def among(self, ids) -> list[str]:
        """Those of ``ids`` the list holds: without naming its papers (a binary search in the
        postings per paper asked about) unless it was read already or they are many."""
        if self._loaded or len(ids) > self._count:
            mine = set(self)
            return [id for id in ids if id in mine]
        held = self._index._holds
        extra = self._extra
        return [id for id in ids if id in extra or held(self._ranges, id)]

    def append(self, item: str) -> None:
        if self._loaded:
            super().append(item)
        else:
            self._extra.append(item)

    def remove(self, item: str) -> None:
        self._load()
        super().remove(item)
