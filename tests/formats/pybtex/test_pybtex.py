"""readinglist's pybtex plugins, driven through pybtex's own ``pybtex-convert``."""

from __future__ import annotations

import codecs
import json
import shutil
import subprocess
import sys

from helpers import ROOT

from readinglist.config import default_config
from readinglist.formats.bibtex.writer import exporter as bibtex_exporter
from readinglist.formats.bibtex.writer import record_fields
from readinglist.formats.pybtex import (
    AbstractListParser,
    CslJsonWriter,
    MarkdownWriter,
    entry_to_record,
    record_to_entry,
)
from readinglist.formats.registry import ExportOptions
from readinglist.record import Paper, Person, Record

SEED = ROOT / "seeds" / "000_9fdd52dbfd5434f6.txt"
SCHEMA = json.loads((ROOT / "tests" / "data" / "csl-data.json").read_text(encoding="utf-8"))
CONFIG = default_config()

RECORDS = (
    Record(
        key="canvit2026",
        title="CanViT: Scaling Vision Transformers with LLMs",
        abstract=r"We reach 45.9\% mIoU with an $\ell_1$ penalty.",
        venue="NeurIPS",
        year=2026,
        shorttitle="CanViT",
        tags=("vision", "transformers"),
    ),
    Record(
        key="doe2026editing",
        title="Knowledge Editing in Large Language Models",
        abstract="Knowledge editing updates facts in LLMs.",
        venue="ICML",
        year=2026,
        authors=(Person("Doe", "Jane"), Person("Müller", "Hans Peter"), Person(literal="OpenAI Team")),
        doi="10.1234/abc.5",
        pages="1--10",
        tags=("llm",),
        fields=(("note", "Oral"),),
    ),
)


def pybtex_convert(*args, cwd):
    script = shutil.which("pybtex-convert")
    cmd = [script] if script else [sys.executable, "-m", "pybtex.database.convert"]
    return subprocess.run(cmd + [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_plugins_registered_with_pybtex():
    from pybtex.plugin import find_plugin

    assert find_plugin("pybtex.database.input", "abstracts") is AbstractListParser
    assert find_plugin("pybtex.database.input", filename="list.txt") is AbstractListParser
    assert find_plugin("pybtex.database.output", "csljson") is CslJsonWriter
    assert find_plugin("pybtex.database.output", filename="refs.json") is CslJsonWriter
    assert find_plugin("pybtex.database.output", "markdown") is MarkdownWriter
    assert find_plugin("pybtex.database.output", filename="list.md") is MarkdownWriter


def test_record_entry_round_trip():
    for record in RECORDS:
        entry = record_to_entry(record, CONFIG)
        back = entry_to_record(record.key, entry, CONFIG)
        assert back.title == record.title
        assert back.shorttitle == record.shorttitle
        assert (back.venue, back.year, back.tags) == (record.venue, record.year, record.tags)
        assert back.authors == record.authors
        assert (back.doi, back.pages, back.fields) == (record.doi, record.pages, record.fields)
        # same fields as the BibTeX export writes: one piece of code
        expected = dict(record_fields(record, ExportOptions(config=CONFIG)))
        expected.pop("author", None)
        assert dict(entry.fields) == expected


def test_bib_to_csljson_and_markdown(tmp_path):
    from jsonschema import Draft7Validator

    (tmp_path / "in.bib").write_text(
        bibtex_exporter.export([Paper(r) for r in RECORDS], ExportOptions(config=CONFIG)), encoding="utf-8"
    )
    proc = pybtex_convert("in.bib", "out.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert list(Draft7Validator(SCHEMA).iter_errors(data)) == []
    assert [item["id"] for item in data] == ["canvit2026", "doe2026editing"]
    assert data[0]["title"] == RECORDS[0].title  # protective braces gone
    assert data[0]["container-title"] == "Advances in Neural Information Processing Systems"
    assert data[0]["event-title"] == "NeurIPS 2026"
    assert data[0]["abstract"] == "We reach 45.9% mIoU with an ℓ₁ penalty."
    assert data[1]["author"][1] == {"family": "Müller", "given": "Hans Peter"}

    proc = pybtex_convert("in.bib", "out.md", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    md = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert md.startswith("# Reading list\n\n2 papers: 0 read, 2 to read.\n")
    assert md.count("\n- [ ] **") == 2 and "**CanViT: Scaling Vision Transformers with LLMs**" in md


def test_abstract_list_to_bibtex(tmp_path):
    import bibtexparser
    import latexcodec  # noqa: F401  (registers the "ulatex" codec pybtex's writer uses)
    from pybtex.database import parse_file

    from readinglist.convert import convert

    records = convert(SEED.read_text(encoding="utf-8"), source=SEED.name, config=CONFIG).records
    assert len(records) == 19
    shutil.copy(SEED, tmp_path / SEED.name)
    proc = pybtex_convert(SEED.name, "out.bib", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "out.bib").read_text(encoding="utf-8")
    data = parse_file(str(tmp_path / "out.bib"))
    assert list(data.entries) == [r.key for r in records]
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks and len(library.entries) == 19
    for record in records:
        entry = data.entries[record.key]
        ours = dict(record_fields(record, ExportOptions(config=CONFIG)))
        # pybtex's BibTeX writer runs every value through latexcodec although its parser keeps
        # values as LaTeX, so `\%` comes out as `\\%` (mcmtroffaes/latexcodec#54; pybtex-convert
        # a.bib b.bib does the same), and `_` inside math as `\_` (a generated title "$\ell${}$_{1}$
        # regularization ..."): exactly that, and nothing else, differs from our export.
        assert "author" not in ours and "author" not in entry.persons  # no authors in an abstract list
        assert dict(entry.fields) == {k: codecs.encode(v, "ulatex+utf-8") for k, v in ours.items()}
        for name in ("booktitle", "key", "year"):
            value = ours.get(name)
            if value is None or codecs.encode(value, "ulatex+utf-8") == value:  # else checked encoded above
                assert entry.fields.get(name) == value
        assert entry.type == "inproceedings" and entry.fields["year"] == "2026"

    # and on to CSL-JSON through pybtex again
    proc = pybtex_convert("out.bib", "out.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [i["id"] for i in json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))] == [
        r.key for r in records
    ]


def test_bad_input_is_one_line_error(tmp_path):
    """readinglist's reader checks the file; pybtex-convert prints its one-line message."""
    (tmp_path / "bad.txt").write_bytes(b"NeurIPS 2026\n\nabc \x00\x01 def\n")
    proc = pybtex_convert("bad.txt", "out.bib", cwd=tmp_path)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("ERROR: bad.txt: not a text file")
    assert not (tmp_path / "out.bib").exists()


def test_formats_by_name_whatever_the_suffixes(tmp_path):
    """-f abstracts / -t markdown|csljson select the plugins when suffixes do not."""
    (tmp_path / "list.abstracts").write_text(SEED.read_text(encoding="utf-8"), encoding="utf-8")
    proc = pybtex_convert("-f", "abstracts", "-t", "markdown", "list.abstracts", "out.txt", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    md = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert md.startswith("# Reading list\n\n19 papers: 0 read, 19 to read.\n")
    assert md.count("\n- [ ] **") == 19
    proc = pybtex_convert("-f", "abstracts", "-t", "csljson", "list.abstracts", "out.data", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads((tmp_path / "out.data").read_text(encoding="utf-8"))) == 19
