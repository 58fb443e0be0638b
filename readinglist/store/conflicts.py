"""Files left with git's conflict markers: what a reader says instead of "not valid TOML".

A merge that could not be made (the merge driver's true conflicts, or git's own line merge when
the driver is not set up: ``readinglist git-setup``) leaves blocks like::

    <<<<<<< ours
    rating = 4
    =======
    rating = 5
    >>>>>>> theirs

:func:`describe` names the file, the first block's line, the paper (or list) and the fields
each block holds, in one line; the paper and list readers raise it instead of the TOML error.
"""

from __future__ import annotations

import os
import re

_START, _BASE, _MID, _END = "<" * 7, "|" * 7, "=" * 7, ">" * 7
_MARKER = re.compile(r"^(?:<{7}|>{7})(?: |$)", re.M)
_ASSIGN = re.compile(r'^[ \t]*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)[ \t]*=[ \t]*(.*)$')
_TABLE = re.compile(r"^[ \t]*\[\[?[ \t]*([A-Za-z0-9_.-]+)[ \t]*\]\]?[ \t]*(?:#.*)?$")
_ENTRY_KEY = re.compile(r'\bkey[ \t]*=[ \t]*"((?:[^"\\]|\\.)*)"')
_SECTION_TITLE = re.compile(r'^[ \t]*title[ \t]*=[ \t]*"((?:[^"\\]|\\.)*)"')


def has_markers(text: str) -> bool:
    """Whether ``text`` has a line that opens or closes a git conflict block."""
    return ("<" * 7 in text or ">" * 7 in text) and _MARKER.search(text) is not None


def _blocks(lines: list[str]):
    """(first line number, ours lines, theirs lines, table, section title) of each block."""
    table = section = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(_START):
            start, ours, theirs, part = i + 1, [], [], "ours"
            i += 1
            while i < len(lines) and not lines[i].startswith(_END):
                if lines[i].startswith(_BASE):
                    part = "base"
                elif lines[i].rstrip("\n") == _MID:
                    part = "theirs"
                elif part == "ours":
                    ours.append(lines[i])
                elif part == "theirs":
                    theirs.append(lines[i])
                i += 1
            yield start, ours, theirs, table, section
        else:
            m = _TABLE.match(line)
            if m:
                table, section = m.group(1), None
            elif table == "sections":
                t = _SECTION_TITLE.match(line)
                if t:
                    section = t.group(1)
        i += 1


def _value(lines: list[str], name: str) -> str | None:
    for line in lines:
        m = _ASSIGN.match(line)
        if m and m.group(1).strip('"') == name:
            v = m.group(2).strip()
            return v if len(v) <= 30 and not v.startswith(("'''", '"""', "[")) else None
    return None


def _paper_fields(ours: list[str], theirs: list[str], table: str | None) -> list[str]:
    names = list(dict.fromkeys(m.group(1).strip('"') for line in ours + theirs if (m := _ASSIGN.match(line))))
    where = f"[{table}] " if table and table != "sources" else ""
    out = []
    for name in names or ["(lines)"]:
        a, b = _value(ours, name), _value(theirs, name)
        shown = f" ({a or 'none'} or {b or 'none'})" if (a or b) and name in ("status", "rating", "priority", "year") else ""
        out.append(f"{where}{name}{shown}")
    return out


def _list_fields(ours: list[str], theirs: list[str], table: str | None, section: str | None) -> list[str]:
    keys = list(dict.fromkeys(m.group(1) for line in ours + theirs for m in _ENTRY_KEY.finditer(line)))
    if keys:
        where = f" in section {section!r}" if section else ""
        return [f"the entry of {k}{where}" for k in keys]
    names = list(dict.fromkeys(m.group(1).strip('"') for line in ours + theirs if (m := _ASSIGN.match(line))))
    if table == "sections":
        return [f"the {'title' if n == 'title' else n} of section {section!r}" if section else f"a section's {n}" for n in names or ["lines"]]
    return names or ["(lines)"]


def describe(text: str, path: str | os.PathLike, *, kind: str = "paper") -> str | None:
    """One line naming the conflict in ``text`` (a paper or list file), or None without one:
    ``papers/x.toml:12: unresolved git merge conflict in paper x: [state] rating (4 or 5); ...``."""
    if not has_markers(text):
        return None
    lines = text.splitlines(keepends=True)
    blocks = list(_blocks(lines))
    if not blocks:
        return None
    fields: list[str] = []
    for _, ours, theirs, table, section in blocks:
        fields += _paper_fields(ours, theirs, table) if kind == "paper" else _list_fields(ours, theirs, table, section)
    stem = os.path.basename(str(path)).removesuffix(".toml")
    if kind == "paper":
        outside = [line for line in lines if not line.startswith((_START, _MID, _END, _BASE))]
        key = next((m.group(1) for line in outside if (m := re.match(r'^key[ \t]*=[ \t]*"([^"\\]*)"', line))), stem)
        what = f"paper {key}"
    else:
        what = f"list {stem}"
    return (
        f"{path}:{blocks[0][0]}: unresolved git merge conflict in {what}: {', '.join(dict.fromkeys(fields))}; "
        "keep one side of each <<<<<<< ======= >>>>>>> block, delete the marker lines, then git add the file"
    )
