"""Hand-edited text survives the BibTeX export: read back identically, and it compiles.

Titles, short titles, names, tags and notes are the user's plain text. Whatever they hold
(backslashes, ``\\end{document}``, ``\\input{}``, braces, ``%``, ``~``, quotes, ``--``), the
export writes them so that

* readinglist's own BibTeX importer reads back exactly that text (whitespace normalised);
* bibtexparser parses the file and pylatexenc (its LaTeX decoder) reads the same text;
* pybtex parses the file to the same raw values as bibtexparser;
* pdflatex + bibtex (ASCII form) typeset it without an error.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.formats.bibtex.reader import importer
from readinglist.formats.bibtex.writer import exporter
from readinglist.formats.registry import ExportOptions, ImportOptions
from readinglist.record import Paper, Person, Record
from readinglist.text import normalize_space

CONFIG = default_config()
EVERYTHING = ExportOptions(config=CONFIG, with_status=True, with_notes=True)
UNICODE = ExportOptions(config=CONFIG, with_status=True, with_notes=True, unicode=True)

HOSTILE = [
    r"Back\slash and C:\path\file",
    r"\end{document} and \input{/etc/passwd} \def\x{y}",
    r"{unbalanced} }{ braces { and \{escaped\}",
    r"50% of $5 & #1 a_b x^2 ~3 <tag> a|b",
    "\"quoted\" it's a--b a---b ``tex'' `code` *not emphasis* __nor this__",
    "Schrödinger’s cats – “Part 2” — M²LE, ℓ₁, 1.24×, θ ≥ Ω",
]

#: Characters the ASCII form writes as LaTeX that pylatexenc reads back as the same character
#: (``^`` is the exception: pylatexenc reads ``\textasciicircum`` as U+02C6).
ASCII_ALPHABET = st.sampled_from(
    list(" abcXYZ019.,;:!?()[]/-'@=+\\{}$%&#_~<>|\"*`") + list("éüßøÅ²₁ℓ×θΩ–—“”‘’")
)


def export_import(title: str, notes: str, options: ExportOptions):
    record = Record(
        key="k2026",
        title=title,
        shorttitle=title[:20].strip() or None,
        venue="NeurIPS",
        year=2026,
        tags=(title.replace(",", " ").strip() or "t",),
        authors=(Person(family=title.strip() or "x", given="Ann"),),
    )
    text = exporter.export([Paper(record, notes=notes, rating=3)], options)
    result = importer.parse(text, source="x.bib", options=ImportOptions(config=CONFIG))
    return text, record, result


def check_ours(title: str, notes: str, options: ExportOptions) -> str:
    text, record, result = export_import(title, notes, options)
    (back,) = result.records
    assert back.title == normalize_space(title)
    if record.shorttitle:
        assert back.shorttitle == normalize_space(record.shorttitle)
    assert back.authors[0].family == normalize_space(record.authors[0].family)
    want_notes = "\n".join(normalize_space(line) for line in notes.strip().splitlines())
    assert result.states["k2026"].get("notes", "") == want_notes.strip()
    return text


def check_others(text: str, title: str) -> None:
    import bibtexparser
    from pybtex.database import parse_string
    from pylatexenc.latex2text import LatexNodes2Text

    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    (entry,) = library.entries
    raw = entry.fields_dict["title"].value
    decoded = LatexNodes2Text(math_mode="text").latex_to_text(raw)
    assert normalize_space(decoded) == normalize_space(title)
    pybtex_entry = parse_string(text, "bibtex").entries["k2026"]
    assert pybtex_entry.fields["title"] == raw


@pytest.mark.parametrize("title", HOSTILE)
def test_hostile_text_reads_back_identically(title):
    notes = title + "\n\n" + title[::-1]
    text = check_ours(title, notes, EVERYTHING)
    assert text.isascii()
    check_ours(title, notes, UNICODE)
    if "^" not in title and "²" not in title and "₁" not in title:
        check_others(text, title)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=st.text(ASCII_ALPHABET, min_size=1, max_size=40).filter(str.strip), notes=st.text(ASCII_ALPHABET, max_size=30))
def test_arbitrary_text_reads_back_identically(title, notes):
    text = check_ours(title, notes, EVERYTHING)
    if not any(c in title for c in "^²₁"):
        check_others(text, title)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Co", "Cn")), min_size=1, max_size=40).filter(str.strip),
    notes=st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Co", "Cn")), max_size=30),
)
def test_arbitrary_unicode_reads_back_identically_in_the_unicode_form(title, notes):
    check_ours(title, notes, UNICODE)


@pytest.mark.tools
def test_hostile_text_compiles_with_pdflatex_and_bibtex(tmp_path):
    for program in ("pdflatex", "bibtex"):
        if not shutil.which(program):
            pytest.skip(f"{program} not installed")
    papers = [
        Paper(Record(key=f"k{i}", title=t, venue="NeurIPS", year=2026, authors=(Person("Lee", "Kim"),)), notes=t)
        for i, t in enumerate(HOSTILE)
    ]
    (tmp_path / "refs.bib").write_text(exporter.export(papers, EVERYTHING), encoding="ascii")
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\\usepackage{natbib}\\begin{document}\\nocite{*}"
        "\\bibliographystyle{plainnat}\\bibliography{refs}\\end{document}\n",
        encoding="ascii",
    )
    for cmd in (["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc"], ["bibtex", "doc"],
                ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc"]):
        out = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, errors="replace", timeout=120)
        assert out.returncode == 0, out.stdout[-2000:]
    if shutil.which("pdftotext"):
        subprocess.run(["pdftotext", "-layout", "doc.pdf", "doc.txt"], cwd=tmp_path, check=True, timeout=60)
        pdf = " ".join((tmp_path / "doc.txt").read_text(encoding="utf-8").split())
        assert "C:\\path\\file" in pdf and "\\end{document}" in pdf and "50% of $5 & #1" in pdf


ABSTRACT = (
    r"We reach 45.9\% with an $\ell_1$ penalty, 1.24$\times$ faster, $\theta \geq 0$, $\Omega(n)$,"
    r" $O(\log n)$ for \$5, M$^2$LE and M²LE, \textbf{bold} and \emph{it}."
)


def test_unicode_form_writes_the_abstract_as_unicode_text():
    import bibtexparser

    record = Record(key="k2026", title="M²LE: θ-bounds", abstract=ABSTRACT, venue="NeurIPS", year=2026)
    text = exporter.export([Paper(record)], UNICODE)
    (entry,) = bibtexparser.parse_string(text).entries
    abstract = entry.fields_dict["abstract"].value
    for wanted in ("45.9\\%", "ℓ₁", "1.24×", "θ≥", "Ω(n)", "O(log n)", "\\$${}$5", "M²LE and M²LE", "bold and it."):
        assert wanted in abstract, (wanted, abstract)
    # none of what Zotero's BibTeX import mangles: math, \log, \theta, \Omega, \textbf (its
    # dollars are the escaped one and the empty formula after it, the pair the translator drops)
    assert abstract.count("$") == 3 and abstract.count("\\$") == 1 and "\\log" not in abstract and "\\textbf" not in abstract and "\\theta" not in abstract
    assert entry.fields_dict["title"].value == "{M²LE}: θ-bounds"
    # the default stays pure ASCII
    assert exporter.export([Paper(record)], EVERYTHING).isascii()


@pytest.mark.tools
def test_unicode_form_through_biber(tmp_path):
    if not shutil.which("biber"):
        pytest.skip("biber not installed")
    record = Record(key="k2026", title="M²LE: θ-bounds", abstract=ABSTRACT, venue="NeurIPS", year=2026,
                    authors=(Person("Müller", "Jürgen"),))
    (tmp_path / "refs.bib").write_text(exporter.export([Paper(record)], UNICODE), encoding="utf-8")
    tex = ("\\documentclass{article}\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}"
           "\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n")
    (tmp_path / "doc.tex").write_text(tex, encoding="utf-8")
    engine = "lualatex" if shutil.which("lualatex") else "pdflatex"
    subprocess.run([engine, "-interaction=nonstopmode", "doc"], cwd=tmp_path, capture_output=True, timeout=300)
    out = subprocess.run(["biber", "doc"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:]
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8")
    assert "Müller" in bbl and "M²LE" in bbl and "θ" in bbl
    assert "WARN" not in out.stdout, out.stdout


@pytest.mark.parametrize("fmt, suffix", [("bibtex", ".bib"), ("csljson", ".json")])
def test_the_seeds_own_export_reimported_rewrites_no_paper_file(tmp_path, seed_paths, fmt, suffix):
    from readinglist.jobs import export_papers, import_files
    from readinglist.store import Store

    store = Store.open(tmp_path / "lib")
    import_files(store, seed_paths, config=CONFIG, format="abstracts")
    store.set_note("m2le2026", "C:\\path\\file & 50% -- {x}\n\nsecond paragraph")
    store.rate("m2le2026", 4)
    before = {p.name: p.read_bytes() for p in (tmp_path / "lib" / "papers").glob("*.toml")}
    assert "M²LE" in before["m2le2026.toml"].decode()
    export = tmp_path / f"all{suffix}"
    export.write_text(export_papers(list(store), config=CONFIG, format=fmt, with_status=True, with_notes=True), encoding="utf-8")
    import_files(Store.open(tmp_path / "lib"), [export], config=CONFIG)
    after = {p.name: p.read_bytes() for p in (tmp_path / "lib" / "papers").glob("*.toml")}
    rewritten = sorted(name for name in before if after[name] != before[name])
    assert rewritten == []
