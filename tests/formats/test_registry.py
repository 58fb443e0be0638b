"""Exporter plugins are found through entry points: built-ins exactly like third-party ones."""

from __future__ import annotations

import textwrap

import pytest

from readinglist.config import default_config
from readinglist.errors import UnknownFormatError
from readinglist.formats import registry as plugins
from readinglist.formats.registry import ExportOptions, find_exporter
from readinglist.record import Paper, Record

BUILTINS = {"bibtex": ".bib", "csljson": ".json", "markdown": ".md"}


@pytest.fixture(autouse=True)
def fresh_registry():
    plugins.clear_cache()
    yield
    plugins.clear_cache()


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_builtin_found_by_name_and_satisfies_protocol(name):
    exporter = find_exporter(name)
    assert exporter.name == name
    assert exporter.description
    assert all(s.startswith(".") for s in exporter.suffixes)
    assert name in plugins.exporter_names()


@pytest.mark.parametrize("name,suffix", sorted(BUILTINS.items()))
def test_builtin_found_by_suffix(name, suffix):
    assert find_exporter(path=f"out/list{suffix}").name == name
    assert find_exporter(path=f"LIST{suffix.upper()}").name == name  # suffixes are case-blind
    assert find_exporter(suffix.lstrip(".")).name == name  # a suffix given as a name


def test_name_beats_suffix():
    assert find_exporter("markdown", path="refs.bib").name == "markdown"


def test_unknown_name_lists_known_formats():
    with pytest.raises(UnknownFormatError) as err:
        find_exporter("docx")
    message = str(err.value)
    assert "'docx'" in message
    for name in BUILTINS:
        assert name in message
    assert set(BUILTINS) <= set(err.value.known)


def test_unknown_suffix_is_reported():
    with pytest.raises(UnknownFormatError, match=r"'\.docx'.*bibtex"):
        find_exporter(path="list.docx")


def test_builtins_export_text():
    paper = Paper(Record(key="doe2026", title="A Title", abstract="An abstract.", venue="ICML", year=2026))
    options = ExportOptions(config=default_config())
    for name in BUILTINS:
        text = find_exporter(name).export([paper], options)
        assert isinstance(text, str) and text.endswith("\n")
        assert "doe2026" in text


def _install_third_party(root):
    """A minimal installed distribution 'foo' declaring a readinglist exporter."""
    (root / "foo_readinglist.py").write_text(
        textwrap.dedent(
            """
            class KeysExporter:
                name = "foo"
                suffixes = (".keys",)
                description = "one citation key per line"

                def export(self, papers, options):
                    return "".join(p.key + "\\n" for p in papers)

            exporter = KeysExporter()
            """
        ),
        encoding="utf-8",
    )
    dist = root / "foo-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: foo\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(
        "[readinglist.exporters]\nfoo = foo_readinglist:exporter\n", encoding="utf-8"
    )


def test_third_party_exporter_is_discovered(tmp_path, monkeypatch):
    with pytest.raises(UnknownFormatError):
        find_exporter("foo")
    _install_third_party(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.clear_cache()

    exporter = find_exporter("foo")
    assert exporter.name == "foo"
    assert find_exporter(path="all.keys") is exporter
    assert "foo" in plugins.exporter_names() and "bibtex" in plugins.exporter_names()
    papers = [Paper(Record(key=k, title=k.upper())) for k in ("b2026", "a2026")]
    assert exporter.export(papers, ExportOptions(config=default_config())) == "b2026\na2026\n"
    # and the miss message now names it too
    with pytest.raises(UnknownFormatError, match="foo"):
        find_exporter("nope")


def test_export_leaves_the_garbage_collector_as_it_was():
    import gc

    from readinglist.errors import ValidationError

    paper = Paper(Record(key="doe2026", title="A Title"))
    options = ExportOptions(config=default_config())
    assert gc.isenabled()
    for name in BUILTINS:
        find_exporter(name).export([paper], options)
        assert gc.isenabled()
        with pytest.raises(ValidationError):
            find_exporter(name).export([paper, paper], options)  # duplicate key
        assert gc.isenabled()
    gc.disable()
    try:
        find_exporter("bibtex").export([paper], options)
        assert not gc.isenabled()
    finally:
        gc.enable()
