"""Text -> Markdown that renders on GitHub inside a list item or <details>."""

from __future__ import annotations

import re

from .plain import macro_plain, math_plain, render_plain
from .tokens import BOLD, ITALIC, MONO, CODE, EMPH, ESC, FMT, GROUP, MATH, QUOTE, TEXT, normalize_space, tokenize

# ---------------------------------------------------------------------------------------------
# Markdown (GitHub)

_MD_SPECIAL = re.compile(r"[\\`*_\[\]<>|#$~]|&(?=#?\w+;)")
_MD_ESCAPES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
_MD_LEADING = re.compile(r"^(?:([-+])|(\d{1,9})([.)]))(?=\s|$)")
_MD_MATH_FIX = str.maketrans({"|": "\\vert ", "<": "\\lt ", ">": "\\gt "})


def _md_sub(m: re.Match) -> str:
    c = m.group()
    return _MD_ESCAPES.get(c) or "\\" + c


#: Any character _MD_SPECIAL may match: one character class is scanned faster than the
#: alternation, and most runs hold none of them.
_MD_ANY = re.compile(r"[\\`*_\[\]<>|#$~&]")


def escape_markdown(s: str) -> str:
    """Escape a plain run so GitHub shows it as text (no emphasis, links, HTML, tables)."""
    return _MD_SPECIAL.sub(_md_sub, s) if _MD_ANY.search(s) else s


def _md_wrap(inner: str, mark: str) -> str:
    """``mark`` + inner + ``mark`` with surrounding spaces moved outside (``* x *`` is no emphasis)."""
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    return lead + mark + core + mark + trail


def _md_code(s: str) -> str:
    """``s`` as an inline code span, fenced by one backtick more than its longest run."""
    s = normalize_space(s)
    if not s:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if "`" in s else ""
    return fence + pad + s + pad + fence


def _markdown_into(tokens, parts: list) -> None:
    for t in tokens:
        kind = t[0]
        if kind is TEXT:
            parts.append(escape_markdown(t[1]))
        elif kind is MATH:
            # shown as Unicode text (ℓ₁, θ ≥ 0, M²LE): readable everywhere, and nothing in it
            # is left for a Markdown renderer without math support to read as a link or HTML
            parts.append(escape_markdown(" ".join(math_plain(t[1], scripts=True).split())))
        elif kind is FMT:
            name = t[1]
            if name in MONO:
                parts.append(_md_code(_render_plain_str(t[2])))
                continue
            inner = _render_markdown(t[2])
            if name in ITALIC:
                parts.append(_md_wrap(inner, "*"))
            elif name in BOLD:
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
            parts.append(escape_markdown(macro_plain(t[1], t[2])))


def _render_plain_str(tokens) -> str:
    parts: list = []
    render_plain(tokens, parts)
    return "".join(parts)


def _render_markdown(tokens) -> str:
    parts: list = []
    _markdown_into(tokens, parts)
    return "".join(parts)


def to_markdown(s: str) -> str:
    """Markdown for GitHub, safe inside a list item, a table cell or ``<details>``.

    Math is shown as Unicode text (``$\\ell_1$`` -> ``ℓ₁``, ``$\\theta \\geq 0$`` -> ``θ≥ 0``),
    escaped like any text. ``\\emph{x}`` -> ``*x*``,
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


# ---------------------------------------------------------------------------------------------
# the reader's notes: their own Markdown, made inert

_SAFE_URL = re.compile(r"^(?:https?:|mailto:|#|/|\.|[^:]*$)", re.I)
_INLINE_LINK = re.compile(r"(\]\(\s*)(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)")
_REF_DEF = re.compile(r"^( {0,3}\[[^\]\n]+\]:[ \t]*)(\S+)", re.M)
_ENTITY = re.compile(r"&(?=#?\w+;)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")


def _safe_url(url: str) -> str:
    target = re.sub(r"[\s\x00-\x1f\\<>]", "", url)
    return url if _SAFE_URL.match(target) else "#"


def _inert(text: str) -> str:
    """Markdown outside code: raw HTML and entities escaped, unsafe link targets replaced."""
    text = _ENTITY.sub("&amp;", text).replace("<", "&lt;")
    text = _INLINE_LINK.sub(lambda m: m.group(1) + _safe_url(m.group(2)), text)
    return _REF_DEF.sub(lambda m: m.group(1) + _safe_url(m.group(2)), text)


def _inert_paragraph(text: str) -> str:
    """A paragraph with its code spans kept as written (they are inert) and the rest made inert.
    Code spans pair backtick runs of equal length, as CommonMark does, across the paragraph's lines."""
    out: list[str] = []
    pos = 0
    runs = list(_BACKTICKS.finditer(text))
    i = 0
    while i < len(runs):
        opener = runs[i]
        closer = next((r for r in runs[i + 1 :] if len(r.group()) == len(opener.group())), None)
        if closer is None:
            i += 1
            continue
        out.append(_inert(text[pos : opener.start()]))
        out.append(text[opener.start() : closer.end()])
        pos = closer.end()
        i = runs.index(closer) + 1
    out.append(_inert(text[pos:]))
    return "".join(out)


def note_markdown(text: str) -> str:
    """The reader's notes as the Markdown they wrote (headings, lists, emphasis, links, code),
    made inert: raw HTML shows as text (``<`` escaped outside code), character references
    cannot spell a URL scheme, and a link or image whose target is not http(s), mailto or
    relative (``javascript:``, ``data:``, ``vbscript:``) points to ``#`` instead. Code spans and
    fenced code blocks are kept as written (renderers show them literally)."""
    lines = text.strip().replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    paragraph: list[str] = []
    fence = ""

    def flush() -> None:
        if paragraph:
            out.append(_inert_paragraph("\n".join(paragraph)))
            paragraph.clear()

    for line in lines:
        if fence:
            out.append(line)
            m = _FENCE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)) :].strip():
                fence = ""
            continue
        m = _FENCE.match(line)
        if m:
            flush()
            fence = m.group(1)
            info = line[m.end() :]
            out.append(line[: m.end()] + info.replace("<", "&lt;").replace("`", ""))
            continue
        if not line.strip():
            flush()
            out.append("")
        else:
            paragraph.append(line)
    flush()
    if fence:
        out.append(fence)  # close a fence left open, so it cannot swallow what follows
    return "\n".join(out)
