"""No export tells where the user keeps their files: a store whose sources are absolute paths
(lists imported from outside the project) exports them by file name and line, in every format
(the BibTeX comment line, and so the HTML page's snippets; CSL-JSON's custom.sources), and
reconcile records the official file it read the same way."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.formats.exporting import shared_source
from readinglist.formats.registry import all_exporters
from readinglist.jobs import export_papers
from readinglist.record import Record, Source
from readinglist.store import Store

CONFIG = default_config()
HOME = "/home/alice/private-notes/lists"
WINDOWS = "C:\\Users\\alice\\Documents\\lists"


ABSTRACTS = [
    "We train vision transformers on satellite images of crops and report yield forecasts.",
    "A benchmark of legal questions from European courts, with a leaderboard for language models.",
    "Sparse Gaussian processes with inducing points scale Bayesian optimisation to large budgets.",
]


def _store(tmp_path) -> Store:
    records = [
        Record(
            key=f"paper{i}2026",
            title=f"Paper number {i}: a study",
            shorttitle=f"Paper{i}" if i % 2 else None,
            abstract=ABSTRACTS[i],
            venue="NeurIPS",
            year=2026,
            tags=("llm",),
            generated=frozenset({"key", "title", "tags"}),
            sources=(Source(f"{HOME}/000_list.txt", paragraph=i + 1, line=10 * i + 3), Source(f"{WINDOWS}\\old.txt", line=7)),
        )
        for i in range(3)
    ]
    store = Store.open(tmp_path / "lib", config=CONFIG)
    store.import_records(records)
    return store


@pytest.mark.parametrize("unicode", [False, True])
@pytest.mark.parametrize("name", sorted(e.name for e in all_exporters()))
def test_no_export_holds_an_absolute_path(tmp_path, name, unicode):
    store = _store(tmp_path)
    text = export_papers(list(store), config=CONFIG, format=name, with_status=True, with_notes=True, unicode=unicode)
    for private in ("/home/alice", "private-notes", "Users", "alice"):
        assert private not in text, (name, private)
    if name in ("bibtex", "html"):
        assert "000_list.txt:13 (paragraph 2); old.txt:7" in text  # the file and line still named
    if name == "csljson":
        assert json.loads(text)[1]["custom"]["sources"] == ["000_list.txt:13 (paragraph 2)", "old.txt:7"]


def test_a_project_relative_source_is_kept_as_it_is():
    assert shared_source(Source("seeds/000_list.txt", paragraph=2, line=5)) == "seeds/000_list.txt:5 (paragraph 2)"
    for outside in ("/srv/x/000_list.txt", "~/000_list.txt", "../../000_list.txt", "D:\\x\\000_list.txt", "\\\\host\\s\\000_list.txt"):
        assert shared_source(Source(outside, line=5)) == "000_list.txt:5"


@given(st.lists(st.text("abc/\\:.~ ", min_size=1, max_size=8), min_size=1, max_size=5), st.text("abcxyz_", min_size=1, max_size=8))
def test_shared_source_never_shows_a_folder_of_an_absolute_path(folders, name):
    path = "/" + "/".join(folders) + "/" + name + ".txt"
    shown = shared_source(Source(path, line=1))
    assert shown == f"{name}.txt:1"


def test_reimported_export_keeps_the_named_sources(tmp_path):
    """The BibTeX and CSL-JSON importers read the sources back as the export names them."""
    from readinglist.formats.registry import ImportOptions, find_importer

    store = _store(tmp_path)
    for fmt in ("bibtex", "csljson"):
        text = export_papers(list(store), config=CONFIG, format=fmt)
        records = find_importer(fmt).parse(text, source="x", options=ImportOptions(CONFIG)).records
        assert [str(s) for s in records[0].sources] == ["000_list.txt:3 (paragraph 1)", "old.txt:7"], fmt


def test_reconcile_records_the_official_file_by_name(tmp_path):
    """reconcile's write: the official file, outside the project, is named by its file name in
    the paper files (and so in every later export)."""
    from readinglist.reconciler import load_official, reconcile

    store = _store(tmp_path)
    outside = tmp_path / "Downloads" / "deep" / "official.bib"
    outside.parent.mkdir(parents=True)
    paper = store.get("paper12026").record
    outside.write_text(
        "@inproceedings{off1,\n  author = {Doe, Jane},\n  title = {The official title},\n"
        f"  booktitle = {{Advances in Neural Information Processing Systems}},\n  year = {{2026}},\n"
        f"  abstract = {{{paper.abstract}}}\n}}\n",
        encoding="utf-8",
    )
    official = load_official(outside, config=CONFIG)
    report = reconcile(store, official.records, config=CONFIG)
    assert [key for key, _, _ in report.matched] == ["paper12026"]
    written = (store.papers_dir / "paper12026.toml").read_text(encoding="utf-8")
    assert "official.bib" in written and str(outside.parent) not in written and "Downloads" not in written
    assert [s.file for s in store.get("paper12026").record.sources][-1] == "official.bib"
