"""The .bib as a reader of the PDF sees it: typeset with the README's sequences, read back with
pdftotext. Authorless (generated) papers get no author and are cited by their name, each title is printed
once, the bibliography is in the order of what each entry starts with, the venue year is printed once, proper nouns keep their
capitals, no "Please rerun", and --with-status gives biber no data-model warning."""

from __future__ import annotations

import re
import shutil
import subprocess

from dataclasses import replace

import pytest

from readinglist.config import default_config
from readinglist.formats.bibtex.writer import exporter
from readinglist.formats.registry import ExportOptions
from readinglist.record import Paper, Person, Record

pytestmark = pytest.mark.tools

CONFIG = default_config()
GEN = frozenset({"key", "title", "shorttitle", "tags"})

PAPERS = [
    Paper(Record(key="canvit2026", title="CanViT: a task- and policy-agnostic active-vision foundation model",
                 shorttitle="CanViT", venue="NeurIPS", year=2026, generated=GEN), status="read", rating=4, priority=1),
    Paper(Record(key="benchmarkevaluating2026",
                 title="Benchmark for evaluating legal reasoning on judgments of the European Court of Human Rights",
                 venue="NeurIPS", year=2026, generated=GEN - {"shorttitle"}), status="reading"),
    Paper(Record(key="zeta2026", title="Zeta: Markov chains for Gaussian processes", shorttitle="Zeta",
                 venue="NeurIPS", year=2026, generated=GEN)),
    Paper(Record(key="doe2026editing", title="Knowledge Editing in Large Language Models", venue="ICML", year=2026,
                 authors=(Person("Doe", "Jane"),))),
]

#: The README's preamble line for --with-status exports (biber drops JabRef's fields quietly).
SOURCEMAP = (
    "\\DeclareSourcemap{\\maps[datatype=bibtex]{\\map{\\step[fieldset=readstatus, null]"
    "\\step[fieldset=priority, null]\\step[fieldset=ranking, null]}}}"
)
BIBLATEX = (
    "\\documentclass{article}\n\\usepackage[backend=biber]{biblatex}\n%s\n\\addbibresource{refs.bib}\n"
    "\\begin{document}\n\\textcite{canvit2026} and \\textcite{benchmarkevaluating2026} and \\textcite{doe2026editing}.\n"
    "\\nocite{*}\n\\printbibliography\n\\end{document}\n"
)
NATBIB = (
    "\\documentclass{article}\n\\usepackage{natbib}\n\\begin{document}\n"
    "\\citet{canvit2026} and \\citet{doe2026editing} and \\citep{zeta2026}.\n\\nocite{*}\n"
    "\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n"
)


def _need(*programs):
    for program in programs:
        if not shutil.which(program):
            pytest.skip(f"{program} not installed")


def _run(argv, cwd) -> str:
    out = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=300)
    assert out.returncode == 0, (argv, out.stdout[-3000:])
    return out.stdout


def _typeset(folder, backend: str) -> tuple[str, str]:
    """The README's sequence: pdflatex, the backend, pdflatex, pdflatex; the backend's output and
    the text of the PDF."""
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    _run(latex, folder)
    backend_out = _run([backend, "doc"], folder)
    _run(latex, folder)
    _run(latex, folder)
    log = (folder / "doc.log").read_text(encoding="latin-1")
    assert not re.search(r"rerun", log, re.I), "pdflatex asks for another run"
    _run(["pdftotext", "-layout", "doc.pdf", "doc.txt"], folder)
    return backend_out, " ".join((folder / "doc.txt").read_text(encoding="utf-8").split())


TITLES = [p.record.title for p in PAPERS]


def _biblatex_doc(style: str, preamble: str = "") -> str:
    return BIBLATEX.replace("[backend=biber]", f"[backend=biber,style={style}]") % preamble


def _natbib_doc(style: str) -> str:
    return NATBIB.replace("{plainnat}", "{" + style + "}")


def _references(text: str) -> str:
    return text[text.index("References") :]


def _flat(text: str) -> str:
    """Text compared as printed: whitespace collapsed, a hyphen's line break undone, case folded
    (plainnat lowercases titles)."""
    return re.sub(r"-\s+", "-", " ".join(text.split())).casefold()


def _in_print(title: str, text: str) -> int:
    """How often ``title`` is printed in ``text``."""
    return _flat(text).count(_flat(title))


@pytest.mark.parametrize("style", ["authoryear", "numeric"])
@pytest.mark.parametrize("with_status", [False, True])
def test_biblatex_styles_read_right(tmp_path, style, with_status):
    """No author is printed for an authorless paper; the entry starts with its name (label) or
    its title, each title is printed once, and \\textcite names the paper."""
    _need("pdflatex", "biber", "pdftotext")
    options = ExportOptions(config=CONFIG, with_status=with_status, with_notes=with_status)
    bib = exporter.export(PAPERS, options)
    assert bib.count("author = ") == 1  # Doe's only: no invented author
    (tmp_path / "refs.bib").write_text(bib, encoding="ascii")
    (tmp_path / "doc.tex").write_text(_biblatex_doc(style, SOURCEMAP if with_status else ""), encoding="ascii")
    biber, text = _typeset(tmp_path, "biber")
    assert "WARN" not in biber, biber
    assert [p for p in _problems(tmp_path / "doc.log")] == []
    refs = _references(text)
    for title in TITLES:
        assert _in_print(title, refs) == 1, (title, refs)
    if style == "authoryear":
        assert re.search(r"^CanViT \(2026\) and “Benchmark for evaluating legal reasoning on judgments of the European"
                         r" Court of Human Rights” \(2026\) and Doe \(2026\)\.", text), text[:300]
        # the named paper's entry starts with its name, unquoted, then its title
        assert "canvit (2026). “canvit: a task-and policy-agnostic" in _flat(refs), refs
        starts = re.findall(r"(?:^References|\. (?:2026|NeurIPS)\.) “?([A-Z]\w*)", refs)
    else:
        assert re.search(r"^“CanViT” \[\d\] and “Benchmark for evaluating legal reasoning on judgments of the European"
                         r" Court of Human Rights” \[\d\] and Doe \[\d\]\.", text), text[:300]
        starts = re.findall(r"\[\d\] “?(\w+)", refs)
    assert "Authors of" not in text
    assert "2026. 2026" not in text and "NeurIPS 2026" not in text
    # the bibliography in the order of what each entry starts with
    assert starts == sorted(starts, key=str.casefold), starts
    assert "Markov" in refs and "Gaussian" in refs and "European Court of Human Rights" in refs


def _problems(path) -> list[str]:
    text = path.read_text(encoding="latin-1")
    return [line for line in text.splitlines() if re.search(r"warning|error", line, re.I)
            and not re.search(r"infwarerr|Providing info/warning/error", line)]


@pytest.mark.parametrize("style", ["plainnat", "abbrvnat"])
def test_natbib_styles_read_right(tmp_path, style):
    """plainnat/abbrvnat print an authorless entry's ``key`` where the author would stand and
    label it by it without its year: a named paper reads "CanViT. CanViT: ..." and is cited as
    "CanViT"; their @inproceedings requires an author, so each authorless entry, and nothing
    else, gets bibtex's "empty author" warning (README: `[export] anonymous_author`)."""
    _need("pdflatex", "bibtex", "pdftotext")
    (tmp_path / "refs.bib").write_text(exporter.export(PAPERS, ExportOptions(config=CONFIG)), encoding="ascii")
    (tmp_path / "doc.tex").write_text(_natbib_doc(style), encoding="ascii")
    _, text = _typeset(tmp_path, "bibtex")
    warnings = [line for line in (tmp_path / "doc.blg").read_text().splitlines() if line.startswith("Warning--")]
    assert sorted(warnings) == [f"Warning--empty author in {p.key}" for p in sorted(PAPERS, key=lambda p: p.key)
                                if not p.record.authors]
    assert _problems(tmp_path / "doc.log") == []
    assert re.match(r"CanViT and Doe [(\[]2026[)\]] and \[Zeta\]\.", text), text[:200]
    assert "Authors of" not in text
    refs = _references(text)
    for paper in PAPERS:
        if paper.record.shorttitle or paper.record.authors:  # named or authored: the title once
            assert _in_print(paper.record.title, refs) == 1, (paper.record.title, refs)
    assert "canvit. canvit: a task-and policy-agnostic" in _flat(refs), refs
    # plainnat lowercases titles: the proper nouns of generated titles keep their capitals
    assert "Markov chains for Gaussian processes" in refs
    assert "European Court of Human Rights" in refs


def test_a_configured_placeholder_author_silences_plainnat(tmp_path):
    """`[export] anonymous_author = "{name}"`: the placeholder author (declared as generated)
    gives plainnat a name and year to cite and no warning."""
    _need("pdflatex", "bibtex", "pdftotext")
    config = replace(CONFIG, anonymous_author="{name}")
    bib = exporter.export(PAPERS, ExportOptions(config=config))
    assert "% key, title, shorttitle, tags and author of canvit2026 generated by readinglist" in bib
    (tmp_path / "refs.bib").write_text(bib, encoding="ascii")
    (tmp_path / "doc.tex").write_text(NATBIB, encoding="ascii")
    bibtex, text = _typeset(tmp_path, "bibtex")
    assert "Warning" not in bibtex, bibtex
    assert re.match(r"CanViT [(\[]2026[)\]] and Doe [(\[]2026[)\]] and [(\[]Zeta, 2026[)\]]\.", text), text[:200]


def test_pandoc_reads_authorless_entries_without_an_author(tmp_path):
    """pandoc's BibTeX reader and citeproc: no author, each title printed once, cited by title."""
    import json

    _need("pandoc")
    (tmp_path / "refs.bib").write_text(exporter.export(PAPERS, ExportOptions(config=CONFIG)), encoding="ascii")
    out = subprocess.run(["pandoc", "-f", "bibtex", "-t", "csljson", "refs.bib"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    items = {i["id"]: i for i in json.loads(out.stdout)}
    assert [k for k, i in items.items() if "author" in i] == ["doe2026editing"]
    assert items["canvit2026"]["title-short"] == "CanViT"
    (tmp_path / "doc.md").write_text("---\nbibliography: refs.bib\n---\n@canvit2026 says.\n\n# References\n", encoding="utf-8")
    out = subprocess.run(["pandoc", "--citeproc", "-t", "plain", "--wrap=none", "doc.md"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    refs = out.stdout[out.stdout.index("References") :]
    assert _in_print("CanViT: a task- and policy-agnostic active-vision foundation model", refs) == 1, refs
