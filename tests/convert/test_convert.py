"""The converter pipeline: lists in, records with provenance and generated fields out."""

from __future__ import annotations

import importlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readinglist.config import default_config
from readinglist.convert import convert
from readinglist.convert.pipeline import Converter


def test_seeds_become_19_records_each_with_venue_year_and_sources(seed_paths, seed_texts):
    for path, text in zip(seed_paths, seed_texts):
        result = convert(text, source=path.name)
        assert len(result.records) == 19
        assert not result.skipped and not result.duplicates
        for rec in result.records:
            assert (rec.venue, rec.year) == ("NeurIPS", 2026)
            assert rec.entry_type == "inproceedings"
            (src,) = rec.sources
            assert src.file == path.name and src.paragraph >= 1 and src.line >= 3
            # the abstract is kept as written: the paragraph's text is in the source file
            assert rec.abstract[:60] in text.replace("\n", " ")
            assert {"key", "title", "tags"} <= rec.generated
            assert ("shorttitle" in rec.generated) == (rec.shorttitle is not None)
            assert rec.is_generated


def test_keys_unique_ascii_and_short_across_both_seeds(seed_texts):
    conv = Converter()
    for i, text in enumerate(seed_texts):
        conv.add_text(text, source=f"list{i}.txt")
    keys = [r.key for r in conv.result().records]
    assert len(keys) == 38 == len(set(keys))
    for key in keys:
        assert re.fullmatch(r"[a-z0-9]+", key) and len(key) <= 40 and key.endswith("2026"), key


def test_names_lead_titles_and_keys(seed_texts):
    records = {r.shorttitle: r for r in convert(seed_texts[0] + "\n\n" + seed_texts[1].split("\n", 1)[1]).records if r.shorttitle}
    assert "CanViT" in records
    canvit = records["CanViT"]
    assert canvit.key == "canvit2026" and canvit.title.startswith("CanViT")
    assert records["M²LE"].key == "m2le2026"


def test_venue_and_year_options_override_the_header(seed_texts):
    rec = convert(seed_texts[0], venue="ICML", year=2024).records[0]
    assert (rec.venue, rec.year) == ("ICML", 2024)
    assert rec.key.endswith("2024")


def test_same_abstract_in_two_lists_is_one_record_with_two_sources(seed_texts):
    abstract = seed_texts[0].split("\n\n")[1]
    conv = Converter()
    conv.add_text("ICML 2024 Paper List\n\n" + abstract, source="a.txt")
    # the second list has it hard-wrapped, with a typo fixed and CRLF line endings
    edited = abstract.replace("promising", "promissing", 1)
    wrapped = "\r\n".join(edited[i : i + 79] for i in range(0, len(edited), 79))
    conv.add_text("ICML 2024 Paper List\r\n\r\n" + wrapped + "\r\n", source="b.txt")
    result = conv.result()
    assert len(result.records) == 1
    assert [s.file for s in result.records[0].sources] == ["a.txt", "b.txt"]
    (dup,) = result.duplicates
    assert dup.key == result.records[0].key and dup.source.file == "b.txt"
    assert not dup.exact and 90 <= dup.similarity < 100


def test_stray_paragraphs_are_reported_not_dropped(seed_texts):
    text = seed_texts[0].replace("\n\n", "\n\nPage 2\n\n", 1)
    result = convert(text, source="x.txt")
    assert len(result.records) == 19
    assert [s.text for s in result.skipped] == ["Page 2"]
    assert result.skipped[0].source.file == "x.txt"


def test_taken_keys_are_avoided(seed_texts):
    result = convert(seed_texts[0], taken={"canvit2026"})
    assert "canvit2026a" in {r.key for r in result.records}


def test_convert_is_deterministic_and_idempotent(seed_texts):
    assert convert(seed_texts[1]) == convert(seed_texts[1])


_texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_texts, max_size=6), st.one_of(st.none(), st.sampled_from(["NeurIPS 2026 论文列表", "ICML 2024 Paper List"])))
def test_arbitrary_text_never_crashes_and_keys_stay_unique(paragraphs, header):
    text = "\n\n".join(([header] if header else []) + paragraphs)
    config = default_config()
    result = convert(text, config=config)
    keys = [r.key for r in result.records]
    assert len(keys) == len(set(keys))
    assert all(re.fullmatch(r"[a-z0-9]+", k) and k.isascii() for k in keys)
    assert convert(text, config=config) == result


def test_large_batches_are_generated_in_parallel_with_the_same_result(seed_texts, monkeypatch):
    from readinglist import convert as _function

    assert importlib.import_module("readinglist.convert") is not _function
    from readinglist.convert import pipeline as convert_module
    from readinglist.convert.tagging import compile_taxonomy

    config = default_config()
    tagger = compile_taxonomy(config.taxonomy)
    abstracts = [r.abstract for text in seed_texts for r in convert(text).records]
    one_process = convert_module.generate_all(abstracts, tagger, config.max_tags, processes=1)
    monkeypatch.setattr(convert_module, "PARALLEL_MIN", 2)
    assert convert_module.generate_all(abstracts, tagger, config.max_tags, processes=2) == one_process
    assert convert(seed_texts[0] + "\n\n" + seed_texts[1].split("\n", 1)[1]).records == convert(
        seed_texts[0] + "\n\n" + seed_texts[1].split("\n", 1)[1]
    ).records


def test_the_public_api_names_are_the_functions_not_modules():
    import importlib

    import readinglist

    for name, module in (
        ("convert", "convert"),
        ("reconcile", "reconciler"),
        ("build", "jobs"),
        ("Store", "store.library"),
    ):
        importlib.import_module(f"readinglist.{module}")  # importing a submodule must not shadow the name
        importlib.import_module("readinglist.convert.naming")  # nor importing one of its modules
        assert callable(getattr(readinglist, name)) and getattr(readinglist, name).__module__ == f"readinglist.{module}"


# Pieces of the LaTeX and Markdown real abstracts are written in, to build hostile abstracts from.
_FRAGMENTS = [
    "We introduce", "we propose", "This paper provides", "called", ",", ".", "(", ")", "{", "}", "{}",
    "\\CFE{}", "\\textbf{C}", "\\textsc{", "\\emph{}", "\\", "$", "$^2$", "D$^2$X", "_", "^", "**", "__",
    "a new benchmark", "X++", "CLIP-Adapter", "(GraphNorm)", "which", "that", ":", "—", "ℓ1", "é", "\u00a0",
    "https://x.y/z", "%", "&", "~", "\\\\", "\\url{", "the", "of", "LLM", "Digital Red Queen",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=12)), max_size=60))
def test_generators_never_raise_on_any_text(pieces):
    from readinglist.convert.generation import generate
    from readinglist.convert.tagging import compile_taxonomy

    raw = " ".join(pieces)
    config = default_config()
    name, title, tags, error = generate(raw, compile_taxonomy(config.taxonomy), config.max_tags)
    assert error is None, error
    assert title and len(title.split()) <= 15
    assert name is None or name in title


def test_a_failing_abstract_gets_a_plain_title_and_is_reported(monkeypatch):
    from readinglist.convert import titles

    def broken(raw, plain, name):
        if "Broken" in raw:
            raise IndexError("list index out of range")
        return "Fine title"

    monkeypatch.setattr(titles, "make_title", broken)
    body = " We evaluate it on many tasks and find that it works well in every setting we tried."
    text = f"NeurIPS 2026\n\nWe study fine things in depth here.{body}\n\nBroken abstract about graph models.{body}\n"
    result = convert(text, source="list.txt")
    assert [r.title for r in result.records] == ["Fine title", "Broken abstract about graph models"]
    assert len(result.warnings) == 1 and result.warnings[0].startswith("list.txt:5: ")
    assert "IndexError" in result.warnings[0]
    assert result.as_import_result().warnings == result.warnings


def test_the_library_never_forks_unless_asked(seed_texts, monkeypatch):
    """Forking from library code is unsafe in a threaded host: convert() stays in one process
    by default, however large the batch; only a caller that asks (the CLI) gets workers."""
    import multiprocessing

    from readinglist.convert import pipeline as convert_module
    monkeypatch.setattr(convert_module, "PARALLEL_MIN", 2)

    def no_fork(*args, **kwargs):
        raise AssertionError("the library forked worker processes")

    monkeypatch.setattr(multiprocessing, "get_context", no_fork)
    assert len(convert(seed_texts[0]).records) > 2


@pytest.mark.parametrize("written, name", [(r"$\mu^2$Tokenizer", "μ²Tokenizer"), (r"Adam$^+$", "Adam⁺"), (r"BLM$_1$", "BLM₁")])
def test_a_name_set_with_math_scripts_keeps_them(written, name):
    """Generation reads sub- and superscripts as the characters a reader sees ("$\\mu^2$Tokenizer"
    is "μ²Tokenizer", not "2Tokenizer"), so a name written with them is found whole."""
    from readinglist.convert.generation import generate
    from readinglist.convert.tagging import compile_taxonomy

    raw = f"Existing optimizers stall. We introduce {written}, a fast optimizer for sparse models. {written} converges."
    config = default_config()
    found, title, _tags, error = generate(raw, compile_taxonomy(config.taxonomy), config.max_tags)
    assert error is None and found == name and title.startswith(f"{name}: ")
