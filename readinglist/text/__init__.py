"""One tokenizer for LaTeX/Markdown-bearing abstract text, several renderings.

Abstracts arrive with inline LaTeX (``$\\ell_1$``, ``\\emph{...}``, ``\\(0.576\\)``,
````` ``quotes'' `````, ``\\%``), Markdown emphasis (``**L**anguage``, ``__CapTrack__``) and Unicode
(``×``, ``–``, ``ℓ``). A record keeps that text as written; the functions here derive what each
target needs:

* :func:`normalize_space` -- whitespace only;
* :func:`to_plain` -- clean Unicode (titles, CSL-JSON, matching, tagging);
* :func:`to_bibtex` -- pure-ASCII LaTeX that survives BibTeX/biber and pdflatex with default fonts;
* :func:`to_markdown` -- Markdown that renders on GitHub inside a list item or ``<details>``;
* :func:`ascii_fold` -- ASCII transliteration for citation keys.

All of them share :func:`tokenize`, which splits a string into plain-text runs and the few
constructs that need converting (math, control sequences, brace groups, LaTeX quotes, Markdown
emphasis and code spans). Plain runs pass through untouched, so the cost of the slow
LaTeX converter (pylatexenc, imported lazily) is paid once per *distinct* span, not per abstract.

Recognition rules (the same for every rendering):

* ``$...$`` is math when the opening ``$`` is followed by a non-space and the first later
  unescaped ``$`` is preceded by a non-space (so ``$5 and $10`` stays text); ``$$...$$``,
  ``\\(...\\)`` and ``\\[...\\]`` are math too. An unmatched ``$`` is a literal dollar.
* ``{...}`` is a group when its braces balance; a stray brace is a literal character.
* ``**x**`` / ``__x__`` are strong and ``*x*`` / ``_x_`` emphasis (the opener must be followed,
  and the closer preceded, by a non-space; ``_`` never opens or closes inside a word, so
  ``snake_case`` is text). ```code``` is a code span; `````` `` `````` and ``''`` are LaTeX quotes.
* A backslash followed by ASCII punctuation (``\\%``, ``\\_``, ``\\*``) is that character.
* ``--`` outside math is left as written, and so is ``~`` (in these sources it means "about"),
  but for TeX's tie between two words (``Adapters~(LoRA)``, ``Fig.~3``), a space.
"""


from __future__ import annotations

from ..lazy import lazy_attributes

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)

# Each rendering is imported when first asked for (PEP 562), so a command that only needs plain
# text does not compile the BibTeX and Markdown renderers' tables at every start-up.
_WHERE = {
    "normalize_space": "tokens",
    "tokenize": "tokens",
    "to_plain": "plain",
    "strip_markup": "plain",
    "ascii_fold": "plain",
    "to_bibtex": "bibtex",
    "to_markdown": "markdown",
    "escape_markdown": "markdown",
    "note_markdown": "markdown",
}

__all__ = [
    "normalize_space",
    "tokenize",
    "to_plain",
    "strip_markup",
    "ascii_fold",
    "to_bibtex",
    "to_markdown",
    "escape_markdown",
    "note_markdown",
]
assert set(__all__) == set(_WHERE)

if TYPE_CHECKING:
    from .bibtex import to_bibtex
    from .markdown import escape_markdown, note_markdown, to_markdown
    from .plain import ascii_fold, strip_markup, to_plain
    from .tokens import normalize_space, tokenize


__getattr__ = lazy_attributes(__name__, _WHERE)
