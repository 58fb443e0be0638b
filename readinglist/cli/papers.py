"""What the single-paper commands do (show, mark, note, tag, rate, priority), apart from
their typer declarations in :mod:`.reading`: neither imports typer, so the plain forms that
:mod:`.fast` parses run here without it. For a file readinglist wrote, they load no TOML
parser (see :func:`readinglist.store.paperrow.read_rendered`)."""

from __future__ import annotations

import os
import sys

from .common import count_phrase, find_papers, write_paged, paper_as_json, echo, state, utf8

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from ..record import Paper


def _echo_paper(p: Paper) -> None:
    """``show KEY``: the paper as lines. Every field is shown through
    :func:`~readinglist.text.controls.escape_controls`: a one-line field with its line breaks
    escaped too (a title cannot forge a line)."""
    from ..text.controls import escape_controls

    def one(text: str) -> str:
        return escape_controls(text, keep="")

    r = p.record
    lines = [f"{one(r.key)}  [{one(p.status)}]", one(r.title) + ("   (generated title)" if "title" in r.generated else "")]
    if r.authors:
        lines.append("authors:  " + one("; ".join(map(str, r.authors))))
    lines.append(f"venue:    {one(r.venue or '-')} {r.year or ''}".rstrip())
    if r.shorttitle:
        lines.append(f"name:     {one(r.shorttitle)}")
    lines.append("tags:     " + one(", ".join(r.tags) or "-") + ("   user: " + one(", ".join(p.user_tags)) if p.user_tags else ""))
    if p.priority:
        lines.append(f"priority: {p.priority}")
    if p.rating:
        lines.append(f"rating:   {p.rating}/5")
    for label, value in (("doi", r.doi), ("url", r.url)):
        if value:
            lines.append(f"{label}:      {one(value)}")
    if r.sources:
        lines.append("from:     " + one("; ".join(map(str, r.sources))))
    if p.history:
        lines.append("history:  " + one("; ".join(f"{e.event} {e.date}" for e in p.history)))
    if p.notes:
        lines += ["", "notes:", escape_controls(p.notes.rstrip())]
    if r.abstract:
        from ..terminal import wrap, width
        from ..text import to_plain

        lines += ["", escape_controls(wrap(to_plain(r.abstract), min(width(), 100)))]
    write_paged("\n".join(lines) + "\n")


def show(key, as_json) -> None:
    """The body of ``readinglist show`` (see :mod:`.reading` for its options)."""
    if as_json:
        from ..store.cache import json_text

        echo(json_text(paper_as_json(state.store.get(key)), ascii_only=not utf8(sys.stdout), indent=2))
    else:
        _echo_paper(state.store.get(key))


def _selection(keys, where) -> list[Paper]:
    """The papers a changing command acts on: KEYs (every one checked first: one
    unknown key changes nothing) or the papers the list filters select (never both)."""
    from ..errors import UnknownKeyError, ValidationError

    if keys and where:
        raise ValidationError("give KEYs or filters (--tag, --status, ...), not both")
    if where:
        return find_papers(where, "key")
    if not keys:
        import typer  # only a usage error (the typer command's): never on the fast path

        raise typer.BadParameter("give one or more KEYs, or a filter such as --tag llm")
    try:
        return state.store.check_keys(keys)
    except UnknownKeyError as exc:
        raise ValidationError(f"{exc}; nothing changed") from None


def mark(status, keys, where, dry_run) -> None:
    """The body of ``readinglist mark`` (see :mod:`.reading` for its options): ``status`` the
    new one, ``where`` the filters (a :class:`~readinglist.selection.Filter`)."""
    from ..store.library import check_status

    check_status(status)
    store = state.store
    rows = _selection(keys, where)
    todo = [p for p in rows if p.status != status]
    if dry_run:
        for p in todo:
            echo(f"{p.key}: {p.status} -> {status}")
        echo(f"would mark {count_phrase(len(todo), 'paper')} {status} (dry run: nothing written)")
        return
    with store.transaction():
        for p in todo:
            store.set_status(p.key, status)
    changed = {p.key for p in todo}
    for p in rows:
        echo(f"{p.key}: {status}" if p.key in changed else f"{p.key}: already {status}")
    if len(rows) != 1:
        echo(f"marked {count_phrase(len(todo), 'paper')} {status}" + (f" ({len(rows) - len(todo)} already were)" if len(todo) < len(rows) else ""))


def note(key, message, append) -> None:
    """The body of ``readinglist note`` (see :mod:`.reading` for its options)."""
    from ..errors import ConflictError

    store = state.store
    expect = None
    if message is None:
        current = store.get(key).notes
        edited = _edit(current or "")
        if edited == current:
            echo("notes unchanged", err=True)
            return
        message, append, expect = edited, False, current
    try:
        paper = store.set_note(key, message, append=append, expect=expect)
    except ConflictError as exc:  # the edited text is the user's: keep it where they can find it
        raise ConflictError(f"{exc}; your text is in {_keep(message)}") from None
    n = len(paper.notes.splitlines())
    echo(f"{paper.key}: notes saved ({count_phrase(n, 'line')})" if n else f"{paper.key}: notes cleared")


def _keep(text: str | bytes) -> str:
    """Save ``text`` in a new private temporary file that is not removed; its path."""
    import tempfile

    fd, path = tempfile.mkstemp(prefix="readinglist-note-", suffix=".md")
    with os.fdopen(fd, "wb") as fh:
        fh.write(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def run_editor(path, *, unchanged: str, instead: str = "") -> str:
    """Run $VISUAL / $EDITOR (else vi) on ``path``, as git does, and return its command; a
    one-line error when it cannot start (ending in ``instead``: what to do instead) or fails
    (ending in ``; {unchanged}``)."""
    import shlex
    import subprocess

    from ..errors import ValidationError

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    try:
        code = subprocess.call([*shlex.split(editor), str(path)])
    except (OSError, ValueError) as exc:
        raise ValidationError(f"cannot start the editor {editor!r}: {getattr(exc, 'strerror', None) or exc}{instead}") from None
    if code != 0:
        raise ValidationError(f"the editor {editor!r} exited with status {code}; {unchanged}")
    return editor


def _edit(text: str) -> str:
    """Open $VISUAL / $EDITOR (else vi) on ``text`` in a temporary file, as git does.

    The file lives in a new private folder under a fixed name (never one made from a key).
    An editor that fails, removes the file or saves something other than UTF-8 text is a
    one-line error; what it saved is then kept in a file the message names."""
    import tempfile
    from pathlib import Path

    from ..errors import ValidationError
    from ..store.atomic import byte_place, describe, read_bounded

    with tempfile.TemporaryDirectory(prefix="readinglist-") as tmp:
        path = Path(tmp) / "NOTES.md"
        path.write_text(text, encoding="utf-8")
        editor = run_editor(path, unchanged="notes unchanged", instead="; use -m TEXT")
        try:
            data = read_bounded(path, limit=8 << 20)
        except FileNotFoundError:
            raise ValidationError(f"the editor {editor!r} removed the notes file; notes unchanged") from None
        except OSError as exc:
            raise ValidationError(f"cannot read the edited notes: {describe(exc)}; notes unchanged") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, col = byte_place(data, exc.start)
            kept = _keep(data)
            raise ValidationError(f"the editor saved text that is not UTF-8 (line {line}, column {col}); notes unchanged; your text is in {kept}") from None


def tag(words, keys, remove, where, dry_run) -> None:
    """The body of ``readinglist tag`` (see :mod:`.reading` for its options)."""
    from ..errors import ValidationError

    single = not keys and not where
    if single:
        if len(words) < 2:
            import typer  # only a usage error (the typer command's): never on the fast path

            raise typer.BadParameter("give a KEY and at least one TAG: readinglist tag KEY TAG...")
        keys, tags = [words[0]], words[1:]
    else:
        tags = words
    store = state.store
    rows = _selection(keys, where)
    for word in tags:
        # a paper's key where a tag belongs: `tag KEY1 KEY2` meant two papers (a tag that really
        # is spelled like a key may still be removed from the papers that have it)
        if store.names_a_paper(word) and not (remove and any(word in p.tags for p in rows)):
            raise ValidationError(
                f"{word!r} is a paper's key, not a tag: to {'untag' if remove else 'tag'} several papers, "
                f"readinglist tag --key {keys[0] if single and keys else 'KEY1'} --key {word}{' --remove' if remove else ''} TAG... "
                "(or select them with a filter)"
            )
    wanted = set(tags)
    if remove:
        todo = [p for p in rows if wanted & set(p.tags)] if not single else rows
    else:
        todo = [p for p in rows if not wanted <= set(p.user_tags)]
    if dry_run:
        for p in todo:
            echo(f"{p.key}: {'-' if remove else '+'}{', '.join(tags)}")
        echo(f"would {'untag' if remove else 'tag'} {count_phrase(len(todo), 'paper')} (dry run: nothing written)")
        return
    with store.transaction():
        done = [
            store.remove_tags(p.key, [t for t in tags if t in p.tags] if not single else tags) if remove else store.add_tags(p.key, tags)
            for p in todo
        ]
    if single:
        paper = done[0] if done else rows[0]
        echo(f"{paper.key}: {', '.join(paper.tags) or '(no tags)'}")
        return
    for paper in done:
        echo(f"{paper.key}: {', '.join(paper.tags) or '(no tags)'}")
    echo(f"{'untagged' if remove else 'tagged'} {count_phrase(len(done), 'paper')}" + (f" ({len(rows) - len(done)} unchanged)" if len(done) < len(rows) else ""))


def rename_tag(old, new, dry_run) -> None:
    """The body of ``readinglist tag --rename OLD NEW``."""
    rows = state.store.rename_tag(old, new, dry_run=dry_run)
    for paper in rows:
        echo(f"{paper.key}: {', '.join(paper.tags) or '(no tags)'}" if not dry_run else f"{paper.key}: {old} -> {new}")
    if dry_run:
        echo(f"would rename {old!r} to {new!r} on {count_phrase(len(rows), 'paper')} (dry run: nothing written)")
    else:
        echo(f"renamed {old!r} to {new!r} on {count_phrase(len(rows), 'paper')}")


def rate(key, n) -> None:
    """The body of ``readinglist rate`` (see :mod:`.reading` for its options)."""
    paper = state.store.rate(key, n or None)
    echo(f"{paper.key}: rating {paper.rating or '-'}")


def priority(key, n) -> None:
    """The body of ``readinglist priority`` (see :mod:`.reading` for its options)."""
    paper = state.store.set_priority(key, n or None)
    echo(f"{paper.key}: priority {paper.priority or '-'}")
