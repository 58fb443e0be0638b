"""Format plugins are found through entry points (built-ins exactly like third-party ones) or registered at run time."""

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


class _Keys:
    """A format both ways: one citation key per line."""

    name = "Keys"
    suffixes = (".keys",)
    description = "one citation key per line"

    def export(self, papers, options):
        return "".join(p.key + "\n" for p in papers)

    def parse(self, text, *, source, options):
        from readinglist.record import ImportResult

        return ImportResult(records=tuple(Record(key=k, title=k.upper()) for k in text.split()))


@pytest.fixture
def run_time(monkeypatch):
    """The run-time registrations of this test only."""
    monkeypatch.setattr(plugins, "_registered", {plugins.IMPORTERS: {}, plugins.EXPORTERS: {}})


def test_a_format_registered_at_run_time_is_found_as_an_installed_one(run_time, tmp_path):
    from readinglist.formats.registry import find_importer
    from readinglist.jobs import export_papers, import_files
    from readinglist.store import Store

    keys = _Keys()
    with pytest.raises(UnknownFormatError):
        find_exporter("keys")
    plugins.register(keys)
    assert find_exporter("keys") is keys and find_exporter("KEYS") is keys and find_exporter(path="all.keys") is keys
    assert find_importer("keys") is keys and find_importer(path="in.keys") is keys
    assert "keys" in plugins.exporter_names() and "keys" in plugins.importer_names() and "bibtex" in plugins.exporter_names()
    assert keys in plugins.all_exporters() and list(plugins.exporter_names()) == sorted(plugins.exporter_names())
    with pytest.raises(UnknownFormatError, match="keys"):  # the miss message names it too
        find_exporter("nope")
    papers = [Paper(Record(key=k, title=k)) for k in ("b2026", "a2026")]
    assert export_papers(papers, config=default_config(), path="out.keys") == "b2026\na2026\n"
    source = tmp_path / "in.keys"
    source.write_text("x2026 y2026\n", encoding="utf-8")
    store = Store.open(tmp_path / "library")
    import_files(store, [source], config=default_config())
    assert store.keys() == ["x2026", "y2026"]
    plugins.clear_cache()  # forgetting the entry points keeps the registered formats
    assert find_exporter("keys") is keys and find_exporter("bibtex").name == "bibtex"


def test_a_taken_name_is_refused_unless_forced(run_time):
    builtin = find_exporter("bibtex")
    other = _Keys()
    with pytest.raises(ValueError, match="'bibtex' is known already"):
        plugins.register(other, name="bibtex")
    assert find_exporter("bibtex") is builtin
    plugins.register(other, name="bibtex", force=True)
    assert find_exporter("bibtex") is other and find_exporter(path="refs.keys") is other
    plugins.register(_Keys())
    with pytest.raises(ValueError, match="exporter named 'keys' is known already"):
        plugins.register(_Keys())
    for not_a_format in (object(), type("NoSuffixes", (), {"name": "x", "export": lambda self, p, o: ""})()):
        with pytest.raises(ValueError):
            plugins.register(not_a_format)
