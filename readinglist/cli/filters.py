"""The filter options, declared once: ``list``, ``mark``, ``tag``, ``export`` and ``lists add``
take all of them (``next`` some), and hand them on as one :class:`~readinglist.selection.Filter`.

Typer-free: :mod:`.options` makes the typer options of this table (:func:`.options.filter_options`),
:mod:`.fast` its own parser's table (:func:`parser_table`), so that neither can drift."""

from __future__ import annotations

from ..constants import STATUSES

STATUS_HELP = " | ".join(STATUSES)

#: Each filter option: (the Filter field, the option's names, its kind, its help). The kind is
#: "texts" (repeatable), "text", or the (lowest, highest) of a number (typer's IntRange).
FILTER_OPTIONS: tuple[tuple[str, tuple[str, ...], object, str], ...] = (
    ("status", ("--status", "-s"), "texts", STATUS_HELP + " (repeat: any of them)."),
    ("tags", ("--tag", "-t"), "texts", "Only papers with this tag (repeat: all must match)."),
    ("venue", ("--venue",), "text", "Only this venue (e.g. NeurIPS)."),
    ("year", ("--year",), (1000, 2999), "Only this year (1000-2999)."),
    ("priority", ("--priority",), (1, 3), "Only this priority (1-3)."),
    ("rating", ("--rating",), (1, 5), "Only this rating (1-5)."),
    ("search", ("--search",), "text", "Only papers whose title, abstract or notes contain TEXT."),
)

#: The parameter name each filter has in a command's signature (prefixed: ``mark`` has its own
#: ``status`` argument, ``tag`` its own tags).
PREFIX = "where_"


def parser_table(only: tuple[str, ...] | None = None) -> dict[str, tuple[str, object]]:
    """The filter options as :mod:`.fast`'s parser reads them: option name -> (parameter, kind)."""
    return {
        name: (PREFIX + field, kind)
        for field, names, kind, _ in FILTER_OPTIONS
        if only is None or field in only
        for name in names
    }


def gathered(kwargs: dict) -> dict:
    """``kwargs`` with the filter parameters (``where_*``) taken out and put together as
    ``where``, one :class:`~readinglist.selection.Filter`."""
    from ..selection import Filter

    rest = {k: v for k, v in kwargs.items() if not k.startswith(PREFIX)}
    given = {k[len(PREFIX) :]: v for k, v in kwargs.items() if k.startswith(PREFIX)}
    return {**rest, "where": Filter(**given)}
