"""Tests for readinglist.text: the shared tokenizer and its renderings."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist import text
from readinglist.text import ascii_fold, normalize_space, to_plain, tokenize

SEEDS = sorted((Path(__file__).resolve().parent.parent / "seeds").glob("*.txt"))

#: Text that looks like abstracts: LaTeX, Markdown and Unicode pieces mixed with words.
_PIECES = [
    "$", "$$", "\\", "{", "}", "*", "**", "_", "__", "`", "``", "''", "'", "%", "&", "#", "^", "~",
    "\\(", "\\)", "\\[", "\\]", "\\emph{", "\\textbf{", "\\text{", "\\ell", "\\times", "\\%", "\\&",
    "\\'", "\\c", "\\frac{a}{b}", "\\mathcal{O}", "\\sim", "\\foo", "$x$", "$\\alpha$", " ", "\n", "\t",
    "ℓ", "×", "²", "’", "–", "—", "é", "论", "α", "\u00a0", "\u200b", "\ufeff", "<", ">", "[", "]", "|",
    "-", "+", "1.", "word", "Model", "x_1", "a", "0.5",
]
abstractish = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)
anytext = st.one_of(st.text(max_size=200), abstractish)


def seed_paragraphs() -> list[str]:
    out = []
    for path in SEEDS:
        blocks = path.read_text(encoding="utf-8").split("\n\n")
        out.extend(normalize_space(b) for b in blocks[1:] if b.strip())
    return out


# ---------------------------------------------------------------------------------------------
# normalize_space


def test_normalize_space_collapses_unicode_spaces_and_strips_invisibles():
    s = "\ufeff  a\u00a0b\u2009c\t\td\r\n e\u200bf\u202fg\u3000h  "
    assert normalize_space(s) == "a b c d ef g h"


@given(anytext)
def test_normalize_space_is_idempotent_and_has_no_double_spaces(s):
    once = normalize_space(s)
    assert normalize_space(once) == once
    assert "  " not in once
    assert once == once.strip()
    assert "\u200b" not in once and "\ufeff" not in once


# ---------------------------------------------------------------------------------------------
# to_plain


@pytest.mark.parametrize(
    "source, plain",
    [
        # seed 000 examples
        ("a simple yet effective $\\ell_1$ regularization", "a simple yet effective ℓ_1 regularization"),
        ("unnecessary ``tentacles'' of each", "unnecessary “tentacles” of each"),
        ("we introduce __CapTrack__, a capability-centric", "we introduce CapTrack, a capability-centric"),
        ("we propose **LIFT** (**L**anguage-side reason**i**ng **F**acilitation)",
         "we propose LIFT (Language-side reasoning Facilitation)"),
        ("from \\(0.576\\) to \\(0.911\\).", "from 0.576 to 0.911."),
        ("\\emph{generating} a relevant answer", "generating a relevant answer"),
        ("saving ${\\sim}$8% of training tokens", "saving ~8% of training tokens"),
        ("$O(\\epsilon^{-4})$ convergence", "O(ϵ^-4) convergence"),
        ("a $10\\times$ speedup", "a 10× speedup"),
        ("DockQ $\\geq$ 0.23", "DockQ ≥ 0.23"),
        # seed 001 examples
        ("ranges from 8\\% to 99\\% across models", "ranges from 8% to 99% across models"),
        ("the $\\mathcal{O}(L \\cdot 2^n)$ time–memory cost", "the O(L · 2^n) time–memory cost"),
        ("we propose $\\textbf{MDA-DD}$, which", "we propose MDA-DD, which"),
        ("a memorisation speed $T_{\\text{mem}}(P)$ and", "a memorisation speed T_mem(P) and"),
        ("\\textbf{Mode-Controlled Policy Optimization (MCPO)}, a", "Mode-Controlled Policy Optimization (MCPO), a"),
        ("$\\alpha$-divergence with $\\alpha{=}0$", "α-divergence with α=0"),
        ("nominal ($50\\%$, $90\\%$)", "nominal (50%, 90%)"),
        ("a *context-certainty obedience*, x", "a context-certainty obedience, x"),
        ("policy $\\pi_\\phi$ (a PPO agent)", "policy π_ϕ (a PPO agent)"),
        # other constructs
        ("caf\\'e na\\\"{i}ve fa\\c{c}ade", "café naïve façade"),
        ("`code` and `quoted' text", "code and ‘quoted’ text"),
        ("snake_case and a*b stay", "snake_case and a*b stay"),
        ("costs $5 and $10 today", "costs $5 and $10 today"),
        ("display $$x^2$$ math", "display x^2 math"),
        ("a {group} and a {stray brace", "a group and a {stray brace"),
        ("one } stray", "one } stray"),
        ("", ""),
    ],
)
def test_to_plain_examples(source, plain):
    assert to_plain(source) == plain


def test_to_plain_of_seed_abstracts_has_no_markup_left():
    paragraphs = seed_paragraphs()
    assert len(paragraphs) == 38
    for p in paragraphs:
        plain = to_plain(p)
        for marker in ("\\", "$", "**", "__", "``", "{", "}"):
            assert marker not in plain, (marker, plain[:80])
        # plain runs are untouched: every word without markup survives
        assert len(plain) > 0.9 * len(p)


def test_to_plain_passes_plain_text_through():
    s = "Plain  text with 30% and the model's   output\u00a0-- nothing to convert ~ here."
    assert to_plain(s) == normalize_space(s)


@given(anytext)
def test_to_plain_never_raises_and_is_normalised(s):
    out = to_plain(s)
    assert out == normalize_space(out)


@given(anytext)
def test_tokens_cover_every_text_run(s):
    # a string without markup is a single TEXT token; tokenize never raises
    tokens = tokenize(s)
    assert isinstance(tokens, list)
    if s and not any(c in s for c in "\\${}*_`'"):
        assert tokens == [(text.TEXT, s)]


# ---------------------------------------------------------------------------------------------
# ascii_fold


@pytest.mark.parametrize(
    "source, folded",
    [
        ("M²LE", "M2LE"),
        ("café", "cafe"),
        ("ℓ_1", "l_1"),
        ("10×", "10x"),
        ("α-divergence", "alpha-divergence"),
        ("Δ", "Delta"),
        ("π_ϕ", "pi_phi"),
        ("Straße", "Strasse"),
        ("Łódź", "Lodz"),
        ("“quoted” – dash", '"quoted" - dash'),
        ("𝒪(n)", "O(n)"),
        ("ﬁne", "fine"),
        ("NeurIPS 2026 论文列表", "NeurIPS 2026 "),
        ("plain ascii", "plain ascii"),
    ],
)
def test_ascii_fold_examples(source, folded):
    assert ascii_fold(source) == folded


@given(st.text())
def test_ascii_fold_is_ascii(s):
    assert ascii_fold(s).isascii()


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_fold_keeps_ascii(s):
    assert ascii_fold(s) == s
