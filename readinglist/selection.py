"""Which papers a command selects, as one value: :class:`Filter` (the filter options of ``list``,
``mark``, ``tag``, ``export`` and ``lists add``; ``next`` takes some of them).

A plain frozen class rather than a dataclass: ``list`` runs without the dataclass machinery
(see :mod:`readinglist.cli.fast`)."""

from __future__ import annotations

#: The filters, in the order commands declare them (cli/filters.py declares their options).
FIELDS = ("status", "tags", "venue", "year", "priority", "rating", "search")


class Filter:
    """Papers that match every filter given: ``status`` any of these statuses; ``tags`` all of
    these tags (topic or user tags, case-insensitive); ``venue`` (case-insensitive), ``year``,
    ``priority``, ``rating`` equal; ``search`` words that must all occur in the title, abstract
    or notes. The empty filter (``Filter()``, false) selects every paper."""

    __slots__ = FIELDS
    status: tuple[str, ...]
    tags: tuple[str, ...]
    venue: str | None
    year: int | None
    priority: int | None
    rating: int | None
    search: str | None

    def __init__(
        self,
        *,
        status=(),
        tags=(),
        venue: str | None = None,
        year: int | None = None,
        priority: int | None = None,
        rating: int | None = None,
        search: str | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "status", (status,) if isinstance(status, str) else tuple(status or ()))
        put(self, "tags", (tags,) if isinstance(tags, str) else tuple(tags or ()))
        for name, value in (("venue", venue), ("year", year), ("priority", priority), ("rating", rating), ("search", search)):
            put(self, name, value)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a Filter is frozen (Filter.replace makes another): {name}")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Filter) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        given = ", ".join(f"{name}={value!r}" for name, value in zip(FIELDS, self._values()) if value not in (None, ()))
        return f"Filter({given})"

    def __bool__(self) -> bool:
        """Whether any filter is given (an empty filter selects every paper)."""
        return any(value not in (None, ()) for value in self._values())

    def replace(self, **changes) -> Filter:
        return Filter(**{**self.as_dict(), **changes})

    def as_dict(self) -> dict:
        """Every filter by name (as :class:`Filter` takes them)."""
        return dict(zip(FIELDS, self._values()))

    def describe(self) -> str:
        """The filters in words ("status read; tag llm"), "" when there are none."""
        chosen = [
            ("status", " or ".join(self.status)), ("tag", ", ".join(self.tags)), ("venue", self.venue), ("year", self.year),
            ("priority", self.priority), ("rating", self.rating), ("search", self.search),
        ]  # fmt: skip
        return "; ".join(f"{name} {value}" for name, value in chosen if value)
