"""Tests for readinglist.text: the shared tokenizer and its renderings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist import text
from readinglist.text import ascii_fold, normalize_space, to_plain, tokenize
from readinglist.text import bibchars as text_bibchars
from readinglist.text import latexvocab, literal
from readinglist.text import tokens as text_tokens

SEEDS = sorted((ROOT / "seeds").glob("*.txt"))

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
        assert tokens == [(text_tokens.TEXT, s)]


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


# ---------------------------------------------------------------------------------------------
# to_bibtex


@pytest.mark.parametrize(
    "source, latex",
    [
        ("a simple yet effective $\\ell_1$ regularization", "a simple yet effective $\\ell_1$ regularization"),
        ("unnecessary ``tentacles'' of each", "unnecessary ``tentacles'' of each"),
        ("we introduce __CapTrack__, a", "we introduce \\textbf{CapTrack}, a"),
        ("(**L**anguage-side reason**i**ng)", "(\\textbf{L}anguage-side reason\\textbf{i}ng)"),
        ("from \\(0.576\\) to", "from $0.576$ to"),
        ("saving ${\\sim}$8% of training", "saving ${\\sim}$8\\% of training"),
        ("ranges from 8\\% to 99\\%", "ranges from 8\\% to 99\\%"),
        ("speed $T_{\\text{mem}}(P)$ and", "speed $T_{\\mathrm{mem}}(P)$ and"),
        ("the $\\mathcal{O}(L \\cdot 2^n)$ time–memory cost", "the $\\mathcal{O}(L \\cdot 2^n)$ time--memory cost"),
        ("we propose $\\textbf{MDA-DD}$, which", "we propose $\\textbf{MDA-DD}$, which"),
        ("a *context-certainty obedience*, x", "a \\emph{context-certainty obedience}, x"),
        ("R&D #1 snake_case 50%", "R\\&D \\#1 snake\\_case 50\\%"),
        ("ℓ × ² ’ – — é", "$\\ell$ $\\times$ $^{2}$ ' -- --- {\\'e}"),
        ("M²LE", "M$^{2}$LE"),
        ("$ℓ_1 × 2$", "$\\ell_1 \\times 2$"),
        ("costs $5 and $10", "costs \\$5 and \\$10"),
        ("a < b > c | d ~ e ^ f g\\", "a $<$ b $>$ c $|$ d $\\sim$ e \\textasciicircum{} f g$\\backslash$"),
        ("vs.\\ the", "vs. the"),
        ("a {stray brace", "a $\\lbrace$stray brace"),
        ("stray } brace", "stray $\\rbrace$ brace"),
        ('a "quoted" word', "a ``quoted'' word"),
        ("`code_x`", "\\texttt{code\\_x}"),
        ("\\emph{generating} a", "\\emph{generating} a"),
        # math repairs: amsmath/amssymb rewritten, dangling scripts closed, sizing dropped
        ("$x \\in \\mathbb{R}^n$", "$x \\in \\mathbf{R}^n$"),
        ("$x^$ and $\\frac{a}$", "$x^{}$ and $\\frac{a}{}$"),
        ("$a^2^3$", "$a^2{}^3$"),
        ("$\\left( x \\right.$", "$( x$"),
        ("$a \\lesssim b$", "$a \\stackrel{<}{\\sim} b$"),
        ("$\\foo$", "$\\mathrm{foo}$"),
        ("论文 x", "?? x"),
    ],
)
def test_to_bibtex_examples(source, latex):
    assert text.to_bibtex(source) == latex


def check_bibtex_safe(out: str) -> None:
    """The promises of to_bibtex: ASCII, balanced braces, escaped specials, math closed."""
    assert out.isascii()
    depth = 0
    for ch in out:
        depth += ch == "{"
        depth -= ch == "}"
        assert depth >= 0, out
    assert depth == 0, out
    i = 0
    dollars = 0
    while i < len(out):
        c = out[i]
        if c == "\\":
            i += 2  # an escaped character or the first letter of a command
            continue
        assert c not in "%&#", out
        if c == "$":
            dollars += 1
            assert out[i + 1 : i + 2] != "$", out  # "$$" would open display math
        i += 1
    assert dollars % 2 == 0, out


@given(anytext)
@settings(max_examples=400)
def test_to_bibtex_is_safe_for_any_text(s):
    check_bibtex_safe(text.to_bibtex(s))


def test_to_bibtex_seed_abstracts_are_safe():
    for p in seed_paragraphs():
        check_bibtex_safe(text.to_bibtex(p))


def test_math_commands_are_known_to_a_plain_article_list():
    # the whitelist must not contain amsmath/latexsym names (checked against LaTeX in the tools test)
    for name in ("mathbb", "text", "operatorname", "lesssim", "Box", "leadsto", "sqsubset"):
        assert name not in latexvocab.MATH_COMMANDS


# ---------------------------------------------------------------------------------------------
# to_bibtex through real LaTeX

_LATEX_PROGRAMS = ("pdflatex", "bibtex", "biber")


def _nasty_strings(n: int = 300) -> list[str]:
    """Deterministic random mixtures of the markup pieces (the shapes hypothesis finds)."""
    import random

    rng = random.Random(11)
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40))) for _ in range(n)]


def _unicode_sweep() -> list[str]:
    """Every printable character of the blocks abstracts draw on, in text and in math."""
    import unicodedata

    ranges = [(0xA0, 0x250), (0x370, 0x400), (0x2000, 0x2300), (0x1D400, 0x1D420)]
    chars = [chr(c) for a, b in ranges for c in range(a, b) if unicodedata.category(chr(c))[0] != "C"]
    chars += ["中", "文", "\U0001f600"]
    return [" ".join(chars[i : i + 40]) + " $" + " ".join(chars[i : i + 40]) + "$" for i in range(0, len(chars), 40)]


def _run(cmd: list[str], cwd: Path) -> None:
    import subprocess

    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout[-3000:]}"


def _problems(log: str) -> list[str]:
    import re

    bad = re.findall(r"^(?:!.*|.*(?:Warning|Error).*)$", log, re.M)
    # rerun requests are about cross-references, not about our text
    return [b for b in bad if "Rerun" not in b and "rerun" not in b and "undefined references" not in b]


@pytest.mark.tools
def test_to_bibtex_typesets_with_bibtex_and_biber(tmp_path):
    import shutil

    missing = [p for p in _LATEX_PROGRAMS if shutil.which(p) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (TeX Live and biber)")
    values = [text.to_bibtex(s) for s in seed_paragraphs() + _nasty_strings() + _unicode_sweep()]
    entries = [
        f"@misc{{k{i},\n  author = {{Doe, Jane}},\n  title = {{Entry {i}}},\n  year = {{{1900 + i}}},\n"
        f"  note = {{{v}}},\n  abstract = {{{v}}}\n}}\n"
        for i, v in enumerate(values)
    ]
    (tmp_path / "refs.bib").write_text("\n".join(entries), encoding="ascii")
    # plainnat prints `note`; the biblatex document prints `abstract`
    (tmp_path / "bt.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage{natbib}\n"
        "\\begin{document}\n\\nocite{*}\n\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n"
    )
    (tmp_path / "bl.tex").write_text(
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage[backend=biber,style=authoryear]{biblatex}\n\\addbibresource{refs.bib}\n"
        "\\renewbibmacro*{finentry}{\\newunit\\printfield{abstract}\\finentry}\n"
        "\\begin{document}\n\\nocite{*}\n\\printbibliography\n\\end{document}\n"
    )
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error"]
    for step in (latex + ["bt.tex"], ["bibtex", "bt"], latex + ["bt.tex"], latex + ["bt.tex"]):
        _run(step, tmp_path)
    for step in (latex + ["bl.tex"], ["biber", "bl"], latex + ["bl.tex"], latex + ["bl.tex"]):
        _run(step, tmp_path)
    for log in ("bt.blg", "bt.log", "bl.blg", "bl.log"):
        assert _problems((tmp_path / log).read_text(errors="replace")) == [], log
    bbl = (tmp_path / "bt.bbl").read_text()
    assert "$\\ell_1$ regularization" in bbl and "$T_{\\mathrm{mem}}(P)$" in bbl


@pytest.mark.tools
def test_math_commands_typeset_in_a_plain_article(tmp_path):
    import shutil

    if shutil.which("pdflatex") is None:
        pytest.skip("needs pdflatex (TeX Live)")
    body = [f"$a \\{name} b$\\par" for name in sorted(latexvocab.MATH_COMMANDS)]
    body += [f"$\\{name}{'{x}' * n}$\\par" for name, n in sorted(latexvocab.MATH_ARG_COMMANDS.items())]
    (tmp_path / "m.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + "\n".join(body) + "\n\\end{document}\n")
    _run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "m.tex"], tmp_path)
    assert _problems((tmp_path / "m.log").read_text(errors="replace")) == []


# ---------------------------------------------------------------------------------------------
# to_markdown


@pytest.mark.parametrize(
    "source, md",
    [
        ("effective $\\ell_1$ regularization", "effective ℓ₁ regularization"),
        ("unnecessary ``tentacles'' of", "unnecessary “tentacles” of"),
        ("we introduce __CapTrack__, a", "we introduce **CapTrack**, a"),
        ("(**L**anguage-side reason**i**ng)", "(**L**anguage-side reason**i**ng)"),
        ("from \\(0.576\\) to", "from 0.576 to"),
        ("saving ${\\sim}$8% of", "saving \\~8% of"),
        ("\\emph{generating} a \\textbf{Mode-Controlled} b", "*generating* a **Mode-Controlled** b"),
        ("8\\% to 99\\%", "8% to 99%"),
        ("snake_case a*b [x] <b> a|b #1 `code` ~x", "snake\\_case a\\*b \\[x\\] &lt;b&gt; a\\|b \\#1 `code` \\~x"),
        ("$|x| < 1$", "\\|x\\| &lt; 1"),
        ("costs $5 and $10", "costs \\$5 and \\$10"),
        ("- not a list", "\\- not a list"),
        ("1. not a list either", "1\\. not a list either"),
        ("&amp; stays text, & alone is fine", "&amp;amp; stays text, & alone is fine"),
        ("M²LE × ℓ", "M²LE × ℓ"),
        ("\\textbf{ spaced }x", "**spaced** x"),
    ],
)
def test_to_markdown_examples(source, md):
    assert text.to_markdown(source) == md


def _list_item_tokens(md: str):
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    return parser.parse(f"- [ ] {md}\n- [ ] next item\n")


@given(anytext)
@settings(max_examples=300)
def test_to_markdown_stays_inside_one_list_item(s):
    md = text.to_markdown(s)
    assert "\n" not in md
    tokens = _list_item_tokens(md)
    kinds = [t.type for t in tokens]
    assert kinds.count("list_item_open") == 2, (md, kinds)
    assert kinds.count("paragraph_open") == 2
    assert not {"heading_open", "table_open", "html_block", "fence", "code_block", "hr", "blockquote_open"} & set(kinds)
    inline = [c.type for t in tokens if t.type == "inline" for c in t.children]
    assert "html_inline" not in inline and "link_open" not in inline and "image" not in inline


def test_to_markdown_seed_emphasis_renders():
    from markdown_it import MarkdownIt

    html = "".join(MarkdownIt("commonmark").render(text.to_markdown(p)) for p in seed_paragraphs())
    for fragment in ("<strong>CapTrack</strong>", "<strong>L</strong>anguage-side", "reason<strong>i</strong>ng",
                     "<em>generating</em>", "<em>attention dilution</em>", "<strong>Mode-Controlled Policy Optimization (MCPO)</strong>",
                     "“tentacles”", "ℓ₁"):
        assert fragment in html, fragment
    for p in seed_paragraphs():
        kinds = [t.type for t in _list_item_tokens(text.to_markdown(p))]
        assert kinds.count("list_item_open") == 2


@pytest.mark.parametrize(
    "latex, plain",
    [
        (r"D{\'\i}az", "Díaz"),  # an accent on a dotless i, as BibTeX names write it
        (r"Na\"\i ve", "Naïve"),  # \i eats the space after it
        (r"reduces \emph{30% of} the cost", "reduces 30% of the cost"),  # % is no comment here
        (r"Andr\`e's method", "Andrè's method"),  # the accent's backtick opens no quote
    ],
)
def test_to_plain_reads_bibtex_style_latex(latex, plain):
    assert to_plain(latex) == plain


def test_to_plain_tex_mode_reads_dashes_and_ties_as_tex_does():
    assert to_plain(r"Source--target---and~more", tex=True) == "Source–target—and more"
    assert to_plain(r"scenes--an order of ${\sim}$8\%", tex=True) == "scenes–an order of ~8%"
    assert to_plain("scenes--an order") == "scenes--an order"  # abstracts keep plain runs as written


@given(st.text(alphabet=st.sampled_from("-'a _\u2013`"), max_size=30))
def test_bibtex_text_breaks_every_tex_ligature_as_the_look_behind_rule_did(s):
    """Plain text must never form TeX's ``--`` / ``''`` ligatures: "{}" goes between every such
    pair (``---`` -> ``-{}-{}-``). Written with the rule it replaced, a zero-width look-behind
    match (four times slower on a long abstract), as the reference."""
    import re

    out = literal.bibtex_text(s)
    assert "--" not in out and "''" not in out
    escaped = literal._LITERAL_SPECIAL.sub(lambda m: {"_": "\\_", "`": "{\\textasciigrave}"}.get(m.group(), "{\\textendash}"), normalize_space(s))
    assert out == re.sub(r"(?<=-)(?=-)|(?<=')(?=')", "{}", escaped)


def test_the_special_character_classes_match_what_their_written_out_form_matches():
    """text.bibtex writes its classes of special characters as the complement (fast to compile);
    they must match what the classes written out did."""
    import re

    for pattern, written in (
        (text_bibchars._TEXT_SPECIAL, '[\\\\{}%&#_$^~<>|"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\U0010ffff]'),
        (literal._LITERAL_SPECIAL, '[\\\\{}$%&#_^~<>|"*`\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\U0010ffff]'),
    ):
        reference = re.compile(written)
        # every ASCII character, and the non-ASCII ones every 97th code point plus the edges
        points = [*range(0x80), *range(0x80, 0x110000, 97), 0x7F, 0x80, 0xD7FF, 0xD800, 0xDFFF, 0xFFFF, 0x10000, 0x10FFFF]
        for c in map(chr, points):
            assert bool(pattern.fullmatch(c)) == bool(reference.fullmatch(c)), hex(ord(c))


# -- TeX ties in plain text ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, plain",
    [
        ("Low-Rank Adapters~(LoRA) adapt", "Low-Rank Adapters (LoRA) adapt"),
        ("code is available at~<https://example.org/x>.", "code is available at <https://example.org/x>."),
        (r"see Fig.~3 and \emph{Table}~2 on an RTX~5090", "see Fig. 3 and Table 2 on an RTX 5090"),
        ("tested on 69~manuscripts", "tested on 69 manuscripts"),
        (r"as in KITTI Odometry~\cite{geiger} and \emph{ours}~(new)", "as in KITTI Odometry <cit.> and ours (new)"),
        ("saving ~8% of tokens with ~3 GPUs", "saving ~8% of tokens with ~3 GPUs"),  # "about": kept
        ("a human study (~60 users), gains of 2.8%~4.5%", "a human study (~60 users), gains of 2.8%~4.5%"),
    ],
)
def test_a_tex_tie_reads_as_a_space_and_an_about_tilde_stays(raw, plain):
    assert to_plain(raw) == plain


@given(st.text("ab1 .(~%", max_size=30))
def test_ties_only_ever_turn_a_tilde_into_a_space(text):
    out = to_plain(text)
    assert out.replace("~", " ").split() == text.replace("~", " ").split()  # nothing else changes
    for i, ch in enumerate(text):
        if ch == "~" and (i == 0 or text[i - 1] in " (%~" or (text[i - 1] == "1" and text[i + 1 : i + 2] in ("", " ", "1", ".", "(", "%", "~"))):
            break
    else:
        return
    assert "~" in out  # a tilde after a space, a digit or "(" is kept


def test_zotero_rdf_and_csl_json_abstracts_have_no_tex_ties():
    import json

    from readinglist.config import default_config
    from readinglist.formats.csljson.writer import exporter as csl
    from readinglist.formats.registry import ExportOptions
    from readinglist.formats.zotero.writer import exporter as rdf
    from readinglist.record import Paper, Record

    record = Record(key="k2026", title="T", abstract="Adapters~(LoRA) help; code at~<https://x.org/y>; ~3 GPUs.")
    options = ExportOptions(config=default_config())
    (item,) = json.loads(csl.export([Paper(record)], options))
    assert item["abstract"] == "Adapters (LoRA) help; code at <https://x.org/y>; ~3 GPUs."
    assert "Adapters (LoRA) help; code at &lt;https://x.org/y&gt;; ~3 GPUs." in rdf.export([Paper(record)], options)


def _brace_table_by_alternation(s: str) -> dict[int, int]:
    """The brace table as first written: one scan with ``\\\\.|[{}]`` (an escape, else a brace)."""
    table: dict[int, int] = {}
    stack: list[int] = []
    for m in text_tokens.BRACE_SCAN.finditer(s):
        if m.group() == "{":
            stack.append(m.start())
        elif m.group() == "}" and stack:
            table[stack.pop()] = m.start()
    return {**table, **{i: -1 for i in stack}}


@given(st.one_of(anytext, st.lists(st.sampled_from(["\\", "{", "}", "\\\\", "\\{", "\\}", "a", " ", "\n"]), max_size=30).map("".join)))
def test_the_brace_table_pairs_the_braces_the_escape_scan_pairs(s):
    """The tokenizer's brace table (a character-class scan that skips the character after each
    backslash) is the one the ``\\\\.|[{}]`` scan gives, escaped braces and backslashes included."""
    assert text_tokens._Scan(s).brace_table() == _brace_table_by_alternation(s)


@given(anytext)
def test_the_abstract_forms_are_bibtex_text_of_the_plain_text(s):
    """to_bibtex_text / to_bibtex_unicode skip bibtex_text's whitespace pass (to_plain's text is
    normal already): the same text as bibtex_text(to_plain(...)) written out."""
    plain = to_plain(s, scripts=True)
    assert literal.to_bibtex_text(s) == literal.bibtex_text(plain)
    assert literal.to_bibtex_unicode(s) == literal.bibtex_text(plain, unicode=True)


@given(st.lists(anytext, min_size=1, max_size=4))
def test_pylatexenc_reads_every_span_alike_with_its_context_built_once(spans):
    """_latex_plain hands pylatexenc one parsing context built once (a walker given none builds
    it anew for each span): the text is what a walker with its own fresh context gives, after
    any spans before it (nothing of one span's parsing stays in the shared context)."""
    from readinglist.text import plain

    convert = plain._latex2text()
    for span in spans:
        latex = "$" + span + "$"
        try:
            fresh = convert.latex_to_text(latex)
        except Exception:  # (_latex_plain keeps such a span as written)
            continue
        assert convert.latex_to_text(latex, latex_context=plain._latex_context()) == fresh
