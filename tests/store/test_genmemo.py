"""The memo of generated fields (store/genmemo.py): a re-import generates only the abstracts it has
not seen, with the same result as generating them; a changed generator regenerates every field
still equal to its generated value; a memo that cannot be used is not used."""

from __future__ import annotations

import shutil

import pytest
from helpers import ABSTRACTS, CONFIG
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert import pipeline, version
from readinglist.jobs import import_files
from readinglist.store import Store
from readinglist.store.genmemo import NAME, GenerationMemo

CLOCK = lambda: "2026-11-30T06:15:00Z"  # noqa: E731


def _list(abstracts: list[str]) -> str:
    return "NeurIPS 2026\n\n" + "\n\n".join(abstracts) + "\n"


def _files(root) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (root / "papers").glob("*.toml")}


@pytest.fixture
def generated(monkeypatch) -> list[str]:
    """The abstracts pipeline.generate_fields is called on (in this process: one process imports)."""
    calls: list[str] = []
    real = pipeline.generate_fields
    monkeypatch.setattr(pipeline, "generate_fields", lambda abstract, *a, **k: calls.append(abstract) or real(abstract, *a, **k))
    return calls


def test_a_reimport_generates_only_new_or_edited_abstracts_and_stores_what_generating_would(tmp_path, generated):
    listing = tmp_path / "list.txt"
    listing.write_text(_list(ABSTRACTS[:12]), encoding="utf-8")
    import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
    assert len(generated) == 12
    before = _files(tmp_path / "s")
    generated.clear()
    report = import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
    assert generated == [] and len(report.unchanged) == 12 and _files(tmp_path / "s") == before
    # two abstracts edited, one added: those three generated, nothing else
    edited = ABSTRACTS[:12]
    edited[3] = edited[3] + " Code and data are released."
    edited[7] = edited[7].replace(" the ", " a ", 1)
    listing.write_text(_list([*edited, ABSTRACTS[20]]), encoding="utf-8")
    shutil.copytree(tmp_path / "s", tmp_path / "copy")
    (tmp_path / "copy" / ".cache" / NAME).unlink()  # the same import, generating everything
    import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
    assert sorted(generated) == sorted([edited[3], edited[7], ABSTRACTS[20]])
    generated.clear()
    import_files(Store.open(tmp_path / "copy", clock=CLOCK), [listing], config=CONFIG)
    assert len(generated) == 13
    assert _files(tmp_path / "s") == _files(tmp_path / "copy") != before


def test_a_changed_generator_regenerates_generated_fields_and_keeps_edited_ones(tmp_path, monkeypatch, generated):
    listing = tmp_path / "list.txt"
    listing.write_text(_list(ABSTRACTS[:4]), encoding="utf-8")
    import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
    store = Store.open(tmp_path / "s")
    papers = sorted(store, key=lambda p: p.key)
    edited_key = papers[0].key
    store.replace_record(edited_key, papers[0].record.evolve(title="My Own Title", generated=papers[0].record.generated - {"title"}))
    # a better generator: its version changes (a model file or its code did), and so do its titles
    real = pipeline.generate_fields  # (the fixture's: it counts the calls)
    monkeypatch.setattr(version, "code_version", lambda: b"a newer generator")
    monkeypatch.setattr(pipeline, "generate_fields", lambda a, *rest, **k: (lambda f: (f[0], "Improved: " + f[1], *f[2:]))(real(a, *rest, **k)))
    generated.clear()
    report = import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
    assert len(generated) == 4 and len(report.updated) == 3
    titles = {p.key: p.record.title for p in Store.open(tmp_path / "s")}
    assert titles[edited_key] == "My Own Title"
    assert all(t.startswith("Improved: ") for k, t in titles.items() if k != edited_key)
    generated.clear()  # and the new generator's fields are what the next re-import reuses
    assert len(import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG).unchanged) == 4
    assert generated == []


def test_the_generator_version_covers_the_models_code_and_taxonomy(tmp_path, monkeypatch):
    from dataclasses import replace

    assert version.generator_version(CONFIG) == version.generator_version(CONFIG)
    other = replace(CONFIG, taxonomy={**CONFIG.taxonomy, "newtag": ("new phrase",)})
    assert version.generator_version(other) != version.generator_version(CONFIG)
    assert version.generator_version(replace(CONFIG, max_tags=CONFIG.max_tags + 1)) != version.generator_version(CONFIG)
    # every tagger setting counts, the fallback tag included (it was left out once)
    assert version.generator_version(replace(CONFIG, min_score=CONFIG.min_score + 0.5)) != version.generator_version(CONFIG)
    assert version.generator_version(replace(CONFIG, fallback_tag=CONFIG.fallback_tag + "-x")) != version.generator_version(CONFIG)
    copy = tmp_path / "readinglist"
    shutil.copytree(version._CONVERT, copy / "convert")
    shutil.copytree(version._TEXT, copy / "text")
    monkeypatch.setattr(version, "_CONVERT", copy / "convert")
    monkeypatch.setattr(version, "_TEXT", copy / "text")
    first = version.code_version.__wrapped__()
    model = copy / "convert" / "data" / "title_forms.json"
    model.write_bytes(model.read_bytes().replace(b"{", b"{ ", 1))  # a retrained model
    second = version.code_version.__wrapped__()
    (copy / "text" / "plain.py").write_text("# changed\n" + (copy / "text" / "plain.py").read_text(encoding="utf-8"), encoding="utf-8")
    third = version.code_version.__wrapped__()
    stage = copy / "convert" / "titles" / "choice.py"  # a module of a subpackage is generation code too
    stage.write_text("# changed\n" + stage.read_text(encoding="utf-8"), encoding="utf-8")
    fourth = version.code_version.__wrapped__()
    (copy / "convert" / "train_names.py").write_text("# a training script\n", encoding="utf-8")
    assert len({first, second, third, fourth}) == 4 and version.code_version.__wrapped__() == fourth


@pytest.mark.parametrize("damage", ["garbage", "folder", "link"])
def test_a_memo_that_cannot_be_used_is_not_used(tmp_path, generated, damage):
    listing = tmp_path / "list.txt"
    listing.write_text(_list(ABSTRACTS[:3]), encoding="utf-8")
    import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
    memo = tmp_path / "s" / ".cache" / NAME
    memo.unlink()
    if damage == "garbage":
        memo.write_bytes(b"not a database" * 100)
    elif damage == "folder":
        memo.mkdir()
    else:
        (tmp_path / "elsewhere").write_bytes(b"")
        memo.symlink_to(tmp_path / "elsewhere")
    generated.clear()
    report = import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
    assert len(report.unchanged) == 3 and len(generated) == 3
    if damage == "garbage":  # replaced by a working memo
        generated.clear()
        import_files(Store.open(tmp_path / "s", clock=CLOCK), [listing], config=CONFIG)
        assert generated == []
    else:
        assert (tmp_path / "elsewhere").read_bytes() == b"" if damage == "link" else memo.is_dir()


_FIELDS = st.tuples(st.none() | st.text(), st.text(), st.lists(st.text(), max_size=4).map(tuple), st.none() | st.text(), st.text())


@settings(max_examples=30, deadline=None)
@given(entries=st.dictionaries(st.text(), _FIELDS, max_size=20), generator=st.binary(min_size=1, max_size=16))
def test_the_memo_gives_back_what_it_was_given_for_its_generator_only(tmp_path_factory, entries, generator):
    folder = tmp_path_factory.mktemp("memo")
    memo = GenerationMemo.open(folder, generator)
    assert memo is not None
    for abstract, fields in entries.items():
        memo.add(abstract, fields)
    memo.close()
    abstracts = list(entries)
    again = GenerationMemo.open(folder, generator)
    assert again is not None
    assert again.lookup(abstracts + ["never seen"]) == dict(enumerate(entries.values()))
    again.close()
    other = GenerationMemo.open(folder, generator + b"x")
    assert other is not None and other.lookup(abstracts) == {}
    other.close()
