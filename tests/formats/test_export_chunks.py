"""Streamed exports: the built-in exporters give their text in pieces (export_chunks), which the
CLI writes as they come; joined, the pieces are exactly the one-piece text, whatever the size of
a piece."""

from __future__ import annotations

import json

import pytest
from helpers import ABSTRACTS, CONFIG

from readinglist.formats.bibtex import writer as bibtex_writer
from readinglist.formats.csljson import writer as csljson_writer
from readinglist.formats.markdown import writer as markdown_writer
from readinglist.formats.registry import ExportOptions, find_exporter
from readinglist.jobs import export_chunks
from readinglist.record import Event, Paper, Record, Source

MODULES = {"bibtex": bibtex_writer, "csljson": csljson_writer, "markdown": markdown_writer}


def _papers(n: int) -> list[Paper]:
    out = []
    for i in range(n):
        record = Record(
            key=f"paper{i:03d}",
            title=f"Title {i}: 50% of $\\ell_1$ & more",
            abstract=ABSTRACTS[i % len(ABSTRACTS)],
            venue="NeurIPS" if i % 2 else "ICML",
            year=2026,
            tags=(("llm",), ("vision", "llm"), ())[i % 3],
            generated=frozenset({"key", "title", "tags"}),
            sources=(Source("seeds/x.txt", i + 1, 2 * i + 3),),
        )
        status = ("unread", "reading", "read")[i % 3]
        out.append(Paper(record, status=status, history=(Event("added", "2026-11-30T06:15:00Z"),), notes="note" if i % 4 == 0 else "",
                         priority=(None, 1, 2)[i % 3], rating=(None, 4)[i % 2]))  # fmt: skip
    return out


OPTIONS = [
    {},
    {"with_status": True, "with_notes": True},
    {"group_by": "tag", "with_notes": True},
    {"group_by": "status", "title": "Week 12"},
]


@pytest.mark.parametrize("name", sorted(MODULES))
@pytest.mark.parametrize("n", [0, 1, 7])
def test_pieces_join_to_the_one_piece_text(name, n, monkeypatch):
    exporter = find_exporter(name)
    papers = _papers(n)
    for opts in OPTIONS:
        options = ExportOptions(config=CONFIG, **opts)
        monkeypatch.setattr(MODULES[name], "CHUNK", 10**6)
        whole = list(exporter.export_chunks(papers, options))
        monkeypatch.setattr(MODULES[name], "CHUNK", 2)
        pieces = list(exporter.export_chunks(papers, options))
        assert "".join(pieces) == "".join(whole) == exporter.export(papers, options)
        if n == 7 and name != "markdown":
            assert len(pieces) >= 4  # really in pieces


def test_streamed_csljson_is_the_json_dump_of_the_items(monkeypatch):
    monkeypatch.setattr(csljson_writer, "CHUNK", 3)
    options = ExportOptions(config=CONFIG, with_status=True)
    papers = _papers(8)
    text = find_exporter("csljson").export(papers, options)
    items = [csljson_writer.paper_item(p, options) for p in papers]
    assert text == json.dumps(items, indent=2, ensure_ascii=False) + "\n" and json.loads(text) == items


def test_streamed_bibtex_is_the_one_library_text(monkeypatch):
    """The reference: every entry in one bibtexparser library, written at once."""
    from bibtexparser.model import Entry, Field, ImplicitComment

    options = ExportOptions(config=CONFIG, with_status=True, with_notes=True)
    papers = _papers(9)
    blocks: list = []
    for paper in papers:
        if blocks:
            blocks.append(ImplicitComment(""))
        comment = bibtex_writer._comment(paper.record, options)
        if comment:
            blocks.append(ImplicitComment(comment))
        blocks.append(Entry(paper.record.entry_type, paper.key, [Field(k, v) for k, v in bibtex_writer.paper_fields(paper, options)]))
    monkeypatch.setattr(bibtex_writer, "CHUNK", 4)
    assert find_exporter("bibtex").export(papers, options) == bibtex_writer.write_with_bibtexparser(blocks)


def test_a_failing_export_fails_before_the_first_piece():
    papers = _papers(3)
    with pytest.raises(Exception, match="appears twice"):
        export_chunks(papers + papers[:1], config=CONFIG, format="bibtex")


def test_an_exporter_without_pieces_gives_one(monkeypatch):
    class Plain:
        name, suffixes, description = "plain", (".plain",), "one string"

        def export(self, papers, options):
            return "".join(p.key + "\n" for p in papers)

    monkeypatch.setattr("readinglist.formats.registry.find_exporter", lambda fmt, path=None: Plain())
    assert list(export_chunks(_papers(2), config=CONFIG, format="plain")) == ["paper000\npaper001\n"]


# -- the forked child that renders the second half of a large export (exporting.rendered) ------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from readinglist import forking  # noqa: E402
from readinglist.formats import exporting  # noqa: E402


@pytest.fixture
def forked(monkeypatch):
    """Every export of two pieces or more forks its child (a list of the children started)."""
    started: list = []
    real = forking.fork_writer

    def counting(work):
        child = real(work)
        started.append(child)
        return child

    monkeypatch.setattr(exporting, "FORK_MIN_PAPERS", 1)
    monkeypatch.setattr(forking, "fork_writer", counting)
    return started


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_forked_export_is_the_one_piece_text(name, forked, monkeypatch):
    exporter = find_exporter(name)
    papers = _papers(7)
    for opts in OPTIONS:
        options = ExportOptions(config=CONFIG, **opts, processes=2)
        monkeypatch.setattr(MODULES[name], "CHUNK", 10**6)
        whole = "".join(exporter.export_chunks(papers, options))
        monkeypatch.setattr(MODULES[name], "CHUNK", 2)
        assert "".join(exporter.export_chunks(papers, options)) == whole
    assert forked and all(child is not None for child in forked)


def _render(start: int, stop: int) -> str:
    return "".join(f"{i}:é\n" for i in range(start, stop))


@settings(max_examples=25, deadline=None)
@given(count=st.integers(0, 40), size=st.integers(1, 9))
def test_rendered_gives_every_piece_in_order(count, size):
    expected = "".join(_render(s, min(s + size, count)) for s in range(0, count, size))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(exporting, "FORK_MIN_PAPERS", 1)
        mp.setattr(exporting, "_READ_BACK", 5)  # read back in small pieces (a character split nowhere)
        assert "".join(exporting.rendered(count, size, _render, processes=2)) == expected


def test_an_error_in_the_childs_half_is_raised_here(forked):
    def render(start: int, stop: int) -> str:
        if start >= 6:
            raise ValueError(f"paper {start} cannot be written")
        return _render(start, stop)

    pieces = exporting.rendered(10, 2, render, processes=2)
    assert [next(pieces) for _ in range(3)] == [_render(0, 2), _render(2, 4), _render(4, 6)]
    with pytest.raises(ValueError, match="paper 6 cannot be written"):
        next(pieces)
    assert forked and forked[0] is not None


def test_the_first_piece_is_rendered_before_the_child_is_forked(monkeypatch, forked):
    """The child inherits what the first piece warmed (lazy imports, pylatexenc's converter,
    caches) instead of warming it again: that piece is rendered here before the fork, the
    others after it."""
    here: list[int] = []  # the pieces this process rendered (the child's are in its own memory)
    at_fork: list[list[int]] = []
    counting = forking.fork_writer

    def watching(work):
        at_fork.append(list(here))
        return counting(work)

    monkeypatch.setattr(forking, "fork_writer", watching)

    def render(start: int, stop: int) -> str:
        here.append(start)
        return _render(start, stop)

    assert "".join(exporting.rendered(10, 2, render, processes=2)) == _render(0, 10)
    assert at_fork == [[0]] and forked[0] is not None
    assert here == [0, 2]  # the child rendered 4, 6 and 8


def test_without_a_child_this_process_renders_everything(monkeypatch):
    monkeypatch.setattr(exporting, "FORK_MIN_PAPERS", 1)
    monkeypatch.setattr(forking, "fork_writer", lambda work: None)
    assert "".join(exporting.rendered(9, 2, _render, processes=2)) == _render(0, 9)


def test_an_export_stopped_early_leaves_no_child(forked):
    import os

    pieces = exporting.rendered(10, 2, _render, processes=2)
    assert next(pieces) == _render(0, 2)
    pieces.close()
    pid = forked[0][0]
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already waited for


def test_one_options_value_or_its_fields_give_one_export():
    from readinglist.jobs import export_papers

    papers = _papers(3)
    options = ExportOptions(config=CONFIG, with_status=True, with_notes=True, unicode=True)
    for name in sorted(MODULES):
        assert export_papers(papers, options, format=name) == export_papers(papers, config=CONFIG, format=name, with_status=True, with_notes=True, unicode=True)
    with pytest.raises(TypeError, match="given twice"):
        export_papers(papers, options, format="bibtex", with_status=True)
