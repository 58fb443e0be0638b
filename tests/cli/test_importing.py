"""Importing as people do it: a list without a header is refused before any key is given, a
folder imports its lists, the same file from another folder changes nothing, re-imports are quiet."""

from __future__ import annotations

from helpers import console_script

import os
import select
import shutil
import subprocess
import time


def script(*args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("READINGLIST_STORE", "READINGLIST_CONFIG")}
    return subprocess.run([console_script(), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env)


ABSTRACTS = (
    "We introduce a glimpse-based vision transformer that attends to a few image regions and reaches the "
    "accuracy of dense models at a fraction of their cost on three image classification benchmarks.\n\n"
    "We study how language models forget after fine-tuning and propose a capability-centric evaluation "
    "suite that measures drift in robustness, instruction following and default behaviours.\n"
)


def test_a_list_without_venue_or_year_is_refused(tmp_path):
    (tmp_path / "list.txt").write_text(ABSTRACTS, encoding="utf-8")
    out = script("--store", "lib", "import", "list.txt", cwd=tmp_path)
    assert out.returncode == 1
    assert out.stderr.strip() == "readinglist: error: no venue or year in list.txt: pass --venue NAME --year YYYY"
    assert not (tmp_path / "lib").exists()  # no key given, no store made
    out = script("--store", "lib", "import", "list.txt", "--venue", "ICML", "--year", "2025", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("2 added")


def test_a_folder_imports_its_lists(tmp_path, seed_paths):
    shutil.copytree(seed_paths[0].parent, tmp_path / "seeds")
    out = script("--store", "lib", "import", "seeds/", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("38 added")
    (tmp_path / "empty").mkdir()
    out = script("--store", "lib", "import", "empty", cwd=tmp_path)
    assert out.returncode == 1 and "no lists to import" in out.stderr


def test_same_file_from_another_folder_changes_nothing(tmp_path, seed_paths):
    shutil.copytree(seed_paths[0].parent, tmp_path / "seeds")
    (tmp_path / "notes" / "deep").mkdir(parents=True)
    assert script("--store", "lib", "import", "seeds", cwd=tmp_path).returncode == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "lib" / "papers").iterdir()}
    assert 'file = "seeds/' in before["canvit2026.toml"].decode()
    out = script("--store", "../../lib", "import", "../../seeds", cwd=tmp_path / "notes" / "deep")
    assert out.returncode == 0 and "38 unchanged" in out.stdout and out.stderr == ""
    assert {p.name: p.read_bytes() for p in (tmp_path / "lib" / "papers").iterdir()} == before


def test_reimport_after_a_hand_rename_is_quiet(tmp_path, seed_paths):
    assert script("--store", "lib", "import", seed_paths[1], cwd=tmp_path).returncode == 0
    paper = next((tmp_path / "lib" / "papers").glob("*.toml"))
    key = paper.stem
    paper.write_text(paper.read_text(encoding="utf-8").replace(f'key = "{key}"', 'key = "mine2026"', 1), encoding="utf-8")
    out = script("--store", "lib", "import", seed_paths[1], cwd=tmp_path)
    assert out.returncode == 0 and "duplicate" not in out.stderr and "0 added" in out.stdout
    assert script("--store", "lib", "show", "mine2026", cwd=tmp_path).returncode == 0


def test_progress_counts_the_abstracts_generated_over_the_whole_import(tmp_path, seed_paths):
    """What the progress display is told: one count over the whole import, ``done`` of ``total``
    abstracts it really generates, the total known before the first is generated and never
    below what was done; a re-import of the same lists generates (and counts) none, and a
    list with two abstracts edited counts those two."""
    from readinglist.config import default_config
    from readinglist.jobs import import_files
    from readinglist.store import Store

    def run(paths) -> tuple[list[tuple[int, int, str]], object]:
        calls: list[tuple[int, int, str]] = []
        report = import_files(Store.open(tmp_path / "lib", create=True), paths, config=default_config(), progress=lambda d, t, label: calls.append((d, t, label)))
        return calls, report

    calls, report = run(seed_paths)
    labels = list(dict.fromkeys(label for _, _, label in calls))
    assert labels == [f"reading 1/2 {seed_paths[0]}", f"reading 2/2 {seed_paths[1]}", f"1/2 {seed_paths[0]}", f"2/2 {seed_paths[1]}", "saving"]
    counting = [(d, t) for d, t, label in calls if not label.startswith("reading")]
    assert counting[0] == (0, 38)  # every abstract to generate, before the first is generated
    assert [d for d, _ in counting] == sorted(d for d, _ in counting)
    assert all(d <= t for d, t in counting) and counting[-1] == (38, 38) == (len(report.added),) * 2
    calls, report = run(seed_paths)  # nothing new: nothing generated, nothing counted
    assert len(report.unchanged) == 38 and {t for _, t, _ in calls} == {0}
    edited = tmp_path / "edited.txt"
    paragraphs = seed_paths[0].read_text(encoding="utf-8").split("\n\n")
    paragraphs[1] = paragraphs[1].replace(" the ", " this ", 1) + " We release the code."
    paragraphs[5] = paragraphs[5] + " Code is public."
    edited.write_text("\n\n".join(paragraphs), encoding="utf-8")
    calls, report = run([edited])
    assert calls[-1][:2] == (2, 2) and len(report.updated) + len(report.added) >= 2


def test_parallel_generation_reports_progress_in_order(seed_texts, monkeypatch):

    from readinglist.config import default_config
    from readinglist.convert import convert
    from readinglist.convert.tagging import compile_taxonomy

    from readinglist.convert import pipeline as convert_module
    monkeypatch.setattr(convert_module, "PARALLEL_MIN", 2)
    config = default_config()
    abstracts = [r.abstract for r in convert(seed_texts[0]).records] * 30  # 570: several chunks
    calls: list[tuple[int, int]] = []
    tagger = compile_taxonomy(config.taxonomy)
    out = convert_module.generate_all(abstracts, tagger, config.max_tags, processes=2, progress=lambda d, t: calls.append((d, t)))
    assert len(out) == len(abstracts)
    step = convert_module.CHUNK  # one call per chunk, in order
    assert calls == [(min(done, 570), 570) for done in range(step, 570 + step, step)]


def test_on_a_terminal_a_list_without_venue_or_year_asks_for_them(tmp_path):
    """The same list imported from a terminal: venue and year are asked for (an empty answer and
    a year out of range are asked again), then the papers get keys with the year."""
    import pty

    (tmp_path / "list.txt").write_text(ABSTRACTS, encoding="utf-8")
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("READINGLIST_STORE", "READINGLIST_CONFIG")}
    proc = subprocess.Popen([console_script(), "--store", "lib", "import", "list.txt"], stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, env=env)
    os.close(slave)
    screen = b""

    def until(text: bytes, times: int = 1) -> None:
        nonlocal screen
        deadline = time.monotonic() + 60
        while screen.count(text) < times:
            assert time.monotonic() < deadline and proc.poll() is None, screen.decode(errors="replace")
            if select.select([master], [], [], 0.1)[0]:
                screen += os.read(master, 65536)

    try:
        until(b"venue (e.g. ICML): ")
        assert b"list.txt: no venue or year in its header" in screen
        os.write(master, b"  \n")
        until(b"venue (e.g. ICML): ", times=2)  # an empty venue: asked again
        os.write(master, b"ICML\n")
        until(b"year: ")
        os.write(master, b"99\n")
        until(b"year: ", times=2)
        assert b"a year from 1000 to 2999" in screen
        os.write(master, b"2025\n")
        until(b"2 added")
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
        os.close(master)
    papers = sorted(p.name for p in (tmp_path / "lib" / "papers").iterdir())
    assert papers and all(name.endswith("2025.toml") for name in papers), papers
    assert all('venue = "ICML"' in (tmp_path / "lib" / "papers" / name).read_text(encoding="utf-8") for name in papers)


def test_only_the_list_without_a_header_is_asked_about(tmp_path, seed_paths):
    """The answers apply to that list alone: the other lists keep their headers' venue and year."""
    from readinglist import Store
    from readinglist.config import load_config
    from readinglist.jobs import import_files

    (tmp_path / "list.txt").write_text(ABSTRACTS, encoding="utf-8")
    asked = []

    def ask(path, missing):
        asked.append((path, missing))
        return "ICML", 2025

    store = Store.open(tmp_path / "lib", create=True)
    import_files(store, [seed_paths[0], tmp_path / "list.txt"], config=load_config(None, store=str(tmp_path / "lib")), ask_venue_year=ask)
    assert asked == [(str(tmp_path / "list.txt"), ("venue", "year"))]
    years = {p.record.year for p in store}
    assert 2025 in years and len(years) == 2, years
    import_files(store, [tmp_path / "list.txt"], config=load_config(None, store=str(tmp_path / "lib")), year=2024, ask_venue_year=ask)
    assert asked[-1] == (str(tmp_path / "list.txt"), ("venue",))


def test_reimporting_lists_that_share_a_paper_changes_nothing(tmp_path):
    """A paper in two lists keeps its sources in one order: re-importing both reports it (and
    every other paper) unchanged and rewrites no file."""
    from helpers import ABSTRACTS, CONFIG

    from readinglist.jobs import import_files
    from readinglist.store import Store

    (tmp_path / "a.txt").write_text("NeurIPS 2026\n\n" + "\n\n".join(ABSTRACTS[:4]) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("NeurIPS 2026\n\n" + "\n\n".join(ABSTRACTS[4:7] + ABSTRACTS[:1]) + "\n", encoding="utf-8")
    paths = [tmp_path / "a.txt", tmp_path / "b.txt"]
    import_files(Store.open(tmp_path / "s"), paths, config=CONFIG)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (tmp_path / "s" / "papers").glob("*.toml")}
    shared = [p for p in Store.open(tmp_path / "s") if len(p.record.sources) == 2]
    assert len(shared) == 1 and [s.file.rsplit("/", 1)[-1] for s in shared[0].record.sources] == ["a.txt", "b.txt"]
    for order in (paths, paths[::-1], paths[1:], paths[:1]):
        report = import_files(Store.open(tmp_path / "s"), order, config=CONFIG)
        assert not report.updated and not report.added
        assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (tmp_path / "s" / "papers").glob("*.toml")} == before
