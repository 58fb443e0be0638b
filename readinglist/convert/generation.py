"""The fields generated from one abstract (its system name, title and topic tags): the text
they are generated from (:func:`generation_text`) and :func:`generate`, which never fails. The
pipeline (:mod:`.pipeline`) runs it over many abstracts, in worker processes when asked."""

from __future__ import annotations

import re

#: The generated fields of one abstract: (name, title, tags, error, the title generator's provenance).
Fields = tuple[str | None, str, tuple[str, ...], str | None, str]

# An author's own macro for the system name, "\CFE{}" or "\MethodName": LaTeX would print the
# name, and to_plain (not knowing the macro) would drop it; its own name is the best guess.
_MACRO_NAME = re.compile(r"\\([A-Za-z]*[A-Z][A-Za-z]*[A-Z][A-Za-z0-9]*)(?:\{\}|(?![A-Za-z{]))")
_KNOWN_MACROS = frozenset("LaTeX TeX BibTeX LaTeXe XeTeX LuaTeX ConTeXt AmS AMS".split())


def _macro_name(m: re.Match) -> str:
    return m.group(0) if m.group(1) in _KNOWN_MACROS else m.group(1)


# Names set in math: "$\texttt{TACO}$", "D$^2$HScore" (to_plain would drop or split them).
_MATH_TEXT = re.compile(r"\$\\(?:texttt|textsc|textbf|textrm|textit|textsf|text|mathtt|mathrm|mathsf|mathbf|mathit)\{([^{}$\\]{1,40})\}\$")
_MATH_SUP = re.compile(r"\$\^\{?([0-9])\}?\$")
_SUPERSCRIPT = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def prepare(abstract: str) -> str:
    """The abstract with the author's name macros and names set in math made plain text, for
    generation only (the record keeps the abstract as written)."""
    if "\\" not in abstract and "$" not in abstract:
        return abstract
    abstract = _MATH_TEXT.sub(lambda m: m.group(1), abstract)
    abstract = _MATH_SUP.sub(lambda m: _SUPERSCRIPT[m.group(1)], abstract)
    return _MACRO_NAME.sub(_macro_name, abstract)


# "we propose SimBelief-a novel meta-RL framework", "MapBench-the first dataset": a hyphen typed
# for a dash between a name (two capitals or more) and its appositive
_DASH_TYPED = re.compile(r"\b([A-Za-z0-9]*[A-Z]\w*[A-Z]\w*)-(an?|the) (?=[A-Za-z])")


def generation_text(abstract: str) -> str:
    """The text names, titles and tags are generated from (and the training scripts learn from):
    :func:`prepare`'s abstract as plain Unicode, sub- and superscripts as the characters a reader
    sees ("$\\mu^2$Tokenizer" is the name "μ²Tokenizer", "Adam$^+$" is "Adam⁺"), and a hyphen
    typed for a dash before a name's appositive read as a comma ("SimBelief-a novel framework" is
    "SimBelief, a novel framework")."""
    from ..text import to_plain

    plain = to_plain(prepare(abstract), scripts=True)
    if "-a" in plain or "-the " in plain:
        plain = _DASH_TYPED.sub(r"\1, \2 ", plain)
    return plain


def generate(abstract: str, tagger, max_tags: int, generator=None) -> tuple[str | None, str, tuple[str, ...], str | None]:
    """The generated fields of one abstract: (system name or None, title, topic tags, error).

    Generation never stops an import: if naming or titling fails on an abstract (a bug, or a
    title generator plugin that raises or returns no usable title), the record gets a plain
    title from the abstract's first words, no name, and ``error`` says what went wrong so the
    import summary can report it (file:line). ``generator``: a title generator (see
    :mod:`readinglist.convert.generators`), the built-in one when None."""
    name, title, tags, error, _provenance = generate_fields(abstract, tagger, max_tags, generator)
    return name, title, tags, error


def generate_fields(abstract: str, tagger, max_tags: int, generator=None) -> Fields:
    """:func:`generate`'s fields and the generator's provenance."""
    from .generators import builtin, checked
    from .titles import plain_title

    error = None
    try:
        plain = generation_text(abstract)
    except Exception as exc:  # noqa: BLE001 - reported, never fatal
        plain, error = " ".join(abstract.split()), f"{type(exc).__name__}: {exc}"
    provenance = ""
    try:
        made = checked(generator.generate(abstract, plain)) if generator is not None else builtin.generate(abstract, plain)
        name, title, provenance = made.short_title, made.title, made.provenance
        tag_title = made.for_tags or title
    except Exception as exc:  # noqa: BLE001 - reported, never fatal
        name, title, error = None, plain_title(plain), error or f"{type(exc).__name__}: {exc}"
        tag_title = title
    try:
        tags = tuple(tagger.tags(plain, name=name, title=tag_title, max_tags=max_tags))
    except Exception as exc:  # noqa: BLE001 - reported, never fatal
        tags, error = (), error or f"{type(exc).__name__}: {exc}"
    return name, title, tags, error, provenance
