"""BibTeX export: read back by bibtexparser v2 and pybtex, typeset by bibtex and biber."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import replace

import pytest
from helpers import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.errors import ValidationError
from readinglist.formats.bibtex.writer import exporter, protect_case
from readinglist.formats.registry import ExportOptions
from readinglist.record import Event, Paper, Person, Record, Source
from readinglist.text import to_bibtex, to_plain
from readinglist.text.literal import to_bibtex_text
from readinglist.text.literal import bibtex_text

CONFIG = default_config()
PLAIN = ExportOptions(config=CONFIG)
EVERYTHING = ExportOptions(config=CONFIG, with_status=True, with_notes=True)

CANVIT = Record(
    key="canvit2026",
    title="CanViT: scaling vision transformers with LLMs for Markov games",
    abstract=(
        r"We introduce CanViT, reaching 45.9% mIoU with an $\ell_1$ penalty, 10$\times$ fewer FLOPs"
        r" & less memory; see __CapTrack__ and \emph{million-token} contexts (M²LE, ×2, ℓ)."
    ),
    venue="NeurIPS",
    year=2026,
    shorttitle="CanViT",
    tags=("vision", "transformers"),
    generated=frozenset({"key", "title", "shorttitle", "tags"}),
    sources=(Source("seeds/000_list.txt", paragraph=2, line=5),),
)
DOE = Record(
    key="doe2026editing",
    title="Knowledge Editing in Large Language Models",
    abstract="Knowledge editing updates facts in LLMs without retraining.",
    venue="ICML",
    year=2026,
    authors=(Person("Doe", "Jane"), Person("Müller", "Hans Peter"), Person(literal="OpenAI Team")),
    doi="10.1234/abc.5",
    url="https://example.org/paper?id=5",
    pages="1–10",
    tags=("llm",),
)


def papers():
    return [
        Paper(
            CANVIT,
            status="read",
            priority=1,
            rating=4,
            notes="Great results & clear writing.",
            user_tags=("to-cite",),
            history=(Event("added", "2026-11-01T09:00:00Z"), Event("finished", "2026-11-20T18:30:00Z")),
        ),
        Paper(DOE, status="reading", priority=2),
    ]


def parse_bibtexparser(text):
    import bibtexparser

    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    return {e.key: e.fields_dict for e in library.entries}, library


def test_entry_fields_read_back_by_bibtexparser():
    entries, _ = parse_bibtexparser(exporter.export(papers(), PLAIN))
    assert list(entries) == ["canvit2026", "doe2026editing"]
    canvit = {k: f.value for k, f in entries["canvit2026"].items()}
    assert canvit["title"] == "{CanViT}: scaling vision transformers with {LLMs} for {Markov} games"
    assert canvit["shorttitle"] == "{CanViT}"
    assert canvit["booktitle"] == "Advances in Neural Information Processing Systems"
    assert "eventtitle" not in canvit  # biblatex would print "Advances in ... Systems. NeurIPS."
    assert canvit["year"] == "2026"
    assert canvit["keywords"] == "vision, transformers, to-cite"  # topic tags, then the user's
    assert canvit["abstract"] == to_bibtex_text(CANVIT.abstract)
    assert canvit["key"] == "CanViT"  # no authors: plainnat labels and sorts by `key`, biber by it as sortkey
    assert canvit["label"] == "CanViT"  # biblatex authoryear: "CanViT (2026)"
    assert "author" not in canvit  # the authors are unknown: none is invented
    doe = {k: f.value for k, f in entries["doe2026editing"].items()}
    assert doe["author"] == " and ".join([to_bibtex("Doe, Jane"), to_bibtex("Müller, Hans Peter"), "{OpenAI Team}"])
    assert doe["doi"] == "10.1234/abc.5" and doe["url"] == "https://example.org/paper?id=5"
    assert doe["pages"] == "1--10"
    assert "key" not in doe


def test_output_is_ascii_and_latex_safe():
    text = exporter.export(papers(), EVERYTHING)
    assert text.isascii()
    body = re.sub(r"(?m)^%.*$", "", text)  # the comment lines
    for line in body.splitlines():
        # an unescaped % drops the rest of the line in LaTeX
        assert not re.search(r"(?<!\\)%", line), line


def test_reading_state_only_when_asked():
    plain = exporter.export(papers(), PLAIN)
    for field in ("readstatus", "priority", "ranking", "annote"):
        assert f"{field} =" not in plain
    entries, _ = parse_bibtexparser(exporter.export(papers(), EVERYTHING))
    canvit = {k: f.value for k, f in entries["canvit2026"].items()}
    assert canvit["readstatus"] == "read"
    assert canvit["priority"] == "prio1"
    assert canvit["ranking"] == "rank4"
    assert canvit["annote"] == to_bibtex("Great results & clear writing.")
    doe = {k: f.value for k, f in entries["doe2026editing"].items()}
    assert doe["readstatus"] == "skimmed"  # JabRef's word for "reading"
    assert "ranking" not in doe and "annote" not in doe
    status_only = exporter.export(papers(), ExportOptions(config=CONFIG, with_status=True))
    assert "readstatus = {read}" in status_only and "annote" not in status_only


def test_unread_and_skipped_have_no_readstatus():
    for status in ("unread", "skipped"):
        text = exporter.export([Paper(DOE, status=status)], EVERYTHING)
        assert "readstatus" not in text


def test_generated_fields_are_declared_in_a_comment_above_the_entry():
    text = exporter.export(papers(), PLAIN)
    lines = text.splitlines()
    at = lines.index("@inproceedings{canvit2026,")
    assert lines[at - 1] == (
        "% key, title, shorttitle and tags of canvit2026 generated by readinglist from the abstract"
        " (seeds/000_list.txt:5 (paragraph 2))"
    )
    at = lines.index("@inproceedings{doe2026editing,")
    assert not lines[at - 1].startswith("%")
    # the comment is not part of any entry
    entries, library = parse_bibtexparser(text)
    assert all("generated" not in str(f.value) for e in entries.values() for f in e.values())


def test_comment_cannot_start_an_entry():
    rec = CANVIT.evolve(sources=(Source("lists/@home/x.txt", 1, 3),))
    text = exporter.export([Paper(rec)], PLAIN)
    entries, _ = parse_bibtexparser(text)
    assert list(entries) == ["canvit2026"]
    assert text.count("@") == 1


def test_order_is_the_callers_and_duplicates_refused():
    forward = exporter.export(papers(), PLAIN)
    assert exporter.export(papers(), PLAIN) == forward
    backward = exporter.export(list(reversed(papers())), PLAIN)
    assert backward.index("@inproceedings{doe2026editing,") < backward.index("@inproceedings{canvit2026,")
    assert sorted(b.strip() for b in backward.split("\n\n")) == sorted(f.strip() for f in forward.split("\n\n"))
    with pytest.raises(ValidationError, match="canvit2026"):
        exporter.export([Paper(CANVIT), Paper(CANVIT.evolve(title="Other"))], PLAIN)


def test_empty_export():
    assert exporter.export([], PLAIN) == ""


def test_extra_fields_kept_but_own_fields_not_overridden():
    rec = DOE.evolve(fields=(("note", "Oral, 5% acceptance"), ("title", "ignored"), ("eprint", "2401.00001")))
    entries, _ = parse_bibtexparser(exporter.export([Paper(rec)], PLAIN))
    fields = {k: f.value for k, f in entries["doe2026editing"].items()}
    assert fields["note"] == to_bibtex("Oral, 5% acceptance")
    assert fields["eprint"] == "2401.00001"
    assert fields["title"] == "Knowledge Editing in Large Language Models"


def test_article_gets_journal():
    rec = DOE.evolve(entry_type="article", venue="TMLR")
    entries, _ = parse_bibtexparser(exporter.export([Paper(rec)], PLAIN))
    fields = entries["doe2026editing"]
    assert fields["journal"].value == "Transactions on Machine Learning Research"
    assert "booktitle" not in fields and "eventtitle" not in fields


@pytest.mark.parametrize(
    "title,expected",
    [
        ("CanViT: Scaling LLMs", "{CanViT}: Scaling {LLMs}"),
        ("A Study of ViT-B (and BERT).", "A Study of {ViT-B} (and {BERT})."),
        ("Learning $Q$-functions", "Learning {$Q$-functions}"),
        (r"M\textsuperscript{2}LE merging", r"{M\textsuperscript{2}LE} merging"),
        (r"\textbf{MDA-DD} wins", r"{{\textbf{MDA-DD}}} wins"),
        ("plain words only", "plain words only"),
        ("{Already} braced", "{Already} braced"),
        (r'{\"O}BB rail and Schr{\"o}dinger', r'{{\"O}BB} rail and Schr{\"o}dinger'),
        (r"Caf{\'e} {\AA}ngstr{\"o}m", r"Caf{\'e} {{\AA}ngstr{\"o}m}"),  # a capital Å is kept too
    ],
)
def test_protect_case(title, expected):
    assert protect_case(title) == expected


@given(st.text(alphabet=st.sampled_from("aAbZ {}$\\-:.()12"), max_size=40))
def test_protect_case_only_adds_balanced_braces(title):
    protected = protect_case(title)
    assert protected.replace("{", "").replace("}", "") == title.replace("{", "").replace("}", "")
    if title.count("{") == title.count("}"):
        assert protected.count("{") - title.count("{") == protected.count("}") - title.count("}")


def test_read_back_by_pybtex():
    from pybtex.database import parse_string

    text = exporter.export(papers(), PLAIN)
    data = parse_string(text, "bibtex")
    assert list(data.entries) == ["canvit2026", "doe2026editing"]
    canvit = data.entries["canvit2026"]
    assert canvit.fields["title"] == protect_case(bibtex_text(CANVIT.title), sentence_case=True)
    assert canvit.fields["abstract"] == to_bibtex_text(CANVIT.abstract)
    authors = data.entries["doe2026editing"].persons["author"]
    assert [" ".join(p.last_names) for p in authors] == [to_bibtex("Doe"), to_bibtex("Müller"), "{OpenAI Team}"]
    assert [" ".join(p.first_names + p.middle_names) for p in authors] == ["Jane", "Hans Peter", ""]


def test_abstract_decodes_back_to_the_plain_text():
    from pylatexenc.latex2text import LatexNodes2Text

    # (superscripts are left out: to_plain(to_bibtex("M²LE")) gives "M^2LE", see the report)
    canvit = CANVIT.evolve(abstract=CANVIT.abstract.replace("M²LE, ", ""))
    entries, _ = parse_bibtexparser(exporter.export([Paper(canvit), Paper(DOE)], PLAIN))
    for rec in (canvit, DOE):
        value = entries[rec.key]["abstract"].value
        assert to_plain(value) == to_plain(rec.abstract)
        # and an independent decoder (pylatexenc's) agrees
        assert " ".join(LatexNodes2Text().latex_to_text(value).split()) == to_plain(rec.abstract)
    assert to_plain(entries["canvit2026"]["title"].value) == CANVIT.title


abstract_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), max_codepoint=0x2FFF) | st.sampled_from("%&#_$\\{}~^"),
    min_size=1,
    max_size=80,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=abstract_text, abstract=abstract_text, tag=abstract_text)
def test_any_text_gives_parseable_ascii_bibtex(title, abstract, tag):
    from pybtex.database import parse_string

    rec = Record(key="k2026", title=title, abstract=abstract, tags=(tag,), venue="NeurIPS", year=2026)
    text = exporter.export([Paper(rec, notes=abstract)], EVERYTHING)
    assert text.isascii()
    entries, _ = parse_bibtexparser(text)
    assert list(entries) == ["k2026"]
    assert list(parse_string(text, "bibtex").entries) == ["k2026"]


# --- the real programs ---------------------------------------------------------------------


def _need(*programs):
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (.ci/run installs them from Debian)")


def _run(cmd, cwd):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}"
    return proc


def _typeset(folder, backend: str) -> None:
    """pdflatex, the bibliography backend (bibtex or biber), then pdflatex twice, on doc.tex."""
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    for argv in (latex, [backend, "doc"], latex, latex):
        _run(argv, folder)


def _problems(path):
    """Lines of a .log/.blg that report a warning or an error."""
    text = path.read_text(encoding="latin-1")
    return [
        line
        for line in text.splitlines()
        if re.search(r"warning|error", line, re.I)
        and not re.search(r"infwarerr|Providing info/warning/error|warning\$ -- 0", line)
    ]


CITED = ["canvit2026", "doe2026editing"]

NATBIB_TEX = r"""
\documentclass{article}
\usepackage{natbib}
\usepackage{url}
\begin{document}
\citet{canvit2026} and \citep{doe2026editing}.
\bibliographystyle{plainnat}
\bibliography{refs}
\end{document}
"""

BIBLATEX_TEX = r"""
\documentclass{article}
\usepackage[backend=biber,style=authoryear]{biblatex}
\addbibresource{refs.bib}
\DeclareFieldFormat{abstract}{\par\small Abstract: #1}
\renewbibmacro*{finentry}{\printfield{abstract}\finentry}
\begin{document}
\textcite{canvit2026} and \parencite{doe2026editing}.
\printbibliography
\end{document}
"""


def _with_authors(paper):
    """Same paper, with an author (BibTeX styles warn about authorless entries)."""
    if paper.record.authors:
        return paper
    return paper.evolve(record=paper.record.evolve(authors=(Person("Lee", "Kim"),)))


@pytest.mark.tools
@pytest.mark.parametrize("options", [PLAIN, EVERYTHING], ids=["plain", "with-status-and-notes"])
def test_pdflatex_bibtex_plainnat_without_warnings(tmp_path, options):
    _need("pdflatex", "bibtex")
    (tmp_path / "refs.bib").write_text(exporter.export([_with_authors(p) for p in papers()], options), encoding="ascii")
    (tmp_path / "doc.tex").write_text(NATBIB_TEX, encoding="ascii")
    _typeset(tmp_path, "bibtex")
    assert _problems(tmp_path / "doc.blg") == []
    assert _problems(tmp_path / "doc.log") == []
    bbl = (tmp_path / "doc.bbl").read_text(encoding="latin-1")
    for key in CITED:
        assert f"{{{key}}}" in bbl
    # plainnat lowercases titles except for braced words: in a generated (sentence-case) title
    # every capital after the first word is a proper noun's, so it is braced
    assert "{CanViT}: scaling vision transformers with {LLMs} for {Markov} games." in bbl
    assert "Knowledge editing in large language models." in bbl
    assert (tmp_path / "doc.pdf").stat().st_size > 0


@pytest.mark.tools
def test_plainnat_warns_once_per_authorless_entry_unless_a_placeholder_is_configured(tmp_path):
    """Abstract lists have no authors: the export writes none, and plainnat (whose @inproceedings
    requires one) says so once per such entry; a configured placeholder author (declared as
    generated in the comment line) keeps it quiet."""
    _need("pdflatex", "bibtex")
    (tmp_path / "doc.tex").write_text(NATBIB_TEX, encoding="ascii")
    text = exporter.export(papers(), PLAIN)
    assert "% key, title, shorttitle and tags of canvit2026 generated by readinglist" in text
    placeholder = replace(CONFIG, anonymous_author="{name}")
    assert "% key, title, shorttitle, tags and author of canvit2026 generated by readinglist" in exporter.export(
        papers(), ExportOptions(config=placeholder)
    )
    for config, expected in ((CONFIG, ["Warning--empty author in canvit2026"]), (placeholder, [])):
        (tmp_path / "refs.bib").write_text(exporter.export(papers(), ExportOptions(config=config)), encoding="ascii")
        _typeset(tmp_path, "bibtex")
        assert [p for p in _problems(tmp_path / "doc.blg") if not re.search(r"warning\$|There was 1 warning", p)] == expected
        assert _problems(tmp_path / "doc.log") == []


@pytest.mark.tools
@pytest.mark.parametrize("options", [PLAIN, EVERYTHING], ids=["plain", "with-status-and-notes"])
def test_pdflatex_biblatex_biber_with_abstracts(tmp_path, options):
    """biber (unlike its --validate-datamodel) passes JabRef's fields over silently."""
    _need("pdflatex", "biber")
    (tmp_path / "refs.bib").write_text(exporter.export(papers(), options), encoding="ascii")
    (tmp_path / "doc.tex").write_text(BIBLATEX_TEX, encoding="ascii")
    _typeset(tmp_path, "biber")
    assert _problems(tmp_path / "doc.blg") == []
    assert _problems(tmp_path / "doc.log") == []
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    for key in CITED:
        assert f"\\entry{{{key}}}{{inproceedings}}" in bbl
    assert r"\field{abstract}{" in bbl and "mIoU" in bbl
    assert r"\field{shorttitle}{{CanViT}}" in bbl


@pytest.mark.tools
def test_biber_validates_the_datamodel(tmp_path):
    _need("biber")
    bib = tmp_path / "refs.bib"
    bib.write_text(exporter.export([_with_authors(p) for p in papers()], PLAIN), encoding="ascii")
    proc = _run(["biber", "--tool", "--validate-datamodel", "--output-file", str(tmp_path / "out.bib"), str(bib)], tmp_path)
    assert "WARN" not in proc.stdout and "ERROR" not in proc.stdout, proc.stdout
    assert "Datamodel validation complete" in proc.stdout

    # authorless entries have none: the data model, which requires one, says so and nothing else
    bib.write_text(exporter.export(papers(), PLAIN), encoding="ascii")
    proc = _run(["biber", "--tool", "--validate-datamodel", "--output-file", str(tmp_path / "out.bib"), str(bib)], tmp_path)
    assert _datamodel_warnings(proc.stdout) == {("canvit2026", "author")}, proc.stdout


def _datamodel_warnings(out: str) -> set[tuple[str, str]]:
    """(entry, field) of biber's "missing mandatory field" warnings; fails on any other warning."""
    found = set()
    for line in out.splitlines():
        if ("WARN" in line or "ERROR" in line) and "INFO" not in line:
            m = re.search(r"Entry '([^']+)' - missing mandatory field '(\w+)'", line) or re.search(
                r"Entry '([^']+)' .*Missing mandatory field '(\w+)'", line, re.I
            )
            assert m, line
            found.add(m.groups())
    return found


def _seed_bib() -> tuple[str, list[str]]:
    """The seed lists through the converter and the exporter: (bib text, keys)."""

    from readinglist.convert import convert

    records = []
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        records += convert(text, source=f"seeds/{path.name}", config=CONFIG, taken=[r.key for r in records]).records
    return exporter.export([Paper(r) for r in records], PLAIN), sorted(r.key for r in records)


@pytest.mark.tools
def test_seed_lists_typeset_with_bibtex_and_biber(tmp_path):
    """Real abstracts (%, ℓ, ×, $...$, \\emph, __bold__) through pdflatex with both backends."""
    _need("pdflatex", "bibtex", "biber")
    bib, keys = _seed_bib()
    (tmp_path / "refs.bib").write_text(bib, encoding="ascii")

    (tmp_path / "doc.tex").write_text(NATBIB_TEX.replace(r"\citet{canvit2026} and \citep{doe2026editing}", r"\nocite{*}"))
    _typeset(tmp_path, "bibtex")
    # plainnat's one warning per authorless entry (its @inproceedings requires an author), no other
    authorless = sorted(k for k in keys if f"@inproceedings{{{k},\n  key = " in bib)
    assert authorless  # the seeds have no authors
    warnings = [p for p in _problems(tmp_path / "doc.blg") if not re.search(r"warning\$ -- |There were \d+ warnings", p)]
    assert sorted(warnings) == [f"Warning--empty author in {k}" for k in authorless]
    assert _problems(tmp_path / "doc.log") == []
    assert (tmp_path / "doc.bbl").read_text(encoding="latin-1").count(r"\bibitem") == len(keys)

    for name in tmp_path.glob("doc.*"):
        if name.suffix != ".tex":
            name.unlink()
    (tmp_path / "doc.tex").write_text(
        BIBLATEX_TEX.replace(r"\textcite{canvit2026} and \parencite{doe2026editing}", r"\nocite{*}")
    )
    _typeset(tmp_path, "biber")
    assert _problems(tmp_path / "doc.blg") == []
    assert _problems(tmp_path / "doc.log") == []
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert bbl.count(r"\field{abstract}") == len(keys)

    # and the data model: nothing but the authorless entries' missing author
    proc = _run(["biber", "--tool", "--validate-datamodel", "--output-file", "out.bib", "refs.bib"], tmp_path)
    assert {field for _, field in _datamodel_warnings(proc.stdout)} <= {"author"}, proc.stdout


def test_reimported_by_readinglists_bibtex_importer():
    """What the export writes (fields, generated-comment, JabRef state) comes back in."""
    from readinglist.formats.registry import ImportOptions, find_importer

    text = exporter.export(papers(), EVERYTHING)
    result = find_importer("bibtex").parse(text, source="refs.bib", options=ImportOptions(config=CONFIG))
    assert result.warnings == ()
    canvit, doe = result.records
    for field in ("key", "title", "shorttitle", "venue", "year", "generated", "sources"):
        assert getattr(canvit, field) == getattr(CANVIT, field), field
    assert canvit.tags == ("vision", "transformers", "to-cite")  # the user's tags come back as tags
    assert canvit.abstract == to_bibtex_text(CANVIT.abstract)  # the text as written in the export
    assert (doe.authors, doe.doi, doe.url, doe.pages) == (DOE.authors, DOE.doi, DOE.url, "1--10")
    assert doe.generated == frozenset()
    assert result.states["canvit2026"] == {"status": "read", "priority": 1, "rating": 4, "notes": "Great results & clear writing."}
    assert result.states["doe2026editing"] == {"status": "reading", "priority": 2}


# --------------------------------------------------------------------------- the direct writer

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(
    entry_type=st.sampled_from(["inproceedings", "article", "misc", "Book"]),
    key=st.text("abcXYZ019-_:", min_size=1, max_size=12),
    fields=st.lists(st.tuples(st.text("abcdefgh", min_size=1, max_size=8), _TEXT), max_size=6),
)
def test_entries_are_written_as_bibtexparser_writes_them(entry_type, key, fields):
    from bibtexparser.model import Entry, Field, ImplicitComment

    from readinglist.formats.bibtex.writer import entry_text, write_with_bibtexparser

    blocks = [ImplicitComment("% a comment"), Entry(entry_type, key, [Field(n, v) for n, v in fields]), ImplicitComment("")]
    assert "% a comment\n" + entry_text(entry_type, key, fields) + "\n" == write_with_bibtexparser(blocks)
