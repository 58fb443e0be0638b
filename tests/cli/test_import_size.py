"""Imports of any size, as whole processes (issue 29 item 7, issue 27 item 7): a list of a
great many stray paragraphs costs the memory of a small one and gets a report of a few lines;
the summary names the store written; an empty .bib is refused in one line."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from helpers import console_script

from readinglist.convert.reader import MAX_LISTED
from readinglist.store.cache.files import RACY_NS

ABSTRACT = (
    "We introduce a glimpse-based vision transformer that attends to a few image regions and reaches the "
    "accuracy of dense models at a fraction of their cost on three image classification benchmarks."
)
#: Runs ARGV and prints the peak RSS (KB on Linux) of the process it ran, on the last line.
_PEAK = "import resource, subprocess, sys; subprocess.run(sys.argv[1:]); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("READINGLIST_STORE", "READINGLIST_CONFIG")}
    return {**env, **extra}


def _import(tmp_path, name: str, text: str) -> tuple[int, str, str, int]:
    """(exit status, stdout, stderr, peak RSS) of ``readinglist import NAME`` with ``text`` in it."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", _PEAK, console_script(), "--store", f"st-{name}", "import", name],
        cwd=tmp_path, capture_output=True, text=True, env=_env(),
    )  # fmt: skip
    *out, peak = run.stdout.splitlines()
    return run.returncode, "\n".join(out), run.stderr, int(peak)


def test_a_million_stray_paragraphs_cost_the_memory_of_a_few(tmp_path):
    header = "NeurIPS 2026\n\n" + ABSTRACT + "\n\n"
    _, _, small_err, small_peak = _import(tmp_path, "small.txt", header + "abc def\n\n" * 1_000)
    _, out, err, large_peak = _import(tmp_path, "large.txt", header + "abc def\n\n" * 100_000)
    assert out.strip() == "1 added, 0 updated, 0 unchanged, 0 duplicates, 100000 skipped paragraphs in st-large.txt", err
    lines = err.splitlines()
    assert len(lines) == MAX_LISTED + 1  # the first ones, then the rest counted in one line
    assert lines[-1] == f"… and {100_000 - MAX_LISTED:,} more skipped in large.txt (from line {5 + 2 * MAX_LISTED} on): too short for an abstract"
    assert len(small_err.splitlines()) == MAX_LISTED + 1
    # 100 times the paragraphs (900 KB), a few MB more at most (they took 65 MB more before)
    assert large_peak < small_peak + 15_000, (small_peak, large_peak)


def test_the_summary_names_the_default_store(tmp_path):
    (tmp_path / "l.txt").write_text("ICML 2025\n\n" + ABSTRACT + "\n", encoding="utf-8")
    home = tmp_path / "home"
    env = _env(HOME=str(home), XDG_DATA_HOME=str(home / "share"), XDG_CONFIG_HOME=str(home / "config"), READINGLIST_CEILING_DIRECTORIES=str(tmp_path))
    out = subprocess.run([console_script(), "import", "l.txt"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    where = subprocess.run([console_script(), "where"], cwd=tmp_path, capture_output=True, text=True, env=env).stdout
    store = where.split()[1]
    assert out.stdout.strip().endswith(f"in your default store {store} (no library/ or config.toml here or above: readinglist where)")
    assert os.path.isdir(os.path.join(store, "papers"))


def test_an_empty_file_of_any_format_is_refused_in_one_line(tmp_path):
    cases = (
        ("empty.bib", ""),
        ("strings.bib", '@string{jan = "January"}\n@comment{nothing here}\n'),
        ("empty.json", "[]\n"),
        ("empty.txt", "\n\n"),
        ("header.txt", "ICML 2025 paper list\n\n"),
    )
    for name, text in cases:
        (tmp_path / name).write_text(text, encoding="utf-8")
        out = subprocess.run([console_script(), "--store", "st", "import", name], cwd=tmp_path, capture_output=True, text=True, env=_env())
        assert out.returncode == 1 and out.stdout == ""
        (line,) = out.stderr.splitlines()
        assert name in line and line.startswith("readinglist: error: ") and line.endswith("nothing to import")
        assert not (tmp_path / "st").exists()  # refused before any store is made


def test_an_empty_file_among_others_stops_the_import_before_anything_is_written(tmp_path):
    (tmp_path / "l.txt").write_text("ICML 2025\n\n" + ABSTRACT + "\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    out = subprocess.run([console_script(), "--store", "st", "import", "l.txt", "empty.txt"], cwd=tmp_path, capture_output=True, text=True, env=_env())
    assert out.returncode == 1 and "empty.txt: empty: nothing to import" in out.stderr
    assert not (tmp_path / "st").exists()


def test_a_list_whose_every_paragraph_is_skipped_still_imports_and_reports_the_skips(tmp_path):
    (tmp_path / "short.txt").write_text("ICML 2025\n\nToo short.\n\nAlso short.\n", encoding="utf-8")
    out = subprocess.run([console_script(), "--store", "st", "import", "short.txt"], cwd=tmp_path, capture_output=True, text=True, env=_env())
    assert out.returncode == 0, out.stderr
    assert "0 added" in out.stdout and "2 skipped" in out.stdout


def test_a_reimport_that_changes_nothing_writes_no_file(tmp_path):
    """Not a paper file nor the cache's: the near-duplicate index was rewritten by every import
    (issue 27 item 7: 'rewrites files for nothing')."""
    text = "ICML 2025\n\n" + ABSTRACT + "\n\n" + ABSTRACT.replace("glimpse-based", "memory-based") + "\n"
    (tmp_path / "l.txt").write_text(text, encoding="utf-8")

    def run():
        out = subprocess.run([console_script(), "--store", "st", "import", "l.txt"], cwd=tmp_path, capture_output=True, text=True, env=_env())
        assert out.returncode == 0, out.stderr

    def files() -> dict[str, int]:
        return {str(p.relative_to(tmp_path)): p.stat().st_mtime_ns for p in (tmp_path / "st").rglob("*") if p.is_file()}

    # A file changed within RACY_NS of a stat pass has a signature the cache does not trust yet
    # (as git's racy-clean rule), so a re-import that quick rightly looks again; a person's
    # re-import comes later than that, and so do these.
    settle = RACY_NS / 1e9 + 0.05
    run()
    time.sleep(settle)
    run()  # (the first re-import may bring the cache up to date)
    time.sleep(settle)
    before = files()
    assert any(".cache" in name for name in before)
    run()
    assert files() == before


def test_a_bib_refused_in_a_later_part_leaves_no_store_behind(tmp_path):
    # more than KEPT entries (split again part by part): an entry near the end whose title only
    # overflows when its record is made (a chain of @string macros) stops the import after the
    # store was opened; the store made for it is removed again, a folder that was there kept as it was
    from readinglist.formats.bibtex.reader import KEPT, PART

    entries = [f"@article{{k{i},\n  title = {{On counting sheep, part {i}}},\n  author = {{Roe, Ann}},\n  year = 2021,\n}}\n" for i in range(KEPT + PART // 2)]
    bad = len(entries) - 3
    entries[bad] = f"@article{{overlong,\n  title = {' # '.join(['wide'] * 1100)},\n  year = 2021,\n}}\n"
    (tmp_path / "many.bib").write_text('@string{wide = "' + "w" * 1000 + '"}\n' + "".join(entries), encoding="utf-8")
    line = 2 + 5 * bad  # (the @string line, then five lines an entry)
    (tmp_path / "there").mkdir()
    (tmp_path / "there" / "notes.txt").write_text("mine", encoding="utf-8")
    for store in ("new/store", "there"):
        run = subprocess.run([console_script(), "--store", store, "import", "many.bib"], cwd=tmp_path, capture_output=True, text=True, env=_env())
        assert run.returncode == 1
        assert run.stderr == f"readinglist: error: many.bib:{line}: the title of overlong expands to more than 1,048,576 characters through @string macros\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.bib", "there"]
    assert [p.name for p in (tmp_path / "there").iterdir()] == ["notes.txt"]
