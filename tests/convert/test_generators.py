"""Title generators are plugins found through entry points; the config chooses one."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap

import pytest
from helpers import console_script

from readinglist.config import load_config
from readinglist.convert import generators
from readinglist.convert.generators import GeneratedTitle, find_generator
from readinglist.convert.pipeline import PROVENANCE_FIELD, Converter
from readinglist.errors import ConfigError

ABSTRACTS = (
    "We introduce a glimpse-based vision transformer that attends to a few image regions and reaches the "
    "accuracy of dense models at a fraction of their cost on three image classification benchmarks.\n\n"
    "We study how language models forget after fine-tuning and propose a capability-centric evaluation "
    "suite that measures drift in robustness, instruction following and default behaviours.\n"
)
LIST = "ICML 2026\n\n" + ABSTRACTS

# A title generator written for the test: the abstract's words from its fifth on, reversed, as a
# title; "Fwd" as the short title of every abstract that mentions "transformer".
PLUGIN = '''
from readinglist.convert.generators import GeneratedTitle


class Backwards:
    name = "backwards"
    description = "the abstract's words backwards (a test plugin)"

    def generate(self, abstract, plain):
        words = plain.split()[4:12][::-1]
        short = "Fwd" if "transformer" in plain else None
        return GeneratedTitle(" ".join(words).capitalize(), short, "backwards 0.1 (words 5-12)")


class Broken:
    name = "broken"
    description = "returns a title of two lines for the second abstract"

    def generate(self, abstract, plain):
        if "forget" in plain:
            return GeneratedTitle("two\\nlines")
        return GeneratedTitle("A fine title")


backwards = Backwards()
broken = Broken()
'''


def expected_title(abstract: str) -> str:
    return " ".join(abstract.split()[4:12][::-1]).capitalize()


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A distribution "backwards-titles" installed in ``tmp_path/site`` (on sys.path)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "backwards_titles.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    dist = site / "backwards_titles-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: backwards-titles\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(
        "[readinglist.title_generators]\nbackwards = backwards_titles:backwards\nbroken = backwards_titles:broken\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(site))
    generators.clear_cache()
    yield site
    generators.clear_cache()


def config_choosing(tmp_path, name: str):
    path = tmp_path / "config.toml"
    path.write_text(f'[titles]\ngenerator = "{name}"\n', encoding="utf-8")
    return load_config(path, store=tmp_path / "lib")


def test_the_builtin_is_registered_like_any_other():
    generators.clear_cache()
    assert "builtin" in generators.generator_names()
    ep = generators._entry_points()["builtin"]
    assert ep.load() is generators.builtin is find_generator("builtin")
    made = generators.builtin.generate("We propose CanViT, a vision transformer.", "We propose CanViT, a vision transformer.")
    assert isinstance(made, GeneratedTitle) and made.short_title == "CanViT" and made.title.startswith("CanViT: ")
    assert made.provenance == "builtin"


def test_the_default_config_chooses_the_builtin(tmp_path):
    records = Converter(config=load_config(None, store=tmp_path / "lib")).result().records
    assert records == ()
    assert load_config(None, store=tmp_path / "lib").title_generator == "builtin"


def test_a_plugin_chosen_in_the_config_titles_every_abstract(plugin, tmp_path):
    config = config_choosing(tmp_path, "backwards")
    converter = Converter(config=config)
    converter.add_text(LIST, source="list.txt")
    records = converter.result().records
    abstracts = ABSTRACTS.strip().split("\n\n")
    assert [r.title for r in records] == [expected_title(a) for a in abstracts]
    assert [r.shorttitle for r in records] == ["Fwd", None]
    # every field it made is marked generated, and its provenance kept with the paper
    assert records[0].generated >= {"title", "shorttitle", "key", "tags"}
    assert "title" in records[1].generated and "shorttitle" not in records[1].generated
    assert all(dict(r.fields)[PROVENANCE_FIELD] == "backwards 0.1 (words 5-12)" for r in records)
    assert records[0].key.startswith("fwd")  # the key pattern [name|title:2] reads the plugin's name


def test_forked_workers_use_the_chosen_plugin(plugin, tmp_path, monkeypatch):
    from readinglist.convert import pipeline

    monkeypatch.setattr(pipeline, "PARALLEL_MIN", 2)
    config = config_choosing(tmp_path, "backwards")
    abstracts = ABSTRACTS.strip().split("\n\n") * 3
    one = pipeline.generate_all(abstracts, Converter(config=config)._tagger, 4, generator=find_generator("backwards"))
    forked = pipeline.generate_all(abstracts, Converter(config=config)._tagger, 4, processes=2, generator=find_generator("backwards"))
    assert forked == one and [f[1] for f in one] == [expected_title(a) for a in abstracts]


def test_an_unknown_generator_is_a_config_error_naming_the_known_ones(plugin, tmp_path):
    with pytest.raises(ConfigError, match=r"'nope'.*backwards.*builtin|'nope'.*builtin"):
        Converter(config=config_choosing(tmp_path, "nope"))


def test_a_title_a_plugin_gets_wrong_is_replaced_and_reported(plugin, tmp_path):
    converter = Converter(config=config_choosing(tmp_path, "broken"))
    converter.add_text(LIST, source="list.txt")
    result = converter.result()
    assert [r.title for r in result.records][0] == "A fine title"
    second = result.records[1]
    assert "\n" not in second.title and second.title.startswith("We study how language models")
    assert len(result.warnings) == 1 and result.warnings[0].startswith("list.txt:5: ")
    assert "InvalidGeneratedTitle" in result.warnings[0]
    assert PROVENANCE_FIELD not in dict(second.fields)


def _run(*args, cwd, site):
    env = {k: v for k, v in os.environ.items() if k not in ("READINGLIST_STORE", "READINGLIST_CONFIG")}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([console_script(), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env)


def test_a_user_installs_a_generator_and_sets_one_line(plugin, tmp_path):
    """As a user would: the package installed, one line in config.toml, then import and export."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "list.txt").write_text(LIST, encoding="utf-8")
    (work / "config.toml").write_text('[titles]\ngenerator = "backwards"\n', encoding="utf-8")
    listed = _run("formats", cwd=work, site=plugin)
    assert listed.returncode == 0 and "backwards" in listed.stdout and "builtin" in listed.stdout
    out = _run("--store", "lib", "import", "list.txt", cwd=work, site=plugin)
    assert out.returncode == 0, out.stderr
    csl = json.loads(_run("--store", "lib", "export", "-f", "csljson", cwd=work, site=plugin).stdout)
    titles = sorted(item["title"] for item in csl)
    assert titles == sorted(expected_title(a) for a in ABSTRACTS.strip().split("\n\n"))
    assert all("title" in item["custom"]["generated"] for item in csl)
    bib = _run("--store", "lib", "export", "-f", "bibtex", cwd=work, site=plugin).stdout
    assert bib.count("generated by readinglist from the abstract") == 2  # the comment line declares them
    assert bib.count("titlegenerator = {backwards 0.1 (words 5-12)}") == 2

    (work / "config.toml").write_text('[titles]\ngenerator = "nope"\n', encoding="utf-8")
    (work / "list2.txt").write_text("ICML 2026\n\nWe present yet another abstract about sparse graph models and their use.\n", encoding="utf-8")
    bad = _run("--store", "lib", "import", "list2.txt", cwd=work, site=plugin)
    assert bad.returncode != 0
    assert "nope" in bad.stderr and "backwards" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
