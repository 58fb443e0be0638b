"""Plain text as BibTeX (titles, names, tags, notes, and exported abstracts as a reader sees
them): every character the user wrote, read back identically by readinglist's importer and by
pylatexenc (bibtexparser's LaTeX decoding), in the ASCII or the UTF-8 form."""

from __future__ import annotations

import re
import unicodedata

from .bibchars import char_bibtex, special_chars
from .bibtex import ADJACENT_MATH
from .plain import to_plain
from .tokens import normalize_space


#: A dollar sign: ``\\$`` then an empty formula ``${}$``. Zotero's BibTeX import removes the
#: dollars of every ``$...$`` pair it finds, before it unescapes ``\\$``, so two ``\\$`` of one field
#: ("\\$5 ... \\$6") arrived as "\\5 ... \\6"; the empty formula right after each ``\\$`` is the
#: pair it removes instead (a ``$`` followed by a ``$`` starts none), and typesets as nothing.
_DOLLAR = "\\$${}$"
#: Characters of plain text that BibTeX or LaTeX would read as markup, in the spelling that
#: pdflatex (OT1), BibTeX, biber and the decoders agree on. ``"``, ``*`` and a backquote are
#: braced so that neither TeX (quotes) nor readinglist's reader (Markdown emphasis, code) takes
#: them for markup.
_LITERAL_ASCII = {
    "\\": "$\\backslash$", "{": "$\\lbrace$", "}": "$\\rbrace$", "$": _DOLLAR, "%": "\\%", "&": "\\&",
    "#": "\\#", "_": "\\_", "^": "{\\textasciicircum}", "~": "{\\textasciitilde}", "<": "$<$",
    ">": "$>$", "|": "$|$", '"': '{"}', "*": "{*}", "`": "{\\textasciigrave}",
}
#: The UTF-8 form's spellings: text commands rather than math (Zotero's BibTeX import leaves
#: ``$\\backslash$`` as raw text), braces as commands (a ``\\{`` breaks BibTeX's name parsing);
#: the dollar as in the ASCII form (``{\\textdollar}`` the translator leaves raw).
_LITERAL_UNICODE = {
    **_LITERAL_ASCII,
    "\\": "{\\textbackslash}", "{": "{\\textbraceleft}", "}": "{\\textbraceright}", "<": "<", ">": ">", "|": "|",
}
#: Typographic characters written as text commands, so they read back as themselves (not as
#: the ASCII ligatures ``--`` / ``''`` that a reader cannot tell from the user's own).
_LITERAL_CHARS = {
    "\u2018": "{\\textquoteleft}", "\u2019": "{\\textquoteright}", "\u201c": "{\\textquotedblleft}",
    "\u201d": "{\\textquotedblright}", "\u2013": "{\\textendash}", "\u2014": "{\\textemdash}",
    # not \ldots{}: Zotero's BibTeX import reads its \l as "ł" ("łdots")
    "\u2026": "{\\textellipsis}",
}
_LITERAL_SPECIAL = special_chars('\\{}$%&#_^~<>|"*`')
#: TeX ligatures a plain text must not form: ``--``, ``''`` (broken with ``{}``)
_LIGATURE = re.compile(r"-(?=-)|'(?=')")  # each is followed by "{}" (a look-behind here costs 4x)


def bibtex_text(text: str, *, unicode: bool = False) -> str:
    """Plain text (a title, a name, a tag, a note) as a BibTeX value that reads back as exactly
    that text (whitespace normalised) through readinglist's BibTeX importer and pylatexenc, and
    typesets with pdflatex: nothing in it is taken for markup, so ``C:\\path``, ``\\end{document}``,
    ``{braces}``, ``50%`` and ``a_b`` stay what they are. ASCII LaTeX by default (``é`` ->
    ``{\\'e}``, ``²`` -> ``$^{2}$``); with ``unicode`` other characters are kept as UTF-8."""
    return _literal(normalize_space(text), unicode)


def _literal(text: str, unicode: bool) -> str:
    """:func:`bibtex_text` of a text whose whitespace is normal already (what :func:`to_plain`
    returns: its exports' abstracts are not scanned for it twice)."""
    table = _LITERAL_UNICODE if unicode else _LITERAL_ASCII

    def sub(m: re.Match) -> str:
        c = m.group()
        esc = table.get(c)
        if esc is not None:
            return esc
        if c < "\x80" or c == "\x7f":
            return ""  # a control character
        if unicode:
            return c if unicodedata.category(c)[0] != "C" else ""
        return _LITERAL_CHARS.get(c) or char_bibtex(c, False)

    out, replaced = _LITERAL_SPECIAL.subn(sub, text)
    if "--" in out or "''" in out:
        out = _LIGATURE.sub(r"\g<0>{}", out)
    # two math spans side by side (ℓ₁ -> $\ell$$_{1}$) would read as "$$": keep them apart (a
    # "$" is special: every one in ``out`` comes from a replacement, so with none there is none)
    return ADJACENT_MATH.sub("${}$", out) if replaced and "$$" in out else out


def to_bibtex_text(s: str) -> str:
    """The ASCII form's abstract: the text as a reader sees it (:func:`to_plain`, as the UTF-8
    form writes it), spelled in pure-ASCII LaTeX by :func:`bibtex_text`, so that pdflatex and
    Zotero's BibTeX import both show the same text.

    Zotero's BibTeX.js import (``unescapeBibTeX``) maps LaTeX back to Unicode by plain substring
    replacement over its ``reversemappingTable``, then drops ``$``, braces and the backslash of
    ``\\%`` and friends; every other command stays as raw text. So the LaTeX that this form avoids
    is LaTeX that has a plain-text reading: math (``\\log n`` -> ``log n``, ``\\mathcal{O}`` ->
    ``O``, ``\\frac{a}{b}`` -> ``a/b``, which Zotero showed as "łog n", "\\mathcalO"), emphasis
    (``\\textbf``, ``\\emph``: Zotero showed "<b>" and "\\emph"), Markdown. What is left are
    single characters, each in a spelling that pdflatex typesets and, where the translator's table
    has one, Zotero decodes: ``$\\alpha$`` (α), ``$_{1}$`` (₁), ``$^{n}$`` (ⁿ),
    ``{\\textquoteright}`` (’), ``\\%``, ``\\$``. Characters with no such spelling keep the one
    that pdflatex (OT1) typesets and readinglist and pylatexenc read back (``$\\times$``,
    ``$\\geq$``, ``$\\ell$``, ``{\\textasciitilde}``, ``$\\theta$``: the translator turns the
    ``\\th`` of ``\\theta`` into "þ" before it reaches its Greek entries, and its ``{\\texttimes}``
    is a TS1 symbol); tests/formats/zotero/test_zotero_import.py runs the translator on the
    seeds' export and lists them."""
    return _literal(to_plain(s, scripts=True), False)


# ---------------------------------------------------------------------------------------------
# UTF-8 BibTeX (``export -f bibtex --unicode``), for biber/biblatex and for Zotero's BibTeX import

def to_bibtex_unicode(s: str) -> str:
    """UTF-8 BibTeX for a field value: the text as clean Unicode (:func:`to_plain`: math, accents
    and formatting become the characters a reader sees), LaTeX's special characters escaped.

    For biber/biblatex (with LuaLaTeX, XeLaTeX, or pdflatex and fonts for the characters used)
    and for Zotero's BibTeX import, which reads UTF-8 text right but mangles LaTeX math and
    accents (``\\log`` -> "łog", ``\\theta`` -> "þeta")."""
    return _literal(to_plain(s, scripts=True), True)
