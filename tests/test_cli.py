"""The CLI through typer's CliRunner (in process) and the installed console script (subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import console_script, cli_in
from typer.testing import CliRunner

from readinglist.cli import app

runner = CliRunner()


run = cli_in  # tests/helpers.py


@pytest.fixture
def store(tmp_path, seed_paths, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "library"
    result = run(path, "import", *seed_paths)
    assert "38 added" in result.output
    return path


def jsonl(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_import_summary_and_reimport_keeps_everything(store, seed_paths):
    run(store, "mark", "read", "canvit2026")
    run(store, "note", "canvit2026", "-m", "great paper")
    again = run(store, "import", *seed_paths)
    assert "0 added" in again.output and "38 unchanged" in again.output
    paper = json.loads(run(store, "show", "canvit2026", "--json").output)
    assert paper["status"] == "read" and paper["notes"].strip() == "great paper"


def test_list_json_filters_and_plain_output(store):
    papers = jsonl(run(store, "list", "--json").output)
    assert len(papers) == 38 and papers == sorted(papers, key=lambda p: p["key"])
    llm = jsonl(run(store, "list", "--json", "--tag", "llm").output)
    assert llm and all("llm" in p["tags"] for p in llm) and len(llm) < 38
    run(store, "mark", "reading", llm[0]["key"])
    reading = jsonl(run(store, "list", "--json", "--status", "reading", "--tag", "llm").output)
    assert [p["key"] for p in reading] == [llm[0]["key"]]
    plain = run(store, "list").output.splitlines()  # CliRunner is not a TTY: tab-separated lines
    assert len(plain) == 38 and all(line.count("\t") == 4 for line in plain)


def test_list_json_prints_every_field_of_the_paper(tmp_path):
    """A script over list --json sees every field of the paper: each of Record's and Paper's
    fields by name (a field added to them must be printed too), in the order the README gives,
    the same object in list, next, search and show."""
    from readinglist.record import Paper, Record

    (tmp_path / "a.bib").write_text(
        "@article{smith2024sparse,\n  title = {Sparse Widgets for Everyone},\n  author = {Smith, Jane},\n"
        "  journal = {Journal of Widgets},\n  year = {2024},\n  pages = {12--34},\n  volume = {7},\n"
        "  publisher = {Widget Press},\n}\n",
        encoding="utf-8",
    )
    store = tmp_path / "library"
    run(store, "import", str(tmp_path / "a.bib"))
    (paper,) = jsonl(run(store, "list", "--json").output)
    names = [n for n in Record._fields + Paper._fields if n != "record"]
    assert sorted(paper) == sorted(names)
    assert (paper["entry_type"], paper["pages"], paper["fields"]) == ("article", "12--34", {"publisher": "Widget Press", "volume": "7"})
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split())
    assert ", ".join(f"`{n}`" for n in paper) in readme
    assert jsonl(run(store, "next", "--json").output) == [paper]
    assert json.loads(run(store, "show", "smith2024sparse", "--json").output) == paper
    (hit,) = jsonl(run(store, "search", "widgets", "--json").output)
    assert list(hit) == [*paper, "score"] and {**hit, "score": None} == {**paper, "score": None}


def test_mark_note_tag_rate_priority_show(store):
    assert "canvit2026: reading" in run(store, "mark", "reading", "canvit2026").output
    run(store, "note", "canvit2026", "-m", "first line")
    run(store, "note", "canvit2026", "-m", "second line", "--append")
    run(store, "tag", "canvit2026", "group-meeting", "vision-club")
    run(store, "tag", "canvit2026", "vision-club", "--remove")
    run(store, "rate", "canvit2026", "4")
    run(store, "priority", "canvit2026", "1")
    p = json.loads(run(store, "show", "canvit2026", "--json").output)
    assert p["status"] == "reading" and p["rating"] == 4 and p["priority"] == 1
    assert p["user_tags"] == ["group-meeting"]
    assert "first line" in p["notes"] and "second line" in p["notes"]
    assert [e["event"] for e in p["history"]] == ["added", "started"]
    human = run(store, "show", "canvit2026").output
    assert "CanViT" in human and "generated title" in human and "group-meeting" in human


def test_note_without_message_opens_editor(store, tmp_path, monkeypatch):
    editor = tmp_path / "fake-editor.sh"
    editor.write_text('#!/bin/sh\necho "written in the editor" > "$1"\n')
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.setenv("VISUAL", str(editor))
    run(store, "note", "canvit2026")
    assert "written in the editor" in json.loads(run(store, "show", "canvit2026", "--json").output)["notes"]


def test_unknown_key_suggests_the_closest(store):
    result = run(store, "mark", "read", "canvitt2026", ok=False)
    assert result.exit_code == 1
    assert "did you mean canvit2026?" in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_bad_status_and_bad_rating_are_one_line_errors(store):
    bad = run(store, "mark", "finished", "canvit2026", ok=False)
    assert bad.exit_code == 1 and "unread, reading, read, skipped" in bad.output
    assert run(store, "rate", "canvit2026", "9", ok=False).exit_code == 2  # usage error


def test_search_ranks_best_first(store):
    hits = jsonl(run(store, "search", "knowledge editing", "--json").output)
    assert hits and "knowledge" in hits[0]["abstract"].lower()
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


@pytest.mark.parametrize("suffix, marker", [(".bib", "@inproceedings{canvit2026,"), (".json", '"citation-key": "canvit2026"'), (".md", "- [ ] ")])
def test_export_format_from_suffix(store, tmp_path, suffix, marker):
    out = tmp_path / f"out{suffix}"
    run(store, "export", "-o", out)
    assert marker in out.read_text(encoding="utf-8")


def test_export_filters_and_stdout(store):
    run(store, "mark", "read", "canvit2026", "m2le2026")
    text = run(store, "export", "-f", "bibtex", "--status", "read", "--with-status").output
    assert text.count("@inproceedings") == 2 and "readstatus" in text
    assert "readstatus" not in run(store, "export", "-f", "bibtex", "--status", "read").output


def test_export_unknown_format_lists_known_ones(store):
    result = run(store, "export", "-f", "docx", ok=False)
    assert result.exit_code == 1 and "bibtex" in result.output and "csljson" in result.output


def test_stats_counts(store):
    run(store, "mark", "read", "canvit2026")
    out = run(store, "stats").output
    assert "NeurIPS 2026" in out and "1/38" in out


def test_import_of_a_binary_file_is_one_line_and_store_unchanged(store, tmp_path):
    before = sorted(p.name for p in (store / "papers").iterdir())
    bad = tmp_path / "scan.txt"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    result = run(store, "import", bad, ok=False)
    assert result.exit_code == 1 and "scan.txt" in result.output
    assert sorted(p.name for p in (store / "papers").iterdir()) == before


def test_build_uses_config_paths(project, monkeypatch):
    monkeypatch.chdir(project)
    result = runner.invoke(app, ["build"])
    assert result.exit_code == 0, result.output
    assert (project / "exports" / "neurips-2026.bib").is_file()
    assert (project / "exports" / "neurips-2026.json").is_file()
    assert (project / "exports" / "reading-list.md").is_file()
    assert len(list((project / "library" / "papers").glob("*.toml"))) == 38


# ---------------------------------------------------------------- the installed console script


def script(*args, cwd=None, env=None):
    exe = console_script()
    return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, cwd=cwd, env={**os.environ, **(env or {})})


def test_console_script_version_and_help():
    from readinglist import __version__

    assert script("--version").stdout.strip() == f"readinglist {__version__}"
    for command in ("import", "list", "show", "search", "mark", "note", "tag", "rate", "priority", "export", "stats", "build", "reconcile"):
        out = script(command, "--help")
        assert out.returncode == 0 and "Example: readinglist" in out.stdout, command


def test_console_script_errors_exit_nonzero_with_one_line(tmp_path, seed_paths):
    store = tmp_path / "s"
    assert script("--store", store, "import", seed_paths[0]).returncode == 0
    out = script("--store", store, "show", "nosuchpaper")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("readinglist: error: no paper with key 'nosuchpaper'")
    listed = script("--store", store, "list", "--json")
    assert len(jsonl(listed.stdout)) == 19


def test_store_from_environment(tmp_path, seed_paths):
    env = {"READINGLIST_STORE": str(tmp_path / "envstore"), "NO_COLOR": "1"}
    assert script("import", seed_paths[1], env=env, cwd=tmp_path).returncode == 0
    assert (tmp_path / "envstore" / "papers").is_dir()


def test_python_dash_m(tmp_path):
    out = subprocess.run([sys.executable, "-m", "readinglist", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("readinglist ")


def test_reconcile_dry_run_then_for_real(store, tmp_path):
    canvit = json.loads(run(store, "show", "canvit2026", "--json").output)
    official = tmp_path / "official.bib"
    official.write_text(
        "@inproceedings{official1,\n"
        "  title = {{CanViT}: Canvas Vision Transformers for Active Vision},\n"
        "  author = {Doe, Jane and Roe, Richard},\n"
        "  booktitle = {Advances in Neural Information Processing Systems},\n"
        "  year = {2026},\n  doi = {10.5555/canvit},\n"
        "  abstract = {" + canvit["abstract"].replace("We introduce", "We  introduce") + "}\n}\n",
        encoding="utf-8",
    )
    run(store, "mark", "read", "canvit2026")
    dry = run(store, "reconcile", official, "--dry-run").output
    assert "1 matched" in dry and "dry run" in dry and "Canvas Vision Transformers" in dry
    assert json.loads(run(store, "show", "canvit2026", "--json").output)["title"] == canvit["title"]
    assert "1 matched" in run(store, "reconcile", official).output
    after = json.loads(run(store, "show", "canvit2026", "--json").output)
    assert after["title"] == "CanViT: Canvas Vision Transformers for Active Vision"
    assert after["authors"] == ["Doe, Jane", "Roe, Richard"] and after["doi"] == "10.5555/canvit"
    assert after["status"] == "read" and "title" not in after["generated"]


def test_shell_completion_offers_keys_and_statuses(tmp_path, seed_paths):
    store = tmp_path / "s"
    assert script("--store", store, "import", seed_paths[0]).returncode == 0

    def complete(words: str) -> list[str]:
        env = {"_READINGLIST_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        return script(cwd=tmp_path, env=env).stdout.split()

    assert complete(f"readinglist --store {store} show canv") == ["canvit2026"]
    assert complete(f"readinglist --store {store} mark rea") == ["reading", "read"]
    assert "canvit2026" in complete(f"readinglist --store {store} mark read c")


def test_a_mistyped_store_is_an_error_not_a_new_store(tmp_path):
    out = script("--store", tmp_path / "libary", "list")
    assert out.returncode == 1 and "no store here" in out.stderr and out.stderr.count("\n") == 1
    assert not (tmp_path / "libary").exists()
