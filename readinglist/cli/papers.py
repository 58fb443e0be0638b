"""What the single-paper commands do (show, mark, note, tag, rate, priority), apart from
their typer declarations in :mod:`.reading`: neither imports typer, so the plain forms that
:mod:`.fast` parses run here without it."""

from __future__ import annotations

import os

from .common import _count, _find, _out, _paper_json, echo, state


def _echo_paper(paper) -> None:
    rec = paper.record
    lines = [f"{rec.key}  [{paper.status}]", rec.title + ("   (generated title)" if rec.is_generated else "")]
    if rec.authors:
        lines.append("authors:  " + "; ".join(str(a) for a in rec.authors))
    lines.append(f"venue:    {rec.venue or '-'} {rec.year or ''}".rstrip())
    if rec.shorttitle:
        lines.append(f"name:     {rec.shorttitle}")
    lines.append("tags:     " + (", ".join(rec.tags) or "-") + ("   user: " + ", ".join(paper.user_tags) if paper.user_tags else ""))
    if paper.priority:
        lines.append(f"priority: {paper.priority}")
    if paper.rating:
        lines.append(f"rating:   {paper.rating}/5")
    for label, value in (("doi", rec.doi), ("url", rec.url)):
        if value:
            lines.append(f"{label}:      {value}"[: 10 + len(value)])
    if rec.sources:
        lines.append("from:     " + "; ".join(str(s) for s in rec.sources))
    if paper.history:
        lines.append("history:  " + "; ".join(f"{e.event} {e.date}" for e in paper.history))
    if paper.notes:
        lines += ["", "notes:", paper.notes.rstrip()]
    if rec.abstract:
        from ..terminal import wrap, width
        from ..text import to_plain

        lines += ["", wrap(to_plain(rec.abstract), min(width(), 100))]
    from ..text.controls import escape_controls

    _out(escape_controls("\n".join(lines) + "\n"))


def show(key, as_json) -> None:
    """The body of ``readinglist show`` (see :mod:`.reading` for its options)."""
    paper = state.store.get(key)
    if as_json:
        import json

        echo(json.dumps(_paper_json(paper), ensure_ascii=False, indent=2))
    else:
        _echo_paper(paper)


def _selection(keys, status, tag, venue, year, priority, rating, search) -> list:
    """The papers a changing command acts on: KEYs (every one checked first: one unknown key
    changes nothing) or the papers the list filters select (never both)."""
    from ..errors import UnknownKeyError, ValidationError

    filters = any(v not in (None, [], ()) for v in (status, tag, venue, year, priority, rating, search))
    if keys and filters:
        raise ValidationError("give KEYs or filters (--tag, --status, ...), not both")
    if filters:
        return _find(status, tag, venue, year, priority, rating, search, "key")
    if not keys:
        import typer  # only a usage error (the typer command's): never on the fast path

        raise typer.BadParameter("give one or more KEYs, or a filter such as --tag llm")
    try:
        return state.store.check_keys(keys)
    except UnknownKeyError as exc:
        raise ValidationError(f"{exc}; nothing changed") from None


def mark(status, keys, where_status, tag, venue, year, priority, rating, search, dry_run) -> None:
    """The body of ``readinglist mark`` (see :mod:`.reading` for its options)."""
    from ..store.library import check_status

    check_status(status)
    store = state.store
    papers = _selection(keys, where_status, tag, venue, year, priority, rating, search)
    todo = [p for p in papers if p.status != status]
    if dry_run:
        for p in todo:
            echo(f"{p.key}: {p.status} -> {status}")
        echo(f"would mark {_count(len(todo), 'paper')} {status} (dry run: nothing written)")
        return
    with store.transaction():
        for p in todo:
            store.set_status(p.key, status)
    changed = {p.key for p in todo}
    for p in papers:
        echo(f"{p.key}: {status}" if p.key in changed else f"{p.key}: already {status}")
    if len(papers) != 1:
        echo(f"marked {_count(len(todo), 'paper')} {status}" + (f" ({len(papers) - len(todo)} already were)" if len(todo) < len(papers) else ""))


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
    echo(f"{paper.key}: notes saved ({_count(n, 'line')})" if n else f"{paper.key}: notes cleared")


def _keep(text: str | bytes) -> str:
    """Save ``text`` in a new private temporary file that is not removed; its path."""
    import tempfile

    fd, path = tempfile.mkstemp(prefix="readinglist-note-", suffix=".md")
    with os.fdopen(fd, "wb") as fh:
        fh.write(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def _edit(text: str) -> str:
    """Open $VISUAL / $EDITOR (else vi) on ``text`` in a temporary file, as git does.

    The file lives in a new private folder under a fixed name (never one made from a key).
    An editor that fails, removes the file or saves something other than UTF-8 text is a
    one-line error; what it saved is then kept in a file the message names."""
    import shlex
    import subprocess
    import tempfile
    from pathlib import Path

    from ..errors import ValidationError
    from ..store.atomic import describe, read_bounded

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="readinglist-") as tmp:
        path = Path(tmp) / "NOTES.md"
        path.write_text(text, encoding="utf-8")
        try:
            code = subprocess.call([*shlex.split(editor), str(path)])
        except (OSError, ValueError) as exc:
            raise ValidationError(f"cannot start the editor {editor!r}: {getattr(exc, 'strerror', None) or exc}; use -m TEXT") from None
        if code != 0:
            raise ValidationError(f"the editor {editor!r} exited with status {code}; notes unchanged")
        try:
            data = read_bounded(path, limit=8 << 20)
        except FileNotFoundError:
            raise ValidationError(f"the editor {editor!r} removed the notes file; notes unchanged") from None
        except OSError as exc:
            raise ValidationError(f"cannot read the edited notes: {describe(exc)}; notes unchanged") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            kept = _keep(data)
            raise ValidationError(f"the editor saved text that is not UTF-8 (line {line}, column {col}); notes unchanged; your text is in {kept}") from None


def tag(words, keys, remove, status, tag, venue, year, priority, rating, search, dry_run) -> None:
    """The body of ``readinglist tag`` (see :mod:`.reading` for its options)."""
    from ..errors import ValidationError

    filters = any(v not in (None, [], ()) for v in (status, tag, venue, year, priority, rating, search))
    single = not keys and not filters
    if single:
        if len(words) < 2:
            import typer  # only a usage error (the typer command's): never on the fast path

            raise typer.BadParameter("give a KEY and at least one TAG: readinglist tag KEY TAG...")
        keys, tags = [words[0]], words[1:]
    else:
        tags = words
    store = state.store
    papers = _selection(keys, status, tag, venue, year, priority, rating, search)
    for word in tags:
        # a paper's key where a tag belongs: `tag KEY1 KEY2` meant two papers (a tag that really
        # is spelled like a key may still be removed from the papers that have it)
        if store.names_a_paper(word) and not (remove and any(word in p.tags for p in papers)):
            raise ValidationError(
                f"{word!r} is a paper's key, not a tag: to {'untag' if remove else 'tag'} several papers, "
                f"readinglist tag --key {keys[0] if single and keys else 'KEY1'} --key {word}{' --remove' if remove else ''} TAG... "
                "(or select them with a filter)"
            )
    wanted = set(tags)
    if remove:
        todo = [p for p in papers if wanted & set(p.tags)] if not single else papers
    else:
        todo = [p for p in papers if not wanted <= set(p.user_tags)]
    if dry_run:
        for p in todo:
            echo(f"{p.key}: {'-' if remove else '+'}{', '.join(tags)}")
        echo(f"would {'untag' if remove else 'tag'} {_count(len(todo), 'paper')} (dry run: nothing written)")
        return
    with store.transaction():
        done = [
            store.remove_tags(p.key, [t for t in tags if t in p.tags] if not single else tags) if remove else store.add_tags(p.key, tags)
            for p in todo
        ]
    if single:
        paper = done[0] if done else papers[0]
        echo(f"{paper.key}: {', '.join(paper.tags) or '(no tags)'}")
        return
    for paper in done:
        echo(f"{paper.key}: {', '.join(paper.tags) or '(no tags)'}")
    echo(f"{'untagged' if remove else 'tagged'} {_count(len(done), 'paper')}" + (f" ({len(papers) - len(done)} unchanged)" if len(done) < len(papers) else ""))


def rate(key, n) -> None:
    """The body of ``readinglist rate`` (see :mod:`.reading` for its options)."""
    paper = state.store.rate(key, n or None)
    echo(f"{paper.key}: rating {paper.rating or '-'}")


def priority(key, n) -> None:
    """The body of ``readinglist priority`` (see :mod:`.reading` for its options)."""
    paper = state.store.set_priority(key, n or None)
    echo(f"{paper.key}: priority {paper.priority or '-'}")
