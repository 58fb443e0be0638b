"""What the CLI shows on a terminal: the paper table, colour, wrapping and the pager.

Pure functions over strings (no rich, no typer), so that the module costs nothing at start-up. Widths are terminal cells (East Asian
wide characters count 2), so a line never wraps on the screen.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Callable, Sequence

ELLIPSIS = "…"
SEP = "  "

# ANSI styles; the status column is coloured like gh's state column
BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
STATUS_STYLE = {"unread": "", "reading": "\x1b[33m", "read": "\x1b[32m", "skipped": "\x1b[2m"}


def use_color(mode: str, stream=None) -> bool:
    """``--color auto|always|never``: auto means a terminal and no ``NO_COLOR`` (no-color.org)."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    stream = stream or sys.stdout
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def width(stream=None) -> int:
    """The terminal's width in cells (``COLUMNS`` first, 80 when unknown)."""
    return shutil.get_terminal_size((80, 24)).columns


def height() -> int:
    return shutil.get_terminal_size((80, 24)).lines


def clean(text: str) -> str:
    """One line of text safe to print: control, bidi and zero-width characters (ESC, a tab or a
    line break included) shown as escapes (:func:`~readinglist.text.controls.escape_controls`)."""
    from .text.controls import escape_controls

    return escape_controls(text, keep="")


def cells(text: str) -> int:
    """Terminal cells ``text`` takes (ASCII fast path)."""
    if text.isascii():
        return len(text)
    n = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return n


def fit(text: str, n: int) -> str:
    """``text`` cut to at most ``n`` cells, ending in "…" when cut; padded to ``n`` cells."""
    w = cells(text)
    if w <= n:
        return text + " " * (n - w)
    if n <= 0:
        return ""
    out, used = [], 0
    for ch in text:
        c = 0 if unicodedata.combining(ch) else (2 if not ch.isascii() and unicodedata.east_asian_width(ch) in "WF" else 1)
        if used + c > n - 1:
            break
        out.append(ch)
        used += c
    cut = "".join(out).rstrip(" ,;")
    return cut + ELLIPSIS + " " * (n - cells(cut) - 1)


class Column:
    """One column of :func:`table` (a plain class: ``show``, which only wraps text, loads this
    module without the dataclass machinery)."""

    __slots__ = ("name", "values", "fixed", "max", "drop_order", "style")

    def __init__(
        self,
        name: str,
        values: list[str],
        fixed: bool = False,  # never cut (the key, the status)
        max: int | None = None,  # cap for columns that are cut ("…")
        drop_order: int = 0,  # dropped first when the terminal is narrow: higher goes first
        style: Callable[[str], str] | None = None,
    ) -> None:
        self.name, self.values, self.fixed, self.max, self.drop_order, self.style = name, values, fixed, max, drop_order, style


#: The title keeps at least this many cells before other columns are dropped for it.
TITLE_MIN = 24


def table(columns: Sequence[Column], last: Column, *, total_width: int, color: bool = False) -> list[str]:
    """Lines of a table that fits ``total_width`` cells, one line per row, header first.

    Columns whose every value is empty are left out. ``last`` (the title) takes the rest of the
    line and is cut with "…"; when it would get fewer than TITLE_MIN cells, the other columns
    with a ``drop_order`` are dropped: first one that has the same value on every row, then the
    highest ``drop_order`` first. Fixed columns (the key) are never cut.
    """
    cols = [c for c in columns if any(c.values)]
    widths = {c.name: min(max(cells(c.name), *(cells(v) for v in c.values)), c.max or 10**6) for c in cols}

    def rest() -> int:
        return total_width - sum(widths[c.name] for c in cols) - len(SEP) * len(cols)

    # a column with the same value on every row (one venue) tells least: it goes first
    droppable = sorted((c for c in cols if c.drop_order), key=lambda c: (len(c.values) < 2 or len(set(c.values)) > 1, -c.drop_order))
    natural = max([cells(last.name), *(cells(v) for v in last.values)])
    while rest() < min(TITLE_MIN, natural) and droppable:
        cols.remove(droppable.pop(0))
    title_w = max(rest(), 0)
    if title_w < min(TITLE_MIN, natural):  # keys alone fill the line: no title column
        title_w = 0
    title_w = min(title_w, natural)
    lines = []
    header = SEP.join(fit(c.name.upper(), widths[c.name]) for c in cols)
    if title_w:
        header += SEP + last.name.upper()
    lines.append(f"{BOLD}{header.rstrip()}{RESET}" if color else header.rstrip())
    for i in range(len(last.values)):
        parts = []
        for c in cols:
            text = fit(c.values[i], widths[c.name]) if not c.fixed else c.values[i] + " " * (widths[c.name] - cells(c.values[i]))
            if color and c.style:
                text = c.style(text)
            parts.append(text)
        if title_w:
            parts.append(fit(last.values[i], title_w))
        lines.append(SEP.join(parts).rstrip())
    return lines


def paper_table(papers, *, total_width: int, color: bool) -> list[str]:
    """The ``list`` / ``search`` / ``next`` table: key, status, venue, pri, rating, tags, title."""
    recs = [p.record for p in papers]

    def status_style(text: str) -> str:
        style = STATUS_STYLE.get(text.strip(), "")
        return f"{style}{text}{RESET}" if style else text

    columns = [
        Column("key", [clean(r.key) for r in recs], fixed=True),
        Column("status", [p.status for p in papers], fixed=True, style=status_style),
        Column("venue", [clean(f"{r.venue or ''} {r.year or ''}".strip()) for r in recs], max=16, drop_order=2),
        Column("pri", [str(p.priority or "") for p in papers], drop_order=3),
        Column("rating", ["★" * (p.rating or 0) for p in papers], drop_order=4),
        Column("tags", [clean(", ".join(p.tags)) for p in papers], max=24, drop_order=5),
    ]
    title = Column("title", [clean(r.title) for r in recs])
    return table(columns, title, total_width=total_width, color=color)


def wrap(text: str, n: int, indent: str = "") -> str:
    """``text`` wrapped at word boundaries to ``n`` cells (paragraphs kept; long words never broken)."""
    import textwrap

    paras = [p for p in re.split(r"\n\s*\n", text.strip())]
    return "\n\n".join(
        textwrap.fill(" ".join(p.split()), n, initial_indent=indent, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        for p in paras
    )


def page(text: str) -> None:
    """Write ``text`` to stdout, through ``$PAGER`` (default ``less -FRX``, as git does) when stdout
    is a terminal and the text is taller than it. ``PAGER=cat`` or an empty ``PAGER`` turn it off."""
    out = sys.stdout
    if not out.isatty() or text.count("\n") < height() - 1:
        out.write(text)
        return
    pager = os.environ.get("READINGLIST_PAGER", os.environ.get("PAGER", "less -FRX"))
    if not pager.strip() or pager.strip() == "cat":
        out.write(text)
        return
    import subprocess

    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    env.setdefault("LV", "-c")
    out.flush()
    try:
        proc = subprocess.Popen(pager, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:
        out.write(text)
        return
    try:
        assert proc.stdin is not None
        proc.stdin.write(text.encode(out.encoding or "utf-8", "replace"))
        proc.stdin.close()
    except BrokenPipeError:  # the reader quit the pager early
        pass
    while True:
        try:
            proc.wait()
            break
        except KeyboardInterrupt:  # as git: ^C goes to the pager, which decides
            continue
