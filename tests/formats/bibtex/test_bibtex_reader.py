"""readinglist.formats.bibtex.reader: Zotero/JabRef-style input, errors, and the round trip
store -> BibTeX export -> import into an empty store -> export again."""

from __future__ import annotations

import pytest
from helpers import ROOT, round_trip

from readinglist.config import default_config
from readinglist.errors import InputError
from readinglist.formats.bibtex.fields import parse_names
from readinglist.formats.bibtex.reader import importer
from readinglist.formats.registry import ImportOptions, find_importer
from readinglist.record import Person, Source

CONFIG = default_config()
OPTIONS = ImportOptions(CONFIG)
SEEDS = ROOT / "seeds"

JABREF = r"""% This file was created with JabRef 5.12.
% Encoding: UTF-8

@InProceedings{Mueller2026,
  author    = {M{\"u}ller, J{\"o}rg and van der Berg, Anna and {Google DeepMind} and D{\'\i}az, Jos{\'e} and Smith, Jr., John},
  booktitle = {Advances in Neural Information Processing Systems},
  title     = {{CanViT}: Scaling Active Vision to {LLMs} -- with $\ell_1$},
  year      = {2026},
  pages     = {1--12},
  doi       = {https://doi.org/10.5555/canvit},
  abstract  = {We use $\ell_1$ and 30\% less
               \emph{compute}.},
  keywords  = {vision; active perception, llm},
  readstatus = {skimmed},
  priority  = {prio1},
  ranking   = {rank4},
  annote    = {Check the 30\% claim.},
  publisher = {Curran Associates},
}

@Article{Mueller2026,
  title = {Duplicate key: the first entry wins}
}

@Misc{who2025,
  title = {A Report},
  author = {{World Health Organization}},
  date = {2025-03-01},
  eventtitle = {ICLR 2025},
  readstatus = {maybe},
}

@comment{jabref-meta: databaseType:bibtex;}
"""

ZOTERO = r"""
@inproceedings{schrodinger_cats_2024,
	title = {Schr{\"o}dinger's {Cats}: {A} Study of {\textit{in vivo}} Superposition},
	shorttitle = {Schr{\"o}dinger's {Cats}},
	url = {https://example.org/cats},
	doi = {10.1234/cats.2024},
	booktitle = {Proceedings of the International Conference on Machine Learning},
	author = {Schr{\"o}dinger, Erwin and Ludwig van Beethoven and {\'E}mile Zola and Jean-Pierre {de la Fontaine}},
	month = jul,
	year = {2024},
	keywords = {physics, cats},
	pages = {100--110},
	file = {Full Text:files/1/cats.pdf:application/pdf},
}
"""


def parse(text: str, source: str = "lib.bib"):
    return importer.parse(text, source=source, options=OPTIONS)


# -- hand-written inputs ------------------------------------------------------------------


def test_jabref_entry():
    result = parse(JABREF)
    first = result.records[0]
    assert first.key == "Mueller2026" and first.entry_type == "inproceedings"
    assert first.title == "CanViT: Scaling Active Vision to LLMs – with ℓ₁"
    assert first.authors == (
        Person(family="Müller", given="Jörg"),
        Person(family="van der Berg", given="Anna"),
        Person(literal="Google DeepMind"),
        Person(family="Díaz", given="José"),
        Person(family="Smith Jr.", given="John"),
    )
    assert first.venue == "NeurIPS" and first.year == 2026
    assert first.abstract == r"We use $\ell_1$ and 30\% less \emph{compute}."  # LaTeX kept, whitespace normalised
    assert first.doi == "10.5555/canvit" and first.pages == "1--12"
    assert first.tags == ("vision", "active perception", "llm")
    assert first.fields == (("publisher", "Curran Associates"),)
    assert first.generated == frozenset() and not first.is_generated
    assert first.sources == (Source("lib.bib", line=4),)
    assert result.states["Mueller2026"] == {"status": "reading", "priority": 1, "rating": 4, "notes": "Check the 30% claim."}


def test_duplicate_key_keeps_the_first_and_warns():
    result = parse(JABREF)
    assert [r.key for r in result.records] == ["Mueller2026", "who2025"]
    assert result.records[0].title.startswith("CanViT")
    assert any("lib.bib:21" in w and "Mueller2026" in w and "kept the first" in w for w in result.warnings)


def test_corporate_author_date_and_event_title():
    who = parse(JABREF).records[1]
    assert who.authors == (Person(literal="World Health Organization"),)
    assert who.year == 2025 and who.venue == "ICLR"
    assert who.entry_type == "misc"


def test_unknown_reading_state_values_warn_and_are_ignored():
    result = parse(JABREF)
    assert "who2025" not in result.states
    assert any("lib.bib:25 (who2025)" in w and "readstatus 'maybe'" in w for w in result.warnings)
    bad = parse("@misc{x, title={T}, priority={prio7}, ranking={five}, readstatus={read}}")
    assert bad.states == {"x": {"status": "read"}}
    assert len(bad.warnings) == 2


def test_zotero_entry():
    (rec,) = parse(ZOTERO).records
    assert rec.title == "Schrödinger's Cats: A Study of in vivo Superposition"
    assert rec.shorttitle == "Schrödinger's Cats"
    assert rec.authors == (
        Person(family="Schrödinger", given="Erwin"),
        Person(family="van Beethoven", given="Ludwig"),
        Person(family="Zola", given="Émile"),
        Person(family="de la Fontaine", given="Jean-Pierre"),
    )
    assert rec.venue == "ICML" and rec.year == 2024 and rec.url == "https://example.org/cats"
    assert dict(rec.fields) == {"file": "Full Text:files/1/cats.pdf:application/pdf", "month": "jul"}


def test_names_agree_with_pybtex():
    """pybtex, reading the same file, splits the names into the same parts."""
    from pybtex.database import parse_string

    data = parse_string(JABREF.replace("@Article{Mueller2026", "@Article{Other"), "bibtex")
    for person, theirs in zip(parse(JABREF).records[0].authors, data.entries["Mueller2026"].persons["author"]):
        if person.literal:
            assert theirs.last_names == ["{" + "Google DeepMind" + "}"]
            continue
        assert len(person.family.split()) == len(theirs.prelast_names + theirs.last_names + theirs.lineage_names)
        assert len(person.given.split()) == len(theirs.first_names + theirs.middle_names)


@pytest.mark.parametrize(
    "names, expected",
    [
        ("Plato", (Person(family="Plato"),)),
        ("{Barnes and Noble, Inc.}", (Person(literal="Barnes and Noble, Inc."),)),
        ("{A} and {B}", (Person(literal="A"), Person(literal="B"))),
        ("Jos{\\'e} {\\'A}lvarez and others", (Person(family="Álvarez", given="José"), Person(family="others"))),
    ],
)
def test_parse_names(names, expected):
    assert parse_names(names) == expected


def test_syntax_error_names_file_and_line():
    text = "@misc{ok, title={x}}\n\n@misc{bad, title = {unclosed\n}\n"
    with pytest.raises(InputError, match=r"^broken\.bib:3: .*'@misc\{bad, title = \{unclosed'") as err:
        parse(text, "broken.bib")
    assert "\n" not in str(err.value)


def test_syntax_error_does_not_print(capsys):
    with pytest.raises(InputError):
        parse("@misc{a, title={x}\n\n@misc{b, title={y}}\n")
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_entry_without_title_or_abstract_is_skipped():
    result = parse("@misc{empty, note = {nothing}}\n@misc{ok, title={T}}\n")
    assert [r.key for r in result.records] == ["ok"]
    assert result.skipped[0].reason == "no title and no abstract" and result.skipped[0].source.line == 1


def test_options_override_venue_and_year():
    result = importer.parse(ZOTERO, source="z.bib", options=ImportOptions(CONFIG, venue="COLT", year=2030))
    assert (result.records[0].venue, result.records[0].year) == ("COLT", 2030)


def test_found_as_a_plugin():
    assert find_importer("bibtex") is importer
    assert find_importer(path="library.bib") is importer


def test_round_trip_through_our_bibtex_export(tmp_path):
    first, second, text1, text2 = round_trip(tmp_path, "bibtex", importer, ".bib")
    assert text2 == text1
    before = {p.key: p for p in first}
    after = {p.key: p for p in second}
    assert before.keys() == after.keys()
    for key, old in before.items():
        new = after[key]
        # JabRef's readstatus has no value for "skipped" (the export writes none): it comes back unread
        status = "unread" if old.status == "skipped" else old.status
        assert (new.status, new.priority, new.rating, new.notes) == (status, old.priority, old.rating, old.notes), key
        assert new.tags == old.tags, key
        assert new.record.title == old.record.title, key
        assert new.record.shorttitle == old.record.shorttitle, key
        assert new.record.generated == old.record.generated, key
        assert new.record.is_generated == old.record.is_generated
        assert new.record.authors == old.record.authors, key
        assert (new.record.venue, new.record.year, new.record.doi, new.record.url) == (
            old.record.venue, old.record.year, old.record.doi, old.record.url
        ), key
    seed = after["seed032026"].record
    assert seed.sources == (Source("seeds/list1.txt", paragraph=5, line=9),)


# -- LaTeX to Unicode for titles and names ----------------------------------------------------

from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from readinglist.formats.importing import latex_to_unicode  # noqa: E402
from readinglist.text.plain import _latex2text  # noqa: E402

_PIECES = st.sampled_from(
    [
        "a", "Z", "x", " ", "-", "--", "'", "``", "''", ":", "~",
        r"\"u", r"\"{O}", r"{\'e}", r"\'{\i}", r"{\'\i}", r"\`a", r"\^{o}", r"\c{c}", r"\c c", r"\v{S}",
        r"\H{o}", r"\~n", r"\=a", r"\.z", r"\r{a}", r"\k{e}", r"\u{g}", r"{\o}", r"{\ss}", r"\AA{}", r"\L{}",
        "{CanViT}", "{LLMs}",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=12))
def test_latex_to_unicode_agrees_with_pylatexenc(pieces):
    """Titles and names (accents, special letters, braces, dashes, quotes) decode exactly as
    pylatexenc reads the whole value, whitespace normalised (text.to_plain converts only the
    spans that need it)."""
    latex = "".join(pieces)
    expected = " ".join(_latex2text().latex_to_text(latex).split())
    assert latex_to_unicode(latex) == expected


_GROUP_TEXT = st.lists(
    st.sampled_from(list("aZ09 -~\"%&@#.,:;!?()[]<>/|+=") + ["--", "---", "  ", "\t", "\n", "\u00a0", "\u200b", "\u00e9", "\u03b1", "\u2026", "\\", "{", "}", "$", "*", "_", "`", "'"]),
    max_size=24,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_GROUP_TEXT, st.sampled_from(["", "\\ldots{}", "\\ldots", "\\ldots{} ", " "]), st.sampled_from(["{}", "  ", "{{}}"]))
def test_latex_to_unicode_of_one_group_reads_as_to_plain(inner, tail, braces):
    """A brace group of text (the export's placeholder author, ``{CanViT}`` or ``{First four
    title words…}``) is read without the tokenizer when nothing in it is special to TeX:
    the same text as :func:`readinglist.text.to_plain` reading the whole value."""
    from readinglist.text import to_plain

    latex = braces[: len(braces) // 2] + inner + tail + braces[len(braces) // 2 :]
    assert latex_to_unicode(latex) == to_plain(latex, tex=True, scripts=True)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["a", "Z", "0", " ", "  ", "-", "--", "~", ":", "\u00e9", "\u2026", "{", "}", "{a b}", "{-}", "{}", "{--}", "{~}", "'", "$x$", "\\ldots{}", "{{a}}"]), max_size=10))
@example(["{"])  # an unclosed brace: Python 3.11.2's possessive quantifiers read it as a group
def test_latex_to_unicode_of_text_with_groups_reads_as_to_plain(pieces):
    """Text with brace groups in it (``{LLMs} at {Scale}``) is read without the tokenizer when
    nothing else in it is special to TeX and no hyphen touches a brace: the same text as
    :func:`readinglist.text.to_plain` reading the whole value (``-{}-`` stays two hyphens)."""
    from readinglist.text import to_plain

    latex = "".join(pieces)
    assert latex_to_unicode(latex) == to_plain(latex, tex=True, scripts=True)


@pytest.mark.parametrize(
    "latex, expected",
    [
        (r"Sparse $\ell_1$ Training", "Sparse ℓ₁ Training"),  # math goes to pylatexenc
        (r"30% faster, 2\% better", "30% faster, 2% better"),  # a bare % is no comment in a .bib
        (r"Na\"\i ve {\textquotedblleft}Bayes{\textquotedblright}", "Naïve “Bayes”"),
    ],
)
def test_latex_to_unicode_other_latex(latex, expected):
    assert latex_to_unicode(latex) == expected


def test_strings_and_concatenation_read_as_pybtex_reads_them():
    from pybtex.database import parse_string

    text = (
        '@string{nips = "Advances in Neural " # {Information Processing Systems}}\n'
        "@string{NIPS2 = nips}\n"
        '@inproceedings{a, title = "Quoted " # "Concat" # {, with C#}, booktitle = NIPS2, year = 2026, month = jul}\n'
    )
    (rec,) = parse(text).records
    theirs = parse_string(text, "bibtex").entries["a"].fields
    assert rec.title == theirs["title"] == "Quoted Concat, with C#"
    assert rec.venue == "NeurIPS"  # the resolved booktitle, looked up in the venues table
    assert CONFIG.venue_name(rec.venue) == theirs["booktitle"]
    assert dict(rec.fields) == {"month": "jul"}


# -- splitting a raw value at '#' -------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from('ab #{}"\\ \n'), max_size=40))
def test_resolve_one_piece_shortcut_is_the_pieces_joined(raw):
    """resolve takes a value without '#' as one piece, stripped: what splitting it gives."""
    from readinglist.formats.bibtex.values import _piece_text, _pieces, resolve

    strings = {"a": "Alpha", "b": "Beta"}
    assert resolve(raw, strings) == "".join(_piece_text(p, strings) for p in _pieces(raw))
    if "#" not in raw:
        assert _pieces(raw) == [raw.strip()]
