"""The one tokenizer for LaTeX/Markdown-bearing text, and white-space normalisation (see the package docstring for the recognition rules)."""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------------------------
# whitespace

#: Invisible characters that are deleted outright (zero-width spaces/joiners, BOM, soft hyphen).
_INVISIBLE_RE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")


def normalize_space(s: str) -> str:
    """Collapse every run of whitespace (tabs, newlines, NBSP, thin and other Unicode spaces)
    into one ASCII space, strip both ends, and delete zero-width characters, BOMs and soft
    hyphens. Idempotent."""
    if s.isprintable() and "  " not in s and s[:1] != " " and s[-1:] != " ":
        return s  # already normal (tabs, newlines, NBSP, zero-width chars are not printable)
    if not s.isascii() and _INVISIBLE_RE.search(s):
        s = _INVISIBLE_RE.sub("", s)
    return " ".join(s.split())


# ---------------------------------------------------------------------------------------------
# tokenizer

# Token kinds. A token is a tuple whose first item is one of these.
TEXT = "text"  # (TEXT, str)            plain run, passed through (renderers escape it)
MATH = "math"  # (MATH, latex)          inline or display math, delimiters removed
FMT = "fmt"  # (FMT, name, tokens)    \emph{..}, \textbf{..}, ... with a parsed argument
MACRO = "macro"  # (MACRO, name, raw)   any other control sequence with its arguments
ESC = "esc"  # (ESC, char)            \% \& \_ ... (a literal character); "\\ " and "\\," -> " "
QUOTE = "quote"  # (QUOTE, char)        `` '' ` as curly quotes
GROUP = "group"  # (GROUP, tokens)      a balanced {...}
EMPH = "emph"  # (EMPH, level, tokens)  Markdown emphasis, level 1 (*x*) or 2 (**x**)
CODE = "code"  # (CODE, str)            Markdown `code` span

#: Text-formatting commands whose single braced argument is parsed as text.
_FORMAT_COMMANDS = frozenset(
    "emph textit textbf textsc texttt textsf textrm textsl textup textmd textnormal underline "
    "text mbox uline".split()
)
ITALIC = frozenset(("emph", "textit", "textsl"))
BOLD = frozenset(("textbf",))
MONO = frozenset(("texttt",))
#: Accent commands made of one punctuation character: take the next character or group.
_ACCENT_PUNCT = frozenset("'`^\"~=.")
#: Accent commands with a letter name: take the next group, or a letter after optional spaces.
_ACCENT_LETTER = frozenset("c v u H r d b t k".split())
#: Spacing commands that become a plain space / nothing.
_SPACE_ESC = {" ": " ", ",": " ", ";": " ", ":": " ", "!": "", "-": "", "/": "", "\\": " ", "@": ""}

SPECIAL = re.compile(r"[\\${}*_`']")
NAME = re.compile(r"[A-Za-z]+")
BRACE_SCAN = re.compile(r"\\.|[{}]", re.S)
_BRACE_CHARS = re.compile(r"[\\{}]")
_DOLLAR_SCAN = re.compile(r"\\.|\$", re.S)
_STAR_RUN = re.compile(r"\*+")
_UNDER_RUN = re.compile(r"_+")
_CLOSE_QUOTE = re.compile(r"'(?![A-Za-z0-9'])")


#: Deepest nesting of groups, formatting commands and emphasis that is parsed; what lies deeper
#: stays one plain-text token (so every renderer's recursion is bounded, whatever the input).
MAX_DEPTH = 50


class _Scan:
    """Per-string tables that keep tokenizing linear in the length of the input.

    ``braces``: the ``}`` closing each ``{`` (one pass with a stack, computed on first need).
    ``misses``: for a search that found nothing up to ``end``, the earliest start it failed
    from, so the same search from a later start is answered at once (unclosed ``\\(``,
    emphasis openers without closers, backticks without a closing quote)."""

    __slots__ = ("s", "braces", "misses", "depth")

    def __init__(self, s: str):
        self.s = s
        self.braces: dict[int, int] | None = None
        self.misses: dict[tuple, int] = {}
        self.depth = 0

    def brace_table(self) -> dict[int, int]:
        if self.braces is None:
            table: dict[int, int] = {}
            stack: list[int] = []
            s = self.s
            escaped = -1  # the character after a backslash: what _BRACE_SCAN's ``\\.`` skips
            for m in _BRACE_CHARS.finditer(s):  # a class scans faster than that alternation
                i = m.start()
                if i == escaped:
                    continue
                c = s[i]
                if c == "\\":
                    escaped = i + 1
                elif c == "{":
                    stack.append(i)
                elif stack:
                    table[stack.pop()] = i
            for i in stack:
                table[i] = -1
            self.braces = table
        return self.braces

    def missed(self, what: tuple, start: int) -> bool:
        """True when a search for ``what`` (which includes its end) already failed from ``start`` or earlier."""
        failed = self.misses.get(what)
        return failed is not None and failed <= start

    def miss(self, what: tuple, start: int) -> None:
        failed = self.misses.get(what)
        if failed is None or start < failed:
            self.misses[what] = start


_scan = _Scan("")


def match_brace(s: str, i: int, end: int) -> int:
    """Index of the ``}`` closing the ``{`` at ``i`` (escaped braces skipped), or -1.

    Answered from the string's brace table (linear once for the whole string); a ``{`` the
    table does not know (reached inside an escape) is scanned for as before."""
    scan = _scan if _scan.s is s else None
    if scan is not None:
        close = scan.brace_table().get(i)
        if close is not None:
            return close if close < end else -1
    depth = 0
    for m in BRACE_SCAN.finditer(s, i, end):
        c = m.group()
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def _find_unescaped(s: str, target: str, i: int, end: int) -> int:
    """Index of the next ``target`` (``\\)``-style two-char string) at or after ``i``, skipping
    other escapes; -1 when there is none."""
    while True:
        k = s.find(target, i, end)
        if k < 0:
            return -1
        # count the backslashes in front of it: an odd run means target[0] is escaped
        if target[0] == "\\":
            return k
        n = 0
        while k - n - 1 >= i and s[k - n - 1] == "\\":
            n += 1
        if n % 2 == 0:
            return k
        i = k + 1


def _dollar_math(s: str, j: int, end: int):
    """``(content, next_index)`` if the ``$`` at ``j`` opens math, else None."""
    if s.startswith("$$", j, end):
        k = _find_unescaped(s, "$$", j + 2, end)
        if k > j + 2 and s[j + 2 : k].strip():
            return s[j + 2 : k].strip(), k + 2
        return None
    if j + 1 >= end or s[j + 1].isspace():
        return None
    for m in _DOLLAR_SCAN.finditer(s, j + 1, end):
        if m.group() == "$":
            k = m.start()
            if s[k - 1].isspace():
                return None
            return s[j + 1 : k], k + 1
    return None


def _flanks(s: str, j: int, n: int, end: int, start: int, char: str) -> bool:
    """Can the delimiter run s[j:j+n] open emphasis?"""
    after = s[j + n] if j + n < end else " "
    if after.isspace():
        return False
    if char == "_":
        before = s[j - 1] if j > start else " "
        if before.isalnum():
            return False
    return True


def _emphasis(s: str, j: int, end: int, start: int, char: str):
    """``(token, next_index)`` for Markdown emphasis opening at ``j``, else ``(None, run_end)``."""
    run = _STAR_RUN if char == "*" else _UNDER_RUN
    m = run.match(s, j, end)
    assert m is not None  # called where the run starts
    n = m.end() - j
    if n > 2 or not _flanks(s, j, n, end, start, char):
        return None, m.end()
    what = ("emph", char, n, end)
    if _scan.missed(what, m.end()):
        return None, m.end()
    for c in run.finditer(s, m.end(), end):
        if c.end() - c.start() != n:
            continue
        k = c.start()
        if s[k - 1].isspace():
            continue
        if char == "_" and c.end() < end and s[c.end()].isalnum():
            continue
        if k == m.end():
            return None, m.end()
        return (EMPH, n, _parse(s, m.end(), k)), c.end()
    _scan.miss(what, m.end())
    return None, m.end()


def _macro(s: str, j: int, end: int):
    """Token for the control sequence at ``j`` (``s[j] == '\\'``) and the index after it, or
    ``(None, j + 1)`` when the backslash is a literal character."""
    if j + 1 >= end:
        return None, j + 1
    c = s[j + 1]
    if c == "(" or c == "[":
        closer = "\\)" if c == "(" else "\\]"
        what = ("find", closer, end)
        k = -1 if _scan.missed(what, j + 2) else s.find(closer, j + 2, end)
        if k < 0:
            _scan.miss(what, j + 2)
        if k >= 0 and s[j + 2 : k].strip():
            return (MATH, s[j + 2 : k].strip()), k + 2
        return (ESC, c), j + 2
    if c in _ACCENT_PUNCT:
        k = j + 2
        if k < end and s[k] == "{":
            close = match_brace(s, k, end)
            if close > 0:
                return (MACRO, c, s[j : close + 1]), close + 1
        elif k < end and s[k].isalpha():
            return (MACRO, c, s[j : k + 1]), k + 1
        elif s.startswith(("\\i", "\\j"), k) and not (k + 2 < end and s[k + 2].isalpha()):
            p = k + 2  # \'\i: an accent on a dotless i (BibTeX names); \i eats the spaces after it
            while p < end and s[p] == " ":
                p += 1
            return (MACRO, c, s[j:p]), p
        return (ESC, c), j + 2
    if c in _SPACE_ESC:
        return (ESC, _SPACE_ESC[c]), j + 2
    if c.isascii() and not c.isalnum() and not c.isspace():
        return (ESC, c), j + 2
    m = NAME.match(s, j + 1, end)
    if not m:
        return None, j + 1
    name = m.group()
    k = m.end()
    if name in _FORMAT_COMMANDS:
        if k < end and s[k] == "{":
            close = match_brace(s, k, end)
            if close > 0:
                return (FMT, name, _parse(s, k + 1, close)), close + 1
        return (MACRO, name, s[j:k]), k
    if name in _ACCENT_LETTER:
        p = k
        while p < end and s[p] == " ":
            p += 1
        if p < end and s[p] == "{":
            close = match_brace(s, p, end)
            if close > 0:
                return (MACRO, name, s[j : close + 1]), close + 1
        elif p > k and p < end and s[p].isalpha():
            return (MACRO, name, s[j : p + 1]), p + 1
        return (MACRO, name, s[j:k]), k
    # generic: take directly adjacent brace groups as arguments (at most 9, as TeX: more are
    # groups of their own, so that no macro hands the LaTeX converter an unbounded span)
    for _ in range(9):
        if k >= end or s[k] != "{":
            break
        close = match_brace(s, k, end)
        if close < 0:
            break
        k = close + 1
    return (MACRO, name, s[j:k]), k


def _special(s: str, j: int, end: int, start: int):
    c = s[j]
    if c == "\\":
        return _macro(s, j, end)
    if c == "$":
        found = _dollar_math(s, j, end)
        if found:
            return (MATH, found[0]), found[1]
        return None, j + 1
    if c == "{":
        close = match_brace(s, j, end)
        if close > 0:
            return (GROUP, _parse(s, j + 1, close)), close + 1
        return None, j + 1
    if c == "*" or c == "_":
        return _emphasis(s, j, end, start, c)
    if c == "`":
        if s.startswith("``", j, end):
            return (QUOTE, "\u201c"), j + 2
        k = s.find("`", j + 1, end)
        what = ("closequote", end)
        q = None if _scan.missed(what, j + 1) else _CLOSE_QUOTE.search(s, j + 1, end)
        if q is None:
            _scan.miss(what, j + 1)
        if q and (k < 0 or q.start() < k):  # `quoted' in LaTeX style
            return (QUOTE, "\u2018"), j + 1
        if k > j + 1:
            return (CODE, s[j + 1 : k]), k + 1
        return (QUOTE, "\u2018"), j + 1
    if c == "'":
        if s.startswith("''", j, end):
            return (QUOTE, "\u201d"), j + 2
        if j > start and s[j - 1] != "`" and (j + 1 == end or not s[j + 1].isalnum()):
            # a closing single quote after an opening backtick earlier in this run (and no
            # other quote in between: looked for back to the previous quote only, so that a
            # run of quotes costs linear time)
            quote = s.rfind("'", start, j)
            b = s.rfind("`", max(start, quote + 1), j)
            if b >= 0 and (b == start or s[b - 1] not in "`\\"):  # \`a is an accent
                return (QUOTE, "\u2019"), j + 1
    return None, j + 1


def _parse(s: str, start: int, end: int) -> list:
    scan = _scan
    if scan.depth >= MAX_DEPTH:  # nested too deep: the rest stays as written, one text token
        return [(TEXT, s[start:end])] if start < end else []
    scan.depth += 1
    try:
        return _parse_run(s, start, end)
    finally:
        scan.depth -= 1


def _parse_run(s: str, start: int, end: int) -> list:
    out: list = []
    i = text_start = start
    search = SPECIAL.search
    while True:
        m = search(s, i, end)
        if m is None:
            break
        j = m.start()
        tok, nxt = _special(s, j, end, start)
        if tok is None:
            i = nxt
            continue
        if j > text_start:
            out.append((TEXT, s[text_start:j]))
        out.append(tok)
        i = text_start = nxt
    if text_start < end:
        out.append((TEXT, s[text_start:end]))
    return out


def tokenize(s: str) -> list:
    """Split ``s`` into tokens: tuples whose first item is one of ``TEXT``, ``MATH``, ``FMT``,
    ``MACRO``, ``ESC``, ``QUOTE``, ``GROUP``, ``EMPH``, ``CODE`` (see the module docstring for
    the recognition rules). Every character of ``s`` ends up in exactly one token; never raises.

    Linear in ``len(s)``; groups nested deeper than MAX_DEPTH stay one text token."""
    global _scan
    outer = _scan
    _scan = _Scan(s)
    try:
        return _parse(s, 0, len(s))
    finally:
        _scan = outer
