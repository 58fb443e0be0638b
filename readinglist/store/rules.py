"""The reading-list rules: what each change does to a paper, as pure functions
(``Paper -> Paper``, no folder, no lock, no clock: :class:`~readinglist.store.library.Store`
applies them to a paper file inside a transaction), and the checks of the values they take.

A rule returns the paper itself when nothing changes (the store then writes nothing).
"""

from __future__ import annotations

from ..constants import STATUS_EVENTS, STATUSES
from ..errors import ConflictError, ValidationError
from ..tagform import tag_form, tag_key, unique_tags
from .paperrow import MAX_HISTORY, PRIORITIES, RATINGS

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..record import Event, Paper, Record


# --------------------------------------------------------------------------- values


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags as given by a person: each a non-empty printable word or phrase (ValidationError
    otherwise), in its normal form (:func:`~readinglist.tagform.tag_form`), one per normal form
    (the first spelling kept)."""
    if isinstance(tags, str):
        tags = [tags]
    from ..text.controls import os_text

    out = []
    for tag in tags:
        tag = os_text(tag) if isinstance(tag, str) else tag
        if not isinstance(tag, str) or not tag.strip() or not tag.isprintable():
            raise ValidationError(f"bad tag {tag!r}: a tag is a non-empty word or phrase on one line")
        out.append(tag_form(tag.strip()))
    return unique_tags(out)


def check_status(status) -> str:
    """``status`` if it is one of STATUSES, else ValidationError."""
    if status not in STATUSES:
        raise ValidationError(f"unknown status {status!r}; use one of {', '.join(STATUSES)}")
    return status


def check_range(what: str, n, allowed: tuple[int, ...]) -> int | None:
    """``n`` if it is None or one of ``allowed`` (a priority, a rating), else ValidationError."""
    if n is None:
        return None
    if not isinstance(n, int) or isinstance(n, bool) or n not in allowed:
        raise ValidationError(f"{what} must be {allowed[0]}-{allowed[-1]} (or none), not {n!r}")
    return n


def clean_note(text: str) -> str:
    """A note as stored: line ends as ``\\n``, control characters removed, no leading or
    trailing blank lines."""
    if not isinstance(text, str):
        raise ValidationError(f"a note must be text, not {type(text).__name__}")
    from ..text.controls import os_text, strip_controls

    return strip_controls(os_text(text).replace("\r\n", "\n"))[0].strip("\n")


def trim_history(history: tuple) -> tuple:
    """At most MAX_HISTORY events: the first one (when the paper was added) and the latest."""
    if len(history) <= MAX_HISTORY:
        return history
    return history[:1] + history[len(history) - MAX_HISTORY + 1 :]


def strip_record(rec: Record) -> tuple[Record, int]:
    """``rec`` without control characters (other than newline and tab) in any text, and how
    many were removed: an imported title with ``ESC [ 2 J`` must not reach a terminal. Its
    tags are put in their normal form (NFC, one per :func:`~readinglist.tagform.tag_key`)."""
    if _printable(rec):  # nearly every record: nothing to look at twice, nothing rebuilt
        return rec, 0
    from ..record import Person
    from ..text.controls import strip_controls

    removed = 0

    def s(value):
        nonlocal removed
        if value is None or value.isprintable():
            return value
        value, n = strip_controls(value)
        removed += n
        return value

    changes: dict = {}
    for name in ("title", "abstract", "entry_type", "venue", "shorttitle", "doi", "url", "pages"):
        value = getattr(rec, name)
        new = s(value)
        if new is not value:
            changes[name] = new
    tags = unique_tags(tag_form(t) for t in (s(t) for t in rec.tags) if t.strip())
    if tags != rec.tags:
        changes["tags"] = tags
    authors = tuple(Person(s(a.family), s(a.given), s(a.literal)) for a in rec.authors)
    if authors != rec.authors:
        changes["authors"] = authors
    fields = tuple((k, s(v)) for k, v in rec.fields)
    if fields != rec.fields:
        changes["fields"] = fields
    return (rec.evolve(**changes) if changes else rec), removed


def _printable(rec: Record) -> bool:
    """Whether every text of ``rec`` that :func:`strip_record` looks at is printable (then it
    has no control character to remove)."""
    return (
        all(v is None or v.isprintable() for v in (rec.title, rec.abstract, rec.entry_type, rec.venue, rec.shorttitle, rec.doi, rec.url, rec.pages))
        and all(t.isprintable() and (t.isascii() or tag_form(t) == t) for t in rec.tags)  # and tags in NFC
        and all(v is None or v.isprintable() for a in rec.authors for v in (a.family, a.given, a.literal))
        and all(v is None or v.isprintable() for _, v in rec.fields)
    )


# --------------------------------------------------------------------------- rules


def new_paper(record: Record, state: Mapping | None, now: str) -> Paper:
    """The paper a new record makes, with the reader's ``state`` (status, priority, rating,
    notes, tags) and its history (added ``now``, and the status' event)."""
    state = dict(state or {})
    unknown = set(state) - {"status", "priority", "rating", "notes", "tags", "user_tags"}
    if unknown:
        raise ValidationError(f"{record.key}: unknown state field(s) {', '.join(sorted(unknown))}")
    status = check_status(state.get("status", "unread"))
    from ..record import Event, Paper

    history: tuple[Event, ...] = (Event("added", now),)
    if status != "unread":
        history += (Event(STATUS_EVENTS[status], now),)
    tags = unique_tags(tag_form(t) for t in record.tags)
    return Paper(
        record=record if tags == record.tags else record.evolve(tags=tags),  # tags in their normal form
        status=status,
        history=history,
        notes=clean_note(state.get("notes") or ""),
        user_tags=clean_tags(state.get("tags") or state.get("user_tags") or ()),
        priority=check_range("priority", state.get("priority"), PRIORITIES),
        rating=check_range("rating", state.get("rating"), RATINGS),
    )


def with_status(paper: Paper, status: str, now: str) -> Paper:
    """``paper`` with ``status`` (checked by :func:`check_status`), its event logged at
    ``now`` in the history; the paper itself when it has that status."""
    if paper.status == status:
        return paper
    from ..record import Event

    return paper.evolve(status=status, history=trim_history(paper.history + (Event(STATUS_EVENTS[status], now),)))


def with_note(paper: Paper, text: str, *, append: bool = False, expect: str | None = None) -> Paper:
    """``paper`` with the notes ``text`` (cleaned by :func:`clean_note`), or with ``text`` added
    as a new paragraph (``append``). ``expect``: the notes as the caller last saw them;
    ConflictError if the paper's differ."""
    old = paper.notes
    if expect is not None and old != clean_note(expect):
        raise ConflictError(f"the notes of {paper.key} were changed by another command while you edited them; nothing saved")
    notes = text
    if append and old and text:
        notes = old.rstrip("\n") + "\n\n" + text
    elif append and not text:
        notes = old
    return paper.evolve(notes=notes)


def with_tags_added(paper: Paper, tags: tuple[str, ...]) -> Paper:
    """``paper`` with the user's tags ``tags`` (cleaned by :func:`clean_tags`) added."""
    return paper.evolve(user_tags=unique_tags(paper.user_tags + tags))


def _topic_tags(paper: Paper, tags: tuple[str, ...]) -> Paper:
    """``paper`` with the topic tags ``tags``, which then count as edited by hand."""
    r = paper.record
    return paper.evolve(record=r.evolve(tags=tags, generated=r.generated - {"tags"}))


def with_tags_removed(paper: Paper, tags: tuple[str, ...]) -> Paper:
    """``paper`` without ``tags`` (cleaned by :func:`clean_tags`; any letter case) among the
    user's tags and the topic tags (then they count as edited by hand, so a re-import does not
    bring the tag back). ValidationError if the paper does not have one of them."""
    has = paper.tags
    present = {tag_key(t) for t in has}
    missing = [t for t in tags if tag_key(t) not in present]
    if missing:
        raise ValidationError(f"{paper.key} has no tag {', '.join(map(repr, missing))}; its tags: {', '.join(has) or 'none'}")
    gone = {tag_key(t) for t in tags}
    paper = paper.evolve(user_tags=tuple(t for t in paper.user_tags if tag_key(t) not in gone))
    if any(tag_key(t) in gone for t in paper.record.tags):
        paper = _topic_tags(paper, tuple(t for t in paper.record.tags if tag_key(t) not in gone))
    return paper


def with_tag_renamed(paper: Paper, old: str, new: str) -> Paper:
    """``paper`` with the tag ``old`` (any letter case) renamed ``new`` in place, among the
    user's tags and the topic tags (which then count as edited by hand)."""
    gone = tag_key(old)

    def renamed(tags: tuple[str, ...]) -> tuple[str, ...]:
        return unique_tags(new if tag_key(t) == gone else t for t in tags)

    paper = paper.evolve(user_tags=renamed(paper.user_tags))
    topic = renamed(paper.record.tags)
    return paper if topic == paper.record.tags else _topic_tags(paper, topic)


def with_rating(paper: Paper, n: int | None) -> Paper:
    """``paper`` rated ``n`` (checked by :func:`check_range`), None: no rating."""
    return paper.evolve(rating=n)


def with_priority(paper: Paper, n: int | None) -> Paper:
    """``paper`` with the priority ``n`` (checked by :func:`check_range`), None: none."""
    return paper.evolve(priority=n)
