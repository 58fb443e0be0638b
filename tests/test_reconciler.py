"""readinglist.reconciler against an official .bib / .json made from the seed abstracts.

The official file holds perturbed copies of most seed abstracts (whitespace, LaTeX cleaned,
typos, a few words edited) with invented titles, authors and DOIs, plus decoys: abstracts on
the same topics that are different papers, "chimeras" glued from two seeds, and two pairs of
near-identical official entries that must be reported as ambiguous.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest
from helpers import ABSTRACTS, crlf, latex_cleaned, reflow, typos, word_edits

from readinglist.config import default_config
from readinglist.errors import InputError
from readinglist.formats.bibtex.reader import importer as bibtex_importer
from readinglist.formats.csljson.reader import importer as csljson_importer
from readinglist.formats.registry import ImportOptions
from readinglist.reconciler import ReconcileReport, load_official, reconcile
from readinglist.record import Person, Record, Source

CONFIG = default_config()
MATCHED = range(0, 30)  # seeds with one official entry each
MISSING = range(30, 34)  # seeds with no official entry (only decoys near them)
AMBIGUOUS = (34, 35)  # seeds with two near-identical official entries
REAL = (36, 37)  # papers whose title is not generated: never touched
PERTURB = [reflow, crlf, latex_cleaned, lambda t: typos(t, 2, 5), lambda t: word_edits(t, 3, 6), lambda t: t]

FAMILIES = ["Müller", "van der Berg", "Díaz", "Zhang", "O'Neil", "Nakamura"]

DECOYS = [
    # same topics as seeds, different papers
    "Large language models forget previously learned skills during continual instruction tuning. "
    "We study forgetting across model scales and show that replaying a small buffer of earlier tasks "
    "recovers most capabilities, while regularization-based methods fail at scale. We release a "
    "benchmark for continual instruction tuning of LLMs.",
    "Model merging combines independently fine-tuned models without retraining. We propose a merging "
    "method that aligns task vectors before averaging and resolves sign conflicts with a learned mask, "
    "outperforming task arithmetic and TIES-merging on eight vision and language benchmarks.",
    "Machine unlearning removes the influence of specific training data from a trained model. We "
    "introduce a certified unlearning procedure for vision transformers based on influence functions "
    "and evaluate it against membership inference attacks on CIFAR-100 and ImageNet subsets.",
    "Knowledge editing updates facts stored in large language models. We show that existing editors "
    "degrade general abilities after many sequential edits and propose a null-space constrained editor "
    "that preserves unrelated knowledge across thousands of edits.",
]


def chimera(a: str, b: str) -> str:
    """The first half of one abstract glued to the second half of another."""
    wa, wb = a.split(), b.split()
    return " ".join(wa[: len(wa) // 2] + wb[len(wb) // 2 :])


def official_entries() -> list[dict]:
    """The official entries as plain dicts (title, authors, doi, abstract, id)."""
    rng = random.Random(2026)
    out = []
    for i in MATCHED:
        out.append(
            {
                "id": f"off{i}",
                "seed": i,
                "title": f"Official Title {i}: {rng.choice(['Scaling', 'Rethinking', 'Towards'])} Robust Learning",
                "authors": [Person(FAMILIES[i % len(FAMILIES)], "Ana"), Person("Lee", "Kim")],
                "doi": f"10.5555/neurips.2026.{i}",
                "abstract": PERTURB[i % len(PERTURB)](ABSTRACTS[i]),
            }
        )
    for i in AMBIGUOUS:
        for copy in range(2):
            out.append(
                {
                    "id": f"amb{i}{'ab'[copy]}",
                    "seed": i,
                    "title": f"Twin Entry {i}{'ab'[copy]}",
                    "authors": [Person("Twin", "A")],
                    "doi": f"10.5555/twin.{i}.{copy}",
                    "abstract": typos(ABSTRACTS[i], 1, copy) if copy else ABSTRACTS[i],
                }
            )
    decoys = DECOYS + [chimera(ABSTRACTS[i], ABSTRACTS[(i + 7) % len(ABSTRACTS)]) for i in MISSING]
    decoys += [chimera(ABSTRACTS[(i + 3) % 30], ABSTRACTS[i]) for i in MISSING]
    for j, abstract in enumerate(decoys):
        out.append({"id": f"decoy{j}", "seed": None, "title": f"Decoy {j}", "authors": [Person("Decoy", "D")], "doi": f"10.5555/decoy.{j}", "abstract": abstract})
    for i in REAL:
        out.append({"id": f"real{i}", "seed": i, "title": f"Official Real {i}", "authors": [Person("Real", "R")], "doi": f"10.5555/real.{i}", "abstract": ABSTRACTS[i]})
    random.Random(7).shuffle(out)
    return out


def official_bibtex(entries) -> str:
    from readinglist.text import to_bibtex

    blocks = []
    for e in entries:
        authors = " and ".join(f"{to_bibtex(p.family)}, {p.given}" for p in e["authors"])
        abstract = e["abstract"].replace("\r\n", "\n")
        # publishers write LaTeX: escape what the plain copies hold, keep the LaTeX ones as they are
        abstract = abstract if "\\" in abstract or "$" in abstract else to_bibtex(abstract)
        blocks.append(
            f"@inproceedings{{{e['id']},\n  title = {{{e['title']}}},\n  author = {{{authors}}},\n"
            f"  booktitle = {{Advances in Neural Information Processing Systems}},\n  year = {{2026}},\n"
            f"  pages = {{1--10}},\n  doi = {{{e['doi']}}},\n  url = {{https://doi.org/{e['doi']}}},\n"
            f"  abstract = {{{abstract}}}\n}}\n"
        )
    return "\n".join(blocks)


def official_csljson(entries) -> str:
    items = [
        {
            "id": e["id"],
            "type": "paper-conference",
            "title": e["title"],
            "author": [{"family": p.family, "given": p.given} for p in e["authors"]],
            "container-title": "Advances in Neural Information Processing Systems",
            "issued": {"date-parts": [[2026]]},
            "DOI": e["doi"],
            "URL": f"https://doi.org/{e['doi']}",
            "page": "1-10",
            "abstract": e["abstract"],
        }
        for e in entries
    ]
    return json.dumps(items, ensure_ascii=False, indent=1)


def key_of(i: int) -> str:
    return f"gen{i:02d}2026"


def make_store(path: Path):
    """A store with the 38 seed abstracts: generated records (36) and real ones (2), with state."""
    from readinglist.store.library import Store

    records, states = [], {}
    for i, abstract in enumerate(ABSTRACTS):
        generated = frozenset({"key", "title", "tags"}) if i not in REAL else frozenset()
        records.append(
            Record(
                key=key_of(i),
                title=f"Generated Title {i}",
                abstract=abstract,
                venue="NeurIPS",
                year=2026,
                tags=("llm",) if i % 2 else ("vision", "benchmark"),
                generated=generated,
                sources=(Source("seeds/list.txt", paragraph=i + 2, line=3 + 2 * i),),
            )
        )
        states[key_of(i)] = {"status": ("unread", "reading", "read", "skipped")[i % 4], "notes": f"note {i}", "rating": 1 + i % 5, "tags": ["mine"]}
    store = Store.open(path, config=CONFIG, clock=lambda: "2026-11-30T06:15:00Z")
    store.import_records(records, states=states)
    return store


def snapshot(store) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(store.papers_dir.glob("*.toml"))}


@pytest.fixture(scope="module")
def entries():
    return official_entries()


@pytest.fixture(params=["bibtex", "csljson"])
def official(request, entries) -> list[Record]:
    if request.param == "bibtex":
        result = bibtex_importer.parse(official_bibtex(entries), source="official.bib", options=ImportOptions(CONFIG))
    else:
        result = csljson_importer.parse(official_csljson(entries), source="official.json", options=ImportOptions(CONFIG))
    assert len(result.records) == len(entries) and not result.warnings
    return list(result.records)


def test_reconcile_matches_exactly_the_right_papers(tmp_path, entries, official):
    store = make_store(tmp_path / "store")
    before = {p.key: p for p in store}
    report = reconcile(store, official)

    expected = {key_of(e["seed"]): e["id"] for e in entries if e["id"].startswith("off")}
    assert {key: off for key, off, _ in report.matched} == expected  # 100% precision and recall
    assert all(score >= CONFIG.duplicate_threshold for _, _, score in report.matched)
    assert report.unmatched == tuple(key_of(i) for i in MISSING)  # decoys and chimeras matched nothing
    assert [key for key, _ in report.ambiguous] == [key_of(i) for i in AMBIGUOUS]
    for key, candidates in report.ambiguous:
        i = int(key[3:5])
        assert {c for c, _ in candidates} == {f"amb{i}a", f"amb{i}b"}

    after = {p.key: p for p in store}
    assert after.keys() == before.keys()  # keys kept
    by_id = {e["id"]: e for e in entries}
    for key, off_id, _ in report.matched:
        old, new = before[key], after[key]
        e = by_id[off_id]
        assert new.record.title == e["title"] and not new.record.is_generated
        assert new.record.authors == tuple(e["authors"])
        assert new.record.doi == e["doi"] and new.record.url == f"https://doi.org/{e['doi']}"
        assert new.record.pages in ("1--10", "1-10")
        # the reader's state and the paper's own text and tags stay
        assert (new.status, new.notes, new.rating, new.user_tags, new.history) == (old.status, old.notes, old.rating, old.user_tags, old.history)
        assert new.record.abstract == old.record.abstract and new.record.tags == old.record.tags
        assert "tags" in new.record.generated and "key" in new.record.generated
        assert new.record.sources[0] == old.record.sources[0] and len(new.record.sources) == 2
    for i in list(MISSING) + list(AMBIGUOUS) + list(REAL):
        assert after[key_of(i)] == before[key_of(i)]  # untouched

    changed = {(key, field) for key, field, _, _ in report.changes}
    assert {(key, "title") for key in expected} <= changed and {(key, "doi") for key in expected} <= changed
    assert not any(field == "key" for _, field, _, _ in report.changes)


def test_dry_run_writes_nothing_and_reports_the_same(tmp_path, official):
    store = make_store(tmp_path / "store")
    files = snapshot(store)
    dry = reconcile(store, official, dry_run=True)
    assert snapshot(store) == files
    assert dry.dry_run and len(dry.matched) == len(MATCHED) and dry.changes
    real = reconcile(store, official)
    assert (real.matched, real.ambiguous, real.unmatched, real.changes) == (dry.matched, dry.ambiguous, dry.unmatched, dry.changes)
    assert snapshot(store) != files
    again = reconcile(store, official)  # reconciled papers are no longer generated
    assert again.matched == () and again.changes == ()


def test_rekey_gives_keys_from_official_metadata(tmp_path, entries, official):
    store = make_store(tmp_path / "store")
    before = {p.key: p for p in store}
    report = reconcile(store, official, rekey=True)
    assert len(report.rekeyed) == len(MATCHED)
    by_id = {e["id"]: e for e in entries}
    new_keys = dict(report.rekeyed)
    for key, off_id, _ in report.matched:
        new_key = new_keys[key]
        word = re.sub(r"[^a-z]", "", by_id[off_id]["authors"][0].family.lower().replace("ü", "u").replace("í", "i"))
        assert new_key.startswith(f"{word}2026official"), new_key
        assert key not in store and new_key in store
        paper = store.get(new_key)
        assert "key" not in paper.record.generated
        assert (paper.status, paper.notes, paper.rating) == (before[key].status, before[key].notes, before[key].rating)
    assert len(set(new_keys.values())) == len(new_keys)  # made unique (several share author and year)
    assert sorted(store.keys()) == sorted(set(before) - set(new_keys) | set(new_keys.values()))


def test_official_entries_without_abstract_are_reported(tmp_path, official):
    store = make_store(tmp_path / "store")
    bare = Record(key="noabs", title="Official Without Abstract", doi="10.5555/none")
    report = reconcile(store, [bare] + official, dry_run=True)
    assert report.no_abstract == ("noabs",)
    assert len(report.matched) == len(MATCHED)


def test_threshold_and_margin_arguments(tmp_path, official):
    store = make_store(tmp_path / "store")
    strict = reconcile(store, official, threshold=99.9, dry_run=True)
    assert len(strict.matched) < len(MATCHED) and strict.threshold == 99.9
    no_margin = reconcile(store, official, margin=0.0, dry_run=True)
    # with no margin the better of the twins wins (the exact copy scores 100, the typo copy less)
    assert {key for key, _, _ in no_margin.matched} >= {key_of(i) for i in AMBIGUOUS}
    assert no_margin.ambiguous == ()


def test_duplicate_papers_in_the_store_do_not_share_an_official_entry(tmp_path, official):
    store = make_store(tmp_path / "store")
    from readinglist.store.library import Store

    extra = Record(key="dupe2026", title="Generated Dupe", abstract=reflow(ABSTRACTS[0]) + " Code released.", generated=frozenset({"title"}))
    # a second, slightly different copy of seed 0 under another key, added bypassing duplicate detection
    from dataclasses import replace

    store2 = Store.open(store.root, config=replace(CONFIG, duplicate_threshold=100.0))
    store2.import_records([extra])
    assert "dupe2026" in store2
    report = reconcile(store2, official, dry_run=True, config=CONFIG)
    matched = {key for key, _, _ in report.matched}
    assert key_of(0) in matched and "dupe2026" not in matched
    assert "dupe2026" in dict(report.ambiguous)


def test_load_official_reads_by_suffix(tmp_path, entries):
    path = tmp_path / "official.bib"
    path.write_text(official_bibtex(entries), encoding="utf-8")
    result = load_official(path, config=CONFIG)
    assert len(result.records) == len(entries)
    (tmp_path / "official.json").write_text(official_csljson(entries), encoding="utf-8")
    assert len(load_official(tmp_path / "official.json", config=CONFIG).records) == len(entries)
    from readinglist.errors import InputError

    with pytest.raises(InputError, match="missing.bib: file not found"):
        load_official(tmp_path / "missing.bib", config=CONFIG)
    (tmp_path / "latin1.bib").write_bytes("@misc{a, title={Caf\xe9}}".encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        load_official(tmp_path / "latin1.bib", config=CONFIG)


def test_report_is_frozen():
    report = ReconcileReport()
    with pytest.raises(AttributeError):
        report.matched = ()  # type: ignore[misc]


def test_load_official_refuses_binary_and_wrong_encodings_in_one_line(tmp_path):
    binary = tmp_path / "official.bib"
    binary.write_bytes(b"@inproceedings{a,\x00\x01\x02 title={x}}")
    with pytest.raises(InputError, match=r"official.bib: not a text file"):
        load_official(binary, config=default_config())
    latin = tmp_path / "latin.bib"
    latin.write_bytes("@inproceedings{a, title={Caf\u00e9}}\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin.bib: not UTF-8"):
        load_official(latin, config=default_config())
