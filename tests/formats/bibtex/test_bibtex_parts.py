"""BibtexImporter.parse_parts: a large .bib's records are made part by part (PART entries each)
as the import stores them. The parts joined are what one whole parse makes (records, skips,
states, warnings in order), the whole file is checked before any part is made, and the
import writes the same store whatever the part size."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.errors import InputError
from readinglist.formats.bibtex import reader
from readinglist.formats.registry import ImportOptions
from readinglist.jobs import import_files
from readinglist.store import Store

CONFIG = default_config()
OPTIONS = ImportOptions(CONFIG)
WORDS = "sparse attention graph kernel robust policy gradient latent diffusion token budget".split()


def _entry(rng: random.Random, key: str) -> str:
    """One entry written here: some with reader state, some without title and abstract, some
    using an @string macro defined at the end of the file."""
    kind = rng.randrange(6)
    title = " ".join(rng.choices(WORDS, k=4)).capitalize()
    abstract = " ".join(rng.choices(WORDS, k=30)) + "."
    if kind == 0:
        return f"@misc{{{key},\n  note = {{nothing to import}},\n}}\n"
    fields = [f"title = {{{title}}}", f"abstract = {{{abstract}}}", "year = {2026}"]
    if kind == 1:
        fields += ["readstatus = {read}", "priority = {prio2}"]
    if kind == 2:
        fields.append("booktitle = conf")
    if kind == 3:
        fields.append("author = {Doe, Jane and Roe, Richard}")
    return f"@inproceedings{{{key},\n  " + ",\n  ".join(fields) + ",\n}\n"


def _bib(seed: int, n: int, *, duplicate: bool = True) -> str:
    rng = random.Random(seed)
    keys = [f"k{i}" for i in range(n)]
    if duplicate and n > 2:
        keys[rng.randrange(1, n)] = keys[0]  # a key used again: warned, the first one kept
    return "\n".join(_entry(rng, key) for key in keys) + '\n@string{conf = "Conference on Tests"}\n'


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 30), part=st.integers(1, 8), kept=st.sampled_from([0, 10, 100]))
def test_the_parts_joined_are_the_whole_parse(seed, n, part, kept):
    text = _bib(seed, n)
    whole = reader.importer.parse(text, source="l.bib", options=OPTIONS)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(reader, "PART", part)
        m.setattr(reader, "KEPT", kept)  # (0: the file split again for its parts)
        parts = list(reader.importer.parse_parts(text, source="l.bib", options=OPTIONS))
    assert all(len(p.records) + len(p.skipped) <= part for p in parts)
    assert tuple(r for p in parts for r in p.records) == whole.records
    assert tuple(s for p in parts for s in p.skipped) == whole.skipped
    assert {k: v for p in parts for k, v in p.states.items()} == whole.states
    assert tuple(w for p in parts for w in p.warnings) == whole.warnings


def test_a_broken_entry_anywhere_refuses_the_file_before_a_part_is_made(monkeypatch):
    monkeypatch.setattr(reader, "PART", 2)
    text = _bib(1, 9, duplicate=False) + "@misc{bad, title = {unclosed\n\n@misc{late, title = {Late}}\n"
    with pytest.raises(InputError, match=r"^l\.bib:\d+: .*'@misc\{bad, title = \{unclosed'"):
        reader.importer.parse_parts(text, source="l.bib", options=OPTIONS)  # (not iterated: checked now)


def test_the_store_is_the_same_whatever_the_part_size(tmp_path, monkeypatch):
    bib = tmp_path / "l.bib"
    bib.write_text(_bib(7, 40), encoding="utf-8")

    def store(name: str) -> dict[str, bytes]:
        root = tmp_path / name
        report = import_files(lambda: Store.open(root, config=CONFIG, clock=lambda: "2026-11-30T06:15:00Z"), [bib], config=CONFIG)
        assert report.added and any("used again" in w for w in report.warnings)
        return {p.name: p.read_bytes() for p in (root / "papers").glob("*.toml")}

    whole = store("whole")
    monkeypatch.setattr(reader, "PART", 3)
    assert store("parts") == whole
    monkeypatch.setattr(reader, "KEPT", 5)  # split again for the parts
    assert store("split-again") == whole


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 30), chunk=st.sampled_from([5, 64, 1 << 20]), kept=st.sampled_from([0, 100]))
def test_a_file_read_piece_by_piece_parses_as_its_whole_text(tmp_path_factory, seed, n, chunk, kept):
    from readinglist.convert import textfile

    path = tmp_path_factory.mktemp("bib") / "l.bib"
    text = _bib(seed, n).replace("\n", "\r\n" if seed % 2 else "\n")
    path.write_bytes(text.encode("utf-8"))
    whole = list(reader.importer.parse_parts(text, source="l.bib", options=OPTIONS))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(textfile, "CHUNK", chunk)  # (bytes read at a time)
        m.setattr(reader, "KEPT", kept)  # (0: the file read again for its parts)
        assert list(reader.importer.parse_path_parts(path, source="l.bib", options=OPTIONS)) == whole


def test_a_file_changed_before_it_is_read_again_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "KEPT", 0)  # read again for its parts
    path = tmp_path / "l.bib"
    path.write_text(_bib(3, 12, duplicate=False), encoding="utf-8")
    parts = reader.importer.parse_path_parts(path, source="l.bib", options=OPTIONS)
    path.write_text(_bib(4, 12, duplicate=False), encoding="utf-8")
    with pytest.raises(InputError, match=r"^l\.bib: the file changed while it was imported"):
        list(parts)
