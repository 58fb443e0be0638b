"""Unicode/LaTeX text -> pure-ASCII LaTeX that survives BibTeX/biber and pdflatex.

Target: a field value that BibTeX, biber and pdflatex with ``\\documentclass{article}`` and its
default OT1 fonts all accept. So: pure ASCII, balanced braces, no TS1 (textcomp) symbols, no
amsmath, ``<``, ``>`` and ``|`` only in math (OT1 text renders them as ¡, ¿ and an em dash). The
commands and characters allowed are in latexvocab; one character or a run of text as LaTeX is
in bibchars; plain text as BibTeX is in literal."""

from __future__ import annotations

import re
from functools import lru_cache

from .bibchars import ENDS_CONTROL_WORD, MATH_ESCAPES, TEXT_ESCAPES, char_bibtex, char_latex, escape_math, escape_text
from .plain import latex_plain, macro_plain
from .latexvocab import FMT_KEEP, MATH_ARG_COMMANDS, MATH_COMMANDS, MATH_DROP, MATH_REWRITE, MATH_SPECIAL, TEXT_COMMANDS
from .tokens import CODE, EMPH, ESC, FMT, GROUP, MATH, QUOTE, TEXT, BRACE_SCAN, NAME, match_brace, normalize_space, tokenize


ADJACENT_MATH = re.compile(r"(?<!\\)\$\$")

_MATH_TEXT_ARG = {
    "text": None, "textrm": None, "mbox": None, "textnormal": None, "textup": None,
    "textit": "textit", "textbf": "textbf", "emph": "emph", "texttt": "texttt", "textsf": "textsf",
}
_SPACE_AFTER_WORD = re.compile(r"(\\[A-Za-z]+) (?=[_^{}])")

def _brace_pairs(s: str) -> set:
    """Positions of the ``{``/``}`` in ``s`` that pair up (escaped ones skipped)."""
    paired: set = set()
    stack: list = []
    for m in BRACE_SCAN.finditer(s):
        c = m.group()
        if c == "{":
            stack.append(m.start())
        elif c == "}" and stack:
            paired.add(stack.pop())
            paired.add(m.start())
    return paired


class _MathFrame:
    """What a brace level of a math span still waits for."""

    __slots__ = ("owed", "last_script", "want_script", "synthetic")

    def __init__(self, synthetic: bool = False) -> None:
        self.owed = 0  # braced arguments the last command still expects
        self.last_script = ""  # the scripts ("^", "_", "^_") the current nucleus already has
        self.want_script = ""  # "^"/"_" right after the operator, before its argument
        self.synthetic = synthetic  # braces we added around a script argument


def _unknown_math_command(name: str) -> str:
    """A kernel-safe stand-in for a math command a plain article does not know."""
    plain = latex_plain("$\\" + name + "$").strip()
    if plain and plain != "\\" + name:
        pieces = []
        for ch in plain:
            if ch.isascii():
                pieces.append(escape_math(ch))
                continue
            latex = char_latex(ch, True)
            if latex is None:
                break
            pieces.append(latex)
        else:
            return "".join(pieces)
    return "\\mathrm{" + name + "}"


@lru_cache(maxsize=4096)
def _math_bibtex(latex: str) -> str:
    """The body of a math span made safe for a plain article (without the ``$`` around it).

    Commands outside :data:`MATH_COMMANDS` are rewritten or replaced, stray braces become
    ``\\lbrace``/``\\rbrace``, missing arguments (``x^``, ``\\frac{a}``) get ``{}``, double
    scripts (``x^2^3``) are split, ``\\left``/``\\right``/``\\big`` sizing is dropped."""
    if not latex.isascii():
        # characters become their LaTeX first, so ² (^{2}) is seen as a script like any other
        latex = "".join(ch if ch.isascii() else " " + char_bibtex(ch, True) + " " for ch in latex)
    paired = _brace_pairs(latex)
    out: list[str] = []
    stack: list[_MathFrame] = []
    f = _MathFrame()

    def atom(text: str) -> None:
        nonlocal f
        if text[:1].isalpha() and out and ENDS_CONTROL_WORD.search(out[-1]):
            out.append(" ")
        out.append(text)
        if f.owed:  # an argument of the previous command
            f.owed -= 1
            if f.owed:
                return
            # the command with all its arguments is complete: one atom
        if f.synthetic:  # the script argument is complete: close the braces we opened
            out.append("}")
            f = stack.pop()
            atom("")
            return
        if f.want_script:
            f.last_script, f.want_script = f.last_script + f.want_script, ""
        else:
            f.last_script = ""

    def script(op: str) -> None:
        nonlocal f
        if f.want_script:  # x^_ : the first script gets an empty argument
            out.append("{}")
            f.last_script, f.want_script = f.last_script + f.want_script, ""
        if op in f.last_script:  # x^2^3 is a LaTeX error: x^2{}^3
            out.append("{}")
            f.last_script = ""
        out.append(op)
        f.want_script = op
        # a script argument must be one character or a group: brace anything else (x^\mbox{..})
        p = pos
        while p < n and latex[p] == " ":
            p += 1
        nxt = latex[p] if p < n else ""
        if nxt and not (nxt.isascii() and nxt.isalnum()) and not (nxt == "{" and p in paired):
            if nxt == "}" and p in paired:
                return  # settled with {} when the group closes
            out.append("{")
            stack.append(f)
            f = _MathFrame(synthetic=True)

    def prime() -> None:
        # a prime is a superscript: x^2' and x' ' (primes apart) are double superscripts
        if f.want_script:
            out.append("{}")
            f.last_script, f.want_script = f.last_script + f.want_script, ""
        if "^" in f.last_script and out[-1] != "'":
            out.append("{}")
            f.last_script = ""
        out.append("'")
        f.last_script += "^"
        if f.owed:
            f.owed -= 1

    def settle() -> None:
        nonlocal f
        while True:
            if f.want_script:
                out.append("{}")
                f.want_script = ""
            if f.owed:
                out.append("{}" * f.owed)
                f.owed = 0
            if not f.synthetic:
                return
            out.append("}")
            f = stack.pop()
            f.last_script, f.want_script = f.last_script + f.want_script, ""

    pos, n = 0, len(latex)
    while pos < n:
        ch = latex[pos]
        pos += 1
        if ch.isspace():
            out.append(" ")
        elif ch == "\\":
            m = NAME.match(latex, pos)
            if m is None:
                if pos >= n:
                    break
                c = latex[pos]
                pos += 1
                if c in "%&#_$,;:! ":
                    atom("\\" + c)
                elif c in "{}":
                    atom(MATH_ESCAPES[c])
                elif c == "|":
                    atom("\\Vert ")
                elif c in "\\()[]\n\t":
                    out.append(" ")
                elif c == "'":
                    prime()
                elif c.isascii():
                    atom(escape_math(c))
                else:
                    atom(char_bibtex(c, True))
                continue
            name = m.group()
            pos = m.end()
            if name in MATH_DROP:
                if latex.startswith(".", pos):
                    pos += 1  # \left. and \right.
                continue
            name = MATH_REWRITE.get(name, name)
            if name in MATH_SPECIAL:
                atom(MATH_SPECIAL[name])
            elif name in _MATH_TEXT_ARG:
                p = pos
                while p < n and latex[p] == " ":
                    p += 1
                if p < n and latex[p] == "{" and p in paired:
                    close = match_brace(latex, p, n)
                    inner = latex[p + 1 : close]
                    pos = close + 1
                    cmd = _MATH_TEXT_ARG[name]
                    if cmd is None and re.fullmatch(r"[A-Za-z0-9]+", inner):
                        atom("\\mathrm{" + inner + "}")
                    else:
                        atom("\\" + (cmd or "mbox") + "{" + _render_bibtex(tokenize(inner)) + "}")
                # without a braced argument the command is dropped
            elif name in MATH_ARG_COMMANDS:
                if out and ENDS_CONTROL_WORD.search(out[-1]):
                    out.append(" ")
                out.append("\\" + name)  # an atom once its arguments are there
                f.owed = MATH_ARG_COMMANDS[name]
            elif name in MATH_COMMANDS:
                atom("\\" + name)
            else:
                atom(_unknown_math_command(name))
        elif ch == "{":
            if pos - 1 in paired:
                out.append("{")
                stack.append(f)
                f = _MathFrame()
            else:
                atom("\\lbrace ")
        elif ch == "}":
            if pos - 1 in paired and stack:
                settle()
                out.append("}")
                f = stack.pop()
                f.last_script = ""
                atom("")
            else:
                atom("\\rbrace ")
        elif ch == "^" or ch == "_":
            script(ch)
        elif ch == "'":
            prime()
        elif ch in "%&#$":
            atom("\\" + ch)
        elif ch > "\x7f":
            atom(char_bibtex(ch, True))
        elif ch >= " " and ch != "\x7f":
            atom(ch)
    settle()
    while stack:  # cannot happen with paired braces, but never leave a group open
        out.append("}")
        f = stack.pop()
        settle()
    body = " ".join("".join(out).split())
    return _SPACE_AFTER_WORD.sub(r"\1", body) if " " in body else body


def _render_bibtex(tokens) -> str:
    parts: list[str] = []
    _bibtex_into(tokens, parts)
    return "".join(parts)


def _bibtex_into(tokens, parts: list) -> None:
    for t in tokens:
        kind = t[0]
        if kind is TEXT:
            parts.append(escape_text(t[1]))
        elif kind is MATH:
            body = _math_bibtex(t[1])
            if body:
                parts.append("$" + body + "$")
        elif kind is FMT:
            inner = _render_bibtex(t[2])
            cmd = FMT_KEEP.get(t[1])
            parts.append("\\" + cmd + "{" + inner + "}" if cmd else "{" + inner + "}")
        elif kind is EMPH:
            inner = _render_bibtex(t[2])
            parts.append(("\\emph{" if t[1] == 1 else "\\textbf{") + inner + "}")
        elif kind is GROUP:
            parts.append("{" + _render_bibtex(t[1]) + "}")
        elif kind is ESC:
            c = t[1]
            parts.append(TEXT_ESCAPES.get(c, c) if c in "%&#_${}" else escape_text(c))
        elif kind is QUOTE:
            parts.append({"\u201c": "``", "\u201d": "''", "\u2018": "`", "\u2019": "'"}[t[1]])
        elif kind is CODE:
            parts.append("\\texttt{" + escape_text(t[1]) + "}")
        else:  # MACRO
            name, raw = t[1], t[2]
            if name in TEXT_COMMANDS and (raw == "\\" + name or raw == "\\" + name + "{}"):
                parts.append("\\" + name + "{}")
            else:
                plain = macro_plain(name, raw)
                # a command with no reading of its own (\\input{x}, \\end{document}, C:\\path):
                # the user's text, kept as written rather than lost
                if plain.strip():
                    parts.append(escape_text(plain))
                else:
                    from .literal import bibtex_text  # literal builds on this module's spellings

                    parts.append(bibtex_text(raw))


def to_bibtex(s: str) -> str:
    """BibTeX-safe LaTeX for a field value (abstract, title, note).

    The result is pure ASCII with balanced braces and typesets with pdflatex and a plain
    ``\\documentclass{article}`` (default OT1 fonts, no amsmath/textcomp) after BibTeX or biber:

    * outside math ``% & # _ $`` are escaped, ``^`` -> ``\\textasciicircum{}`` (biber garbles ``{\\^{}}``), ``~`` -> ``$\\sim$`` (it means
      "about" in these sources), ``< > |`` -> ``$<$``..., ``\\`` -> ``\\textbackslash{}``, a stray
      brace -> ``$\\lbrace$``/``$\\rbrace$``; straight ``"`` become ````` `` ````` / ``''``;
    * math is kept as ``$...$`` (``\\(..\\)``, ``\\[..\\]`` and ``$$..$$`` become ``$..$``), its
      commands checked against :data:`MATH_COMMANDS` (amsmath/amssymb ones rewritten, e.g.
      ``\\mathbb`` -> ``\\mathbf``, ``\\text{mem}`` -> ``\\mathrm{mem}``; sizing like ``\\left``
      dropped; unknown ones replaced by their reading), stray braces and dangling ``^``/``_`` repaired;
    * non-ASCII characters become LaTeX: ``ℓ`` -> ``$\\ell$``, ``×`` -> ``$\\times$``,
      ``²`` -> ``$^{2}$``, ``’`` -> ``'``, ``–`` -> ``--``, ``é`` -> ``{\\'e}`` (in math the math form);
      characters with no safe LaTeX fall back to their ASCII transliteration or ``?``;
    * ``\\emph``/``\\textbf`` and friends are kept; Markdown ``*x*`` -> ``\\emph{x}``,
      ``**x**`` -> ``\\textbf{x}``, ```code``` -> ``\\texttt{code}``; other text commands are
      replaced by their plain reading, escaped.

    Whitespace is normalised first. Never raises."""
    out = _render_bibtex(tokenize(normalize_space(s)))
    if "  " in out:
        out = " ".join(out.split())
    # two math spans side by side would read as "$$" (display math): keep them apart
    return ADJACENT_MATH.sub("${}$", out) if "$$" in out else out
