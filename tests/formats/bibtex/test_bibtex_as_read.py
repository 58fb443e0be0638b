"""The .bib as a reader of the PDF sees it: typeset with the README's sequences, read back with
pdftotext. Authorless (generated) papers are cited by their name, the bibliography is in the
order of what each entry starts with, the venue year is printed once, proper nouns keep their
capitals, no "Please rerun", and --with-status gives biber no data-model warning."""

from __future__ import annotations

import re
import shutil
import subprocess

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


@pytest.mark.parametrize("with_status", [False, True])
def test_biblatex_default_style_reads_right(tmp_path, with_status):
    _need("pdflatex", "biber", "pdftotext")
    options = ExportOptions(config=CONFIG, with_status=with_status, with_notes=with_status)
    (tmp_path / "refs.bib").write_text(exporter.export(PAPERS, options), encoding="ascii")
    (tmp_path / "doc.tex").write_text(BIBLATEX % (SOURCEMAP if with_status else ""), encoding="ascii")
    biber, text = _typeset(tmp_path, "biber")
    assert "WARN" not in biber, biber
    # \textcite of an authorless paper names it; of an authored one, its authors
    assert re.search(r"^CanViT \[\d\] and Benchmark for evaluating legal(…|\. \. \.) \[\d\] and Doe \[\d\]\.", text), text[:300]
    assert "Authors of" not in text
    assert "2026. 2026" not in text and "NeurIPS 2026" not in text
    # the bibliography in the order of what each entry starts with
    bib = text[text.index("References") :]
    starts = re.findall(r"\[\d\] (\S+)", bib)
    assert starts == sorted(starts, key=str.casefold), starts
    assert "Markov" in bib and "Gaussian" in bib and "European Court of Human Rights" in bib


def test_natbib_plainnat_reads_right(tmp_path):
    _need("pdflatex", "bibtex", "pdftotext")
    (tmp_path / "refs.bib").write_text(exporter.export(PAPERS, ExportOptions(config=CONFIG)), encoding="ascii")
    (tmp_path / "doc.tex").write_text(NATBIB, encoding="ascii")
    bibtex, text = _typeset(tmp_path, "bibtex")
    assert "Warning" not in bibtex, bibtex
    assert re.match(r"CanViT [(\[]2026[)\]] and Doe [(\[]2026[)\]] and [(\[]Zeta, 2026[)\]]\.", text), text[:200]
    assert "Authors of" not in text
    # plainnat lowercases titles: the proper nouns of generated titles keep their capitals
    assert "Markov chains for Gaussian processes" in text
    assert "European Court of Human Rights" in text
