"""Text -> Markdown that renders on GitHub inside a list item or <details>."""

from __future__ import annotations

import re

from .plain import _macro_plain, _render_plain
from .tokens import _BOLD, _ITALIC, _MONO, CODE, EMPH, ESC, FMT, GROUP, MATH, QUOTE, TEXT, normalize_space, tokenize

# ---------------------------------------------------------------------------------------------
# Markdown (GitHub)

_MD_SPECIAL = re.compile(r"[\\`*_\[\]<>|#$~]|&(?=#?\w+;)")
_MD_ESCAPES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
_MD_LEADING = re.compile(r"^(?:([-+])|(\d{1,9})([.)]))(?=\s|$)")
_MD_MATH_FIX = str.maketrans({"|": "\\vert ", "<": "\\lt ", ">": "\\gt "})


def _md_sub(m: re.Match) -> str:
    c = m.group()
    return _MD_ESCAPES.get(c) or "\\" + c


def escape_markdown(s: str) -> str:
    """Escape a plain run so GitHub shows it as text (no emphasis, links, HTML, tables)."""
    return _MD_SPECIAL.sub(_md_sub, s) if _MD_SPECIAL.search(s) else s


def _md_wrap(inner: str, mark: str) -> str:
    """``mark`` + inner + ``mark`` with surrounding spaces moved outside (``* x *`` is no emphasis)."""
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    return lead + mark + core + mark + trail


def _md_code(s: str) -> str:
    s = normalize_space(s)
    if not s:
        return ""
    fence = "``" if "`" in s else "`"
    pad = " " if "`" in s else ""
    return fence + pad + s + pad + fence


def _markdown_into(tokens, parts: list) -> None:
    n = len(tokens)
    for i, t in enumerate(tokens):
        kind = t[0]
        if kind is TEXT:
            parts.append(escape_markdown(t[1]))
        elif kind is MATH:
            body = normalize_space(t[1]).translate(_MD_MATH_FIX)
            if not body:
                continue
            nxt = tokens[i + 1] if i + 1 < n else None
            glued = nxt is not None and nxt[0] is TEXT and nxt[1][:1].isalnum()
            # GitHub's $`...`$ form when a letter or digit follows the closing dollar
            parts.append("$`" + body + "`$" if glued else "$" + body + "$")
        elif kind is FMT:
            name = t[1]
            if name in _MONO:
                parts.append(_md_code(_render_plain_str(t[2])))
                continue
            inner = _render_markdown(t[2])
            if name in _ITALIC:
                parts.append(_md_wrap(inner, "*"))
            elif name in _BOLD:
                parts.append(_md_wrap(inner, "**"))
            else:
                parts.append(inner)
        elif kind is EMPH:
            parts.append(_md_wrap(_render_markdown(t[2]), "*" * t[1]))
        elif kind is GROUP:
            _markdown_into(t[1], parts)
        elif kind is ESC:
            parts.append(escape_markdown(t[1]))
        elif kind is QUOTE:
            parts.append(t[1])
        elif kind is CODE:
            parts.append(_md_code(t[1]))
        else:  # MACRO
            parts.append(escape_markdown(_macro_plain(t[1], t[2])))


def _render_plain_str(tokens) -> str:
    parts: list = []
    _render_plain(tokens, parts)
    return "".join(parts)


def _render_markdown(tokens) -> str:
    parts: list = []
    _markdown_into(tokens, parts)
    return "".join(parts)


def to_markdown(s: str) -> str:
    """Markdown for GitHub, safe inside a list item, a table cell or ``<details>``.

    Math stays ``$...$`` (``\\(..\\)``, ``\\[..\\]``, ``$$..$$`` become ``$..$``; GitHub's
    ``$`...`$`` form is used when a letter or digit follows the closing dollar; ``|``, ``<``,
    ``>`` inside math become ``\\vert``, ``\\lt``, ``\\gt``). ``\\emph{x}`` -> ``*x*``,
    ``\\textbf{x}`` -> ``**x**``, ``\\texttt{x}`` and ```x``` -> code, LaTeX quotes -> curly
    quotes, source Markdown emphasis kept (``__x__`` written as ``**x**``), other LaTeX commands
    replaced by their plain reading. In ordinary text ``\\ ` * _ [ ] | # $ ~`` are
    backslash-escaped, ``<``/``>`` become ``&lt;``/``&gt;``, ``&`` becomes ``&amp;`` where it
    would start an entity, and a leading ``-``, ``+`` or ``1.`` is escaped so the text never
    starts a list. One line out; never raises."""
    s = normalize_space(s)
    if not s:
        return s
    out = _render_markdown(tokenize(s))
    if "  " in out or out[:1].isspace() or out[-1:].isspace():
        out = " ".join(out.split())
    m = _MD_LEADING.match(out)
    if m:
        out = ("\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3)) + out[m.end() :]
    return out
